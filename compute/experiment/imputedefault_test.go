package experiment

import (
	"context"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/impute"
	"steadfast/compute/synth"
)

// TestTrainingSetsTakeTheDataDefaultImputation: a configuration choosing no imputation
// is resolved for its data as the whole data were preprocessed (dataset.Prep.For):
// knn for values not from mass spectrometry, minprob for a MaxQuant table's (MassSpec);
// and every training set fits the same (the split's values equal a fit with the method
// named).
func TestTrainingSetsTakeTheDataDefaultImputation(t *testing.T) {
	raw, _ := synth.Proteomics{Samples: 10, Proteins: 300, Diff: 20, LogFC: 1.5, Censored: 0.25, MAR: 0.02}.Generate(1)
	split := dataset.Split{Train: []int{0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17}, Test: []int{8, 9, 18, 19}}
	for _, c := range []struct {
		massSpec bool
		want     string
	}{{false, impute.KNN}, {true, impute.MinProb}} {
		raw.MassSpec = c.massSpec
		ds, _, err := dataset.PreprocessContext(context.Background(), raw, dataset.Prep{Log2: true})
		if err != nil {
			t.Fatal(err)
		}
		cfg := DefaultConfig()
		cfg.Prep = dataset.Prep{Log2: true}
		resolved, err := cfg.ResolvedFor(ds)
		if err != nil {
			t.Fatal(err)
		}
		if resolved.Prep.Impute != c.want {
			t.Errorf("mass spectrometry %v: resolved to %q, want %q", c.massSpec, resolved.Prep.Impute, c.want)
		}
		_, _, auto, _, _, _, err := prepare(context.Background(), Config{Prep: dataset.Prep{Log2: true}}, ds, nil, split)
		if err != nil {
			t.Fatal(err)
		}
		_, _, named, _, _, _, err := prepare(context.Background(), Config{Prep: dataset.Prep{Log2: true, Impute: c.want}}, ds, nil, split)
		if err != nil {
			t.Fatal(err)
		}
		r, k := auto.Dims()
		for i := 0; i < r; i++ {
			for j := 0; j < k; j++ {
				if auto.At(i, j) != named.At(i, j) {
					t.Fatalf("mass spectrometry %v: test value (%d, %d) %v with no method, %v with %s", c.massSpec, i, j, auto.At(i, j), named.At(i, j), c.want)
				}
			}
		}
	}
}
