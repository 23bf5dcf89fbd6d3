package score

import (
	"context"
	"testing"

	"steadfast/compute/classify"
	"steadfast/compute/dataset"
)

// Ensemble SVM-RFE fits each bootstrap with repeated samples merged into weights. With
// SVMs run to convergence, that gives the same top 50 as SVM-RFE on the bootstrap with
// its copies (Colon, a draw with seed 5: 40 distinct of 62). At the default cap of 1000
// passes the copies version stops early and shares only 35 of the 50.
func TestWeightedBootstrapRFEEqualsCopies(t *testing.T) {
	ds := colon(t)
	x, y := ds.X, ds.Labels
	n, _ := x.Dims()
	r := dataset.Rand(5)
	draw := make([]int, n)
	for i := range draw {
		draw[i] = r.IntN(n)
	}
	rows, weight := multiplicities(draw, n)
	if len(rows) == n {
		t.Fatal("no repeated sample in the draw")
	}
	s := SVMRFE{Step: 0.1, SVM: classify.SVMParams{MaxIter: 1000000}}
	xc, yc := dataset.SelectSamples(x, y, draw)
	copies, err := s.Rank(context.Background(), xc, yc, 2, dataset.Rand(1))
	if err != nil {
		t.Fatal(err)
	}
	xw, yw := dataset.SelectSamples(x, y, rows)
	weighted, err := s.rankWeighted(context.Background(), xw, yw, weight, 2, dataset.Rand(1))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		if copies.Order[i] != weighted.Order[i] {
			t.Fatalf("rank %d: %s with copies, %s weighted", i+1, ds.Features[copies.Order[i]], ds.Features[weighted.Order[i]])
		}
	}
}
