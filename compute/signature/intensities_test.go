package signature

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/impute"
	"steadfast/compute/method"
	"steadfast/compute/synth"
)

// TestLockedIntensities: a model locked on intensities (missing values, quantile
// normalisation, impute.knn, Pareto scaling) keeps the preprocessing fitted on all its
// training samples, frozen for its genes: read back from its file, it gives every
// training run the values of the genes the study analysed (X), bit for bit; its SDs
// are the square roots of the genes' (Pareto). A file whose frozen preprocessing was
// edited consistently (its digest recomputed) is refused by the checks, each naming
// what is wrong.
func TestLockedIntensities(t *testing.T) {
	raw, _ := synth.Proteomics{Samples: 6, Proteins: 150, Diff: 10, LogFC: 2, Censored: 0.2, MAR: 0.02}.Generate(3)
	prep := dataset.Prep{Log2: true, Impute: impute.KNN, Normalize: impute.Quantile, Scaling: "pareto"}
	ds, _, err := dataset.PreprocessContext(context.Background(), raw, prep)
	if err != nil {
		t.Fatal(err)
	}
	cfg := experiment.Config{Prep: prep, Methods: []method.Spec{{Name: "fstat"}}, Protocol: experiment.CV10x10, Folds: 3, Repeats: 2, Classifiers: []string{"svm"}, Ks: []int{5}, Seed: 1, Workers: 1}
	res, err := experiment.Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	feats, _ := Select(res, Choice{Method: 0, K: 5})
	m, err := Lock(context.Background(), res, ds, Choice{Method: 0, K: 5, Classifier: "svm"}, feats)
	if err != nil {
		t.Fatal(err)
	}
	_, sd := dataset.ColumnMeanSD(dataset.SelectFeatures(ds.X, feats))
	for j := range sd {
		if m.SD[j] != math.Sqrt(sd[j]) {
			t.Errorf("gene %d: SD %v, Pareto's sqrt(%v)", j, m.SD[j], sd[j])
		}
	}
	b, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeModel("model.json", b)
	if err != nil {
		t.Fatal(err)
	}
	f, genes, err := back.Impute.Fitted(back.Prep.ImputeOptions())
	if err != nil {
		t.Fatal(err)
	}
	u := back.Impute.Universe()
	row, out := make([]float64, len(u)), make([]float64, len(u))
	for i, s := range ds.Samples {
		for k, id := range u {
			row[k] = ds.Raw.At(i, slices.Index(ds.Features, id))
		}
		f.Apply(row, s, out)
		for g, j := range feats {
			if out[genes[g]] != ds.X.At(i, j) {
				t.Fatalf("%s, %s: frozen %v, the study's %v", s, ds.Features[j], out[genes[g]], ds.X.At(i, j))
			}
		}
	}
	for _, c := range []struct {
		edit func(m *Model)
		want string
	}{
		{func(m *Model) { m.Impute.Target = m.Impute.Target[1:] }, "quantile target of"},
		{func(m *Model) { m.Impute.Target[3] = m.Impute.Target[2] - 1 }, "not ascending"},
		{func(m *Model) { m.Impute.Over = nil }, "marks of sparse proteins"},
		{func(m *Model) { m.Impute.Kept[1] = m.Impute.Kept[0] }, "empty or repeated"},
		{func(m *Model) { m.Impute.Genes[0].ID = "P99999" }, "imputed as"},
		{func(m *Model) { m.Impute.Genes = m.Impute.Genes[1:] }, "the imputation of 4 genes"},
		{func(m *Model) { m.Prep.Impute = impute.HalfMin }, "with imputation halfmin"},
		{func(m *Model) { m.Prep.Normalize = impute.Median }, "quantile target"},
		{func(m *Model) { g := &m.Impute.Genes[1]; g.Neighbours, g.Mean = []string{g.ID}, false }, "a neighbour"},
	} {
		e, _ := DecodeModel("model.json", b)
		c.edit(e)
		eb, err := e.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeModel("model.json", eb); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("edit refused as %v, want %q", err, c.want)
		}
	}
}
