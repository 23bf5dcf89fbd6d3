package score

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"steadfast/compute/dataset"
)

// SVM-RFE through the samples' Gram matrix, computed once and updated as features
// leave, ranks every feature of Colon (2,000 genes), Leukemia (7,129) and SRBCT (2,308,
// four classes) exactly as one SVM fitted a round on the remaining columns (the same
// order; scores to 1e-9): the same solver steps in the same order, only the inner
// products computed otherwise (classify's TestKernelDualCDTakesDualCDsSteps shows the
// fits equal to dualCD's). Real data (../shared/data).
func TestSVMRFEThroughTheGramMatrix(t *testing.T) {
	for _, f := range []string{"colon.csv", "leukemia.gct", "srbct.csv"} {
		ds, err := dataset.ReadFile(filepath.Join("..", "..", "..", "shared", "data", f), dataset.Options{})
		if err != nil {
			t.Fatalf("real data missing (../shared/data): %v", err)
		}
		x := dataset.ZScored(ds.X)
		gramRFE = true
		viaGram, err := SVMRFE{}.Rank(context.Background(), x, ds.Labels, len(ds.Classes), dataset.Rand(1, 2))
		if err != nil {
			t.Fatal(err)
		}
		gramRFE = false
		plain, err := SVMRFE{}.Rank(context.Background(), x, ds.Labels, len(ds.Classes), dataset.Rand(1, 2))
		gramRFE = true
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(viaGram.Order, plain.Order) {
			t.Errorf("%s: the rankings differ", f)
		}
		worst := 0.0
		for j := range plain.Score {
			worst = max(worst, abs(viaGram.Score[j]-plain.Score[j]))
		}
		if worst > 1e-9 {
			t.Errorf("%s: scores differ by up to %g", f, worst)
		}
	}
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// selectFirst leaves the k least of a permutation first and sorted, as a full sort
// would, for every k, on random orders with ties broken by index (a strict order).
func TestSelectFirst(t *testing.T) {
	r := dataset.Rand(5)
	for trial := 0; trial < 200; trial++ {
		n := 1 + r.IntN(300)
		keys := make([]int, n)
		for i := range keys {
			keys[i] = r.IntN(20) // many ties
		}
		less := func(a, b int) bool {
			if keys[a] != keys[b] {
				return keys[a] < keys[b]
			}
			return a > b
		}
		want := make([]int, n)
		for i := range want {
			want[i] = i
		}
		slices.SortFunc(want, func(a, b int) int {
			if less(a, b) {
				return -1
			}
			return 1
		})
		k := r.IntN(n + 1)
		v := r.Perm(n)
		selectFirst(v, k, less)
		if !slices.Equal(v[:k], want[:k]) {
			t.Fatalf("n %d k %d: %v, want %v", n, k, v[:k], want[:k])
		}
		rest := slices.Clone(v[k:])
		slices.Sort(rest)
		other := slices.Clone(want[k:])
		slices.Sort(other)
		if !slices.Equal(rest, other) {
			t.Fatalf("n %d k %d: the rest differ", n, k)
		}
	}
}
