package score

import (
	"context"
	"math"
	"reflect"
	"runtime"
	"testing"

	"steadfast/compute/dataset"
)

func TestBootstrapWrapper(t *testing.T) {
	// 40 samples, 2 classes; feature 0 separates the classes, features 1..19 are noise
	r := dataset.Rand(5)
	x, y := planted(r, 40, 20, 0, func(y int) float64 { return float64(y)*10 + r.Float64() })
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

// The K = 2 baseline: the weight of j is the mean over the other features k of the CV
// goodness of the pair {j, k}, computed here one pair at a time with the same folds;
// the blocked sums give the same weights on 1 and 3 threads, and the progress counter
// reaches p(p-1)/2.
func TestWrapperPairsBaseline(t *testing.T) {
	r := dataset.Rand(7)
	p := 150 // more rows than the 64 blocks
	x, y := planted(r, 30, p, 3, func(y int) float64 { return float64(y)*4 + r.NormFloat64() })
	var last int
	run := func(procs int) Ranking {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		last = 0
		w := BootstrapWrapper{Exhaustive2: true, Progress: func(done, total int) {
			if total != PairCount(p) {
				t.Errorf("progress total %d, want %d pairs", total, PairCount(p))
			}
			last = max(last, done)
		}}
		rk, err := w.Rank(context.Background(), x, y, 2, dataset.Rand(4))
		if err != nil {
			t.Fatal(err)
		}
		return rk
	}
	a := run(1)
	if last != PairCount(p) {
		t.Errorf("progress reached %d of %d", last, PairCount(p))
	}
	if b := run(3); !reflect.DeepEqual(a, b) {
		t.Error("the K = 2 weights depend on the number of threads")
	}
	// the same folds as Rank draws from dataset.Rand(4)
	folds := dataset.StratifiedFolds(y, 5, dataset.Rand(4))
	for _, j := range []int{0, 3, 77, p - 1} {
		s := 0.0
		for k := 0; k < p; k++ {
			if k != j {
				s += cvAccuracy3NN(x, y, 2, []int{j, k}, folds)
			}
		}
		if want := s / float64(p-1); math.Abs(a.Score[j]-want) > 1e-12 {
			t.Errorf("weight of %d: %v, pair by pair %v", j, a.Score[j], want)
		}
	}
	if a.Order[0] != 3 {
		t.Errorf("best feature %d, want the planted 3", a.Order[0])
	}
	if c := PairCost(x, y, 2); c <= 0 {
		t.Errorf("pair cost %v", c)
	}
}
