package cli

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"steadfast/compute/dataset"
)

// TestPrepProteus: steadfast prep reads MaxQuant's proteinGroups.txt of the Proteus
// example with its design table and writes the 14 runs' 2,928 proteins the valid-value
// filter keeps, log2, quantile-normalised and imputed by impute.knn (no value missing),
// samples as rows, which Steadfast reads back with the symbols it wrote; the left-out
// list names the 955 others (68 reverse hits, 13 contaminants, 112 only identified by
// site, 13 without intensity, 786 by the filter); the figure and its CSV give each run's
// missing share. With --impute none the values still missing stay empty cells.
func TestPrepProteus(t *testing.T) {
	data := filepath.Join("..", "..", "shared", "data")
	mq, design := filepath.Join(data, "proteus_proteinGroups.txt.gz"), filepath.Join(data, "proteus_metadata.txt")
	if _, err := os.Stat(mq); err != nil {
		t.Fatalf("the Proteus example is needed: %v", err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "proteus.csv")
	code, stdout, errs := runMain(t, []string{"prep", "--data", mq, "--design", design, "--log2", "--impute", "knn", "--normalize", "quantile", "-o", out, "--figure"}, 2*time.Minute)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, f := range []string{"proteus.csv", "proteus-left-out.csv", "proteus-symbols.tsv", "proteus-samples.png", "proteus-samples.csv"} {
		if !strings.Contains(stdout, filepath.Join(dir, f)) {
			t.Errorf("%s not listed: %s", f, stdout)
		}
	}
	if !strings.Contains(errs, "2,928 of 3,714 kept") || !strings.Contains(errs, "786 left out by the valid-value filter") {
		t.Errorf("notes: %s", errs)
	}
	ds, err := dataset.ReadFile(out, dataset.Options{SymbolsPath: filepath.Join(dir, "proteus-symbols.tsv")})
	if err != nil {
		t.Fatal(err)
	}
	if n, p := ds.Dims(); n != 14 || p != 2928 || dataset.Summarize(ds).MissingCells != 0 || ds.Symbols == nil {
		t.Errorf("read back %d x %d with %d missing values, symbols %v", n, p, dataset.Summarize(ds).MissingCells, ds.Symbols != nil)
	}
	f, _ := os.Open(filepath.Join(dir, "proteus-left-out.csv"))
	rows, _ := csv.NewReader(f).ReadAll()
	f.Close()
	if len(rows) != 1+955 {
		t.Errorf("%d rows in the left-out list, want 955", len(rows)-1)
	}
	code, _, errs = runMain(t, []string{"prep", "--data", mq, "--design", design, "--log2", "--impute", "none", "-o", out}, 2*time.Minute)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	none, err := dataset.ReadFile(out, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, p := none.Dims(); p != 2928 || dataset.Summarize(none).MissingCells == 0 {
		t.Errorf("impute none: %d proteins, %d values missing", p, dataset.Summarize(none).MissingCells)
	}
}

// TestPrepSurvival: a table with a survival outcome (OS.time and OS, found by their
// names) and missing values is preprocessed with its outcome kept: OUT.csv has the time
// and event columns named as in the file (the values of the file above), which
// Steadfast reads back as the same survival outcome, the missing values imputed.
func TestPrepSurvival(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "surv.csv"), filepath.Join(dir, "prepared.csv")
	os.WriteFile(in, []byte("sample,OS.time,OS,g1,g2,g3\ns1,5.5,1,1.5,,2\ns2,7,0,2.5,3,1\ns3,2,1,,4,3\ns4,9,0,1,2,\ns5,3,1,2,2.5,2.5\ns6,12,0,1.2,3.1,1.9\n"), 0o644)
	code, _, errs := runMain(t, []string{"prep", "--data", in, "--impute", "halfmin", "-o", out}, 2*time.Minute)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, _ := os.ReadFile(out)
	if !strings.HasPrefix(string(b), "sample,OS.time,OS,") || !strings.Contains(string(b), "\ns1,5.5,1,") {
		t.Errorf("prepared:\n%s", b)
	}
	ds, err := dataset.ReadFile(out, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sv := ds.Survival
	if sv == nil || sv.Time[0] != 5.5 || !sv.Event[0] || sv.Event[1] || sv.Time[5] != 12 || dataset.Summarize(ds).MissingCells != 0 {
		t.Errorf("read back: survival %+v, %d values missing", sv, dataset.Summarize(ds).MissingCells)
	}
}

// prep keeps the clinical covariates (they are sample annotations, not features, so
// they would otherwise vanish from OUT.csv): the NKI 70-gene data (compute/study/
// testdata/nki70.csv, from R's penalized; its PROVENANCE in nki70_convert.R) with Diam,
// N, ER, Grade and Age found by their names, written beside the outcome as read (the
// first patient's values from the file: <=2cm, 1-3, Positive, Intermediate, 50), and
// read back as the same covariates, none of them a feature.
func TestPrepKeepsCovariates(t *testing.T) {
	out := filepath.Join(t.TempDir(), "prepared.csv")
	in := filepath.Join("..", "compute", "study", "testdata", "nki70.csv")
	code, _, errs := runMain(t, []string{"prep", "--data", in, "-o", out}, 2*time.Minute)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	orig, err := dataset.ReadFile(in, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	back, err := dataset.ReadFile(out, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(orig.Covariates) != 5 || len(back.Covariates) != len(orig.Covariates) {
		t.Fatalf("covariates: %d in the file, %d read back", len(orig.Covariates), len(back.Covariates))
	}
	for c, cv := range orig.Covariates {
		b := back.Covariates[c]
		if b.Name != cv.Name || covariateCell(b, 0) != covariateCell(cv, 0) || slices.Contains(back.Features, cv.Name) {
			t.Errorf("covariate %s: read back as %s, first value %q (want %q)", cv.Name, b.Name, covariateCell(b, 0), covariateCell(cv, 0))
		}
	}
	if !slices.Equal(back.Features, orig.Features) {
		t.Errorf("%d features read back, want %d", len(back.Features), len(orig.Features))
	}
}
