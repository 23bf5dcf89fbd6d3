package study

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/method"
	"steadfast/compute/signature"
	"steadfast/compute/synth"
	"steadfast/internal/text"
)

// colonSignature runs the F-statistic under DRAGS 2008 at k = 10 (linear SVM) on Colon
// (log2), with its labels shuffled when shuffle is set, and builds its signature.
func colonSignature(t *testing.T, shuffle bool) (*experiment.Result, *dataset.Dataset, *Signature) {
	t.Helper()
	ds, err := Open(filepath.Join("..", "..", "..", "shared", "data", "colon.csv"), dataset.Options{}, dataset.Prep{Log2: true, DropConstant: true})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	if shuffle {
		ds.Labels = slices.Clone(ds.Labels)
		r := rand.New(rand.NewPCG(7, 7))
		r.Shuffle(len(ds.Labels), func(a, b int) { ds.Labels[a], ds.Labels[b] = ds.Labels[b], ds.Labels[a] })
	}
	res, sig := fstatSignature(t, ds, "tumor")
	return res, ds, sig
}

// fstatSignature runs the F-statistic under DRAGS 2008 at k = 10 (linear SVM) on ds
// (Colon, log2) and builds its signature with the positive class named ("" for the
// rule's).
func fstatSignature(t *testing.T, ds *dataset.Dataset, positive string) (*experiment.Result, *Signature) {
	t.Helper()
	cfg := experiment.DefaultConfig()
	cfg.Methods, cfg.Protocol, cfg.Ks, cfg.Classifiers = []method.Spec{{Name: "fstat"}}, experiment.DRAGS2008, []int{10}, []string{"svm"}
	cfg.Prep = dataset.Prep{Log2: true, DropConstant: true}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := BuildSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 10, Classifier: "svm"}, positive)
	if err != nil {
		t.Fatal(err)
	}
	return res, sig
}

// The permutation test finds Colon's signature real (p < 0.05 with 24 permutations:
// none of the permuted studies reaches its AUC, so p = 1/25) and a study of Colon with
// shuffled labels not (p > 0.05); every permuted AUC is counted, and progress reaches
// the end (25 studies: the true labels, then 24 permutations). Seeds fixed.
func TestPermutationTest(t *testing.T) {
	for _, shuffled := range []bool{false, true} {
		res, ds, sig := colonSignature(t, shuffled)
		last := 0
		perm, err := Permute(context.Background(), res, ds, sig, 24, 1, func(done, total int) { last = done })
		if err != nil {
			t.Fatal(err)
		}
		if len(perm.AUCs) != 24 || last != 25 { // the true labels first, then 24 permutations
			t.Fatalf("%d AUCs, progress to %d", len(perm.AUCs), last)
		}
		if !shuffled && perm.P >= 0.05 || shuffled && perm.P <= 0.05 {
			t.Errorf("labels shuffled %v: observed AUC %.3f, p = %.3f; permuted AUCs %v", shuffled, perm.Observed, perm.P, perm.AUCs)
		}
		t.Logf("labels shuffled %v: observed AUC %.3f, p = %.3f", shuffled, perm.Observed, perm.P)
	}
}

// The observed statistic is the cut study's on the true labels, computed as every
// permuted one is (the run's own AUC had been taken, from a study cut otherwise: the
// observed and permuted values could come from two procedures); progress counts it as
// the first of n + 1; p is (1 + #{permuted >= observed}) / (n + 1), by hand.
func TestPermutationObservedLikePermuted(t *testing.T) {
	res, ds, sig := colonSignature(t, true)
	var done []int
	perm, err := Permute(context.Background(), res, ds, sig, 4, 3, func(d, total int) {
		if total != 5 {
			t.Errorf("progress of %d in all, want 5", total)
		}
		done = append(done, d)
	})
	if err != nil {
		t.Fatal(err)
	}
	obs, err := permutedAUC(context.Background(), permutedConfig(res, sig.Choice, sig.Advised), ds, ds.Labels, sig)
	if err != nil {
		t.Fatal(err)
	}
	if perm.Observed != obs || !slices.Equal(done, []int{1, 2, 3, 4, 5}) {
		t.Errorf("observed %v, the cut study on the true labels %v; progress %v", perm.Observed, obs, done)
	}
	above := 0
	for _, a := range perm.AUCs {
		if a >= obs {
			above++
		}
	}
	if want := float64(1+above) / 5; perm.P != want || perm.Smallest() != 0.2 || !strings.Contains(perm.Says(), "the smallest attainable with 4 permutations: 0.2") {
		t.Errorf("p %v (want %v), smallest %v: %s", perm.P, want, perm.Smallest(), perm.Says())
	}
}

// A class of two samples (a study of 2-fold CV allows it) is refused for a signature,
// naming the class: its model and estimate need three samples of every class.
func TestSignatureRefusesATwoSampleClass(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 30, 1, 0)
	ds.Labels = slices.Clone(ds.Labels)
	seen := 0
	for i, l := range ds.Labels {
		if l == 1 {
			if seen >= 2 {
				ds.Labels[i] = 0
			}
			seen++
		}
	}
	cfg := experiment.DefaultConfig()
	cfg.Methods, cfg.Protocol, cfg.Folds, cfg.Ks, cfg.Classifiers = []method.Spec{{Name: "fstat"}}, experiment.DRAGS2008, 2, []int{5}, []string{"svm"}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = BuildSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 5, Classifier: "svm"}, "")
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("class %q has 2 samples", ds.Classes[1])) {
		t.Errorf("a two-sample class: %v", err)
	}
}

// TestPositiveClassIgnoresFileOrder: the positive class, the sign of the fold changes
// and of the SVM weights (oriented toward it) do not depend on the order the file met
// the classes in. Colon met "tumor" first; given "normal" first (the classes' order and
// indices turned round, as reading the rows reversed does), the default signature has
// tumor positive, normal the reference (named like a control), and the same signed
// numbers. On today's rule (the second class met) the positive class had flipped.
func TestPositiveClassIgnoresFileOrder(t *testing.T) {
	ds, err := Open(filepath.Join("..", "..", "..", "shared", "data", "colon.csv"), dataset.Options{}, dataset.Prep{Log2: true, DropConstant: true})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	flipped := *ds
	flipped.Classes = []string{ds.Classes[1], ds.Classes[0]}
	flipped.Labels = make([]int, len(ds.Labels))
	for i, l := range ds.Labels {
		flipped.Labels[i] = 1 - l
	}
	var sigs []*Signature
	for _, d := range []*dataset.Dataset{ds, &flipped} {
		_, sig := fstatSignature(t, d, "")
		if sig.Classes[sig.Positive] != "tumor" || !strings.Contains(sig.PositiveWhy, "normal is the reference") {
			t.Fatalf("classes %v: positive %s (%s)", d.Classes, sig.Classes[sig.Positive], sig.PositiveWhy)
		}
		sigs = append(sigs, sig)
	}
	a, b := sigs[0], sigs[1]
	for i := range a.Genes {
		ga, gb := a.Genes[i], b.Genes[i]
		if ga.ID != gb.ID || math.Abs(ga.Log2FC-gb.Log2FC) > 1e-12 || math.Abs(ga.G-gb.G) > 1e-12 || ga.Against == ga.Higher || gb.Against != ga.Against {
			t.Errorf("%s: fold change %g vs %g, g %g vs %g, higher in %s against %s/%s", ga.ID, ga.Log2FC, gb.Log2FC, ga.G, gb.G, ga.Higher, ga.Against, gb.Against)
		}
		if math.Abs(ga.Weight-gb.Weight) > 1e-9 {
			t.Errorf("%s: weights toward tumor %g and %g", ga.ID, ga.Weight, gb.Weight)
		}
	}
	// a weight toward tumor raises the score of tumours: w'z is higher on them
	for _, sig := range sigs {
		var sum [2]float64
		var n [2]int
		for i, l := range sig.Labels {
			s := 0.0
			for g, gene := range sig.Genes {
				s += gene.Weight * (sig.Values[g][i] - sig.Model.Mean[g]) / sig.Model.SD[g]
			}
			tumor := 0
			if sig.Classes[l] == "tumor" {
				tumor = 1
			}
			sum[tumor] += s
			n[tumor]++
		}
		if sum[1]/float64(n[1]) <= sum[0]/float64(n[0]) {
			t.Errorf("mean w'z toward tumor: %g on tumours, %g on normals", sum[1]/float64(n[1]), sum[0]/float64(n[0]))
		}
	}
	if h := a.GeneTable()[0]; !slices.Contains(h, "svm_weight_toward_tumor") || !slices.Contains(h, "log2_fold_change_tumor_vs_normal") {
		t.Errorf("signature.csv header %v", h)
	}
	// as people read it: words, p and FDR with two significant digits in scientific
	// notation, the rest with three
	head, rows := a.GeneDisplay()
	pcol, fcol := slices.Index(head, "Welch p"), slices.Index(head, "log2 fold change tumor vs normal")
	if pcol < 0 || fcol < 0 || !slices.Contains(head, "SVM weight (+ favours tumor)") {
		t.Fatalf("header %v", head)
	}
	sci := regexp.MustCompile(`^-?[0-9]\.[0-9](e-?[0-9]+)?$|^< 1e-300$`)
	for i, r := range rows {
		g := a.Genes[i]
		if !sci.MatchString(r[pcol]) || r[pcol] != text.PValue(g.P) || r[fcol] != text.Sig3(g.Log2FC) || len(r[fcol]) > 7 {
			t.Errorf("%s: p %q, fold change %q (p %g, fold change %g)", g.ID, r[pcol], r[fcol], g.P, g.Log2FC)
		}
	}
}

// TestFourClassesSayEveryNumber: with SRBCT's four classes, metrics.csv and the text
// give each class's one-vs-rest AUC with its interval, sensitivity and specificity, no
// NaN and no "sensitivity" that is the balanced accuracy (it had been). Each class's
// sensitivity and specificity are counted here from the confusion matrix: recall of c,
// and the share of the other classes' samples not predicted c.
func TestFourClassesSayEveryNumber(t *testing.T) {
	ds, err := Open(filepath.Join("..", "..", "..", "shared", "data", "srbct.csv"), dataset.Options{}, dataset.Prep{DropConstant: true})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	cfg := experiment.DefaultConfig()
	cfg.Methods, cfg.Protocol, cfg.Ks, cfg.Classifiers = []method.Spec{{Name: "fstat"}}, experiment.DRAGS2008, []int{10}, []string{"3nn"}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := BuildSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 10, Classifier: "3nn"}, "")
	if err != nil {
		t.Fatal(err)
	}
	checkMetricKeys(t, sig.metricsTable()) // each key once, each number described
	rows := map[string][]string{}
	for _, r := range sig.metricsTable()[1:] {
		rows[r[0]] = r[1:]
		for _, cell := range r {
			if strings.Contains(strings.ToLower(cell), "nan") {
				t.Errorf("metrics.csv row %v", r)
			}
		}
	}
	if _, ok := rows["sensitivity"]; ok {
		t.Error("a single sensitivity for four classes")
	}
	conf := sig.CV.Confusion
	for c, name := range sig.Classes {
		tp, pos, tn, neg := 0, 0, 0, 0
		for tr, row := range conf {
			for p, n := range row {
				if tr == c {
					pos += n
					if p == c {
						tp += n
					}
				} else {
					neg += n
					if p != c {
						tn += n
					}
				}
			}
		}
		if got := rows["sensitivity_"+name+"_vs_rest"]; len(got) == 0 || got[0] != num(float64(tp)/float64(pos)) {
			t.Errorf("%s: sensitivity %v, counted %d/%d", name, got, tp, pos)
		}
		if got := rows["specificity_"+name+"_vs_rest"]; len(got) == 0 || got[0] != num(float64(tn)/float64(neg)) {
			t.Errorf("%s: specificity %v, counted %d/%d", name, got, tn, neg)
		}
		ci := rows["auc_"+name+"_vs_rest_repetition_1_delong95_fixed_classifier"]
		if len(ci) != 3 || ci[1] == "" || ci[2] == "" {
			t.Errorf("%s: the first repetition's interval %v", name, ci)
		}
	}
	head, crows := sig.ConfusionDisplay()
	if len(head) != len(sig.Classes)+2 || len(crows) != len(sig.Classes) {
		t.Fatalf("confusion display %v %v", head, crows)
	}
	// the window and reports show the mean count a repetition (the pooled counts over
	// 10 repetitions of SRBCT's 83 samples had read as 830), captioned
	reps := float64(len(sig.CV.AUCs))
	for c, r := range crows {
		if r[0] != sig.Classes[c] || r[1+c] != strconv.FormatFloat(float64(conf[c][c])/reps, 'f', 1, 64) || r[len(r)-1] != text.Sig3(sig.CV.ClassSensitivity(c)) {
			t.Errorf("confusion row %v, counts %v", r, conf[c])
		}
	}
	if !strings.Contains(head[0], fmt.Sprintf("mean of %d repetitions", len(sig.CV.AUCs))) || !strings.Contains(sig.ConfusionCaption(), "the mean count a repetition") {
		t.Errorf("the confusion matrix's header %q and caption %q", head[0], sig.ConfusionCaption())
	}
	if p := sig.Performance(); strings.Contains(p, "NaN") || strings.Contains(p, "not computable") || !strings.Contains(p, "EWS AUC") {
		t.Errorf("the text: %s", p)
	}
}

// TestNestedEstimateOfTheAdvice: a Colon study of two methods (F-statistic, SVM-ONE;
// DRAGS 2008's 3-fold x 10) whose advice chooses the signature: the nested estimate makes
// the choice again in each of the first five repetitions' 15 training sets from an
// inner 5-fold study on those samples alone, and pools the outer held-out scores of
// each choice; every output says the choice was the advice's and gives both estimates.
// A choice given by the user is said to be so, with no nested estimate; a study with
// nothing to choose among (one method, one k) is not "advised". The permutation test
// of an advised signature repeats the choice (Choice). On data without signal see
// BenchmarkAdviceOnNoise.
func TestNestedEstimateOfTheAdvice(t *testing.T) {
	ds, err := Open(filepath.Join("..", "..", "..", "shared", "data", "colon.csv"), dataset.Options{}, dataset.Prep{Log2: true, DropConstant: true})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	cfg := experiment.DefaultConfig()
	cfg.Methods, cfg.Protocol, cfg.Classifiers = []method.Spec{{Name: "fstat"}, {Name: "svmone"}}, experiment.DRAGS2008, []string{"svm"}
	cfg.Prep = dataset.Prep{Log2: true, DropConstant: true}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, k, _ := signature.Advice(res, "svm")
	sig, err := BuildSignature(context.Background(), res, ds, signature.Choice{Method: m, K: k, Classifier: "svm"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if !sig.Advised || !strings.HasPrefix(sig.Performance(), "Headline: the optimistic cross-validated AUC") || !strings.Contains(sig.Performance(), "the nested estimate was not computed") {
		t.Fatalf("advised %v: %s", sig.Advised, sig.Performance())
	}
	done := 0
	if err := sig.Nest(context.Background(), res, ds, func(d, total int) { done = d }); err != nil {
		t.Fatal(err)
	}
	n := sig.Nested
	if len(n.Choices) != 15 || done != 15 || len(n.AUCs) != 5 || n.InnerFolds != 5 || !(n.Interval.Low < n.Interval.Mean && n.Interval.High-n.Interval.Low < 0.5) {
		t.Fatalf("%d choices, progress %d, %d repetitions, %d inner folds", len(n.Choices), done, len(n.AUCs), n.InnerFolds)
	}
	for _, c := range n.Choices {
		if !slices.Contains(res.Config.AccuracyKs(), c.K) || c.Method != res.Methods[0].Label && c.Method != res.Methods[1].Label {
			t.Errorf("choice %+v", c)
		}
	}
	if !(n.MeanAUC > 0.6 && n.MeanAUC <= 1 && n.MinAUC <= n.MeanAUC && n.MeanAUC <= n.MaxAUC) {
		t.Errorf("nested AUC %.3f (%.3f-%.3f)", n.MeanAUC, n.MinAUC, n.MaxAUC)
	}
	rows := map[string][]string{}
	for _, r := range sig.metricsTable() {
		rows[r[0]] = r[1:]
	}
	if !strings.HasPrefix(rows["method_and_k"][0], "the advice's") || rows["nested_auc_pooled_mean_range_over_repetitions"][0] != num(n.MeanAUC) || rows["nested_auc_resamples_mean_ci95"][1] == "" || !strings.Contains(sig.Performance(), "Nested estimate") {
		t.Errorf("metrics %v; text %s", rows, sig.Performance())
	}
	// the nested estimate is the headline everywhere: metrics.csv's first row, the first
	// sentences, the model file's summary; the plain one is called optimistic
	table := sig.metricsTable()
	if h := table[1]; h[0] != "auc_headline" || h[1] != num(n.Interval.Mean) || h[2] != num(n.Interval.Low) || !strings.HasPrefix(table[2][1], "nested cross-validated AUC") {
		t.Errorf("metrics.csv begins %q, %q", table[1], table[2])
	}
	if _, ok := rows["auc_optimistic_resamples_mean_ci95"]; !ok {
		t.Error("the plain estimate of the advice's choice is not called optimistic in metrics.csv")
	}
	if b := sig.Brief(); !strings.Contains(b, "Nested cross-validated AUC "+f3(n.Interval.Mean)) || !strings.Contains(b, "optimistic") {
		t.Errorf("the window's headline: %s", b)
	}
	if !strings.HasPrefix(sig.Performance(), "Headline: the nested cross-validated AUC "+f3(n.Interval.Mean)) {
		t.Errorf("the text begins %.120s", sig.Performance())
	}
	if h := sig.Model.CV.Headline; h == nil || h.Estimate != signature.HeadlineNested || h.AUC != n.Interval.Mean || !sig.Model.CV.Advised {
		t.Errorf("model.json's summary: %+v", sig.Model.CV)
	}
	perm, err := Permute(context.Background(), res, ds, sig, 2, 1, nil)
	if err != nil || !perm.Choice || len(perm.AUCs) != 2 {
		t.Errorf("permutation test of the advice: %+v, %v", perm, err)
	}
	other := signature.Choice{Method: 1 - m, K: k, Classifier: "svm"}
	given, err := BuildSignature(context.Background(), res, ds, other, "")
	if err != nil {
		t.Fatal(err)
	}
	if given.Advised || !strings.HasPrefix(given.Performance(), "Headline: the cross-validated AUC") || !strings.Contains(given.Performance(), "method and k as given") {
		t.Errorf("a given choice: advised %v, %s", given.Advised, given.Performance())
	}
	if h := given.Headline(); h.Estimate != signature.HeadlineGiven || h.AUC != given.CV.Interval.Mean {
		t.Errorf("a given choice's headline %+v", h)
	}
	if perm, err := Permute(context.Background(), res, ds, given, 1, 1, nil); err != nil || perm.Choice {
		t.Errorf("permutation test of a given choice: %+v, %v", perm, err)
	}
}
