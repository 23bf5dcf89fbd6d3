package signature

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"steadfast/compute/classify"
	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
)

// The locked logistic regression and random forest are the study's classifiers trained
// on all samples: their probabilities on the samples equal, bit for bit, those of a
// classify.Logit (lambda by the same seeded inner cross-validation) and a
// classify.Forest (the study's seed) fitted on the z-scored signature genes; both
// survive the file unchanged, with no Platt map.
func TestLockedLogitAndForestAreTheStudysClassifiers(t *testing.T) {
	res := colonStudy(t)
	ds := colonData(t)
	feats, err := Select(res, Choice{Method: 0, K: 10})
	if err != nil {
		t.Fatal(err)
	}
	x := dataset.SelectFeatures(ds.X, feats)
	z := dataset.SelectFeatures(dataset.ZScored(ds.X), feats)
	for _, cl := range []string{"logit", "rf"} {
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
		if cl == "logit" {
			l := experiment.LogitOf(res.Config.ClassifierValues("logit"))
			if err := l.Fit(context.Background(), z, ds.Labels, 2, rand.New(rand.NewPCG(res.Config.Seed, 0x6c6f67))); err != nil {
				t.Fatal(err)
			}
			wantPred, want = l.PredictScores(z)
			if m.Logit.Lambda != l.Chosen || !strings.Contains(m.Logit.Chosen, "lambda.min of 10-fold") {
				t.Errorf("lambda %g (%s), the study's %g", m.Logit.Lambda, m.Logit.Chosen, l.Chosen)
			}
		} else {
			f := experiment.ForestOf(res.Config.ClassifierValues("rf"), res.Config.Seed, 1)
			if err := f.Fit(context.Background(), z, ds.Labels, 2); err != nil {
				t.Fatal(err)
			}
			wantPred, want = f.PredictScores(z)
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
			if again[i][1] != got[i][1] {
				t.Fatalf("%s: read back, sample %d scores %v, before %v", cl, i, again[i], got[i])
			}
		}
		t.Logf("%s: model file of %d bytes", cl, len(b))
	}
}

// A forest or logistic model file whose content is consistent (its digest recomputed)
// but whose numbers cannot be used is refused, naming what is wrong: a node's gene out
// of range, a child before its parent (a walk that need not end), a leaf of no class,
// more nodes than a bootstrap sample can grow, importances of the wrong length, a
// Platt map on a model of its own probabilities, coefficients of the wrong shape.
func TestMalformedModelsAreRefused(t *testing.T) {
	res := colonStudy(t)
	ds := colonData(t)
	feats, _ := Select(res, Choice{Method: 0, K: 5})
	lock := func(cl string) *Model {
		m, err := Lock(context.Background(), res, ds, Choice{Method: 0, K: 5, Classifier: cl}, feats)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	firstSplit := func(m *Model) (int, *classify.Tree) {
		for t := range m.Forest.Trees {
			if tr := &m.Forest.Trees[t]; len(tr.Feature) > 1 {
				return t, tr
			}
		}
		t.Fatal("no tree splits")
		return 0, nil
	}
	cases := []struct {
		cl   string
		edit func(m *Model)
		want string
	}{
		{"rf", func(m *Model) { _, tr := firstSplit(m); tr.Feature[0] = 5 }, "feature 5 of 5"},
		{"rf", func(m *Model) { _, tr := firstSplit(m); tr.Left[0] = 0 }, "children 0 and 1"},
		{"rf", func(m *Model) { _, tr := firstSplit(m); tr.Feature[len(tr.Feature)-1] = -3 }, "a leaf of class 2 of 2"},
		{"rf", func(m *Model) { _, tr := firstSplit(m); tr.Threshold = tr.Threshold[:1] }, "thresholds"},
		{"rf", func(m *Model) {
			tr := &m.Forest.Trees[0]
			for len(tr.Feature) <= 2*len(m.Samples) {
				tr.Feature, tr.Threshold, tr.Left = append(tr.Feature, -1), append(tr.Threshold, 0), append(tr.Left, 0)
			}
		}, "at most 123"},
		{"rf", func(m *Model) { m.Forest.Trees = nil }, "a random forest of 0 trees"},
		{"rf", func(m *Model) { m.Forest.Permutation = m.Forest.Permutation[:4] }, "importances of 4"},
		{"rf", func(m *Model) { m.Platt = &Platt{A: -1} }, "Platt"},
		{"rf", func(m *Model) { m.Forest.Mtry = 9 }, "trying 9 of 5 genes"},
		{"logit", func(m *Model) { m.W = append(m.W, m.W[0]) }, "2 logistic models for 2 classes"},
		{"logit", func(m *Model) { m.W[0] = m.W[0][:3] }, "coefficients: 3 for 5 genes"},
		{"logit", func(m *Model) { m.Logit.Alpha = 2 }, "alpha 2"},
		{"logit", func(m *Model) { m.Platt = &Platt{A: -1} }, "its probabilities are its own"},
		{"logit", func(m *Model) { m.Logit = nil }, "a logit model without its logistic regression's fields"},
	}
	for _, c := range cases {
		m := lock(c.cl)
		c.edit(m)
		b, err := m.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeModel("model.json", b); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.cl, err, c.want)
		}
	}
}
