// Package counts handles RNA-seq counts as edgeR does, inside every training set: the
// genes with enough reads kept (filterByExpr), the libraries' TMM normalisation factors
// (calcNormFactors), and log counts per million with a prior count (cpm).
package counts

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/rstat"
)

// Counts are read counts, Counts[s][g] of gene g in sample s (non-negative, finite).
type Counts [][]float64

// Rows are the rows idx of x as counts, sharing x's storage (every row when idx is nil).
func Rows(x *mat.Dense, idx []int) Counts {
	if idx == nil {
		n, _ := x.Dims()
		out := make(Counts, n)
		for i := range out {
			out[i] = x.RawRowView(i)
		}
		return out
	}
	out := make(Counts, len(idx))
	for i, r := range idx {
		out[i] = x.RawRowView(r)
	}
	return out
}

// LibSizes are the samples' total counts.
func (c Counts) LibSizes() []float64 {
	out := make([]float64, len(c))
	for s, row := range c {
		for _, v := range row {
			out[s] += v
		}
	}
	return out
}

// Check refuses counts that are negative, not finite, or ragged.
func (c Counts) Check() error {
	if len(c) == 0 {
		return fmt.Errorf("no samples")
	}
	for s, row := range c {
		if len(row) != len(c[0]) {
			return fmt.Errorf("sample %d has %d genes, sample 1 %d", s+1, len(row), len(c[0]))
		}
		for g, v := range row {
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("sample %d, gene %d: %v is not a count", s+1, g+1, v)
			}
		}
	}
	return nil
}

// FilterByExpr is edgeR's filterByExpr(y, group = group) with its defaults (min.count
// 10, min.total.count 15, large.n 10, min.prop 0.7): a gene is kept when its CPM is at
// least 10 / median(lib) * 1e6 in at least m samples, m the smallest group's size
// (above 10: 10 + (m - 10) 0.7), and its total count is at least 15 (with edgeR's
// tolerance of 1e-14).
func (c Counts) FilterByExpr(lib []float64, group []int) []bool {
	sizes := map[int]int{}
	for _, g := range group {
		sizes[g]++
	}
	m := math.Inf(1)
	for _, n := range sizes {
		m = math.Min(m, float64(n))
	}
	if len(group) == 0 {
		m = float64(len(c))
	}
	if m > 10 {
		m = 10 + (m-10)*0.7
	}
	cut := 10 / rstat.Median(lib) * 1e6
	const tol = 1e-14
	keep := make([]bool, len(c[0]))
	for g := range keep {
		above, total := 0.0, 0.0
		for s := range c {
			if c[s][g]/lib[s]*1e6 >= cut {
				above++
			}
			total += c[s][g]
		}
		keep[g] = above >= m-tol && total >= 15-tol
	}
	return keep
}

// TMM is edgeR's calcNormFactors(method = "TMM") with its defaults (logratioTrim 0.3,
// sumTrim 0.05, weighting, no A cutoff): genes with no read in any sample left out; the
// reference the sample whose upper-quartile factor (quantile type 7 over lib) is
// nearest their mean (the one of largest sum of square roots when their median is
// below 1e-20); each sample's factor 2 to the weighted mean of the log ratios against
// the reference after trimming 30% of M and 5% of A at each end (by average ranks),
// weights the inverse asymptotic variances; the factors scaled to a geometric mean of
// 1. ref is the reference sample.
func (c Counts) TMM(lib []float64) (f []float64, ref int) {
	n := len(c)
	var genes []int
	for g := range c[0] {
		for s := 0; s < n; s++ {
			if c[s][g] > 0 {
				genes = append(genes, g)
				break
			}
		}
	}
	f, ref, _ = tmm(context.Background(), n, func(s int) []float64 {
		v := make([]float64, len(genes))
		for i, g := range genes {
			v[i] = c[s][g]
		}
		return v
	}, lib)
	return f, ref
}

// tmm is TMM's factors and reference of n samples, col(s) sample s's counts of the genes
// with a read (a fresh slice: it is called from several goroutines); err is ctx's when
// it ends first.
func tmm(ctx context.Context, n int, col func(s int) []float64, lib []float64) (f []float64, ref int, err error) {
	f = make([]float64, n)
	if n == 1 || len(col(0)) == 0 {
		for s := range f {
			f[s] = 1
		}
		return f, 0, nil
	}
	f75 := make([]float64, n)
	if err := parallel(ctx, n, func(s int) { f75[s] = rstat.Quantile(col(s), 0.75) / lib[s] }); err != nil {
		return nil, 0, err
	}
	if rstat.Median(f75) < 1e-20 {
		best := math.Inf(-1)
		for s := 0; s < n; s++ {
			sum := 0.0
			for _, v := range col(s) {
				sum += math.Sqrt(v)
			}
			if sum > best {
				best, ref = sum, s
			}
		}
	} else {
		mean := 0.0
		for _, v := range f75 {
			mean += v / float64(n)
		}
		best := math.Inf(1)
		for s, v := range f75 {
			if d := math.Abs(v - mean); d < best {
				best, ref = d, s
			}
		}
	}
	r := col(ref)
	logRef := make([]float64, len(r))
	for i, v := range r {
		logRef[i] = rstat.Log2(v / lib[ref])
	}
	if err := parallel(ctx, n, func(s int) { f[s] = tmmFactor(col(s), r, lib[s], lib[ref], logRef) }); err != nil {
		return nil, 0, err
	}
	logMean := 0.0
	for _, v := range f {
		logMean += math.Log(v) / float64(n)
	}
	for s := range f {
		f[s] /= math.Exp(logMean)
	}
	return f, ref, nil
}

// tmmFactor is edgeR's .calcFactorTMM of obs against ref, logRef the log2(ref / nR).
func tmmFactor(obs, ref []float64, nO, nR float64, logRef []float64) float64 {
	var logR, absE, v []float64
	for i := range obs {
		if obs[i] == 0 || ref[i] == 0 { // a log-ratio of 0 or Inf: left out, as edgeR does
			continue
		}
		lr := rstat.Log2((obs[i] / nO) / (ref[i] / nR)) // R's log2: ties as edgeR's ranks see them
		ae := (rstat.Log2(obs[i]/nO) + logRef[i]) / 2
		if math.IsNaN(lr) || math.IsInf(lr, 0) || math.IsNaN(ae) || math.IsInf(ae, 0) || !(ae > -1e10) {
			continue
		}
		logR, absE = append(logR, lr), append(absE, ae)
		v = append(v, (nO-obs[i])/nO/obs[i]+(nR-ref[i])/nR/ref[i])
	}
	maxAbs := 0.0
	for _, x := range logR {
		maxAbs = math.Max(maxAbs, math.Abs(x))
	}
	if len(logR) == 0 || maxAbs < 1e-6 {
		return 1
	}
	n := float64(len(logR))
	loL := math.Floor(n*0.3) + 1
	hiL := n + 1 - loL
	loS := math.Floor(n*0.05) + 1
	hiS := n + 1 - loS
	rL, rA := rstat.Ranks(logR), rstat.Ranks(absE)
	num, den := 0.0, 0.0
	for i := range logR {
		if rL[i] >= loL && rL[i] <= hiL && rA[i] >= loS && rA[i] <= hiS {
			num += logR[i] / v[i]
			den += 1 / v[i]
		}
	}
	if den == 0 || math.IsNaN(num/den) {
		return 1
	}
	return math.Pow(2, num/den)
}

// LogCPM is edgeR's cpm(y, lib.size = lib * f, log = TRUE, prior.count = prior): log2 of
// (count + prior_s) / (lib_s f_s + 2 prior_s) * 1e6, prior_s = prior lib_s f_s /
// mean(lib f).
func (c Counts) LogCPM(lib, f []float64, prior float64) [][]float64 {
	n := len(c)
	eff := make([]float64, n)
	mean := 0.0
	for s := range eff {
		eff[s] = lib[s] * f[s]
		mean += eff[s] / float64(n)
	}
	out := make([][]float64, n)
	for s, row := range c {
		p := prior * eff[s] / mean
		out[s] = make([]float64, len(row))
		for g, v := range row {
			out[s][g] = math.Log2((v + p) / (eff[s] + 2*p) * 1e6)
		}
	}
	return out
}

// parallel calls do(0..n-1) on as many goroutines as there are cores; each call writes
// its own results, so the outcome does not depend on their number. It stops handing
// out calls once ctx ends, and then returns its error.
func parallel(ctx context.Context, n int, do func(i int)) error {
	workers := min(runtime.NumCPU(), n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				do(i)
			}
		}()
	}
	for i := 0; i < n && ctx.Err() == nil; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	return ctx.Err()
}
