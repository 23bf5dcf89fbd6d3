package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// steadfast signature on a survival run of the NKI 70-gene data (compute/study's
// testdata): the run notes the five clinical covariates and ranks none of them; the
// signature with --covariates Age,Grade,ER writes added_value.csv (both models' terms,
// Grade as two levels against Well diff, then the statistics) and the forest plot
// signature-forest-covariates, its report gives it, and it prints the added value's
// sentence; without
// --covariates all five are used; a covariate the data lack is refused naming those it
// has, and --covariates on a classes run is refused. 144 patients and 48 events are
// nki70.csv's (compute/study/testdata/PROVENANCE.md); the levels are its factors'.
func TestSignatureAddedValueCommand(t *testing.T) {
	dir := t.TempDir()
	nki, _ := filepath.Abs(filepath.Join("..", "compute", "study", "testdata", "nki70.csv"))
	cfg := filepath.Join(dir, "c.json")
	os.WriteFile(cfg, []byte(`{"dataPath":`+strconv.Quote(nki)+`,"methods":[{"name":"cox"}],"classifiers":["cox"],"protocol":"cv10x10","repeats":2,"folds":5,"ks":[5,10]}`), 0o644)
	run := filepath.Join(dir, "run")
	code, _, errw := cmd("run", cfg, "-o", run)
	if code != 0 {
		t.Fatalf("run: %s", errw)
	}
	if !strings.Contains(errw, `5 columns found by their names and taken as clinical covariates`) {
		t.Errorf("the run does not note the covariates: %s", errw)
	}
	sig := filepath.Join(dir, "sig")
	code, _, errw = cmd("signature", run, "-o", sig, "--method", "cox", "--k", "10", "--covariates", "Age,Grade,ER", "--report")
	if code != 0 {
		t.Fatalf("signature: %s", errw)
	}
	if !strings.Contains(errw, "Added value over Age, Grade, ER (144 patients, 48 events)") {
		t.Errorf("no sentence: %s", errw)
	}
	rows := readCSV(t, filepath.Join(sig, "added_value.csv"))
	var terms []string
	for _, r := range rows[1:8] {
		terms = append(terms, r[0]+"|"+r[1])
	}
	want := []string{"covariates|Age", "covariates|Grade: Intermediate vs Well diff", "covariates|Grade: Poorly diff vs Well diff", "covariates|ER: Positive vs Negative",
		"covariates + risk score|Age", "covariates + risk score|Grade: Intermediate vs Well diff", "covariates + risk score|Grade: Poorly diff vs Well diff"}
	if !slices.Equal(terms, want) || rows[9][1] != "risk score (cross-validated, per SD)" || rows[10][1] != "lrt_chisq" {
		t.Errorf("added_value.csv:\n%v", rows)
	}
	for _, f := range []string{"signature-forest-covariates.png", "signature-forest-covariates.csv", "added_value_data.csv", "signature-forest.png", "signature-km.png"} {
		if _, err := os.Stat(filepath.Join(sig, f)); err != nil {
			t.Error(err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(sig, "report.html")); err != nil || !strings.Contains(string(b), "Added value over Age, Grade, ER") || !strings.Contains(string(b), "The added value of the signature over the clinical covariates Age, Grade and ER") {
		t.Errorf("the report lacks the added value (%v)", err)
	}
	all := filepath.Join(dir, "all")
	if code, _, errw = cmd("signature", run, "-o", all, "--method", "cox", "--k", "10"); code != 0 || !strings.Contains(errw, "Added value over Diam, N, ER, Grade, Age") {
		t.Errorf("default covariates: %s", errw)
	}
	none := filepath.Join(dir, "none")
	if code, _, errw = cmd("signature", run, "-o", none, "--method", "cox", "--k", "10", "--covariates", "none"); code != 0 {
		t.Errorf("--covariates none: %s", errw)
	}
	if _, err := os.Stat(filepath.Join(none, "added_value.csv")); err == nil {
		t.Error("--covariates none wrote added_value.csv")
	}
	code, _, errw = cmd("signature", run, "-o", filepath.Join(dir, "bad"), "--method", "cox", "--k", "10", "--covariates", "Age,Stage")
	if code == 0 || !strings.Contains(errw, `--covariates: no covariate "Stage" in nki70.csv: its clinical covariates are Diam, N, ER, Grade, Age`) {
		t.Errorf("unknown covariate: %d %s", code, errw)
	}
}

// --covariates is for survival signatures; on a classes run it is refused.
func TestSignatureCovariatesNeedSurvival(t *testing.T) {
	dir := t.TempDir()
	colon, _ := filepath.Abs(filepath.Join(sharedData, "colon.csv"))
	cfg := filepath.Join(dir, "c.json")
	os.WriteFile(cfg, []byte(`{"dataPath":`+strconv.Quote(colon)+`,"methods":[{"name":"fstat"}],"protocol":"drags2008","ks":[5],"classifiers":["svm"],"prep":{"log2":true,"dropConstant":true}}`), 0o644)
	run := filepath.Join(dir, "run")
	if code, _, errw := cmd("run", cfg, "-o", run); code != 0 {
		t.Fatalf("run: %s", errw)
	}
	code, _, errw := cmd("signature", run, "-o", filepath.Join(dir, "s"), "--covariates", "Age")
	if code == 0 || !strings.Contains(errw, "--covariates: the added value over clinical covariates is measured for a survival signature") {
		t.Errorf("%d %s", code, errw)
	}
}
