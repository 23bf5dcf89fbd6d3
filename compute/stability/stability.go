// Package stability measures how alike two feature selections are: Sim_ID (Dice),
// Kalousis S_S (Tanimoto), S_W (Pearson of weights), S_R (Spearman of ranks), and the
// DRAGS group measures Sim_ID^M and Sim_V^M by maximum-weight bipartite matching.
package stability

import (
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/stat"
)

func intersect(a, b []int) int {
	in := make(map[int]struct{}, len(a))
	for _, v := range a {
		in[v] = struct{}{}
	}
	n := 0
	seen := make(map[int]struct{}, len(b))
	for _, v := range b {
		if _, dup := seen[v]; dup {
			continue
		}
		seen[v] = struct{}{}
		if _, ok := in[v]; ok {
			n++
		}
	}
	return n
}

// SimID is the Dice similarity 2|A ∩ B| / (|A| + |B|) of two sets of feature indices;
// two empty sets are identical (1).
func SimID(a, b []int) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	return 2 * float64(intersect(a, b)) / float64(len(a)+len(b))
}

// Tanimoto is Kalousis' S_S = |A ∩ B| / |A ∪ B|; two empty sets give 1.
func Tanimoto(a, b []int) float64 {
	i := intersect(a, b)
	u := len(a) + len(b) - i
	if u == 0 {
		return 1
	}
	return float64(i) / float64(u)
}

// Pearson is Kalousis' S_W, the correlation of two weight vectors; 0 when either is constant.
func Pearson(a, b []float64) float64 {
	r := stat.Correlation(a, b, nil)
	if math.IsNaN(r) {
		return 0
	}
	return r
}

// Ranks returns the rank (1 = highest score) of every feature, ties broken by a
// random permutation drawn from r.
func Ranks(score []float64, r *rand.Rand) []float64 {
	perm := r.Perm(len(score))
	order := make([]int, len(score))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(x, y int) bool {
		a, b := order[x], order[y]
		if score[a] != score[b] {
			return score[a] > score[b]
		}
		return perm[a] < perm[b]
	})
	rk := make([]float64, len(score))
	for pos, j := range order {
		rk[j] = float64(pos + 1)
	}
	return rk
}

// Spearman is Kalousis' S_R: 1 - 6 sum (r1_j - r2_j)^2 / (p (p^2 - 1)) over two rank
// vectors without ties (see Ranks).
func Spearman(r1, r2 []float64) float64 {
	p := float64(len(r1))
	if p < 2 {
		return 1
	}
	s := 0.0
	for j := range r1 {
		d := r1[j] - r2[j]
		s += d * d
	}
	return 1 - 6*s/(p*(p*p-1))
}

// TopKOverlaps returns |top_k(a) ∩ top_k(b)| for every k of ks (ascending, at most
// len(a) and len(b)), where top_k is the first k entries of a ranking. One pass: O(max k).
func TopKOverlaps(a, b []int, ks []int) []int {
	out := make([]int, len(ks))
	if len(ks) == 0 {
		return out
	}
	maxK := ks[len(ks)-1]
	inA := make(map[int]bool, maxK)
	inB := make(map[int]bool, maxK)
	common, next := 0, 0
	for k := 1; k <= maxK; k++ {
		x, y := a[k-1], b[k-1]
		inA[x], inB[y] = true, true
		if x == y {
			common++
		} else {
			if inB[x] {
				common++
			}
			if inA[y] {
				common++
			}
		}
		for next < len(ks) && ks[next] == k {
			out[next] = common
			next++
		}
	}
	return out
}
