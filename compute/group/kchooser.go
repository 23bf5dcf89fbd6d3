package group

import (
	"context"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// ChooserKs are the K values of the DRAGS paper's Figure 1.
var ChooserKs = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 25}

// KNNCorrelations returns, for each K of ks (ascending), every feature's mean Pearson
// correlation to its K nearest other features; x is z-scored, so the nearest features
// are the most correlated ones, r = 1 - d^2 / (2(n-1)). With self (the DRAGS paper's
// reading, see DGFParams.SelfNeighbour) a feature is its own first neighbour: the mean
// is (1 + the sum over its K-1 nearest others) / K.
func KNNCorrelations(ctx context.Context, x *mat.Dense, ks []int, self bool) ([][]float64, error) {
	n, p := x.Dims()
	ps := newPoints(x)
	out := make([][]float64, len(ks))
	for i := range out {
		out[i] = make([]float64, p)
	}
	maxK := min(ks[len(ks)-1], p-1)
	err := ps.pairwise(ctx, func(j int, d2 []float64) {
		near := make([]float64, 0, p-1)
		for k, v := range d2 {
			if k != j {
				near = append(near, v)
			}
		}
		partialSort(near, maxK)
		near = near[:maxK]
		sort.Float64s(near)
		sums := make([]float64, maxK+1) // sums[k]: over the k nearest others
		for k := 1; k <= maxK; k++ {
			sums[k] = sums[k-1] + 1 - near[k-1]/(2*float64(n-1))
		}
		for i, K := range ks {
			switch {
			case self:
				out[i][j] = (1 + sums[min(K-1, maxK)]) / float64(min(K, maxK+1))
			default:
				out[i][j] = sums[min(K, maxK)] / float64(min(K, maxK))
			}
		}
	})
	return out, err
}
