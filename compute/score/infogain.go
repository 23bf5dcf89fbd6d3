package score

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// InfoGain ranks by the information gain of the class after discretising each feature
// with Fayyad and Irani's MDL method (as WEKA's supervised Discretize):
// IG = H(C) - sum_b |S_b|/|S| H(C | S_b) in bits; a feature cut into one bin scores 0.
// Ties in the ranking are broken by a random permutation drawn from r.
type InfoGain struct{}

// Rank implements Ranker.
func (InfoGain) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (Ranking, error) {
	n, p := x.Dims()
	score := make([]float64, p)
	col := make([]float64, n)
	idx := make([]int, n)
	for j := 0; j < p; j++ {
		if j%256 == 0 && ctx.Err() != nil {
			return Ranking{}, ctx.Err()
		}
		mat.Col(col, j, x)
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return col[idx[a]] < col[idx[b]] })
		vals := make([]float64, n)
		labs := make([]int, n)
		for i, k := range idx {
			vals[i], labs[i] = col[k], y[k]
		}
		cuts := mdlCuts(vals, labs, classes, 0, n)
		score[j] = gainOfCuts(vals, labs, classes, cuts)
	}
	return Ranking{Order: orderByScore(score, r), Score: score}, nil
}

// entropy of class counts in bits.
func entropy(counts []float64) float64 {
	total := 0.0
	for _, c := range counts {
		total += c
	}
	if total == 0 {
		return 0
	}
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			q := c / total
			h -= q * math.Log2(q)
		}
	}
	return h
}

// mdlCuts returns the MDL cut points of vals[lo:hi] (sorted ascending, labels labs):
// the boundary between distinct values that minimises the class entropy, accepted when
// Gain > (log2(cuts) + Delta) / N with Delta = log2(3^k - 2) - (k H(S) - k1 H(S1) - k2 H(S2))
// (cuts = candidate cut points in the subset, k = classes present), then recursively.
func mdlCuts(vals []float64, labs []int, classes, lo, hi int) []float64 {
	N := hi - lo
	if N < 2 {
		return nil
	}
	prior := make([]float64, classes)
	for i := lo; i < hi; i++ {
		prior[labs[i]]++
	}
	priorH := entropy(prior)
	left := make([]float64, classes)
	right := append([]float64(nil), prior...)
	bestH, best, bestLeft := math.Inf(1), -1, []float64(nil)
	candidates := 0
	for i := lo; i < hi-1; i++ {
		left[labs[i]]++
		right[labs[i]]--
		if vals[i] < vals[i+1] {
			candidates++
			nl, nr := float64(i-lo+1), float64(hi-i-1)
			h := (nl*entropy(left) + nr*entropy(right)) / float64(N)
			if h < bestH {
				bestH, best = h, i
				bestLeft = append(bestLeft[:0], left...)
			}
		}
	}
	if best < 0 || priorH-bestH <= 0 {
		return nil
	}
	bestRight := make([]float64, classes)
	for c := range bestRight {
		bestRight[c] = prior[c] - bestLeft[c]
	}
	present := func(c []float64) float64 {
		k := 0.0
		for _, v := range c {
			if v > 0 {
				k++
			}
		}
		return k
	}
	k, k1, k2 := present(prior), present(bestLeft), present(bestRight)
	delta := math.Log2(math.Pow(3, k)-2) - (k*priorH - k1*entropy(bestLeft) - k2*entropy(bestRight))
	if priorH-bestH <= (math.Log2(float64(candidates))+delta)/float64(N) {
		return nil
	}
	cut := (vals[best] + vals[best+1]) / 2
	out := mdlCuts(vals, labs, classes, lo, best+1)
	out = append(out, cut)
	return append(out, mdlCuts(vals, labs, classes, best+1, hi)...)
}

// gainOfCuts is H(C) - H(C | bins) of vals (sorted) cut at cuts (ascending).
func gainOfCuts(vals []float64, labs []int, classes int, cuts []float64) float64 {
	if len(cuts) == 0 {
		return 0
	}
	bins := make([][]float64, len(cuts)+1)
	for b := range bins {
		bins[b] = make([]float64, classes)
	}
	all := make([]float64, classes)
	b := 0
	for i, v := range vals {
		for b < len(cuts) && v > cuts[b] {
			b++
		}
		bins[b][labs[i]]++
		all[labs[i]]++
	}
	n := float64(len(vals))
	h := 0.0
	for _, c := range bins {
		s := 0.0
		for _, v := range c {
			s += v
		}
		h += s / n * entropy(c)
	}
	return entropy(all) - h
}
