package score

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// ReliefF (Robnik-Sikonja and Kononenko) as WEKA's ReliefFAttributeEval: every training
// sample R is a probe; its K nearest hits H_j and, for every other class C, its K
// nearest misses M_j(C), by the sum of range-normalised differences over all features;
// W_A -= sum_j diff(A, R, H_j) / (m K) and W_A += sum_C P(C)/(1 - P(class R))
// sum_j diff(A, R, M_j(C)) / (m K), diff = |x_A(R) - x_A(I)| / (max_A - min_A).
type ReliefF struct{ K int }

// Rank implements Ranker.
func (rf ReliefF) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (Ranking, error) {
	n, p := x.Dims()
	K := rf.K
	if K <= 0 {
		K = 10
	}
	lo, hi := make([]float64, p), make([]float64, p)
	for j := range lo {
		lo[j], hi[j] = math.Inf(1), math.Inf(-1)
	}
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i) {
			lo[j], hi[j] = math.Min(lo[j], v), math.Max(hi[j], v)
		}
	}
	scale := make([]float64, p)
	for j := range scale {
		if hi[j] > lo[j] {
			scale[j] = 1 / (hi[j] - lo[j])
		}
	}
	prior := make([]float64, classes)
	for _, l := range y {
		prior[l] += 1 / float64(n)
	}
	// distances between all samples: sum of normalised absolute differences
	dist := make([][]float64, n)
	for i := range dist {
		dist[i] = make([]float64, n)
	}
	for i := 0; i < n; i++ {
		if ctx.Err() != nil {
			return Ranking{}, ctx.Err()
		}
		a := x.RawRowView(i)
		for k := i + 1; k < n; k++ {
			b := x.RawRowView(k)
			s := 0.0
			for j, v := range a {
				s += math.Abs(v-b[j]) * scale[j]
			}
			dist[i][k], dist[k][i] = s, s
		}
	}
	w := make([]float64, p)
	m := float64(n)
	byClass := make([][]int, classes)
	for i, l := range y {
		byClass[l] = append(byClass[l], i)
	}
	for r := 0; r < n; r++ {
		R := x.RawRowView(r)
		for c := 0; c < classes; c++ {
			var near []int
			for _, i := range byClass[c] {
				if i != r {
					near = append(near, i)
				}
			}
			sort.SliceStable(near, func(a, b int) bool { return dist[r][near[a]] < dist[r][near[b]] })
			if len(near) > K {
				near = near[:K]
			}
			if len(near) == 0 {
				continue
			}
			coef := -1.0 / (m * float64(len(near)))
			if c != y[r] {
				coef = prior[c] / (1 - prior[y[r]]) / (m * float64(len(near)))
			}
			for _, i := range near {
				I := x.RawRowView(i)
				for j, v := range R {
					w[j] += coef * math.Abs(v-I[j]) * scale[j]
				}
			}
		}
	}
	return Ranking{Order: orderByScore(w, r), Score: w}, nil
}
