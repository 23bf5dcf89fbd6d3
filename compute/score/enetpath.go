package score

import (
	"context"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/classify"
)

// ENetPath ranks features by the order in which they enter glmnet's elastic-net
// logistic path on the training samples (classify.ENet: standardize = TRUE, glmnet's
// automatic lambda sequence from lambda_max down, binomial for two classes, multinomial
// for more), as the stability-selection literature reads a lasso path: a feature that
// becomes non-zero at a larger lambda ranks higher; features entering at the same
// lambda by their |standardised coefficient| there (the largest over the classes); the
// features that never enter before the path ends (glmnet's early end at a deviance
// ratio of 0.999, or its last lambda) follow by how near they came, the largest
// |x_j'(y - p)|/n at the last fit, constant features last; exact ties by the seeded
// random rule. Scores encode this order only (p - position).
type ENetPath struct {
	Alpha    float64 // 1 lasso (the default in the catalogue), toward 0 ridge (alpha > 0)
	NLambda  int     // 0: 100
	MinRatio float64 // 0: glmnet's
}

// Rank implements Ranker.
func (e ENetPath) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (Ranking, error) {
	_, p := x.Dims()
	step, size, err := classify.ENet{Alpha: e.Alpha, NLambda: e.NLambda, MinRatio: e.MinRatio}.Entry(ctx, x, y, classes)
	if err != nil {
		return Ranking{}, err
	}
	tie := TieOrder(p, r)
	order := make([]int, p)
	for j := range order {
		order[j] = j
	}
	sort.Slice(order, func(a, b int) bool {
		ja, jb := order[a], order[b]
		sa, sb := step[ja], step[jb]
		if (sa < 0) != (sb < 0) {
			return sa >= 0 // entered before never entered
		}
		if sa != sb {
			return sa < sb
		}
		if size[ja] != size[jb] {
			return size[ja] > size[jb]
		}
		return tie[ja] < tie[jb]
	})
	score := make([]float64, p)
	for i, j := range order {
		score[j] = float64(p - i)
	}
	return Ranking{Order: order, Score: score}, nil
}

// ForestImportance ranks features by a random forest's importance on the training
// samples (classify.Forest, its seed drawn from r): Breiman's permutation importance
// (the mean decrease in the trees' out-of-bag accuracy when the feature is permuted,
// unscaled, as ranger's "permutation"), or with Impurity the mean decrease of the Gini
// criterion (ranger's "impurity"), which favours features of many distinct values
// (Strobl et al. 2007). Ties (features no tree split on) by the seeded random rule.
type ForestImportance struct {
	Trees, Mtry, MinNode int
	Impurity             bool
}

// Rank implements Ranker.
func (f ForestImportance) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (Ranking, error) {
	seed := uint64(1)
	if r != nil {
		seed = r.Uint64()
	}
	_, p := x.Dims()
	fo := classify.Forest{Trees: f.Trees, Mtry: min(f.Mtry, p), MinNode: f.MinNode, Seed: seed, Importance: true}
	if err := fo.Fit(ctx, x, y, classes); err != nil {
		return Ranking{}, err
	}
	score := fo.Permutation
	if f.Impurity {
		score = fo.Impurity
	}
	return Ranking{Order: orderByScore(score, r), Score: score}, nil
}
