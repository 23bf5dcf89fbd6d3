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

// CoxNetPath ranks by glmnet's elastic-net Cox path on the training samples
// (survival.CoxNetRanker): by the lambda at which each gene enters the path, or with
// CV by its |standardised coefficient| at cv.glmnet's lambda.min over Folds folds of
// the training samples, stratified by the event and drawn from r.
type CoxNetPath struct {
	Alpha   float64
	NLambda int
	CV      bool
	Folds   int
}

// Rank implements Ranker: classes are refused.
func (CoxNetPath) Rank(context.Context, *mat.Dense, []int, int, *rand.Rand) (Ranking, error) {
	return Ranking{}, ErrNeedsSurvival
}

// RankSurvival implements SurvivalRanker.
func (c CoxNetPath) RankSurvival(ctx context.Context, x *mat.Dense, o survival.Outcome, r *rand.Rand) (Ranking, error) {
	_, p := x.Dims()
	rk := survival.CoxNetRanker{CoxNet: survival.CoxNet{Alpha: c.Alpha, NLambda: c.NLambda}}
	if c.CV {
		rk.By, rk.Folds = survival.CoxNetMin, eventFolds(o.Event, c.Folds, r)
	}
	got, err := rk.Rank(ctx, o.Time, o.Event, x, TieOrder(p, r))
	if err != nil {
		return Ranking{}, err
	}
	return Ranking{Order: got.Order, Score: got.Score, Unconverged: got.Unconverged}, nil
}

// eventFolds assigns each sample a fold 0..k-1, the events and the censored samples
// each dealt in turn over the folds in an order drawn from r (a stratified split), so
// every fold holds an event when there are k events or more.
func eventFolds(event []bool, k int, r *rand.Rand) []int {
	folds := make([]int, len(event))
	for _, want := range []bool{true, false} {
		var idx []int
		for i, e := range event {
			if e == want {
				idx = append(idx, i)
			}
		}
		if r != nil {
			r.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		}
		for n, i := range idx {
			folds[i] = n % k
		}
	}
	return folds
}
