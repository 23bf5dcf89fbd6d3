package score

import (
	"context"
	"reflect"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
)

func TestBootstrapWrapper(t *testing.T) {
	// 40 samples, 2 classes; feature 0 separates the classes, features 1..19 are noise
	r := dataset.Rand(5)
	n, p := 40, 20
	x := mat.NewDense(n, p, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		y[i] = i % 2
		for j := 0; j < p; j++ {
			x.Set(i, j, r.NormFloat64())
		}
		x.Set(i, 0, float64(y[i])*10+r.Float64())
	}
	// K = 1 baseline: feature 0 alone is always right (worked by hand: its 3 nearest
	// neighbours share its class), so its weight is exactly 1 and it ranks first
	ex, err := BootstrapWrapper{Exhaustive1: true}.Rank(context.Background(), x, y, 2, dataset.Rand(1))
	if err != nil {
		t.Fatal(err)
	}
	if ex.Order[0] != 0 || ex.Score[0] != 1 {
		t.Errorf("exhaustive: best %d with %v", ex.Order[0], ex.Score[0])
	}
	run := func(procs int) Ranking {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		rk, err := BootstrapWrapper{Ne: 200, Na: 3}.Rank(context.Background(), x, y, 2, dataset.Rand(2))
		if err != nil {
			t.Fatal(err)
		}
		return rk
	}
	a, b := run(1), run(3)
	if !reflect.DeepEqual(a, b) {
		t.Error("the wrapper's ranking depends on the number of threads")
	}
	if a.Order[0] != 0 {
		t.Errorf("wrapper: best feature %d (weight %v), want 0 (%v)", a.Order[0], a.Score[a.Order[0]], a.Score[0])
	}
	for j, w := range a.Score {
		if w != -1 && (w < 0 || w > 1) {
			t.Fatalf("weight of %d is %v", j, w)
		}
	}
}
