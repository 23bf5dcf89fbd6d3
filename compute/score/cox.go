package score

import (
	"context"
	"errors"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/survival"
)

// SurvivalRanker ranks the columns of x (training samples as rows) against a survival
// outcome o of the same samples. r supplies any randomness; ctx cancels.
type SurvivalRanker interface {
	RankSurvival(ctx context.Context, x *mat.Dense, o survival.Outcome, r *rand.Rand) (Ranking, error)
}

// ErrNeedsSurvival is a survival ranker's answer to classes.
var ErrNeedsSurvival = errors.New("this method ranks genes against a survival outcome (a time and an event); the data have classes")

// CoxScore ranks by the univariate Cox score test of each gene (Efron ties, at beta =
// 0): Chisq = U^2 / I with U and I as survival.ScoreTest gives them, both directions of
// effect alike. A constant gene scores 0.
type CoxScore struct{}

// Rank implements Ranker: classes are refused.
func (CoxScore) Rank(context.Context, *mat.Dense, []int, int, *rand.Rand) (Ranking, error) {
	return Ranking{}, ErrNeedsSurvival
}

// RankSurvival implements SurvivalRanker.
func (CoxScore) RankSurvival(ctx context.Context, x *mat.Dense, o survival.Outcome, r *rand.Rand) (Ranking, error) {
	st, err := survival.ScoreTests(o, x, nil)
	if err != nil {
		return Ranking{}, err
	}
	return Ranking{Order: orderByScore(st.Chisq, r), Score: st.Chisq}, ctx.Err()
}
