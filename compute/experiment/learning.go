package experiment

import (
	"context"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/classify"
	"steadfast/compute/dataset"
)

// LearningCurve is the evaluation of Diaz-Diaz et al.: for i = 1..nae, the mean accuracy
// of 3-NN in stratified 5-fold CV on all samples of x with the first i features of order
// (each training fold z-scored, its statistics applied to the test fold).
func LearningCurve(ctx context.Context, x *mat.Dense, y []int, classes int, order []int, nae int, r *rand.Rand) ([]float64, error) {
	nae = min(nae, len(order))
	minClass := len(y)
	counts := make([]int, classes)
	for _, l := range y {
		counts[l]++
	}
	for _, c := range counts {
		if c > 0 {
			minClass = min(minClass, c)
		}
	}
	folds := dataset.StratifiedFolds(y, max(2, min(5, minClass)), r)
	curve := make([]float64, nae)
	for _, f := range folds {
		xtr, ytr := dataset.SelectSamples(x, y, f.Train)
		xte, yte := dataset.SelectSamples(x, y, f.Test)
		dataset.Standardize(xtr, xte)
		for i := 1; i <= nae; i++ {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			sel := order[:i]
			m := classify.KNN{K: 3}
			m.Fit(dataset.SelectFeatures(xtr, sel), ytr, classes)
			curve[i-1] += classify.Accuracy(m.Predict(dataset.SelectFeatures(xte, sel)), yte) / float64(len(folds))
		}
	}
	return curve, nil
}

// NormalizedAUC is the area under a curve sampled at evenly spaced x, with x scaled to
// [0, 1]: sum_i (y_i + y_{i+1}) / 2 / (n - 1); a single point is its own value.
func NormalizedAUC(ys []float64) float64 {
	switch len(ys) {
	case 0:
		return 0
	case 1:
		return ys[0]
	}
	s := 0.0
	for i := 1; i < len(ys); i++ {
		s += (ys[i-1] + ys[i]) / 2
	}
	return s / float64(len(ys)-1)
}
