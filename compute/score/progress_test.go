package score

import (
	"context"
	"sync"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/progress"
)

// shares runs rank under a context that records the shares it reports.
func shares(t *testing.T, rank func(ctx context.Context) error) []float64 {
	t.Helper()
	var mu sync.Mutex
	var got []float64
	ctx := progress.WithShare(context.Background(), func(s float64) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, s)
	})
	if err := rank(ctx); err != nil {
		t.Fatal(err)
	}
	return got
}

// SVM-RFE reports after every round the share of its features-weighted work done, so
// the last report is 1 exactly (worked by hand for synthSmall's 30 features: halving to
// 50 drops one a round, 30 down to 2, 29 reports; Step 0.1 drops 3 from 30, 2 from 27,
// 25, 23 and 21, then 1 from 19 down to 2: 5 + 18 = 23 reports).
func TestSVMRFEReportsItsShare(t *testing.T) {
	x, y := synthSmall()
	if _, p := x.Dims(); p != 30 {
		t.Fatalf("synthSmall has %d features; the counts below are for 30", p)
	}
	for _, c := range []struct {
		rfe     SVMRFE
		reports int
	}{{SVMRFE{Halve: true}, 29}, {SVMRFE{Step: 0.1}, 23}} {
		got := shares(t, func(ctx context.Context) error {
			_, err := c.rfe.Rank(ctx, x, y, 2, dataset.Rand(1, 1))
			return err
		})
		if len(got) != c.reports || got[len(got)-1] != 1 {
			t.Errorf("%+v: %d reports ending at %v, want %d ending at 1: %v", c.rfe, len(got), got[len(got)-1], c.reports, got)
		}
		for i := 1; i < len(got); i++ {
			if got[i] <= got[i-1] {
				t.Errorf("%+v: report %d fell or stood: %v", c.rfe, i, got)
			}
		}
	}
	// the ensemble reports the mean over its runs, which reaches 1 when all are done
	got := shares(t, func(ctx context.Context) error {
		_, err := EnsembleRFE{RFE: SVMRFE{Halve: true}, B: 3}.Rank(ctx, x, y, 2, dataset.Rand(1, 2))
		return err
	})
	most := 0.0
	for _, s := range got {
		most = max(most, s)
	}
	if len(got) != 3*29 || most != 1 {
		t.Errorf("ensemble of 3: %d reports, largest %v; want 87 and 1", len(got), most)
	}
}
