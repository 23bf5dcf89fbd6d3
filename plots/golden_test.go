package plots

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/method"
)

var update = flag.Bool("update", false, "rewrite testdata/colon_numbers.csv from this code")

// TestColonNumbersUnchanged guards every number a study writes against changes in how
// it is computed: the tables of every figure and catalogue measure of a Colon study
// (F-statistic and DRAGS, 2 x 10-fold CV, k = 1..50, seed 1) are compared byte for
// byte with testdata/colon_numbers.csv, written by the code before issue 25's
// speed-ups (commit 43198ed: each k's matching and adjusted measures computed
// afresh, the expectations on one goroutine). A change meant to alter results
// rewrites the file with -update and says why in its commit.
func TestColonNumbersUnchanged(t *testing.T) {
	ds, err := dataset.ReadFile(filepath.Join("..", "..", "shared", "data", "colon.csv"), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	cfg := experiment.DefaultConfig()
	cfg.Protocol, cfg.Repeats, cfg.ZScore, cfg.Seed = experiment.CV10x10, 2, true, 1
	cfg.Methods = []method.Spec{{Name: "fstat"}, {Name: "drags"}}
	cfg.Classifiers = []string{"svm"}
	res, err := experiment.Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range append(append(All(res), CatalogueTables(res)...), ErrorTable(res, "svm")) {
		b.WriteString("# " + f.Name + "\n")
		for _, row := range f.Table {
			b.WriteString(strings.Join(row, ",") + "\n")
		}
	}
	path := filepath.Join("testdata", "colon_numbers.csv")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("line %d differs (of %d):\n got  %s\n want %s", i+1, len(wl), gl[i], wl[i])
			}
		}
		t.Fatalf("%d lines, want %d", len(gl), len(wl))
	}
}
