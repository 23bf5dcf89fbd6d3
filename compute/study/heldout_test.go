package study

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/method"
	"steadfast/compute/signature"
)

// fileCSV parses one of a signature's files, failing the test when it is not there.
func fileCSV(t *testing.T, files map[string][]byte, name string) [][]string {
	t.Helper()
	b, ok := files[name]
	if !ok {
		t.Fatalf("%s is not written", name)
	}
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return rows
}

// checkMetricKeys checks that metrics.csv's keys are unique and that every row of a
// number is described by an _is row: its own (key_is) or its family's (an _is row
// whose stem begins the key, or ends it for _apparent). It returns the rows by key.
func checkMetricKeys(t *testing.T, metrics [][]string) map[string][]string {
	t.Helper()
	rows := map[string][]string{}
	var stems []string
	for _, r := range metrics[1:] {
		if _, dup := rows[r[0]]; dup {
			t.Errorf("metrics.csv key %q is written twice", r[0])
		}
		rows[r[0]] = r[1:]
		if stem, ok := strings.CutSuffix(r[0], "_is"); ok {
			stems = append(stems, stem)
		}
	}
	for _, r := range metrics[1:] {
		if _, err := strconv.ParseFloat(r[1], 64); err != nil || strings.HasSuffix(r[0], "_is") {
			continue // a description or a setting in words
		}
		ok := false
		for _, s := range stems {
			ok = ok || r[0] == s || strings.HasPrefix(r[0], s+"_") || strings.HasSuffix(r[0], "_"+s)
		}
		if !ok {
			t.Errorf("metrics.csv row %q has no _is row saying what it is", r[0])
		}
	}
	return rows
}

// checkNestedFiles checks nested-choices.csv (a row an outer training set, each
// repetition and fold once) and nested-choice-counts.csv (the counts add up to them).
func checkNestedFiles(t *testing.T, files map[string][]byte, choices []NestedChoice) {
	t.Helper()
	each := fileCSV(t, files, "nested-choices.csv")
	if strings.Join(each[0], ",") != "repetition,fold,method,k" || len(each) != len(choices)+1 {
		t.Fatalf("nested-choices.csv: header %v, %d rows for %d choices", each[0], len(each)-1, len(choices))
	}
	seen := map[string]bool{}
	for _, r := range each[1:] {
		if key := r[0] + "/" + r[1]; seen[key] || r[1] == "" {
			t.Errorf("nested-choices.csv: repetition %s fold %q twice or without a fold", r[0], r[1])
		} else {
			seen[key] = true
		}
	}
	counts := fileCSV(t, files, "nested-choice-counts.csv")
	total := 0
	for _, r := range counts[1:] {
		n, _ := strconv.Atoi(r[2])
		total += n
	}
	if strings.Join(counts[0], ",") != "method,k,outer_training_sets,share" || total != len(choices) {
		t.Errorf("nested-choice-counts.csv: header %v, counts adding to %d of %d", counts[0], total, len(choices))
	}
}

// harrell is Harrell's C worked pair by pair (survival::concordance's definition): a
// pair is comparable when the shorter time is an event (an event before a censoring at
// the same time too); concordant when the shorter time has the larger risk, half when
// the risks tie.
func harrell(time []float64, event []bool, risk []float64) float64 {
	num, den := 0.0, 0.0
	for i := range time {
		for j := range time {
			if !event[i] || !(time[i] < time[j] || time[i] == time[j] && !event[j]) {
				continue
			}
			den++
			switch {
			case risk[i] > risk[j]:
				num++
			case risk[i] == risk[j]:
				num += 0.5
			}
		}
	}
	return num / den
}

// mustFloat parses a cell of a written file.
func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q is not a number: %v", s, err)
	}
	return v
}

// A survival signature of DLBCL CHOP chosen by the advice (the Cox score test at k = 10
// or 20, 2 x 5-fold CV), with its nested estimate:
// metrics.csv's keys are unique and each number has its _is row; the inner choices are
// tables of their own; Uno's C carries one value in metrics.csv and the text; and
// heldout-scores.csv gives back the pooled C of metrics.csv, worked pair by pair here
// (harrell) and by R: survival::concordance on the file written by this test
// (STEADFAST_HELDOUT=FILE go test -run TestSurvivalFilesOneValuePerName, then
// Rscript testdata/heldout_scores.R FILE 7.62; R 4.2.2, survival 3.5-3).
func TestSurvivalFilesOneValuePerName(t *testing.T) {
	ds, err := dataset.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "dlbcl_chop_survival.csv"), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	cfg := experiment.DefaultSurvivalConfig()
	cfg.Repeats, cfg.Folds, cfg.Ks = 2, 5, []int{10, 20}
	res, err := experiment.Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, k, ok := signature.Advice(res, "cox")
	if !ok {
		t.Fatal("no advice")
	}
	s, err := BuildSurvivalSignature(context.Background(), res, ds, signature.Choice{Method: m, K: k}, SurvivalOptions{Unit: "years"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Nest(context.Background(), res, ds, nil); err != nil {
		t.Fatal(err)
	}
	files, err := s.Files()
	if err != nil {
		t.Fatal(err)
	}
	rows := checkMetricKeys(t, fileCSV(t, files, "metrics.csv"))
	checkNestedFiles(t, files, s.Nested.Choices)
	uno := rows[unoName(s.CV.Tau)]
	if uno == nil || !strings.Contains(s.Performance(), fmt.Sprintf("Uno's C truncated at 7.62 years %.3f (range %.3f-%.3f)", mustFloat(t, uno[0]), mustFloat(t, uno[1]), mustFloat(t, uno[2]))) {
		t.Errorf("Uno's C: metrics.csv %v, the text %s", uno, s.Performance())
	}
	if !strings.Contains(s.Nested.Summary(), "an interval by the same method as the plain estimate's, not the same interval") {
		t.Errorf("the nested interval's words: %s", s.Nested.Summary())
	}
	held := fileCSV(t, files, "heldout-scores.csv")
	if strings.Join(held[0], ",") != "repetition,fold,sample,time,event,risk_score" || len(held)-1 != 2*len(ds.Samples) {
		t.Fatalf("heldout-scores.csv: header %v, %d rows (2 repetitions of %d samples)", held[0], len(held)-1, len(ds.Samples))
	}
	type rep struct {
		time, risk []float64
		event      []bool
	}
	reps := map[string]*rep{}
	for _, r := range held[1:] {
		if reps[r[0]] == nil {
			reps[r[0]] = &rep{}
		}
		p := reps[r[0]]
		p.time, p.event, p.risk = append(p.time, mustFloat(t, r[3])), append(p.event, r[4] == "1"), append(p.risk, mustFloat(t, r[5]))
	}
	// R on the file: survival::concordance(Surv(time, event) ~ risk_score, reverse =
	// TRUE) of each repetition, and with timewt = "n/G2", ymax = 7.62 Uno's
	// (testdata/heldout_scores.R)
	r := map[string]float64{"1": 0.6344410876, "2": 0.5748131658}
	if rUno := (0.6317541470 + 0.5772957208) / 2; math.Abs(mustFloat(t, uno[0])-rUno) > 1e-9 {
		t.Errorf("Uno's C in metrics.csv %s, R on heldout-scores.csv %.10f", uno[0], rUno)
	}
	mean, lo, hi := 0.0, math.Inf(1), math.Inf(-1)
	for name, p := range reps {
		c := harrell(p.time, p.event, p.risk)
		mean, lo, hi = mean+c/float64(len(reps)), math.Min(lo, c), math.Max(hi, c)
		if math.Abs(c-r[name]) > 1e-9 {
			t.Errorf("repetition %s: pooled C from heldout-scores.csv %.10f, R %.10f", name, c, r[name])
		}
	}
	pooled := rows["c_index_pooled_mean_range_over_repetitions"]
	if math.Abs(mean-mustFloat(t, pooled[0])) > 1e-12 || math.Abs(lo-mustFloat(t, pooled[1])) > 1e-12 || math.Abs(hi-mustFloat(t, pooled[2])) > 1e-12 {
		t.Errorf("pooled C from heldout-scores.csv %.12f (%.12f-%.12f), metrics.csv %v", mean, lo, hi, pooled)
	}
	if out := os.Getenv("STEADFAST_HELDOUT"); out != "" {
		if err := os.WriteFile(out, files["heldout-scores.csv"], 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A class signature of Colon chosen by the advice, with its nested estimate:
// metrics.csv's keys are unique (no row a choice), the inner choices are tables of
// their own, and heldout-scores.csv gives back each repetition's pooled AUC of
// metrics.csv, worked here as the Mann-Whitney statistic (ties counted half) of the
// positive class's scores.
func TestClassFilesOneValuePerName(t *testing.T) {
	ds, err := Open(filepath.Join("..", "..", "..", "shared", "data", "colon.csv"), dataset.Options{}, dataset.Prep{Log2: true, DropConstant: true})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	cfg := experiment.DefaultConfig()
	cfg.Methods, cfg.Classifiers, cfg.Ks = []method.Spec{{Name: "fstat"}}, []string{"svm"}, []int{10, 20}
	cfg.Protocol, cfg.Repeats, cfg.Folds = experiment.CV10x10, 2, 5
	cfg.Prep = dataset.Prep{Log2: true, DropConstant: true}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, k, _ := signature.Advice(res, "svm")
	sig, err := BuildSignature(context.Background(), res, ds, signature.Choice{Method: m, K: k, Classifier: "svm"}, "tumor")
	if err != nil {
		t.Fatal(err)
	}
	if err := sig.Nest(context.Background(), res, ds, nil); err != nil {
		t.Fatal(err)
	}
	files, err := sig.Files()
	if err != nil {
		t.Fatal(err)
	}
	rows := checkMetricKeys(t, fileCSV(t, files, "metrics.csv"))
	checkNestedFiles(t, files, sig.Nested.Choices)
	if !strings.Contains(sig.Nested.Summary(), "an interval by the same method as the plain estimate's below") {
		t.Errorf("the nested interval's words: %s", sig.Nested.Summary())
	}
	held := fileCSV(t, files, "heldout-scores.csv")
	if strings.Join(held[0], ",") != "repetition,fold,sample,class,score_"+sig.Classes[0]+",score_"+sig.Classes[1] || len(held)-1 != 2*len(ds.Samples) {
		t.Fatalf("heldout-scores.csv: header %v, %d rows", held[0], len(held)-1)
	}
	pos, neg := map[string][]float64{}, map[string][]float64{}
	for _, r := range held[1:] {
		score := mustFloat(t, r[4+sig.Positive])
		if r[3] == "tumor" {
			pos[r[0]] = append(pos[r[0]], score)
		} else {
			neg[r[0]] = append(neg[r[0]], score)
		}
	}
	mean := 0.0
	for name, p := range pos {
		u := 0.0
		for _, a := range p {
			for _, b := range neg[name] {
				switch {
				case a > b:
					u++
				case a == b:
					u += 0.5
				}
			}
		}
		mean += u / float64(len(p)*len(neg[name])) / float64(len(pos))
	}
	if got := rows["auc_pooled_mean_range_over_repetitions"]; math.Abs(mean-mustFloat(t, got[0])) > 1e-12 {
		t.Errorf("pooled AUC from heldout-scores.csv %.12f, metrics.csv %v", mean, got)
	}
}
