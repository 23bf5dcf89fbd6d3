package synth

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"steadfast/compute/dataset"
)

// Proteomics fixes a simulated label-free table with values missing not at random.
type Proteomics struct {
	Samples  int     // per class, two classes
	Proteins int     // protein groups
	Diff     int     // differential proteins: half up, half down by LogFC in class B
	LogFC    float64 // their log2 fold change
	Censored float64 // the share of values below each sample's detection limit (missing)
	MAR      float64 // the share missing at random besides
}

// ProteomicsTruth is what a simulated table hides: every value as log2 intensity
// before censoring (samples as rows), and the differential proteins.
type ProteomicsTruth struct {
	Log2 *mat.Dense
	Diff []bool
}

// Generate draws the table with seed: protein j's log2 intensity in sample i is
// mu_j + s_i + d_j + e_ij, mu_j ~ N(25, 2^2) (a label-free experiment's range),
// s_i ~ N(0, 0.3^2) a loading effect, d_j = +-LogFC/2 in class B and -+LogFC/2 in A
// for the differential proteins (spread over the abundances), e_ij ~ N(0, sd_j^2) with
// sd_j ~ U(0.15, 0.4). A value is missing with probability Phi((c_i - y)/0.4), c_i the
// detection limit that censors Censored of the sample's values in expectation (left
// censoring, as below detection: low values go missing more), or at random with
// probability MAR. The intensities are 2^y, NaN missing; the classes A and B.
func (o Proteomics) Generate(seed uint64) (*dataset.Dataset, ProteomicsTruth) {
	r := dataset.Rand(seed, 7)
	n, p := 2*o.Samples, o.Proteins
	mu, sd := make([]float64, p), make([]float64, p)
	d := make([]float64, p)
	truth := ProteomicsTruth{Log2: mat.NewDense(n, p, nil), Diff: make([]bool, p)}
	for j := range mu {
		mu[j], sd[j] = 25+2*r.NormFloat64(), 0.15+0.25*r.Float64()
	}
	for k, j := range r.Perm(p)[:o.Diff] {
		truth.Diff[j] = true
		d[j] = o.LogFC / 2
		if k%2 == 1 {
			d[j] = -d[j]
		}
	}
	ds := &dataset.Dataset{Name: fmt.Sprintf("simulated-proteomics-seed%d", seed), X: mat.NewDense(n, p, nil), Classes: []string{"A", "B"}}
	for j := range p {
		ds.Features = append(ds.Features, fmt.Sprintf("P%05d", j+1))
	}
	// the limit whose smooth censoring removes Censored of N(25, 2^2 + ...) values
	spread := math.Sqrt(4 + 0.3*0.3 + 0.3*0.3 + 0.4*0.4)
	limit := 25 + spread*distuv.UnitNormal.Quantile(o.Censored)
	for i := range n {
		l := i / o.Samples
		ds.Labels = append(ds.Labels, l)
		ds.Samples = append(ds.Samples, fmt.Sprintf("%s-%d", ds.Classes[l], i%o.Samples+1))
		s := 0.3 * r.NormFloat64()
		ci := limit + 0.2*r.NormFloat64()
		for j := range p {
			sign := -1.0
			if l == 1 {
				sign = 1
			}
			y := mu[j] + s + sign*d[j] + sd[j]*r.NormFloat64()
			truth.Log2.Set(i, j, y)
			v := math.Exp2(y)
			if r.Float64() < distuv.UnitNormal.CDF((ci-y)/0.4) || r.Float64() < o.MAR {
				v = math.NaN()
			}
			ds.X.Set(i, j, v)
		}
	}
	return ds, truth
}
