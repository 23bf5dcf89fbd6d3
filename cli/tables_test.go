package cli

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// rWritten is a file of compute/dataset/testdata/rwritten: Proteus' proteinGroups table
// written back from R by make.R there.
func rWritten(name string) string {
	return filepath.Join("..", "compute", "dataset", "testdata", "rwritten", name)
}

// TestRankMaxQuantLog2ByDefault: a MaxQuant table's unlogged intensities are logged
// without --log2, as the window's Data tab ticks it, with a note; the ranking is the
// one --log2 gives; --log2=false keeps the values as they are (and minprob then
// refuses them, saying why).
func TestRankMaxQuantLog2ByDefault(t *testing.T) {
	mq, design := filepath.Join(sharedData, "proteus_proteinGroups.txt.gz"), filepath.Join(sharedData, "proteus_metadata.txt")
	if _, err := os.Stat(mq); err != nil {
		t.Fatalf("the Proteus example is needed: %v", err)
	}
	code, byDefault, errs := runMain(t, []string{"rank", "--data", mq, "--design", design, "--method", "fstat"}, 5*time.Minute)
	if code != 0 || !strings.Contains(errs, "note: log2 taken, as for every MaxQuant table of unlogged intensities") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, logged, errs := runMain(t, []string{"rank", "--data", mq, "--design", design, "--method", "fstat", "--log2"}, 5*time.Minute)
	if code != 0 || byDefault != logged || strings.Contains(errs, "log2 taken") {
		t.Errorf("--log2: exit %d, the same ranking %v: %s", code, byDefault == logged, errs)
	}
	code, _, errs = runMain(t, []string{"rank", "--data", mq, "--design", design, "--method", "fstat", "--log2=false"}, 5*time.Minute)
	if code != 2 || !strings.Contains(errs, "look unlogged") {
		t.Errorf("--log2=false: exit %d: %s", code, errs)
	}
}

// TestRWrittenTablesCommandLine: the LFQ-only copies R wrote (make.R: tab-separated
// with R's names, and by write.csv) are read as MaxQuant: prep writes the 14 runs of
// classes A and B (7 each, from the runs' names), never the contaminant marks as a
// class; the copy with MaxQuant's names gives the values the R-named ones give. The
// left-out note's parts add up to its total (make.R: 68 + 11 + 77 + 13 = 169).
func TestRWrittenTablesCommandLine(t *testing.T) {
	dir := t.TempDir()
	var tables []string
	for _, f := range []string{"lfq_maxquant.tsv.gz", "lfq_rnames.tsv.gz", "lfq_rnames.csv.gz"} {
		out := filepath.Join(dir, "x.csv")
		code, _, errs := runMain(t, []string{"prep", "--data", rWritten(f), "-o", out}, 2*time.Minute)
		if code != 0 || !strings.Contains(errs, "169 left out (68 reverse hit (decoy), 11 potential contaminant, 77 only identified by a modification site, 13 without any LFQ intensity;") {
			t.Fatalf("%s: exit %d: %s", f, code, errs)
		}
		rows := readCSV(t, out)
		if len(rows) != 15 {
			t.Fatalf("%s: %d rows, want 14 runs", f, len(rows)-1)
		}
		var classes []string
		for _, r := range rows[1:] {
			classes = append(classes, r[1])
		}
		if want := slices.Repeat([]string{"A"}, 7); !slices.Equal(classes[:7], want) || slices.Contains(classes, "+") {
			t.Errorf("%s: classes %v", f, classes)
		}
		code, _, errs = runMain(t, []string{"prep", "--data", rWritten(f), "--impute", "none", "-o", out}, 2*time.Minute)
		if code != 0 {
			t.Fatalf("%s: prep --impute none: exit %d: %s", f, code, errs)
		}
		var values []string
		for _, r := range readCSV(t, out)[1:] {
			values = append(values, strings.Join(r[1:], ",")) // the class and the values, not the run's name
		}
		tables = append(tables, strings.Join(values, "\n"))
	}
	if tables[0] != tables[1] || tables[1] != tables[2] {
		t.Error("the R-named copies give other values than the copy with MaxQuant's names")
	}
}

// TestMarksAndTextRefused: the R-written table without its protein columns is no MaxQuant
// table, and its last column (Potential.contaminant, "+" marks) is no class: prep is
// refused (it had written 13 contaminant rows as samples of class "+"), saying what to do.
func TestMarksAndTextRefused(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "noids.tsv")
	var out []string
	for _, l := range strings.Split(strings.TrimRight(string(mustGunzip(t, rWritten("lfq_rnames.tsv.gz"))), "\n"), "\n") {
		out = append(out, strings.Join(strings.Split(l, "\t")[2:], "\t"))
	}
	os.WriteFile(in, []byte(strings.Join(out, "\n")+"\n"), 0o644)
	code, _, errs := runMain(t, []string{"prep", "--data", in, "-o", filepath.Join(dir, "y.csv")}, time.Minute)
	if code != 2 || !strings.Contains(errs, `"Potential.contaminant", holds marks ("+" in 13 of 369 rows`) || !strings.Contains(errs, "--class NAME") {
		t.Errorf("exit %d: %s", code, errs)
	}
}

// TestLog2ValuesBelowOne: --log2 on chowdary.csv says how many values were below 1 and
// what was done (R: d <- read.csv("chowdary.csv"); x <- as.matrix(d[sapply(d,
// is.numeric)]); sum(x == 0) 116, sum(x > 0 & x < 1) 175,762, length(x) 2,317,432); on
// lymphoma.csv, logged ratios (R: sum(y < 0) 130,358 of 249,612), it is refused.
func TestLog2ValuesBelowOne(t *testing.T) {
	code, _, errs := runMain(t, []string{"rank", "--data", filepath.Join(sharedData, "chowdary.csv"), "--log2"}, 5*time.Minute)
	if code != 0 || !strings.Contains(errs, "note: log2: 175,878 of 2,317,432 values (7.6%) are below 1 (116 zero, 175,762 between 0 and 1) and were raised to 1 before log2, so they are 0 after it") {
		t.Errorf("chowdary: exit %d: %s", code, errs)
	}
	code, _, errs = runMain(t, []string{"rank", "--data", filepath.Join(sharedData, "lymphoma.csv"), "--log2"}, time.Minute)
	if code != 2 || !strings.Contains(errs, "130,358 of 249,612 values are negative") || !strings.Contains(errs, "leave out log2") {
		t.Errorf("lymphoma: exit %d: %s", code, errs)
	}
}

// mustGunzip is the gzipped file at path, decompressed.
func mustGunzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
