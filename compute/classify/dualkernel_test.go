package classify

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
)

// Dual coordinate descent through the Gram matrix takes dualCD's steps (the same
// coordinates in the same order, the inner products computed otherwise): on Colon
// (z-scored, 62 x 2,000, ../shared/data) and on its first 500 genes and 40 samples,
// hinge and squared hinge, the same number of passes and weights and bias equal to
// 1e-9 of the largest weight. A Gram matrix with columns dropped equals the one
// computed on the columns left to 1e-12 of its largest entry.
func TestKernelDualCDTakesDualCDsSteps(t *testing.T) {
	ds, err := dataset.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "colon.csv"), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	full := dataset.ZScored(ds.X)
	y := make([]float64, len(ds.Labels))
	for i, l := range ds.Labels {
		y[i] = float64(2*l - 1)
	}
	for _, tc := range []struct {
		rows, cols int
		loss       Loss
	}{{62, 2000, SquaredHinge}, {62, 2000, Hinge}, {40, 500, SquaredHinge}} {
		x := mat.DenseCopyOf(full.Slice(0, tc.rows, 0, tc.cols))
		p := SVMParams{Loss: tc.loss}.withDefaults()
		w1, b1, it1, ok1, err1 := dualCD(context.Background(), x, y[:tc.rows], nil, p, dataset.Rand(3))
		w2, b2, it2, ok2, err2 := dualCDKernel(context.Background(), x, y[:tc.rows], nil, p, dataset.Rand(3))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		big, worst := 0.0, math.Abs(b1-b2)
		for j := range w1 {
			big = math.Max(big, math.Abs(w1[j]))
			worst = math.Max(worst, math.Abs(w1[j]-w2[j]))
		}
		if it1 != it2 || ok1 != ok2 || worst > 1e-9*big {
			t.Errorf("%d x %d %s: passes %d and %d (converged %v, %v); weights differ by %g of %g", tc.rows, tc.cols, tc.loss, it1, it2, ok1, ok2, worst, big)
		}
	}
	x := mat.DenseCopyOf(full.Slice(0, 30, 0, 300))
	g, _ := NewGram(context.Background(), x)
	var drop, keep []int
	for j := 0; j < 300; j++ {
		if j%3 == 1 {
			drop = append(drop, j)
		} else {
			keep = append(keep, j)
		}
	}
	g.Drop(x, drop)
	fresh, _ := NewGram(context.Background(), dataset.SelectFeatures(x, keep))
	big, worst := 0.0, 0.0
	for i, v := range fresh.q {
		big = math.Max(big, math.Abs(v))
		worst = math.Max(worst, math.Abs(v-g.q[i]))
	}
	if worst > 1e-12*big {
		t.Errorf("the Gram matrix with columns dropped differs from the fresh one by %g of %g", worst, big)
	}
}
