// Package rstat holds the few statistics Steadfast computes as R does, so that results
// checked against R packages (pROC, edgeR, limma) share one definition: quantiles of
// type 7, ranks with ties averaged, Wilson's score interval, a correctly rounded log2,
// and limma's variance moderation (squeezeVar) with the polygamma functions it needs.
package rstat

import (
	"cmp"
	"math"
	"slices"
	"sort"
)

// Quantile is R's quantile(x, p) of type 7: linear between the order statistics at
// p (n - 1); NaN for no values. x is not changed.
func Quantile(x []float64, p float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	y := append([]float64(nil), x...)
	sort.Float64s(y)
	h := p * float64(len(y)-1)
	lo := math.Floor(h)
	if int(lo)+1 >= len(y) {
		return y[len(y)-1]
	}
	return y[int(lo)] + (h-lo)*(y[int(lo)+1]-y[int(lo)])
}

// MeanSS is the mean of v, the sum of v_i / n, and the sum of squared deviations from
// it, sum (v_i - mean)^2 (R's var(v) times n - 1): two passes, in v's order.
func MeanSS(v []float64) (mean, ss float64) {
	n := float64(len(v))
	for _, a := range v {
		mean += a / n
	}
	for _, a := range v {
		ss += (a - mean) * (a - mean)
	}
	return mean, ss
}

// Median is R's median(x): Quantile(x, 0.5).
func Median(x []float64) float64 { return Quantile(x, 0.5) }

// Ranks are R's rank(x): 1 to n, ties given their mean rank.
func Ranks(x []float64) []float64 {
	type pair struct {
		v float64
		i int
	}
	p := make([]pair, len(x))
	for i, v := range x {
		p[i] = pair{v, i}
	}
	slices.SortFunc(p, func(a, b pair) int { return cmp.Compare(a.v, b.v) }) // ties get one rank: order among them is moot
	r := make([]float64, len(x))
	for a := 0; a < len(p); {
		b := a
		for b+1 < len(p) && p[b+1].v == p[a].v {
			b++
		}
		for k := a; k <= b; k++ {
			r[p[k].i] = float64(a+b)/2 + 1
		}
		a = b + 1
	}
	return r
}

// Z95 is the standard normal's 0.975 quantile.
const Z95 = 1.959963984540054

// Wilson is Wilson's score interval of a proportion p of m cases at the quantile z
// (Z95 for 95%), inside [0, 1]: R's prop.test(correct = FALSE)$conf.int for a count.
func Wilson(p, m, z float64) (lo, hi float64) {
	c := (p + z*z/(2*m)) / (1 + z*z/m)
	h := z / (1 + z*z/m) * math.Sqrt(p*(1-p)/m+z*z/(4*m*m))
	return math.Max(0, c-h), math.Min(1, c+h)
}
