package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// steadfast signature on a survival run (DLBCL CHOP, ../shared/data; the Cox score
// test at k = 10 and 20 under 2 x 4-fold CV) with the advice's choice: the nested C
// first in metrics.csv, the permutation test of C said with its cost before it starts
// and its progress, permutations.csv with each permuted study's C and the histogram;
// with method and k given and --no-nested, the plain C is the headline and says it was
// given.
func TestSurvivalSignaturePermutations(t *testing.T) {
	dir := t.TempDir()
	data, _ := filepath.Abs(filepath.Join(sharedData, "dlbcl_chop_survival.csv"))
	if _, err := os.Stat(data); err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	cfg := filepath.Join(dir, "c.json")
	os.WriteFile(cfg, []byte(`{"dataPath":`+strconv.Quote(data)+`,"outcome":{"time":"time","event":"event"},"methods":[{"name":"cox"}],"protocol":"cv10x10","repeats":2,"folds":4,"ks":[10,20],"classifiers":["cox"],"seed":3}`), 0o644)
	run := filepath.Join(dir, "run")
	if code, _, errw := cmd("run", cfg, "-o", run); code != 0 {
		t.Fatalf("run: %s", errw)
	}
	code, _, errw := cmd("signature", run, "-o", filepath.Join(dir, "sig"), "--permutations", "3")
	if code != 0 {
		t.Fatalf("signature: %s", errw)
	}
	cost := strings.Index(errw, "the permutation test refits every method of the study, the advice choosing again each time, 4 times (on the true outcome, then on 3 permutations)")
	if cost < 0 || cost > strings.Index(errw, "(1/4 studies") || !strings.Contains(errw, "100% (4/4 studies: the true outcome, then the permutations)") || !strings.Contains(errw, "Permutation test of C: p = ") {
		t.Errorf("stderr %q", errw)
	}
	perm := readCSV(t, filepath.Join(dir, "sig", "permutations.csv"))
	if len(perm) != 4 || perm[0][1] != "c_index" {
		t.Errorf("permutations.csv %v", perm)
	}
	if _, err := os.Stat(filepath.Join(dir, "sig", "signature-permutations.png")); err != nil {
		t.Error("no histogram of the permuted C")
	}
	m := readCSV(t, filepath.Join(dir, "sig", "metrics.csv"))
	if m[1][0] != "c_index_headline" || !strings.HasPrefix(m[2][1], "nested cross-validated Harrell's C") {
		t.Errorf("metrics.csv begins %v %v", m[1], m[2])
	}
	k := "20" // a k the advice did not choose
	if strings.Contains(errw, "Cox score test at k = 20 with the Cox model") {
		k = "10"
	}
	code, _, errw = cmd("signature", run, "-o", filepath.Join(dir, "given"), "--method", "cox", "--k", k, "--no-nested")
	if code != 0 {
		t.Fatalf("signature --k %s: %s", k, errw)
	}
	if g := readCSV(t, filepath.Join(dir, "given", "metrics.csv")); strings.Contains(errw, "nested estimate") || !strings.HasPrefix(g[2][1], "cross-validated Harrell's C: method and k as given") {
		t.Errorf("given: metrics.csv %v; stderr %q", g[1:3], errw)
	}
}
