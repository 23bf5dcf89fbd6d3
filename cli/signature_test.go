package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"steadfast/compute/signature"
)

// cmd runs a command and returns its exit code, standard output and standard error.
func cmd(args ...string) (int, string, string) {
	var out, errw bytes.Buffer
	code := Main(args, &out, &errw)
	return code, out.String(), errw.String()
}

// readCSV reads a CSV file's rows.
func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// steadfast signature on a finished Colon run (F-statistic and SVM-RFE under DRAGS
// 2008, linear SVM and 3-NN): without --method and --k it takes the advice and says so;
// it writes the four files, the model reads back, the genes are the method's first k on
// all samples, and the AUC lies in its range. Bad choices and a folder of the user's
// are refused, with nothing written.
func TestSignatureCommand(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.json")
	colon, _ := filepath.Abs(filepath.Join(sharedData, "colon.csv"))
	if _, err := os.Stat(colon); err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	os.WriteFile(cfg, []byte(`{"dataPath":`+strconv.Quote(colon)+`,"methods":[{"name":"fstat"},{"name":"svmrfe"}],"protocol":"drags2008","ks":[5,10,20],"classifiers":["svm","3nn"],"prep":{"log2":true,"dropConstant":true}}`), 0o644)
	run := filepath.Join(dir, "run")
	if code, _, errw := cmd("run", cfg, "-o", run); code != 0 {
		t.Fatalf("run: %s", errw)
	}
	sig := filepath.Join(dir, "sig")
	code, out, errw := cmd("signature", run, "-o", sig, "--positive", "tumor")
	if code != 0 {
		t.Fatalf("signature: %s", errw)
	}
	for _, f := range []string{"signature-roc.png", "signature-roc.pdf", "signature-roc.svg", "signature-roc.eps", "signature-roc.csv", "signature-heatmap.png", "signature-heatmap.csv", "signature-genes.pdf", "signature-genes-2.pdf"} { // 20 genes: two pages of box plots
		if st, err := os.Stat(filepath.Join(sig, f)); err != nil || st.Size() < 500 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if !strings.Contains(errw, "the Errors tab's advice") || !strings.Contains(errw, "tumor is the positive class") || strings.Count(out, "\n") != 33 { // 30 files, heldout-scores.csv and the nested estimate's two of inner choices
		t.Errorf("stdout %q, stderr %q", out, errw)
	}
	m, err := signature.ReadModel(filepath.Join(sig, "model.json"))
	if err != nil {
		t.Fatal(err)
	}
	genes := readCSV(t, filepath.Join(sig, "signature.csv"))
	if len(genes)-1 != len(m.Genes) || genes[0][9] != "welch_p" {
		t.Fatalf("%d genes in signature.csv, %d in the model; header %v", len(genes)-1, len(m.Genes), genes[0])
	}
	metrics := map[string][]string{}
	for _, r := range readCSV(t, filepath.Join(sig, "metrics.csv"))[1:] {
		metrics[r[0]] = r[1:]
	}
	auc, _ := strconv.ParseFloat(metrics["auc_pooled_mean_range_over_repetitions"][0], 64)
	lo, _ := strconv.ParseFloat(metrics["auc_pooled_mean_range_over_repetitions"][1], 64)
	hi, _ := strconv.ParseFloat(metrics["auc_pooled_mean_range_over_repetitions"][2], 64)
	if metrics["positive_class"][0] != "tumor" || !(lo <= auc && auc <= hi && auc > 0.7) {
		t.Errorf("metrics %v", metrics)
	}
	if roc := readCSV(t, filepath.Join(sig, "roc.csv")); roc[1][0] != "1" || roc[1][1] != "+Inf" || roc[len(roc)-1][0] != "10" {
		t.Errorf("roc.csv from %v to %v", roc[1], roc[len(roc)-1])
	}
	// the F-statistic's first 5 on all samples, with a permutation test of 9 studies
	code, _, errw = cmd("signature", run, "-o", filepath.Join(dir, "f5"), "--method", "F-statistic", "--k", "5", "--permutations", "9", "--report")
	if code != 0 {
		t.Fatal(errw)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "f5", "report.html")); err != nil || !strings.Contains(string(b), "<h2>Signature</h2>") || !strings.Contains(string(b), "permuted 9 times") {
		t.Errorf("report.html: %d bytes, %v", len(b), err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "f5", "report.pdf")); err != nil || !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Errorf("report.pdf: %d bytes, %v", len(b), err)
	} else if gs, err := exec.LookPath("gs"); err == nil {
		txt, err := exec.Command(gs, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=txtwrite", "-sOutputFile=-", filepath.Join(dir, "f5", "report.pdf")).Output()
		if err != nil || !bytes.Contains(txt, []byte("Signature")) || !bytes.Contains(txt, []byte("Nadeau and Bengio")) {
			t.Errorf("report.pdf read back by Ghostscript: %v; no Signature section in its text", err)
		}
	}
	if perm := readCSV(t, filepath.Join(dir, "f5", "permutations.csv")); len(perm) != 10 || !strings.Contains(errw, "permutation test: p = ") || !strings.Contains(errw, "100% (10/10 studies: the true labels, then the permutations)") {
		t.Errorf("permutations.csv %d rows; stderr %q", len(perm), errw)
	}
	if g := readCSV(t, filepath.Join(dir, "f5", "signature.csv")); len(g) != 6 {
		t.Errorf("--k 5 gave %d genes", len(g)-1)
	}
	// steadfast predict: the model applied to a cohort (here Colon itself, so it is
	// warned of as the training data); predictions.csv to standard output, or the files
	// and figures into a folder; a damaged model and a bad class map refused
	model := filepath.Join(sig, "model.json")
	code, out, errw = cmd("predict", "--model", model, "--data", colon)
	if code != 0 || !strings.HasPrefix(out, "sample,true_class,predicted_class,decision_value_higher_means_tumor,score_tumor,score_normal,probability_tumor,rule_calls_tumor_above_probability,in_metrics,model_sha256,cohort_sha256\n") ||
		strings.Count(out, "\n") != 63 || !strings.Contains(errw, "steadfast predict: warning: this cohort is the model's training data itself") || !strings.Contains(errw, "accuracy") {
		t.Errorf("predict: exit %d, %d lines, stderr %q", code, strings.Count(out, "\n"), errw)
	}
	// --harmonize: ComBat against the training data, named in metrics.csv; a name
	// it does not know refused
	comb := filepath.Join(dir, "comb")
	if code, _, errw := cmd("predict", "--model", model, "--data", colon, "-o", comb, "--harmonize", "combat"); code != 0 {
		t.Fatalf("predict --harmonize combat: %s", errw)
	}
	if m := readCSV(t, filepath.Join(comb, "metrics.csv")); !slices.ContainsFunc(m, func(r []string) bool {
		return r[0] == "harmonisation" && strings.Contains(r[1], "ComBat with the training data as the reference batch")
	}) {
		t.Errorf("metrics.csv does not name ComBat: %q", m)
	}
	if code, _, errw := cmd("predict", "--model", model, "--data", colon, "--harmonize", "quantile"); code != 2 || !strings.Contains(errw, "give one of none, standardize, combat") {
		t.Errorf("--harmonize quantile: exit %d, %q", code, errw)
	}
	val := filepath.Join(dir, "val")
	if code, _, errw := cmd("predict", "--model", model, "--data", colon, "-o", val, "--standardize"); code != 0 {
		t.Fatalf("predict -o: %s", errw)
	}
	for _, f := range []string{"predictions.csv", "genes.csv", "metrics.csv", "validation-roc.png", "validation-roc.pdf", "validation-roc.csv", "validation-heatmap.svg"} {
		if st, err := os.Stat(filepath.Join(val, f)); err != nil || st.Size() < 100 {
			t.Errorf("%s: %v", f, err)
		}
	}
	vm := map[string][]string{}
	for _, r := range readCSV(t, filepath.Join(val, "metrics.csv"))[1:] {
		vm[r[0]] = r[1:]
	}
	if !strings.HasPrefix(vm["harmonisation"][0], "each gene standardised within the cohort") || vm["model_sha256"][0] != m.SHA256 || vm["samples_in_metrics"][0] != "62" {
		t.Errorf("metrics.csv %v", vm)
	}
	bad, _ := os.ReadFile(model)
	bad = bytes.Replace(bad, []byte(`"neighbours"`), []byte(`"neighbourz"`), 1)
	bad = bytes.Replace(bad, []byte(`"classifier": "svm"`), []byte(`"classifier": "3nn"`), 1)
	os.WriteFile(filepath.Join(dir, "bad.json"), bad, 0o644)
	if code, _, errw := cmd("predict", "--model", filepath.Join(dir, "bad.json"), "--data", colon); code != 2 || !strings.Contains(errw, "damaged or edited") {
		t.Errorf("an edited model: exit %d, %q", code, errw)
	}
	if code, _, errw := cmd("predict", "--model", model, "--data", colon, "--map", "tumour"); code != 2 || !strings.Contains(errw, "COHORT_CLASS=MODEL_CLASS") {
		t.Errorf("a bad map: exit %d, %q", code, errw)
	}
	mine := filepath.Join(dir, "mine")
	os.MkdirAll(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "thesis.docx"), []byte("x"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--k", "7"}, "k = 7: the run measured accuracy at k = 5, 10, 20 only"},
		{[]string{"--method", "ReliefF", "--k", "5"}, "--method ReliefF: not in this run (F-statistic, SVM-RFE)"},
		{[]string{"--classifier", "wekasvm", "--method", "svmrfe", "--k", "5"}, `the classifier "wekasvm" was not in this run`},
		{[]string{"--positive", "healthy", "--method", "svmrfe", "--k", "5"}, `the positive class "healthy" is not one of the run's`},
	} {
		out := filepath.Join(dir, "bad")
		code, _, errw := cmd(append([]string{"signature", run, "-o", out}, c.args...)...)
		if _, err := os.Stat(out); code == 0 || !strings.Contains(errw, c.want) || err == nil {
			t.Errorf("%v: exit %d, %q, folder written %v", c.args, code, errw, err == nil)
		}
	}
	if code, _, errw := cmd("signature", run, "-o", mine); code == 0 || !strings.Contains(errw, "did not write there (thesis.docx)") {
		t.Errorf("a folder of the user's: exit %d, %q", code, errw)
	}
	// a run saved before the predictions were kept: result.json without them
	b, _ := os.ReadFile(filepath.Join(run, "result.json"))
	var saved map[string]any
	if err := json.Unmarshal(b, &saved); err != nil {
		t.Fatal(err)
	}
	for _, m := range saved["result"].(map[string]any)["methods"].([]any) {
		delete(m.(map[string]any), "predictions")
	}
	delete(saved, "sha256") // nor a digest, which came later
	b, _ = json.Marshal(saved)
	os.WriteFile(filepath.Join(dir, "old.json"), b, 0o644)
	if code, _, errw := cmd("signature", filepath.Join(dir, "old.json"), "-o", filepath.Join(dir, "o"), "--data", colon); code == 0 || !strings.Contains(errw, "run it again for a ROC curve") {
		t.Errorf("a run without predictions: exit %d, %q", code, errw)
	}
}
