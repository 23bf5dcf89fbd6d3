package score

import (
	"context"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
)

// tiedData has one informative feature (column 0) and five identical copies of a
// second one (columns 1-5), which every ranker must score alike.
func tiedData() (*mat.Dense, []int) {
	y := []int{0, 0, 0, 0, 1, 1, 1, 1}
	x := mat.NewDense(8, 6, nil)
	for i := range y {
		x.Set(i, 0, float64(3*y[i])+0.1*float64(i%3))
		for j := 1; j < 6; j++ {
			x.Set(i, j, float64(y[i])+0.5*float64(i%2))
		}
	}
	return x, y
}

// TestTiesFollowTheSeededRule: the copies come out in an order drawn from the seed,
// the same for the same seed, and not always in column order (SPEC section 1).
func TestTiesFollowTheSeededRule(t *testing.T) {
	x, y := tiedData()
	for _, tc := range []struct {
		name string
		r    Ranker
	}{{"F-statistic", FStat{}}, {"SVM-RFE", SVMRFE{}}, {"SVM-ONE", SVMOne{}}} {
		orders := map[string]bool{}
		for seed := uint64(1); seed <= 12; seed++ {
			a, err := tc.r.Rank(context.Background(), x, y, 2, dataset.Rand(seed, 9))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := tc.r.Rank(context.Background(), x, y, 2, dataset.Rand(seed, 9))
			if !slices.Equal(a.Order, b.Order) {
				t.Errorf("%s, seed %d: two runs ordered %v and %v", tc.name, seed, a.Order, b.Order)
			}
			if a.Order[0] != 0 {
				t.Errorf("%s, seed %d: the informative feature is not first: %v", tc.name, seed, a.Order)
			}
			orders[string(fmtInts(a.Order[1:]))] = true
		}
		if len(orders) < 3 {
			t.Errorf("%s: 12 seeds gave %d orders of the five tied copies; ties are not broken at random", tc.name, len(orders))
		}
	}
}

func fmtInts(v []int) []byte {
	b := make([]byte, len(v))
	for i, x := range v {
		b[i] = byte('0' + x)
	}
	return b
}
