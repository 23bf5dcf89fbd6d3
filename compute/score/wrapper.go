package score

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/classify"
	"steadfast/compute/dataset"
)

// BootstrapWrapper is the random-subset wrapper ranking of Diaz-Diaz, Aguilar-Ruiz et al.:
// Ne random feature subsets, each of a size drawn uniformly from 1..Na and then that
// many distinct features; goodness of a subset = mean accuracy of 3-NN in stratified
// 5-fold CV on the training samples; weight of a feature = mean goodness of the subsets
// containing it. Features never drawn rank last (weight -1). Exhaustive1 instead scores
// every single feature by its own goodness, Exhaustive2 by the mean goodness of every
// pair holding it (the paper's K = 1 and K = 2 baselines).
type BootstrapWrapper struct {
	Ne          int // subsets; <= 0 means p
	Na          int // largest subset size; <= 0 means 0.4% of p (at least 1)
	Exhaustive1 bool
	Exhaustive2 bool // every pair of features (p(p-1)/2 subsets: see PairCount)
}

// PairCount is the number of subsets of the K = 2 baseline, p(p-1)/2, for a cost warning.
func PairCount(p int) int { return p * (p - 1) / 2 }

// Rank implements Ranker.
func (b BootstrapWrapper) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (Ranking, error) {
	_, p := x.Dims()
	folds := dataset.StratifiedFolds(y, min(5, minClass(y, classes)), r)
	seed := r.Uint64()
	type subset struct{ features []int }
	var subsets []subset
	switch {
	case b.Exhaustive1:
		for j := 0; j < p; j++ {
			subsets = append(subsets, subset{[]int{j}})
		}
	case b.Exhaustive2:
		for i := 0; i < p; i++ {
			for j := i + 1; j < p; j++ {
				subsets = append(subsets, subset{[]int{i, j}})
			}
		}
	default:
		ne, na := b.Ne, b.Na
		if ne <= 0 {
			ne = p
		}
		if na <= 0 {
			na = max(1, int(math.Round(0.004*float64(p))))
		}
		na = min(na, p)
		for s := 0; s < ne; s++ {
			rs := dataset.Rand(seed, uint64(s))
			size := 1 + rs.IntN(na)
			subsets = append(subsets, subset{rs.Perm(p)[:size]})
		}
	}
	good := make([]float64, len(subsets))
	err := forEach(ctx, len(subsets), func(i int) error {
		good[i] = cvAccuracy3NN(x, y, classes, subsets[i].features, folds)
		return nil
	})
	if err != nil {
		return Ranking{}, err
	}
	sum := make([]float64, p)
	cnt := make([]float64, p)
	for i, s := range subsets {
		for _, j := range s.features {
			sum[j] += good[i]
			cnt[j]++
		}
	}
	w := make([]float64, p)
	for j := range w {
		w[j] = -1
		if cnt[j] > 0 {
			w[j] = sum[j] / cnt[j]
		}
	}
	return Ranking{Order: orderByScore(w), Score: w}, nil
}

func minClass(y []int, classes int) int {
	c := make([]int, classes)
	for _, l := range y {
		c[l]++
	}
	m := len(y)
	for _, v := range c {
		if v > 0 {
			m = min(m, v)
		}
	}
	return max(m, 2)
}

// cvAccuracy3NN is the mean test accuracy of 3-NN over the folds, on the features sel.
func cvAccuracy3NN(x *mat.Dense, y []int, classes int, sel []int, folds []dataset.Split) float64 {
	sorted := append([]int(nil), sel...)
	sort.Ints(sorted)
	xs := dataset.SelectFeatures(x, sorted)
	acc := 0.0
	for _, f := range folds {
		xtr, ytr := dataset.SelectSamples(xs, y, f.Train)
		xte, yte := dataset.SelectSamples(xs, y, f.Test)
		m := classify.KNN{K: 3}
		m.Fit(xtr, ytr, classes)
		acc += classify.Accuracy(m.Predict(xte), yte)
	}
	return acc / float64(len(folds))
}
