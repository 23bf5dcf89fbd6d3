package group

import (
	"context"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/score"
)

// MIDSFilter ranks with Inner on the features of the MIDS of the correlation graph at
// Epsilon only ("SVM-RFE + MIDS"); the other features follow, by index, scoring below
// every MIDS feature. With Fixed set, that set is used instead of the training data's
// MIDS (the MIDS paper's setting, its MIDS computed once on all samples).
type MIDSFilter struct {
	Inner   score.Ranker
	Epsilon float64
	Fixed   []int
}

// Rank implements score.Ranker.
func (m MIDSFilter) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (score.Ranking, error) {
	set := m.Fixed
	if set == nil {
		g, err := CorrelationGraph(ctx, x, m.Epsilon)
		if err != nil {
			return score.Ranking{}, err
		}
		set = g.MIDS()
	}
	inner, err := m.Inner.Rank(ctx, dataset.SelectFeatures(x, set), y, classes, r)
	if err != nil {
		return score.Ranking{}, err
	}
	_, p := x.Dims()
	rk := score.Ranking{Score: make([]float64, p), Unconverged: inner.Unconverged}
	minS := math.Inf(1)
	for _, s := range inner.Score {
		minS = math.Min(minS, s)
	}
	in := make([]bool, p)
	for _, k := range inner.Order {
		j := set[k]
		in[j] = true
		rk.Order = append(rk.Order, j)
		rk.Score[j] = inner.Score[k]
	}
	for j := 0; j < p; j++ {
		if !in[j] {
			rk.Order = append(rk.Order, j)
			rk.Score[j] = minS - 1
		}
	}
	return rk, nil
}
