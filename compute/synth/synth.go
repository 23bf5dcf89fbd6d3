// Package synth generates the synthetic data sets of the CGS 2009 and MIDS 2013 papers:
// groups of correlated features x = r F_g + sqrt(1 - r^2) e (r ~ U(0.71, 0.95), so
// correlations inside a group lie in (0.5, 1)) around independent drivers F_g ~ N(0,1),
// a balanced class from the sign of the sum of the first ten drivers about its median,
// and the ground truth of which features matter.
package synth

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
)

// Preset fixes the number of features, groups and the spread of group sizes.
type Preset struct {
	Name     string
	Features int
	Groups   int
	Spread   int // sizes are Features/Groups +- Spread
}

var (
	D1k = Preset{"d1k", 1000, 100, 5}
	D5k = Preset{"d5k", 5000, 250, 5}
)

// Presets by name.
var Presets = map[string]Preset{"d1k": D1k, "d5k": D5k}

// Relevant is the number of groups whose drivers decide the class.
const Relevant = 10

// Truth is the structure behind a generated set.
type Truth struct {
	Group    []int  // group of every feature
	Relevant []bool // whether a feature's group drives the class
}

// Generate draws n samples of preset p. The group structure (sizes and loadings r) comes
// from seed alone; the samples from seed and part, so part 0 and part 1 of one seed are
// a training and an independent test set of the same population. Every member is
// x = r F_g + sqrt(1 - r^2) e with r ~ U(0.71, 0.95) and F_g, e ~ N(0, 1); the class is
// whether the sum of the first ten drivers exceeds its median over the n samples.
func Generate(p Preset, n int, seed uint64, part int) (*dataset.Dataset, Truth) {
	rs := dataset.Rand(seed, 0)
	size := make([]int, p.Groups)
	base := p.Features / p.Groups
	for g := range size {
		size[g] = base
	}
	for g := 0; g < p.Features-base*p.Groups; g++ {
		size[g%p.Groups]++
	}
	for t := 0; t < 4*p.Groups; t++ { // move members between groups, staying within the spread
		a, b := rs.IntN(p.Groups), rs.IntN(p.Groups)
		if a != b && size[a] < base+p.Spread && size[b] > base-p.Spread {
			size[a]++
			size[b]--
		}
	}
	var truth Truth
	var load []float64
	var names []string
	for g, s := range size {
		for m := 0; m < s; m++ {
			truth.Group = append(truth.Group, g)
			truth.Relevant = append(truth.Relevant, g < Relevant)
			load = append(load, 0.71+0.24*rs.Float64())
			names = append(names, fmt.Sprintf("g%03d.f%02d", g+1, m+1))
		}
	}
	rx := dataset.Rand(seed, 1+uint64(part))
	x := mat.NewDense(n, p.Features, nil)
	drivers := make([]float64, p.Groups)
	sum := make([]float64, n)
	for i := 0; i < n; i++ {
		for g := range drivers {
			drivers[g] = rx.NormFloat64()
		}
		for g := 0; g < Relevant; g++ {
			sum[i] += drivers[g]
		}
		row := x.RawRowView(i)
		for j := range row {
			r := load[j]
			row[j] = r*drivers[truth.Group[j]] + math.Sqrt(1-r*r)*rx.NormFloat64()
		}
	}
	sorted := append([]float64(nil), sum...)
	sort.Float64s(sorted)
	median := (sorted[(n-1)/2] + sorted[n/2]) / 2
	ds := &dataset.Dataset{Name: fmt.Sprintf("%s-n%d-seed%d", p.Name, n, seed), X: x, Features: names,
		Classes: []string{"low", "high"}}
	for i := 0; i < n; i++ {
		l := 0
		if sum[i] > median {
			l = 1
		}
		ds.Labels = append(ds.Labels, l)
		ds.Samples = append(ds.Samples, fmt.Sprintf("s%d", i+1))
	}
	return ds, truth
}

// Sized is a preset of p features in groups of 20 +- 5.
func Sized(p int) Preset {
	return Preset{Name: fmt.Sprintf("p%d", p), Features: p, Groups: max(p/20, Relevant), Spread: 5}
}

// Benchmark returns a z-scored synthetic set of n samples and p features (groups of
// about 20 correlated features, the class driven by ten groups), for benchmarks at the
// papers' sizes (Lung: n = 181, p = 12533).
func Benchmark(n, p int) *dataset.Dataset {
	ds, _ := Generate(Sized(p), n, 1, 0)
	dataset.Standardize(ds.X)
	return ds
}
