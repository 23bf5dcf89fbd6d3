package study

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/impute"
	"steadfast/compute/method"
	"steadfast/compute/signature"
	"steadfast/compute/synth"
)

func sharedData(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "..", "shared", "data", name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the real data are needed: %v", err)
	}
	return p
}

// TestProteusEndToEnd: MaxQuant's proteinGroups.txt of the Proteus example with its
// design table, log2, median centring and impute.knn inside every training set: 3,883
// groups read, 169 left out at reading, 3,714 analysed of which the filter keeps 2,928
// on all samples (786 ranked last); a 3 x 7-fold study of the F-statistic, its
// signature of 10 proteins with the linear SVM separates A from B (cross-validated AUC
// 1, the conditions differ strongly) and its gene table gives limma's moderated t
// beside Welch's; the model read back preprocesses a cohort against its frozen fit:
// the runs' intensities doubled (median centring takes the factor out, so the values
// are the training values and the cohort is recognised as such) with three signature
// proteins' values removed in A-1 (imputed, the note says so) are predicted as the
// training runs are.
func TestProteusEndToEnd(t *testing.T) {
	prep := dataset.Prep{Log2: true, DropConstant: true, Impute: impute.KNN, Normalize: impute.Median}
	read := dataset.Options{DesignPath: sharedData(t, "proteus_metadata.txt")}
	ds, err := Open(sharedData(t, "proteus_proteinGroups.txt.gz"), read, prep)
	if err != nil {
		t.Fatal(err)
	}
	ranked := 0
	for _, l := range ds.LeftOut {
		if l.Ranked {
			ranked++
		}
	}
	if _, p := ds.Dims(); p != 3714 || ranked != 786 || len(ds.LeftOut) != 169+786 {
		t.Fatalf("%d groups, %d ranked last, %d in the left-out list; want 3714, 786 and 955", p, ranked, len(ds.LeftOut))
	}
	cfg := experiment.DefaultConfig()
	cfg.Prep, cfg.Read, cfg.Methods, cfg.Folds, cfg.Repeats = prep, read, []method.Spec{{Name: "fstat"}}, 7, 3
	cfg.Classifiers, cfg.Ks, cfg.Workers = []string{"svm"}, []int{5, 10, 20}, 2
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Data.Intensities || len(res.Data.LeftOut) != 955 {
		t.Errorf("the result does not record the intensities and their left-out list")
	}
	sig, err := BuildSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 10, Classifier: "svm"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if auc := sig.CV.Summary().MeanAUC; auc < 0.99 {
		t.Errorf("cross-validated AUC %.3f", auc)
	}
	head := sig.GeneTable()[0]
	if !slices.Contains(head, "welch_p") || !slices.Contains(head, "limma_t_B_vs_A") || !slices.Contains(head, "limma_p") {
		t.Errorf("gene table header %v", head)
	}
	for _, g := range sig.Genes {
		if math.IsNaN(g.ModT) || !(g.ModP < 0.05) || g.ModT > 0 != (g.Higher == "B") {
			t.Errorf("%s: moderated t %v, p %v, higher in %s", g.ID, g.ModT, g.ModP, g.Higher)
		}
	}
	b, err := sig.Model.Encode()
	if err != nil {
		t.Fatal(err)
	}
	m, err := signature.DecodeModel("model.json", b)
	if err != nil {
		t.Fatal(err)
	}
	if m.Impute == nil || len(m.Impute.Kept) != 2928 || len(m.Impute.Genes) != 10 {
		t.Fatalf("the model's frozen preprocessing: %+v", m.Impute)
	}
	raw, err := ReadData(context.Background(), sharedData(t, "proteus_proteomics.csv"), dataset.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw.X.Scale(2, raw.X)
	for _, g := range m.Genes[:3] {
		raw.X.Set(0, slices.Index(raw.Features, g.ID), math.NaN())
	}
	var csv bytes.Buffer
	if err := dataset.WriteCSV(&csv, raw); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cohort.csv")
	os.WriteFile(path, csv.Bytes(), 0o644)
	v, err := Validate(context.Background(), m, path, CohortOptions{})
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(v.Notes, "\n")
	if !strings.Contains(notes, "2928 of its 2928 kept proteins are in the cohort; 3 missing values of the signature genes imputed") {
		t.Errorf("notes:\n%s", notes)
	}
	if v.Metrics == nil || v.Metrics.Accuracy != 1 {
		t.Errorf("the doubled runs are not predicted as the training runs: %+v", v.Metrics)
	}
}

// TestSimulatedMissingNotAtRandom: a simulated label-free table of known truth (8 + 8
// runs, 1,000 proteins, 50 differential by a log2 fold change of 1.5, about 21% of the
// values missing, mostly below each run's detection limit; synth.Proteomics, seed 1).
// The imputations' error on the missing values of the proteins the filter keeps,
// against the values before censoring (log2): knn's root mean square error 0.63 (bias
// +0.31), halfmin's 1.40 (-1.28), minprob's 1.87 (-1.11): with values censored near a
// soft limit, knn's neighbours of like abundance come closest; the left-censored draws
// land below them. A 5 x 4-fold study of the F-statistic recovers, in its signature of
// 50, 37 (minprob) and 40 (knn, halfmin) of the 50 differential proteins, against 19
// when the proteins with a missing value are dropped: below detection in one class is
// how a differential protein goes missing.
func TestSimulatedMissingNotAtRandom(t *testing.T) {
	raw, truth := synth.Proteomics{Samples: 8, Proteins: 1000, Diff: 50, LogFC: 1.5, Censored: 0.2, MAR: 0.02}.Generate(1)
	if s := dataset.Summarize(raw); s.MissingCells < 3000 || s.MissingCells > 4000 {
		t.Fatalf("%d values missing, want about a fifth of 16,000", s.MissingCells)
	}
	want := map[string][2]float64{impute.KNN: {0.63, 0.31}, impute.HalfMin: {1.40, -1.28}, impute.MinProb: {1.87, -1.11}}
	for _, m := range []string{impute.KNN, impute.HalfMin, impute.MinProb} {
		f, err := impute.Fit(dataset.Rows(raw.X, nil), raw.Labels, 2, raw.Samples, raw.Features, impute.Options{Log2: true, Impute: m})
		if err != nil {
			t.Fatal(err)
		}
		out := make([]float64, len(raw.Features))
		se, bias, cells := 0.0, 0.0, 0
		for i := range raw.Samples {
			f.Train(i, out)
			for _, j := range f.Kept() {
				if math.IsNaN(raw.X.At(i, j)) {
					e := out[j] - truth.Log2.At(i, j)
					se, bias, cells = se+e*e, bias+e, cells+1
				}
			}
		}
		rmse, b := math.Sqrt(se/float64(cells)), bias/float64(cells)
		t.Logf("%s: %d missing values of the %d kept proteins, RMSE %.3f, bias %+.3f", m, cells, len(f.Kept()), rmse, b)
		if math.Abs(rmse-want[m][0]) > 0.01 || math.Abs(b-want[m][1]) > 0.01 {
			t.Errorf("%s: RMSE %.3f and bias %+.3f, want %.2f and %+.2f", m, rmse, b, want[m][0], want[m][1])
		}
	}
	recall := map[string]int{}
	for _, prep := range []dataset.Prep{{Log2: true, Impute: impute.MinProb}, {Log2: true, Impute: impute.KNN}, {Log2: true, Impute: impute.HalfMin}, {Log2: true, DropMissing: true}} {
		ds, _, err := Prepare(raw, prep)
		if err != nil {
			t.Fatal(err)
		}
		cfg := experiment.DefaultConfig()
		cfg.Prep, cfg.Methods, cfg.Folds, cfg.Repeats = prep, []method.Spec{{Name: "fstat"}}, 4, 5
		cfg.Classifiers, cfg.Ks, cfg.Workers = []string{"svm"}, []int{10, 50}, 2
		res, err := Run(context.Background(), cfg, ds, nil)
		if err != nil {
			t.Fatal(err)
		}
		sig, err := BuildSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 50, Classifier: "svm"}, "")
		if err != nil {
			t.Fatal(err)
		}
		hit := 0
		for _, g := range sig.Genes {
			var j int
			fmt.Sscanf(g.ID, "P%d", &j)
			if truth.Diff[j-1] {
				hit++
			}
		}
		name := prep.Impute
		if prep.DropMissing {
			name = "dropped"
		}
		recall[name] = hit
		t.Logf("%s: %d of the 50 differential proteins in the signature of 50 (cross-validated AUC %.3f)", name, hit, sig.CV.Summary().MeanAUC)
	}
	if recall[impute.MinProb] != 37 || recall[impute.KNN] != 40 || recall[impute.HalfMin] != 40 || recall["dropped"] != 19 {
		t.Errorf("recovered %v; want minprob 37, knn 40, halfmin 40, dropped 19", recall)
	}
}
