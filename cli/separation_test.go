package cli

import (
	"bytes"
	"encoding/csv"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// separatedCHOP writes dir/dlbcl_separated.csv: the first 3 samples with an event and
// the first 27 censored ones of dlbcl_chop_survival.csv, with a column "stage" of 2 for
// the events and 1 for the censored, which separates the events.
func separatedCHOP(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(sharedData, "dlbcl_chop_survival.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	with := func(r []string, stage string) []string {
		return append(append(append([]string{}, r[:3]...), stage), r[3:]...)
	}
	out := [][]string{with(recs[0], "stage")}
	events, censored := 0, 0
	for _, r := range recs[1:] {
		if r[2] == "1" && events < 3 {
			events++
			out = append(out, with(r, "2"))
		} else if r[2] == "0" && censored < 27 {
			censored++
			out = append(out, with(r, "1"))
		}
	}
	var buf bytes.Buffer
	csv.NewWriter(&buf).WriteAll(out)
	path := filepath.Join(dir, "dlbcl_separated.csv")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// pngSize is the pixel size of a PNG file.
func pngSize(t *testing.T, path string) (int, int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatal(err)
	}
	return c.Width, c.Height
}

// Issue 58.10 and 59.6 on 30 DLBCL CHOP patients with 3 events and a stage that
// separates them (R's coxph warns "coefficient may be infinite" for stage: compute/
// study's testdata/added_value_separation.R), a run of 2 x 3-fold CV:
//   - signature --covariates stage: the printed sentence, added_value.csv's warning
//     column, the forest plot's CSV and the report name stage's infinite coefficient;
//   - its figures at --width 16 --height 10 --unit cm --dpi 100: the KM PNG is
//     16/2.54*100 = 629.9 -> 630 by 10/2.54*100 = 393.7 -> 394 pixels, and the forest
//     plot that needs more height is noted;
//   - predict of the locked model on the same patients (C 1: the score separates them)
//     at --width 12 --height 8 --dpi 100: cohort-km.png is 472 x 315 pixels
//     (12/2.54*100 = 472.4, 8/2.54*100 = 315.0), metrics.csv has
//     hazard_ratio_per_sd_warning and the printed text says the HR is not estimated;
//   - the old --unit years is read as --time-unit years, with a note.
func TestSeparationAndSizeCommands(t *testing.T) {
	dir := t.TempDir()
	data := separatedCHOP(t, dir)
	cfg := filepath.Join(dir, "c.json")
	os.WriteFile(cfg, []byte(`{"dataPath":`+strconv.Quote(data)+`,"methods":[{"name":"cox"}],"classifiers":["cox"],"repeats":2,"folds":3,"ks":[5,10]}`), 0o644)
	run := filepath.Join(dir, "run")
	if code, _, errw := cmd("run", cfg, "-o", run); code != 0 {
		t.Fatalf("run: %s", errw)
	}
	sig := filepath.Join(dir, "sig")
	code, _, errw := cmd("signature", run, "-o", sig, "--method", "cox", "--k", "5", "--covariates", "stage", "--report", "--width", "16", "--height", "10", "--unit", "cm", "--dpi", "100")
	if code != 0 {
		t.Fatalf("signature: %s", errw)
	}
	const warn = "the Cox coefficient of stage: 2 vs 1 may be infinite"
	if !strings.Contains(errw, "Warning, the model of the covariates: "+warn) || !strings.Contains(errw, "signature-forest: exported 16 x") {
		t.Errorf("stderr: %s", errw)
	}
	rows := readCSV(t, filepath.Join(sig, "added_value.csv"))
	if rows[0][6] != "warning" || !strings.Contains(rows[1][6], "coefficient may be infinite") || rows[3][6] != "" {
		t.Errorf("added_value.csv: %v", rows[:4])
	}
	forest := readCSV(t, filepath.Join(sig, "signature-forest-covariates.csv"))
	if forest[0][7] != "warning" || !strings.Contains(forest[1][7], "coefficient may be infinite") {
		t.Errorf("forest CSV: %v", forest[:2])
	}
	if b, err := os.ReadFile(filepath.Join(sig, "report.html")); err != nil || !strings.Contains(string(b), warn) {
		t.Errorf("the report lacks the warning (%v)", err)
	}
	if w, h := pngSize(t, filepath.Join(sig, "signature-km.png")); w != 630 || h != 394 {
		t.Errorf("signature-km.png %d x %d", w, h)
	}
	coh := filepath.Join(dir, "coh")
	code, _, errw = cmd("predict", "--model", filepath.Join(sig, "model.json"), "--data", data, "-o", coh, "--width", "12", "--height", "8", "--dpi", "100")
	if code != 0 {
		t.Fatalf("predict: %s", errw)
	}
	if w, h := pngSize(t, filepath.Join(coh, "cohort-km.png")); w != 472 || h != 315 {
		t.Errorf("cohort-km.png %d x %d", w, h)
	}
	found := false
	for _, r := range readCSV(t, filepath.Join(coh, "metrics.csv")) {
		found = found || r[0] == "hazard_ratio_per_sd_warning" && strings.Contains(r[1], "may be infinite")
	}
	if !found || !strings.Contains(errw, "hazard ratio per training SD of the risk score not estimated: the Cox coefficient of the risk score on the cohort may be infinite") {
		t.Errorf("predict: metrics warning %v; %s", found, errw)
	}
	code, _, errw = cmd("signature", run, "-o", filepath.Join(dir, "old"), "--method", "cox", "--k", "5", "--covariates", "none", "--unit", "years")
	if code != 0 || !strings.Contains(errw, "--unit years is no figure unit (cm, mm or in): taken as the survival time's unit, as --time-unit years") {
		t.Errorf("--unit years: %d %s", code, errw)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "old", "signature-km.csv")); b == nil {
		t.Error("no signature-km.csv")
	}
}
