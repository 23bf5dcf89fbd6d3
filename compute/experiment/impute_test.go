package experiment

import (
	"context"
	"math"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/impute"
	"steadfast/compute/synth"
)

// TestIntensitiesFittedOnTrainingSamples: with intensities (missing values kept), a
// split's training values and the proteins its filter keeps do not change when the test
// samples' intensities do (halved, a third of them removed): the filter, normalisation
// and imputation are fitted on the training samples alone; each test sample's values
// are those the training fit gives it alone (impute.Fitted.Apply); the kept proteins
// are ordered before the others.
func TestIntensitiesFittedOnTrainingSamples(t *testing.T) {
	raw, _ := synth.Proteomics{Samples: 10, Proteins: 300, Diff: 20, LogFC: 1.5, Censored: 0.25, MAR: 0.02}.Generate(1)
	split := dataset.Split{Train: []int{0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17}, Test: []int{8, 9, 18, 19}}
	for _, prep := range []dataset.Prep{
		{Log2: true, Impute: "knn", Normalize: "median"}, {Log2: true, Impute: "minprob", Normalize: "quantile", Seed: 5},
		{Log2: true, Impute: "halfmin"}, {Impute: "halfmin", Normalize: "sum", Log2: true},
	} {
		ds, _, err := dataset.PreprocessContext(context.Background(), raw, prep)
		if err != nil {
			t.Fatal(err)
		}
		if ds.Raw == nil {
			t.Fatal("no intensities kept")
		}
		cfg := Config{Prep: prep}
		xtr, _, xte, _, order, keep, err := prepare(context.Background(), cfg, ds, nil, split)
		if err != nil {
			t.Fatal(err)
		}
		changed := *ds
		changed.Raw = mat.DenseCopyOf(ds.Raw)
		for k, i := range split.Test {
			row := changed.Raw.RawRowView(i)
			for j := range row {
				row[j] /= 2
				if (j+k)%3 == 0 {
					row[j] = math.NaN()
				}
			}
		}
		xtr2, _, _, _, _, keep2, err := prepare(context.Background(), cfg, &changed, nil, split)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(xtr.RawMatrix().Data, xtr2.RawMatrix().Data) || !slices.Equal(keep, keep2) {
			t.Errorf("%+v: the training values or kept proteins changed with the test samples'", prep)
		}
		f, err := impute.Fit(dataset.Rows(ds.Raw, split.Train), dataset.Labels(ds.Labels, split.Train), 2, dataset.Pick(ds.Samples, split.Train), ds.Features, prep.ImputeOptions())
		if err != nil {
			t.Fatal(err)
		}
		out := make([]float64, len(ds.Features))
		for k, i := range split.Test {
			f.Apply(ds.Raw.RawRowView(i), ds.Samples[i], out)
			if !slices.Equal(out, xte.RawRowView(k)) {
				t.Errorf("%+v: test sample %s is not the training fit's", prep, ds.Samples[i])
			}
		}
		if keep == nil || !slices.Equal(keep, f.Kept()) {
			t.Errorf("%+v: kept %d, the fit %d", prep, len(keep), len(f.Kept()))
		}
		for r, j := range order[:len(keep)] {
			if !slices.Contains(keep, j) {
				t.Fatalf("%+v: the %d-th of the order is not kept", prep, r+1)
			}
		}
	}
}

// TestIntensitiesKTSPAndWorkers: k-TSP compares a sample's own values, unscaled; with
// intensities they are the split's own preprocessing (prepare without z-scores), not
// the data's X fitted on all samples, so a training set's k-TSP values do not move when
// the test samples' intensities do. A study of intensities (minprob, seeded by the
// samples' and proteins' names) gives the same result on 1 and 3 workers.
func TestIntensitiesKTSPAndWorkers(t *testing.T) {
	raw, _ := synth.Proteomics{Samples: 8, Proteins: 120, Diff: 10, LogFC: 1.5, Censored: 0.2, MAR: 0.02}.Generate(2)
	prep := dataset.Prep{Log2: true, Impute: "minprob", Normalize: "median", Seed: 3}
	ds, _, err := dataset.PreprocessContext(context.Background(), raw, prep)
	if err != nil {
		t.Fatal(err)
	}
	split := dataset.Split{Train: []int{0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13}, Test: []int{6, 7, 14, 15}}
	cfg := Config{Prep: prep, ZScore: true, Classifiers: []string{"ktsp"}}
	plain := cfg
	plain.ZScore = false
	want, _, _, _, _, _, err := prepare(context.Background(), plain, ds, nil, split)
	if err != nil {
		t.Fatal(err)
	}
	changed := *ds
	changed.Raw = mat.DenseCopyOf(ds.Raw)
	for _, i := range split.Test {
		row := changed.Raw.RawRowView(i)
		for j := range row {
			row[j] *= 3
		}
	}
	for _, d := range []*dataset.Dataset{ds, &changed} {
		got, err := rawValues(context.Background(), cfg, d, nil, split, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got[0].RawMatrix().Data, want.RawMatrix().Data) {
			t.Error("k-TSP's training values are not the split's own preprocessing of the intensities")
		}
	}
	run := func(workers int) *Result {
		c := DefaultConfig()
		c.Prep, c.Ks, c.Repeats, c.Folds, c.Workers = prep, []int{2, 5, 10}, 2, 4, workers
		c.Classifiers = []string{"svm", "ktsp"}
		res, err := Run(context.Background(), c, ds, nil)
		if err != nil {
			t.Fatal(err)
		}
		for m := range res.Methods {
			res.Methods[m].Seconds, res.Methods[m].PredictSeconds = 0, 0
		}
		return res
	}
	if a, b := run(1), run(3); !reflect.DeepEqual(a.Methods, b.Methods) {
		t.Error("a study of intensities differs between 1 and 3 workers")
	}
}
