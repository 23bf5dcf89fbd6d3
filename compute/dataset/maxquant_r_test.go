package dataset

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// rWritten is a file of testdata/rwritten, Proteus' proteinGroups table written back
// from R by testdata/rwritten/make.R.
func rWritten(name string) string { return filepath.Join("testdata", "rwritten", name) }

// TestReadRWrittenMaxQuant: LFQ-only copies of Proteus' proteinGroups table (369 groups
// drawn from it: every marked one, every one without intensities and 200 others), as R
// writes them back (make.R): with MaxQuant's names (no Intensity columns), with R's
// names (LFQ.intensity.A.1, Potential.contaminant) tab-separated, by write.csv (quoted,
// a row-name column under "") and by write.table's defaults (quoted, row names without
// a header cell), are each read as MaxQuant. Expected, from make.R's run
// (testdata/rwritten/expected.txt): 14 samples, 200 groups kept, 169 left out (68
// reverse, 11 contaminants not reverse, 77 only identified by site and neither, 13
// without LFQ intensity; 36 with several marks), 557 of 2,800 values missing, the first
// kept group Q03713 (RCF1) with 37310000 in A-1 (A.1 as R names it).
func TestReadRWrittenMaxQuant(t *testing.T) {
	for _, c := range []struct{ file, a1 string }{
		{"lfq_maxquant.tsv.gz", "A-1"}, {"lfq_rnames.tsv.gz", "A.1"}, {"lfq_rnames.csv.gz", "A.1"}, {"lfq_rownames.txt.gz", "A.1"},
	} {
		ds, err := ReadFile(rWritten(c.file), Options{})
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		n, p := ds.Dims()
		if !ds.MaxQuant || n != 14 || p != 200 || len(ds.LeftOut) != 169 || !slices.Equal(ds.ClassCounts(), []int{7, 7}) {
			t.Errorf("%s: MaxQuant %v, %d samples x %d groups, %d left out, classes %v %v; want 14 x 200, 169, A and B of 7", c.file, ds.MaxQuant, n, p, len(ds.LeftOut), ds.Classes, ds.ClassCounts())
			continue
		}
		if s := Summarize(ds); s.MissingCells != 557 || !s.Unlogged {
			t.Errorf("%s: %d values missing (want 557), unlogged %v", c.file, s.MissingCells, s.Unlogged)
		}
		if ds.Samples[0] != c.a1 || ds.Features[0] != "Q03713" || ds.Symbols[0] != "RCF1" || ds.X.At(0, 0) != 37310000 {
			t.Errorf("%s: first %s %s (%s) = %v, want %s Q03713 (RCF1) = 37310000", c.file, ds.Samples[0], ds.Features[0], ds.Symbols[0], ds.X.At(0, 0), c.a1)
		}
		notes := strings.Join(ds.Notes, "\n")
		if want := "369 protein groups, 169 left out (68 reverse hit (decoy), 11 potential contaminant, 77 only identified by a modification site, 13 without any LFQ intensity; each group counted once, under its first mark in this order (36 carry two marks or more)"; !strings.Contains(notes, want) {
			t.Errorf("%s: notes lack %q:\n%s", c.file, want, notes)
		}
		if rNamed := c.a1 == "A.1"; rNamed != strings.Contains(notes, "named as R names them") {
			t.Errorf("%s: the note on R's names: %s", c.file, notes)
		}
	}
	// the design table names the samples A-1 ...; R's copies name them A.1 ...
	ds, err := ReadFile(rWritten("lfq_rnames.tsv.gz"), Options{DesignPath: shared(t, "proteus_metadata.txt")})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ds.ClassCounts(), []int{7, 7}) || !strings.Contains(strings.Join(ds.Notes, "\n"), "matched as R writes them") {
		t.Errorf("design: classes %v %v, notes %v", ds.Classes, ds.ClassCounts(), ds.Notes)
	}
}

// TestMarksAndTextNeverClasses: the R-written table without its protein columns is no
// MaxQuant table; its last column, Potential.contaminant, holds marks ("+" in 13 of 369
// rows: every contaminant of Proteus' table is drawn, and R's
// sum(pg$Potential.contaminant == "+") over the whole table is 13) and is refused as a
// class; so is a last column of free text (the protein ids); a last column of two
// classes is still taken.
func TestMarksAndTextNeverClasses(t *testing.T) {
	b, _, err := gunzip("lfq_rnames.tsv.gz", mustReadFile(t, rWritten("lfq_rnames.tsv.gz")), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	cut := func(keep func(f []string) []string) string {
		var out []string
		for _, r := range rows {
			out = append(out, strings.Join(keep(strings.Split(r, "\t")), "\t"))
		}
		p := filepath.Join(t.TempDir(), "table.tsv")
		os.WriteFile(p, []byte(strings.Join(out, "\n")+"\n"), 0o644)
		return p
	}
	noIDs := cut(func(f []string) []string { return f[2:] })
	_, err = ReadFile(noIDs, Options{})
	if err == nil || !strings.Contains(err.Error(), `"Potential.contaminant", holds marks ("+" in 13 of 369 rows`) || !strings.Contains(err.Error(), "--class NAME") {
		t.Errorf("marks: %v", err)
	}
	text := cut(func(f []string) []string { // the LFQ columns, then the protein ids (not named so: no MaxQuant table)
		if f[0] == "Protein.IDs" {
			f[0] = "proteins"
		}
		return append(slices.Clone(f[3:17]), f[0])
	})
	if _, err := ReadFile(text, Options{}); err == nil || !strings.Contains(err.Error(), "holds text that names no classes") {
		t.Errorf("free text: %v", err)
	}
	two := cut(func(f []string) []string { // the LFQ columns, then a column of two classes
		c := "kept"
		if f[len(f)-1] == "+" || f[len(f)-2] == "+" || f[len(f)-3] == "+" {
			c = "marked"
		}
		if f[0] == "Protein.IDs" {
			c = "status"
		}
		return append(slices.Clone(f[3:17]), c)
	})
	if ds, err := ReadFile(two, Options{}); err != nil || len(ds.Classes) != 2 {
		t.Errorf("two classes: %v", err)
	}
}

// TestLog2BelowOneReal: chowdary.csv (Affymetrix MAS5 values, unlogged) holds 175,878
// values below 1 among 2,317,432: 116 zeros and 175,762 between 0 and 1 (R: d <-
// read.csv("chowdary.csv"); x <- as.matrix(d[sapply(d, is.numeric)]); sum(x == 0);
// sum(x > 0 & x < 1); length(x)); log2 says so. lymphoma.csv holds logged ratios,
// 130,358 of its 249,612 values negative, the least -9.542195 (R: l <-
// read.csv("lymphoma.csv"); y <- as.matrix(l[sapply(l, is.numeric)]); sum(y < 0);
// min(y)): log2 is refused.
func TestLog2BelowOneReal(t *testing.T) {
	ch, err := ReadFile(shared(t, "chowdary.csv"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := PreprocessContext(context.Background(), ch, Prep{Log2: true, DropConstant: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := "log2: 175,878 of 2,317,432 values (7.6%) are below 1 (116 zero, 175,762 between 0 and 1) and were raised to 1 before log2, so they are 0 after it"; !slices.Contains(out.Notes, want) {
		t.Errorf("notes lack %q: %v", want, out.Notes)
	}
	ly, err := ReadFile(shared(t, "lymphoma.csv"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := PreprocessContext(context.Background(), ly, Prep{Log2: true}); err == nil || !strings.Contains(err.Error(), "130,358 of 249,612 values are negative (the least -9.542)") || !strings.Contains(err.Error(), "look logged already") {
		t.Errorf("lymphoma: %v", err)
	}
}

// TestDefaultLog2: a MaxQuant table's unlogged intensities are logged when log2 is
// unsaid, as the window's Data tab ticks it; not when said, nor when logged already.
func TestDefaultLog2(t *testing.T) {
	ds, err := ReadFile(rWritten("lfq_rnames.tsv.gz"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p, note := DefaultLog2(ds, Prep{Log2Unsaid: true}); !p.Log2 || p.Log2Unsaid || !strings.Contains(note, "log2 taken") {
		t.Errorf("unsaid: %+v %q", p, note)
	}
	if p, note := DefaultLog2(ds, Prep{}); p.Log2 || note != "" {
		t.Errorf("said: %+v %q", p, note)
	}
	logged, _ := Preprocess(ds, Prep{Log2: true})
	logged.MaxQuant = true
	if p, note := DefaultLog2(logged, Prep{Log2Unsaid: true}); p.Log2 || note != "" {
		t.Errorf("logged already: %+v %q", p, note)
	}
}

func mustReadFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMaxQuantGroupCounts: the note on Proteus' table counts the groups left out, each
// once under its first mark (Reverse, Potential contaminant, Only identified by site),
// so its parts add up to its total, and with thousands separators. From R over the same
// file: pg <- read.delim(gzfile("proteus_proteinGroups.txt.gz")); rev <- pg$Reverse ==
// "+"; con <- pg$Potential.contaminant == "+"; site <- pg$Only.identified.by.site ==
// "+"; lfq <- as.matrix(pg[, grep("^LFQ.intensity.", names(pg))]); sum(rev) 68;
// sum(con & !rev) 11; sum(site & !rev & !con) 77; sum(rowSums(lfq > 0) == 0 & !(rev |
// con | site)) 13; sum(rev + con + site >= 2) 36; nrow(pg) 3883, 3714 kept.
func TestMaxQuantGroupCounts(t *testing.T) {
	ds, err := ReadFile(shared(t, "proteus_proteinGroups.txt.gz"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "3,883 protein groups, 169 left out (68 reverse hit (decoy), 11 potential contaminant, 77 only identified by a modification site, 13 without any LFQ intensity; each group counted once, under its first mark in this order (36 carry two marks or more); each named in the left-out list), 3,714 kept"
	if !strings.Contains(strings.Join(ds.Notes, "\n"), want) {
		t.Errorf("notes lack %q:\n%s", want, strings.Join(ds.Notes, "\n"))
	}
	if got := LeftOutSummary(ds.LeftOut); got != "11 potential contaminant, 68 reverse hit (decoy), 77 only identified by a modification site, 13 no LFQ intensity in any sample; each counted once, under its first reason (36 have several)" {
		t.Errorf("summary: %s", got)
	}
}
