package signature

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"steadfast/compute/classify"
	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
)

// colonData is Colon as colonStudy analyses it.
func colonData(t *testing.T) *dataset.Dataset {
	t.Helper()
	ds, err := dataset.ReadFile(filepath.Join(sharedData, "colon.csv"), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	ds, _ = dataset.Preprocess(ds, dataset.Prep{Log2: true, DropConstant: true})
	return ds
}

// The locked linear SVM is the study's classifier trained on all samples: its decision
// values on the samples equal, bit for bit, those of a LinearSVM fitted on the z-scored
// data's signature columns with the same seed (the study's pipeline; LinearSVM itself
// matches scikit-learn's LinearSVC: classify's TestLinearSVMMatchesSklearn). The locked
// 3-NN gives classify.KNN's neighbour shares. Both survive the file unchanged.
func TestLockedModelIsTheStudysClassifier(t *testing.T) {
	res := colonStudy(t)
	ds := colonData(t)
	feats, err := Select(res, Choice{Method: 0, K: 10})
	if err != nil {
		t.Fatal(err)
	}
	x := dataset.SelectFeatures(ds.X, feats)
	z := dataset.SelectFeatures(dataset.ZScored(ds.X), feats)
	for _, cl := range []string{"svm", "3nn"} {
		m, err := Lock(context.Background(), res, ds, Choice{Method: 0, K: 10, Classifier: cl}, feats)
		if err != nil {
			t.Fatal(err)
		}
		got, pred, err := m.Scores(x)
		if err != nil {
			t.Fatal(err)
		}
		var want [][]float64
		var wantPred []int
		if cl == "svm" {
			s := classify.LinearSVM{Exact: true}
			if err := s.Fit(context.Background(), z, ds.Labels, 2, rand.New(rand.NewPCG(res.Config.Seed, 0x5167))); err != nil {
				t.Fatal(err)
			}
			wantPred, want = s.PredictScores(z)
		} else {
			k := classify.KNN{K: 3}
			k.Fit(z, ds.Labels, 2)
			wantPred, want = k.PredictScores(z)
		}
		for i := range want {
			if want[i][0] != got[i][0] || want[i][1] != got[i][1] || pred[i] != wantPred[i] {
				t.Fatalf("%s sample %d: scores %v (class %d), the study's classifier %v (class %d)", cl, i, got[i], pred[i], want[i], wantPred[i])
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
		again, _, _ := back.Scores(x)
		for i := range again {
			if again[i][0] != got[i][0] || again[i][1] != got[i][1] {
				t.Fatalf("%s: read back, sample %d scores %v, before %v", cl, i, again[i], got[i])
			}
		}
		if len(back.Genes) != 10 || back.Genes[0].ID != ds.Features[feats[0]] || back.DataSHA256 != ds.Hash() {
			t.Errorf("%s: genes %v, data digest %s", cl, back.Genes, back.DataSHA256)
		}
	}
}

// Every one-byte change of a model file is refused or gives the identical predictions
// (a change inside white space); another format or program version is refused by name.
func TestModelFileEditsAreRefused(t *testing.T) {
	res := colonStudy(t)
	ds := colonData(t)
	feats, _ := Select(res, Choice{Method: 0, K: 5})
	m, err := Lock(context.Background(), res, ds, Choice{Method: 0, K: 5, Classifier: "svm"}, feats)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := m.Encode()
	// the file's SHA-256 the outputs name is what sha256sum gives for these bytes,
	// and differs from the content digest stored inside
	if file := sha256.Sum256(b); m.FileSHA256() != hex.EncodeToString(file[:]) || m.FileSHA256() == m.SHA256 {
		t.Errorf("file SHA-256 %s, the bytes' %x, the stored digest %s", m.FileSHA256(), file, m.SHA256)
	}
	x := dataset.SelectFeatures(ds.X, feats)
	want, _, _ := m.Scores(x)
	accepted := 0
	for i := range b {
		for _, flip := range []byte{0x01, 0x20} {
			c := bytes.Clone(b)
			c[i] ^= flip
			back, err := DecodeModel("model.json", c)
			if err != nil {
				continue
			}
			accepted++
			got, _, err := back.Scores(x)
			if err != nil {
				t.Fatalf("byte %d ^ %#x: read, then %v", i, flip, err)
			}
			for s := range got {
				if got[s][1] != want[s][1] {
					t.Fatalf("byte %d ^ %#x (%q): accepted with other predictions", i, flip, b[max(0, i-10):min(len(b), i+10)])
				}
			}
		}
	}
	t.Logf("%d bytes, %d one-byte changes accepted (white space), all with identical predictions", len(b), accepted)
	for _, c := range []struct{ from, to, want string }{
		{`"format": 1`, `"format": 2`, "format 2"},
		{`"program": "Steadfast ` + experiment.Version + `"`, `"program": "Steadfast 9.9.9"`, "written by Steadfast 9.9.9"},
	} {
		edited := strings.Replace(string(b), c.from, c.to, 1)
		if edited == string(b) {
			t.Fatalf("%q not in the file", c.from)
		}
		if _, err := DecodeModel("model.json", []byte(edited)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.to, err)
		}
	}
	path := filepath.Join(t.TempDir(), "model.json")
	os.WriteFile(path, b, 0o644)
	if _, err := ReadModel(path); err != nil {
		t.Errorf("the file as written: %v", err)
	}
}

// The locked linear SVM's decision values on Colon's F-statistic signature (k = 10) equal
// scikit-learn's LinearSVC (C = 1, squared hinge, tol 1e-10) trained on the same
// preprocessed genes (testdata/locked_linearsvc.py), within the solvers' tolerance: the
// locked model stops at a dual gap of 1e-6, so 1e-4 on each decision value.
func TestLockedSVMEqualsLinearSVC(t *testing.T) {
	res := colonStudy(t)
	ds := colonData(t)
	c := Choice{Method: 0, K: 10, Classifier: "svm"}
	feats, _ := Select(res, c)
	m, err := Lock(context.Background(), res, ds, c, feats)
	if err != nil {
		t.Fatal(err)
	}
	scores, _, err := m.Scores(dataset.SelectFeatures(ds.X, feats))
	if err != nil {
		t.Fatal(err)
	}
	ref := table(t, "locked_linearsvc.csv")
	if len(ref) != len(scores) {
		t.Fatalf("%d samples, scikit-learn %d", len(scores), len(ref))
	}
	worst := 0.0
	for i, r := range ref {
		worst = math.Max(worst, math.Abs(scores[i][1]-num(t, r[1])))
	}
	if worst > 1e-4 {
		t.Errorf("decision values differ from LinearSVC's by up to %g", worst)
	}
	t.Logf("largest difference from LinearSVC: %.2g", worst)
}
