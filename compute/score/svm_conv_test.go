package score

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/classify"
	"steadfast/compute/dataset"
)

// TestUnconvergedFitsCounted: with an iteration cap of 1 pass SVM-RFE's fits stop early
// and are counted, one per elimination round (here 4 features dropped one at a time:
// 3 rounds that fit a model); with the default cap they converge.
func TestUnconvergedFitsCounted(t *testing.T) {
	x := mat.NewDense(6, 4, []float64{1, 2, 0, 1, 2, 1, 1, 0, 3, 3, 0, 1, -1, -2, 1, 0, -2, -1, 0, 1, -3, -2, 1, 1})
	y := []int{1, 1, 1, 0, 0, 0}
	capped := SVMRFE{SVM: classify.SVMParams{C: 100, Tol: 1e-12, MaxIter: 1}, Step: 0.01}
	rk, err := capped.Rank(context.Background(), x, y, 2, dataset.Rand(1))
	if err != nil {
		t.Fatal(err)
	}
	if rk.Unconverged != 3 {
		t.Errorf("%d fits counted as stopped early, want 3", rk.Unconverged)
	}
	rk, err = SVMRFE{Step: 0.01}.Rank(context.Background(), x, y, 2, dataset.Rand(1))
	if err != nil || rk.Unconverged != 0 {
		t.Errorf("default settings: %d stopped early, %v", rk.Unconverged, err)
	}
}
