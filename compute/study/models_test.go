package study

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/method"
	"steadfast/compute/signature"
)

// A Colon study with logistic regression and a random forest among its classifiers
// runs end to end: both have accuracies and out-of-fold probabilities (scores in [0, 1]
// summing to 1), the advice chooses for each, a signature locks for each with its own
// probabilities (no Platt map: the operating block's probabilities are the out-of-fold
// probabilities averaged, the rule p > 0.5), and the nested estimate and a permutation
// test run with them.
func TestStudyWithLogitAndForest(t *testing.T) {
	ds, err := Open(filepath.Join("..", "..", "..", "shared", "data", "colon.csv"), dataset.Options{}, dataset.Prep{Log2: true, DropConstant: true})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	cfg := experiment.DefaultConfig()
	cfg.Methods = []method.Spec{{Name: "fstat"}, {Name: "enetpath"}}
	cfg.Protocol, cfg.Repeats, cfg.Folds, cfg.Ks = experiment.CV10x10, 2, 5, []int{5, 10}
	cfg.Classifiers, cfg.Prep = []string{"svm", "logit", "rf"}, dataset.Prep{Log2: true, DropConstant: true}
	cfg.ClassifierParams = map[string]map[string]float64{"rf": {"trees": 200}}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, cl := range []string{"logit", "rf"} {
		for _, mr := range res.Methods {
			if a := mr.Accuracy[cl]; len(a) != 2 || !(a[1].Mean > 0.6) {
				t.Errorf("%s, %s: accuracy %+v", mr.Label, cl, a)
			}
			for _, pr := range mr.Predictions {
				for _, sc := range pr.Scores[cl] {
					for i := 0; i < len(sc); i += 2 {
						if sc[i] < 0 || sc[i+1] < 0 || math.Abs(sc[i]+sc[i+1]-1) > 1e-12 {
							t.Fatalf("%s: scores %v are not probabilities", cl, sc[i:i+2])
						}
					}
				}
			}
		}
		m, k, ok := signature.Advice(res, cl)
		if !ok {
			t.Fatalf("%s: no advice", cl)
		}
		sig, err := BuildSignature(context.Background(), res, ds, signature.Choice{Method: m, K: k, Classifier: cl}, "")
		if err != nil {
			t.Fatal(err)
		}
		if sig.Model.Platt != nil || !sig.Op.Direct || sig.Model.RuleScore() != 0.5 {
			t.Errorf("%s: Platt %v, direct %v, rule score %g", cl, sig.Model.Platt, sig.Op.Direct, sig.Model.RuleScore())
		}
		for i, p := range sig.Op.Probs {
			if !(p >= 0 && p <= 1) {
				t.Fatalf("%s: sample %d's probability %g", cl, i, p)
			}
		}
		files, err := sig.Files()
		if err != nil {
			t.Fatal(err)
		}
		checkMetricKeys(t, fileCSV(t, files, "metrics.csv")) // each key once, each number described
		metrics := string(files["metrics.csv"])
		if strings.Contains(metrics, "platt_a") || !strings.Contains(metrics, "no Platt map") {
			t.Errorf("%s: metrics.csv says %q", cl, metrics)
		}
		if !strings.Contains(sig.Performance(), "own probabilities") {
			t.Errorf("%s: the text says %q", cl, sig.Performance())
		}
		head, rows := sig.FullModel()
		t.Logf("%s: advice %s at k = %d; full model %v, %d rows; %s", cl, res.Methods[m].Label, k, head, len(rows), sig.HowToApply())
		switch cl {
		case "logit":
			if !slices.Contains(head, "odds ratio per SD") || sig.Model.Logit == nil || !(sig.Model.Logit.Lambda > 0) {
				t.Errorf("logit: full model %v, fit %+v", head, sig.Model.Logit)
			}
		case "rf":
			if sig.Model.Forest == nil || len(sig.Model.Forest.Trees) != 200 || !strings.Contains(strings.Join(head, " "), "permutation importance") {
				t.Errorf("rf: full model %v", head)
			}
		}
		n, err := NestedEstimate(context.Background(), res, ds, cl, sig.Positive, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s nested: %s", cl, n.Summary())
		perm, err := Permute(context.Background(), res, ds, sig, 2, 5, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(perm.AUCs) != 2 {
			t.Errorf("%s: %d permuted AUCs", cl, len(perm.AUCs))
		}
	}
}

// A logistic and a forest signature locked on half of Colon, read back from its file,
// score the study's training samples exactly as before it was written, and predict the
// other half (a cohort file) with their own probabilities: the positive class's score,
// the rule at 0.5, no Platt map, and predictions.csv and metrics.csv say so; a forest's
// missing gene is taken at its training mean.
func TestLogitAndForestLockedModels(t *testing.T) {
	for _, cl := range []string{"logit", "rf"} {
		s := newColonSplitWith(t, false, cl)
		if s.model.Classifier != cl || s.model.Platt != nil {
			t.Fatalf("%s: locked %s with Platt %v", cl, s.model.Classifier, s.model.Platt)
		}
		b, err := s.model.Encode()
		if err != nil {
			t.Fatal(err)
		}
		again, err := signature.DecodeModel("model.json", b)
		if err != nil {
			t.Fatal(err)
		}
		x := dataset.SelectFeatures(s.train.X, genesOf(s.train, s.model))
		s1, p1, err := s.model.Scores(x)
		if err != nil {
			t.Fatal(err)
		}
		s2, p2, _ := again.Scores(x)
		if !slices.Equal(p1, p2) || !slices.EqualFunc(s1, s2, slices.Equal[[]float64]) {
			t.Fatalf("%s: the model read back scores otherwise", cl)
		}
		dir := t.TempDir()
		v := s.validate(t, s.write(t, dir, "cohort.csv", cohortFile{samples: s.cohort}), CohortOptions{})
		if len(v.Probs) != len(v.Samples) || v.RuleProb != 0.5 {
			t.Fatalf("%s: %d probabilities for %d samples, rule at %g", cl, len(v.Probs), len(v.Samples), v.RuleProb)
		}
		for i, p := range v.Probs {
			if p != v.Scores[i][v.Positive()] || (p > 0.5) != (v.Pred[i] == v.Positive()) {
				t.Fatalf("%s: sample %d: probability %g, scores %v, predicted %d", cl, i, p, v.Scores[i], v.Pred[i])
			}
		}
		if !(v.Metrics.AUC.AUC > 0.7) {
			t.Errorf("%s: cohort AUC %g", cl, v.Metrics.AUC.AUC)
		}
		files := ValidationFiles(v)
		if m := string(files["metrics.csv"]); !strings.Contains(m, "own probabilities") {
			t.Errorf("%s: metrics.csv %q", cl, m)
		}
		t.Logf("%s on the cohort: accuracy %.3f, AUC %.3f", cl, v.Metrics.Accuracy, v.Metrics.AUC.AUC)
		// a cohort without the model's first gene
		gene := slices.Index(s.raw.Features, s.model.Genes[0].ID)
		var feats []int
		for j := range s.raw.Features {
			if j != gene {
				feats = append(feats, j)
			}
		}
		lack := s.validate(t, s.write(t, dir, "lack.csv", cohortFile{samples: s.cohort, features: feats}), CohortOptions{Apply: signature.ApplyOptions{AcceptMissing: true}})
		if len(lack.Pred) != len(v.Pred) {
			t.Errorf("%s: %d predictions without a gene, %d with", cl, len(lack.Pred), len(v.Pred))
		}
	}
}

// genesOf are the columns of ds holding the model's genes, in the model's order.
func genesOf(ds *dataset.Dataset, m *signature.Model) []int {
	var out []int
	for _, g := range m.Genes {
		out = append(out, slices.Index(ds.Features, g.ID))
	}
	return out
}
