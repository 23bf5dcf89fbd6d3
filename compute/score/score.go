// Package score ranks single features: filters (F-statistic) and SVM-based rankers
// (SVM-ONE, SVM-RFE). compute/method lists them with their parameters.
package score

import (
	"context"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// Ranking orders the features of one training set.
type Ranking struct {
	Order []int     `json:"order"` // feature indices, best first
	Score []float64 `json:"score"` // per feature, higher is better
	// Groups, for group methods: Groups[i] holds the members of the group whose
	// representative is Order[i]; features after len(Groups) are not representatives.
	Groups [][]int `json:"groups,omitempty"`
	// Relevance[i] is the relevance of group i (DRAGS: mean F of its members; CGS and
	// k-means: F of its representative).
	Relevance []float64 `json:"relevance,omitempty"`
	// Unconverged counts the model fits (linear SVMs) that stopped at their iteration
	// cap before meeting the tolerance.
	Unconverged int `json:"unconverged,omitempty"`
}

// Ranker ranks the columns of x (training samples as rows) against the labels y.
// r supplies any randomness; ctx cancels.
type Ranker interface {
	Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (Ranking, error)
}

// TieOrder is the seeded random rule for ties (equal scores never ordered by column): a random permutation
// of the p features drawn from r, tie[j] being feature j's place among equal scores.
// With r nil it is index order (for callers outside a study, which have no seed).
func TieOrder(p int, r *rand.Rand) []int {
	if r == nil {
		tie := make([]int, p)
		for j := range tie {
			tie[j] = j
		}
		return tie
	}
	return r.Perm(p)
}

// OrderByScore returns the feature indices by decreasing score, equal scores in
// increasing tie (see TieOrder).
func OrderByScore(score []float64, tie []int) []int {
	order := make([]int, len(score))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool {
		sa, sb := score[order[a]], score[order[b]]
		if sa != sb {
			return sa > sb
		}
		return tie[order[a]] < tie[order[b]]
	})
	return order
}

// orderByScore orders by decreasing score, ties by the seeded random rule of r.
func orderByScore(score []float64, r *rand.Rand) []int {
	return OrderByScore(score, TieOrder(len(score), r))
}
