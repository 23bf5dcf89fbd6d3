package signature

import (
	"fmt"
	"math"
	"sort"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
)

// Choice is what a signature is made of: a study's method (its index), the number of
// genes k, the classifier, and whether the genes are the k selected most often over the
// resamples (Frequent) rather than the method's selection on all samples.
type Choice struct {
	Method     int
	K          int
	Classifier string
	Frequent   bool
}

// Gene is one signature gene with what a biologist asks of it first. The statistics
// are descriptive: computed on all samples after the selection, they do not test the
// signature.
type Gene struct {
	Feature   int      // index into the data's features
	ID        string   // the feature's name (probe id)
	Symbol    string   // gene symbol, "" unknown
	Members   []string // for a group method, the group it represents
	Frequency float64  // share of the resamples with it in their top k
	MeanRank  float64  // mean rank over the resamples where it is in the kept head; NaN if never
	Weight    float64  // the locked linear SVM's weight (NaN for k-NN)
	Higher    string   // the class of the highest mean
	Log2FC    float64  // see FoldChange
	P, FDR    float64  // Welch's t-test (ANOVA F for more classes) and its BH adjustment over all genes
}

// Advice is the Errors tab's choice for classifier cl: at the k of least error (of
// experiment.ErrorKs; the first of equals), the method of the top group (TopGroup) with
// the largest S_S stability at that k, ties to the lesser error, then the first; ok
// is false when no method has an accuracy for cl.
func Advice(res *experiment.Result, cl string) (m, k int, ok bool) {
	best := math.Inf(1)
	for _, kk := range experiment.ErrorKs(res, cl) {
		errs, _, _ := experiment.TopGroup(res, cl, kk)
		for _, e := range errs {
			if e < best {
				best, k = e, kk
			}
		}
	}
	if k == 0 {
		return 0, 0, false
	}
	errs, top, _ := experiment.TopGroup(res, cl, k)
	m, bestSS := -1, math.Inf(-1)
	for i, mr := range res.Methods {
		if !top[i] {
			continue
		}
		ss := math.Inf(-1)
		for _, s := range mr.Stability {
			if s.K == k {
				ss = s.SS
			}
		}
		if m < 0 || ss > bestSS || ss == bestSS && errs[i] < errs[m] {
			m, bestSS = i, ss
		}
	}
	return m, k, m >= 0
}

// Select returns the signature's features: the first k of the method's selection on all
// samples, or with frequent the k most often in the resamples' top k (ties by mean
// rank, then by feature order of the all-sample selection).
func Select(res *experiment.Result, c Choice) ([]int, error) {
	if c.Method < 0 || c.Method >= len(res.Methods) {
		return nil, fmt.Errorf("method %d: the run has %d", c.Method+1, len(res.Methods))
	}
	mr := res.Methods[c.Method]
	maxK := len(mr.Reference.Order)
	if c.K < 1 || c.K > maxK {
		return nil, fmt.Errorf("k = %d: the study kept the first %d features of each ranking; choose k from 1 to %d", c.K, maxK, maxK)
	}
	if !c.Frequent {
		return append([]int(nil), mr.Reference.Order[:c.K]...), nil
	}
	freq, rank := frequencies(mr, c.K)
	ref := map[int]int{}
	for r, j := range mr.Reference.Order {
		ref[j] = r
	}
	var feats []int
	for j := range freq {
		feats = append(feats, j)
	}
	sort.Slice(feats, func(a, b int) bool {
		fa, fb := freq[feats[a]], freq[feats[b]]
		if fa != fb {
			return fa > fb
		}
		if rank[feats[a]] != rank[feats[b]] {
			return rank[feats[a]] < rank[feats[b]]
		}
		return order(ref, feats[a]) < order(ref, feats[b])
	})
	if len(feats) < c.K {
		return nil, fmt.Errorf("only %d features were ever in the resamples' top %d", len(feats), c.K)
	}
	return feats[:c.K], nil
}

func order(ref map[int]int, j int) int {
	if r, ok := ref[j]; ok {
		return r
	}
	return math.MaxInt32 + j
}

// frequencies counts, over the resamples, the share with each feature in their top k
// and its mean rank (1 = best) over the resamples whose kept head holds it.
func frequencies(mr experiment.MethodResult, k int) (freq, rank map[int]float64) {
	freq, rank = map[int]float64{}, map[int]float64{}
	seen, in := map[int]int{}, map[int]int{}
	for _, run := range mr.Runs {
		for r, j := range run.Order {
			if r < k {
				in[j]++
			}
			rank[j] += float64(r + 1)
			seen[j]++
		}
	}
	for j, n := range in {
		freq[j] = float64(n) / float64(len(mr.Runs))
	}
	for j := range rank {
		rank[j] /= float64(seen[j])
	}
	return freq, rank
}

// Describe lists the signature genes feats of the data ds (the study's, preprocessed as
// it was) with their statistics; logged says the values are on a log scale (log2 or
// log-CPM) for the fold change.
func Describe(res *experiment.Result, ds *dataset.Dataset, c Choice, feats []int, logged bool) []Gene {
	mr := res.Methods[c.Method]
	freq, rank := frequencies(mr, c.K)
	p := allPValues(ds)
	q := BH(p)
	groupOf := map[int][]int{}
	for r, j := range mr.Reference.Order {
		if r < len(mr.Reference.Groups) {
			groupOf[j] = mr.Reference.Groups[r]
		}
	}
	out := make([]Gene, len(feats))
	for i, j := range feats {
		g := Gene{Feature: j, ID: ds.Features[j], Frequency: freq[j], MeanRank: math.NaN(), Weight: math.NaN(), P: p[j], FDR: q[j]}
		if r, ok := rank[j]; ok {
			g.MeanRank = r
		}
		if ds.Symbols != nil {
			g.Symbol = ds.Symbols[j]
		}
		for _, m := range groupOf[j] {
			g.Members = append(g.Members, res.Data.Label(m))
		}
		g.Higher, g.Log2FC = FoldChange(ds, j, logged)
		out[i] = g
	}
	return out
}

// FoldChange names the class with the highest mean of feature j and the log2 fold
// change between the highest and the lowest class mean: their difference on a log
// scale (logged), else log2 of their ratio (NaN unless both are positive).
func FoldChange(ds *dataset.Dataset, j int, logged bool) (higher string, log2FC float64) {
	groups := byClass(ds, j)
	hi, lo := -1, -1
	var means []float64
	for c, g := range groups {
		m, _ := meanVar(g)
		means = append(means, m)
		if len(g) == 0 {
			continue
		}
		if hi < 0 || m > means[hi] {
			hi = c
		}
		if lo < 0 || m < means[lo] {
			lo = c
		}
	}
	if hi < 0 {
		return "", math.NaN()
	}
	if logged {
		return ds.Classes[hi], means[hi] - means[lo]
	}
	if means[hi] <= 0 || means[lo] <= 0 {
		return ds.Classes[hi], math.NaN()
	}
	return ds.Classes[hi], math.Log2(means[hi] / means[lo])
}

// allPValues is every feature's p-value between the classes: Welch's t-test for two,
// the one-way ANOVA for more.
func allPValues(ds *dataset.Dataset) []float64 {
	_, p := ds.Dims()
	out := make([]float64, p)
	for j := range out {
		groups := byClass(ds, j)
		if len(groups) == 2 {
			_, _, out[j] = Welch(groups[0], groups[1])
		} else {
			_, out[j] = ANOVA(groups)
		}
	}
	return out
}

// byClass is feature j's values grouped by class.
func byClass(ds *dataset.Dataset, j int) [][]float64 {
	groups := make([][]float64, len(ds.Classes))
	n, _ := ds.Dims()
	for i := 0; i < n; i++ {
		groups[ds.Labels[i]] = append(groups[ds.Labels[i]], ds.X.At(i, j))
	}
	return groups
}
