package dataset

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Grouped folds keep every group on one side of each split, cover every sample once as
// a test sample, and spread the classes: GDS507's 17 arrays, grouped by individual (7
// pairs of tumour and normal tissue of one patient, 3 arrays alone), in 3 folds.
func TestGroupedFoldsKeepGroupsTogether(t *testing.T) {
	ds, err := ReadFile(filepath.Join("testdata", "geo", "GDS507.soft.gz"), Options{GroupName: "individual"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Groups) != 17 || !slices.ContainsFunc(ds.Notes, func(n string) bool {
		return strings.Contains(n, `grouped by "individual": 10 groups, 7 of them with more than one sample`)
	}) {
		t.Fatalf("groups %q, notes %q", ds.Groups, ds.Notes)
	}
	for seed := uint64(1); seed <= 20; seed++ {
		folds := GroupedFolds(ds.Labels, ds.Groups, 3, Rand(seed))
		seen := map[int]int{}
		for _, f := range folds {
			test := map[string]bool{}
			for _, i := range f.Test {
				seen[i]++
				test[ds.Groups[i]] = true
			}
			for _, i := range f.Train {
				if test[ds.Groups[i]] {
					t.Fatalf("seed %d: group %s on both sides of fold %d", seed, ds.Groups[i], f.Fold)
				}
			}
			classes := map[int]bool{}
			for _, i := range f.Test {
				classes[ds.Labels[i]] = true
			}
			if len(classes) != 2 {
				t.Errorf("seed %d: fold %d tests one class only", seed, f.Fold)
			}
		}
		if len(seen) != 17 {
			t.Fatalf("seed %d: %d samples tested", seed, len(seen))
		}
	}
	if _, err := ReadFile(filepath.Join("testdata", "geo", "GDS507.soft.gz"), Options{GroupName: "patient"}); err == nil || !strings.Contains(err.Error(), `no sample annotation is named "patient"`) {
		t.Errorf("an unknown group annotation: %v", err)
	}
}
