package experiment

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/classify"
	"steadfast/compute/dataset"
	"steadfast/compute/score"
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

// WrapperSweep is Diaz-Diaz et al.'s Fig. 4: for each Na in NAs (% of the features), the
// bootstrap wrapper's ranking of all samples (Ne x p subsets) and the normalised AUC of
// its learning curve over the top Nae features; and the AUCs of the exhaustive K = 1
// baseline and, with K2, the K = 2 one.
type WrapperSweep struct {
	NAs  []float64
	Ne   float64
	Nae  int
	K2   bool
	Seed uint64
	// Progress, when set, is called from worker goroutines: the ranking under way and
	// the subsets it has evaluated of its total.
	Progress func(stage string, done, total int)
}

// Run computes the sweep. x is the z-scored matrix the wrapper ranks; raw is the matrix
// the learning curves classify (z-scored inside their folds).
func (s WrapperSweep) Run(ctx context.Context, x, raw *mat.Dense, y []int, classes int) (aucs []float64, baselines map[string]float64, err error) {
	_, p := x.Dims()
	auc := func(w score.BootstrapWrapper, stage string, unit uint64) (float64, error) {
		if s.Progress != nil {
			w.Progress = func(done, total int) { s.Progress(stage, done, total) }
		}
		rk, err := w.Rank(ctx, x, y, classes, dataset.Rand(s.Seed, unit))
		if err != nil {
			return 0, err
		}
		curve, err := LearningCurve(ctx, raw, y, classes, rk.Order, s.Nae, dataset.Rand(s.Seed, 1000+unit))
		if err != nil {
			return 0, err
		}
		return NormalizedAUC(curve), nil
	}
	steps := len(s.NAs) + 1
	if s.K2 {
		steps++
	}
	stage := func(i int, what string) string { return fmt.Sprintf("step %d of %d, %s:", i+1, steps, what) }
	for i, na := range s.NAs {
		w := score.BootstrapWrapper{Ne: max(1, int(s.Ne*float64(p))), Na: max(1, int(na/100*float64(p)+0.5))}
		a, err := auc(w, stage(i, fmt.Sprintf("wrapper with Na = %g%%", na)), uint64(i))
		if err != nil {
			return nil, nil, err
		}
		aucs = append(aucs, a)
	}
	baselines = map[string]float64{}
	if baselines["exhaustive K = 1"], err = auc(score.BootstrapWrapper{Exhaustive1: true}, stage(len(s.NAs), "exhaustive K = 1"), 500); err != nil {
		return nil, nil, err
	}
	if s.K2 {
		if baselines["exhaustive K = 2"], err = auc(score.BootstrapWrapper{Exhaustive2: true}, stage(len(s.NAs)+1, "exhaustive K = 2 (pairs)"), 501); err != nil {
			return nil, nil, err
		}
	}
	return aucs, baselines, nil
}
