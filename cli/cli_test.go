package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/study"
)

var sharedData = filepath.Join("..", "..", "shared", "data")

func TestRankCommandColon(t *testing.T) {
	path := filepath.Join(sharedData, "colon.csv")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	var out, errw bytes.Buffer
	if code := Main(prepend("rank", []string{"--data", path, "--method", "fstat"}), &out, &errw); code != 0 {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2000 {
		t.Fatalf("%d lines", len(lines))
	}
	// the same order as sklearn's f_classif (compute/score/testdata/colon_fclassif.tsv):
	// Hsa.8147 39.8127, Hsa.692_dup2 33.1498, Hsa.37937 32.0159
	want := []string{"1\tHsa.8147\t39.81266944", "2\tHsa.692_dup2\t33.149759", "3\tHsa.37937\t32.0159181"}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d = %q, want %q", i+1, lines[i], w)
		}
	}
	prev := 1e308
	for i, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) != 3 || f[0] != strconv.Itoa(i+1) {
			t.Fatalf("line %d malformed: %q", i+1, l)
		}
		v, _ := strconv.ParseFloat(f[2], 64)
		if v > prev {
			t.Fatalf("scores rise at line %d", i+1)
		}
		prev = v
	}
}

func TestRankCommandBadInput(t *testing.T) {
	dir := t.TempDir()
	ragged := filepath.Join(dir, "ragged.csv")
	os.WriteFile(ragged, []byte("g1,g2,class\n1,2,A\n3,B\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--data", ragged}, "ragged.csv, line 3, column 3"},
		{[]string{"--data", filepath.Join(dir, "none.csv")}, "none.csv: cannot open"},
		{[]string{"--data", ragged, "--method", "magic"}, ""},
		{[]string{}, "needs --data"},
		{[]string{"--bogus"}, "bogus"},
	} {
		var out, errw bytes.Buffer
		code := Main(prepend("rank", tc.args), &out, &errw)
		msg := errw.String()
		if code != 2 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", tc.args, code, msg, tc.want)
		}
	}
}

func TestSynthAndRunCommands(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d1k.csv")
	var out, errw bytes.Buffer
	if code := Main(prepend("synth", []string{"--preset", "d1k", "--samples", "40", "--seed", "3", "-o", data}), &out, &errw); code != 0 {
		t.Fatalf("synth: %s", errw.String())
	}
	ds, err := dataset.ReadFile(data, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n, p := ds.Dims(); n != 40 || p != 1000 || len(ds.Classes) != 2 {
		t.Fatalf("synth wrote %d x %d", n, p)
	}
	cfg := `{"dataPath": "d1k.csv", "protocol": "drags2008", "methods": [{"name": "fstat"}, {"name": "svmone"}],
		"zscore": true, "classifiers": ["svm", "1nn"], "seed": 5, "ks": [2, 4, 8]}`
	cfgPath := filepath.Join(dir, "cfg.json")
	os.WriteFile(cfgPath, []byte(cfg), 0o644)
	outDir := filepath.Join(dir, "out")
	if code := Main(prepend("run", []string{cfgPath, "-o", outDir}), &out, &errw); code != 0 {
		t.Fatalf("run: %s", errw.String())
	}
	for _, f := range []string{"result.json", "stability-simid.pdf", "stability-simid.png", "stability-simid.svg", "stability-simid.eps", "stability-simid.csv", "accuracy-1nn.png", "selection-grid-svm-one.csv", "top-features-f-statistic.csv"} {
		if st, err := os.Stat(filepath.Join(outDir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	checkKuncheva(t, outDir, 1000)
	saved, err := study.LoadRun(filepath.Join(outDir, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	if saved.Result.Config.Seed != 5 || len(saved.Result.Methods) != 2 || len(saved.Result.Methods[0].Runs) != 30 {
		t.Errorf("saved run: seed %d, %d methods", saved.Result.Config.Seed, len(saved.Result.Methods))
	}
	// the saved run is a configuration too, and reproduces the same numbers
	out2 := filepath.Join(dir, "out2")
	if code := Main(prepend("run", []string{filepath.Join(outDir, "result.json"), "-o", out2}), &out, &errw); code != 0 {
		t.Fatalf("rerun: %s", errw.String())
	}
	again, _ := study.LoadRun(filepath.Join(out2, "result.json"))
	a, _ := json.Marshal(saved.Result.Methods[1].Stability)
	b, _ := json.Marshal(again.Result.Methods[1].Stability)
	if string(a) != string(b) {
		t.Error("re-running a saved run gave other stability values")
	}
	// bad configurations
	os.WriteFile(cfgPath, []byte(`{"protocol": "cv10x10", "methods": [{"name": "fstat"}], "typo": 1}`), 0o644)
	errw.Reset()
	if code := Main(prepend("run", []string{cfgPath, "-o", outDir}), &out, &errw); code != 2 || !strings.Contains(errw.String(), "typo") {
		t.Errorf("unknown field: exit %d %q", code, errw.String())
	}
}

func TestWrapperAndMidsCommands(t *testing.T) {
	path := filepath.Join(sharedData, "colon.csv")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	dir := t.TempDir()
	var out, errw bytes.Buffer
	if code := Main(prepend("wrapper", []string{"--data", path, "--na", "0.4", "--nae", "20", "-o", dir}), &out, &errw); code != 0 {
		t.Fatalf("wrapper: %s", errw.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "0.4\t2000\t") || !strings.HasPrefix(lines[2], "K=1\t2000\t") {
		t.Errorf("wrapper printed %q", out.String())
	}
	for _, l := range lines[1:] {
		auc, err := strconv.ParseFloat(strings.Split(l, "\t")[2], 64)
		if err != nil || auc < 0.5 || auc > 1 {
			t.Errorf("AUC line %q", l)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "wrapper-auc-vs-na.pdf")); err != nil {
		t.Error("figure not written")
	}
	out.Reset()
	if code := Main(prepend("mids", []string{"--data", path, "--epsilon", "0.6"}), &out, &errw); code != 0 {
		t.Fatalf("mids: %s", errw.String())
	}
	ml := strings.Split(strings.TrimSpace(out.String()), "\n")
	size, err := strconv.Atoi(ml[0])
	if err != nil || size != len(ml)-1 || size < 10 || size > 200 {
		t.Errorf("mids printed size %q and %d features", ml[0], len(ml)-1)
	}
}

func TestSampleSizeCommand(t *testing.T) {
	dir := t.TempDir()
	var out, errw bytes.Buffer
	args := []string{"--preset", "d1k", "--sizes", "30,80", "--k", "5", "--test", "100", "--methods", "fstat,svmone", "-o", dir}
	if code := Main(prepend("samplesize", args), &out, &errw); code != 0 {
		t.Fatalf("samplesize: %s", errw.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 5 || lines[0] != "method\tn\tprecision\tsim_id\taccuracy" || !strings.HasPrefix(lines[2], "F-statistic\t80\t") {
		t.Fatalf("printed %q", out.String())
	}
	for _, l := range lines[1:] {
		for _, f := range strings.Split(l, "\t")[2:] {
			if v, err := strconv.ParseFloat(f, 64); err != nil || v < 0 || v > 1 {
				t.Errorf("line %q", l)
			}
		}
	}
	for _, name := range []string{"sample-size-precision-d1k.pdf", "sample-size-simid-d1k.csv", "sample-size-accuracy-d1k.png"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s not written", name)
		}
	}
	if code := Main(prepend("samplesize", []string{"--sizes", "10"}), &out, &errw); code != exitBadInput || !strings.Contains(errw.String(), "from 20") {
		t.Errorf("a size of 10: exit %d, %q", code, errw.String())
	}
}

// prepend returns the command line of command with args.
// checkKuncheva checks stability-kuncheva.csv against stability-simid.csv: for top-k
// sets with c common features, Sim_ID = c/k and Kuncheva = (c p - k^2) / (k (p - k)),
// both linear in c, so their means over the same pairs satisfy
// Kuncheva = (Sim_ID p - k) / (p - k).
func checkKuncheva(t *testing.T, dir string, p float64) {
	t.Helper()
	read := func(name string) [][]string {
		f, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var rows [][]string
		for _, l := range strings.Split(strings.TrimSpace(string(f)), "\n") {
			rows = append(rows, strings.Split(l, ","))
		}
		return rows
	}
	simid, kun := read("stability-simid.csv"), read("stability-kuncheva.csv")
	if strings.Join(kun[0], ",") != strings.Join(simid[0], ",") {
		t.Fatalf("stability-kuncheva.csv has columns %v, stability-simid.csv %v", kun[0], simid[0])
	}
	checked := 0
	for i := 1; i < len(simid) && i < len(kun); i++ {
		if simid[i][0] != kun[i][0] || simid[i][1] != kun[i][1] || simid[i][3] == "expected" {
			continue
		}
		k, _ := strconv.ParseFloat(simid[i][1], 64)
		s, _ := strconv.ParseFloat(simid[i][4], 64)
		got, _ := strconv.ParseFloat(kun[i][4], 64)
		if want := (s*p - k) / (p - k); math.Abs(got-want) > 1e-3 {
			t.Errorf("%s k = %v: Kuncheva %v, from Sim_ID %v", kun[i][0], k, got, want)
		}
		checked++
	}
	if checked == 0 {
		t.Error("no Kuncheva value checked")
	}
}

func prepend(command string, args []string) []string {
	return append([]string{command}, args...)
}

// TestRankCommandGDS507 ranks a real GEO DataSet with GEO's platform annotation: the
// F-statistics on log2 values and the order equal scikit-learn's f_classif
// (compute/dataset/testdata/geo/geo_sklearn.py and .txt), with the annotation's symbols.
func TestRankCommandGDS507(t *testing.T) {
	geo := filepath.Join("..", "compute", "dataset", "testdata", "geo")
	var out, errw bytes.Buffer
	args := []string{"rank", "--data", filepath.Join(geo, "GDS507.soft.gz"), "--log2", "--symbols", filepath.Join(geo, "GPL97.annot.gz")}
	if code := Main(args, &out, &errw); code != 0 {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	lines := strings.Split(out.String(), "\n")
	want := []string{"1\t228581_at\t256.71431\tKCNJ10", "2\t226733_at\t249.5510781\tPFKFB2", "3\t236630_at\t184.3050248\tAQP2"}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d = %q, want %q", i+1, lines[i], w)
		}
	}
	notes := errw.String()
	for _, w := range []string{`"disease state" (RCC 9, normal 8)`, "gene symbols for 13179 of 22645"} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q:\n%s", w, notes)
		}
	}
	if strings.Contains(notes, "unlogged") {
		t.Errorf("the unlogged note stays after --log2:\n%s", notes)
	}
}
