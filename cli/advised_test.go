package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"steadfast/compute/signature"
	"steadfast/compute/study"
)

// steadfast signature decides whether the study chose method and k (issue 59, item 1),
// on a Colon run (F-statistic and SVM weights, DRAGS 2008, linear SVM and 1-NN):
// another classifier with the linear SVM's advice (as the window preselects it) is the
// study's choice, its headline the nested estimate, its plain one optimistic; a method
// and k of no classifier's advice are given: stderr, metrics.csv and model.json say
// the plain estimate is optimistic if chosen after seeing the results, and --nested
// gives the nested estimate as the headline. --nested with --no-nested is refused.
func TestSignatureAdvisedDecision(t *testing.T) {
	dir := t.TempDir()
	colon, _ := filepath.Abs(filepath.Join(sharedData, "colon.csv"))
	if _, err := os.Stat(colon); err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	cfg := filepath.Join(dir, "c.json")
	os.WriteFile(cfg, []byte(`{"dataPath":`+strconv.Quote(colon)+`,"methods":[{"name":"fstat"},{"name":"svmone"}],"protocol":"drags2008","ks":[5,10,20],"classifiers":["svm","1nn"],"prep":{"log2":true,"dropConstant":true}}`), 0o644)
	run := filepath.Join(dir, "run")
	if code, _, errw := cmd("run", cfg, "-o", run); code != 0 {
		t.Fatalf("run: %s", errw)
	}
	saved, err := study.LoadRun(filepath.Join(run, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	res := saved.Result
	metrics := func(folder string) map[string][]string {
		m := map[string][]string{}
		for _, r := range readCSV(t, filepath.Join(dir, folder, "metrics.csv"))[1:] {
			m[r[0]] = r[1:]
		}
		return m
	}
	model := func(folder string) *signature.Model {
		m, err := signature.ReadModel(filepath.Join(dir, folder, "model.json"))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	// the linear SVM's advice, given with 1-NN
	sm, sk, _ := signature.Advice(res, "svm")
	code, _, errw := cmd("signature", run, "-o", filepath.Join(dir, "pre"), "--classifier", "1nn", "--method", res.Methods[sm].Label, "--k", strconv.Itoa(sk), "--no-nested")
	if code != 0 {
		t.Fatalf("signature: %s", errw)
	}
	m := metrics("pre")
	if nm, nk, _ := signature.Advice(res, "1nn"); nm != sm || nk != sk {
		// only then did the old rule (1-NN's own advice) call this choice given
		if !strings.Contains(errw, "--method and --k are this study's advice") {
			t.Errorf("stderr %q", errw)
		}
	}
	if !strings.HasPrefix(m["auc_headline_is"][0], "optimistic cross-validated AUC") || m["auc_optimistic_resamples_mean_ci95"] == nil || !model("pre").CV.Advised {
		t.Errorf("the advice's method and k with 1-NN: %v", m["auc_headline_is"])
	}
	// a method and k of no classifier's advice
	gm, gk := -1, 0
	for mi := range res.Methods {
		for _, k := range res.Config.AccuracyKs() {
			if gm < 0 && !study.FromStudy(res, mi, k) {
				gm, gk = mi, k
			}
		}
	}
	if gm < 0 {
		t.Fatal("every method and k is some classifier's advice")
	}
	given := []string{"--method", res.Methods[gm].Label, "--k", strconv.Itoa(gk)}
	code, _, errw = cmd(append([]string{"signature", run, "-o", filepath.Join(dir, "given")}, given...)...)
	if code != 0 {
		t.Fatalf("signature: %s", errw)
	}
	m = metrics("given")
	if !strings.Contains(errw, "method and k as given: "+signature.GivenWarning+"; --nested gives the nested estimate") || strings.Contains(errw, "inner studies)") {
		t.Errorf("a given choice: stderr %q", errw)
	}
	if !strings.HasPrefix(m["auc_headline_is"][0], "cross-validated AUC: method and k as given") || !strings.Contains(m["auc_headline_is"][0], signature.GivenWarning) || !strings.Contains(m["method_and_k"][0], signature.GivenWarning) {
		t.Errorf("a given choice's metrics.csv: %v, %v", m["auc_headline_is"], m["method_and_k"])
	}
	if mo := model("given"); mo.CV.Advised || mo.CV.Headline.Estimate != signature.HeadlineGiven {
		t.Errorf("a given choice's model.json: advised %v, %+v", mo.CV.Advised, mo.CV.Headline)
	}
	code, _, errw = cmd(append([]string{"signature", run, "-o", filepath.Join(dir, "nested")}, append(given, "--nested")...)...)
	if code != 0 {
		t.Fatalf("signature --nested: %s", errw)
	}
	m = metrics("nested")
	if !strings.Contains(errw, "--nested: method and k taken as chosen after seeing this study's results") || !strings.HasPrefix(m["auc_headline_is"][0], "nested cross-validated AUC") || !model("nested").CV.Advised {
		t.Errorf("--nested: %v; stderr %q", m["auc_headline_is"], errw)
	}
	if code, _, errw := cmd("signature", run, "-o", filepath.Join(dir, "both"), "--nested", "--no-nested"); code == 0 || !strings.Contains(errw, "--nested and --no-nested") {
		t.Errorf("both: exit %d, %q", code, errw)
	}
}
