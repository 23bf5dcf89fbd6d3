package dataset

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// shared is a file of ../shared/data; the test fails without it.
func shared(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "..", "shared", "data", name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the real data are needed: %v", err)
	}
	return p
}

// reasons counts the left-out list by reason, a feature under each of its reasons.
func reasons(l []LeftOut) map[string]int {
	out := map[string]int{}
	for _, f := range l {
		if f.Ranked {
			out["ranked"]++
			continue
		}
		for _, r := range strings.Split(f.Reason, "; ") {
			out[r]++
		}
	}
	return out
}

// TestReadMaxQuantProteus: Proteus' proteinGroups.txt.gz as MaxQuant wrote it (3,883
// protein groups, 161 columns) gives the 14 runs' LFQ intensities of 3,714 groups, as
// ../shared/data/PROVENANCE.md counts them: 68 reverse hits, 13 potential contaminants
// and 112 groups only identified by site (156 rows in all) and 13 groups without any
// LFQ intensity left out and named; 10,916 of 51,996 values missing (zeros); the same
// values, cell for cell, as the derived proteus_proteomics.csv; classes A and B of 7
// from the design table and, without it, from the runs' names.
func TestReadMaxQuantProteus(t *testing.T) {
	mq, design := shared(t, "proteus_proteinGroups.txt.gz"), shared(t, "proteus_metadata.txt")
	for _, o := range []Options{{DesignPath: design}, {}} {
		ds, err := ReadFile(mq, o)
		if err != nil {
			t.Fatal(err)
		}
		n, p := ds.Dims()
		if n != 14 || p != 3714 || !slices.Equal(ds.Classes, []string{"A", "B"}) || !slices.Equal(ds.ClassCounts(), []int{7, 7}) {
			t.Fatalf("%d runs x %d groups, classes %v %v; want 14 x 3714, A 7 and B 7", n, p, ds.Classes, ds.ClassCounts())
		}
		r := reasons(ds.LeftOut)
		want := map[string]int{"reverse hit (decoy)": 68, "potential contaminant": 13, "only identified by a modification site": 112, "no LFQ intensity in any sample": 13}
		for k, v := range want {
			if r[k] != v {
				t.Errorf("%s: %d left out, want %d", k, r[k], v)
			}
		}
		if len(ds.LeftOut) != 169 {
			t.Errorf("%d groups left out, want 156 + 13", len(ds.LeftOut))
		}
		if s := Summarize(ds); s.MissingCells != 10916 || s.Counts || !s.Unlogged {
			t.Errorf("%d values missing (want 10916), counts %v (want false), unlogged %v (want true)", s.MissingCells, s.Counts, s.Unlogged)
		}
		at := slices.Index(ds.Features, "P38341")
		if at < 0 || ds.Symbols[at] != "MIC12" {
			t.Errorf("P38341 (sp|P38341|MIC12_YEAST) not read with its entry name's symbol MIC12")
		}
		csv, err := ReadFile(shared(t, "proteus_proteomics.csv"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(csv.Features, ds.Features) || !slices.Equal(csv.Samples, ds.Samples) {
			t.Fatal("the protein groups or runs differ from proteus_proteomics.csv's")
		}
		for i := range n {
			for j := range p {
				a, b := ds.X.At(i, j), csv.X.At(i, j)
				if a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
					t.Fatalf("%s, %s: %v, the CSV %v", ds.Samples[i], ds.Features[j], a, b)
				}
			}
		}
	}
}

// maxQuantLike is a small proteinGroups.txt: the columns MaxQuant writes that matter,
// with one reverse hit, one contaminant, one group without intensities.
const maxQuantLike = "Protein IDs\tMajority protein IDs\tFasta headers\tGene names\tIntensity\tIntensity ctrl_1\tIntensity ctrl_2\tIntensity treat_1\tIntensity treat_2\tiBAQ ctrl_1\tiBAQ ctrl_2\tiBAQ treat_1\tiBAQ treat_2\tOnly identified by site\tReverse\tPotential contaminant\tid\n" +
	"sp|P1|A_HUMAN;sp|P9|Z_HUMAN\tsp|P1|A_HUMAN\t\tGENEA;GENEZ\t10\t1000\t0\t3000\t4000\t1\t2\t3\t4\t\t\t\t0\n" +
	"sp|P2|B_HUMAN\tsp|P2|B_HUMAN\t>sp|P2|B_HUMAN Beta OS=Homo sapiens GN=BETA\t\t10\t5000\t6000\t7000\t8000\t5\t6\t7\t8\t\t\t\t1\n" +
	"REV__sp|P3|C_HUMAN\tREV__sp|P3|C_HUMAN\t\t\t10\t1\t1\t1\t1\t1\t1\t1\t1\t\t+\t\t2\n" +
	"CON__P4\tCON__P4\t\t\t10\t1\t1\t1\t1\t1\t1\t1\t1\t+\t\t+\t3\n" +
	"sp|P5|E_HUMAN\tsp|P5|E_HUMAN\t\tGENEE\t0\t0\t0\t0\t0\t1\t1\t1\t1\t\t\t\t4\n" +
	"tr|Q6|Q6_HUMAN\ttr|Q6|Q6_HUMAN\t\t\t10\t100\t200\t300\t400\t0\t2\t3\t4\t\t\t\t5\n"

// TestReadMaxQuantColumns: without LFQ columns the Intensity ones are read, iBAQ on
// request; the leading protein names a group (sp|P1|A_HUMAN is P1), its symbol the
// first gene name, else the Fasta header's GN=, else the entry name; zeros are missing;
// a group without intensities is left out with the flagged ones (a group of two marks
// counted under both), and the classes come from the names ctrl_1 ... treat_2.
func TestReadMaxQuantColumns(t *testing.T) {
	ds, err := ReadMaxQuant("proteinGroups.txt", []byte(maxQuantLike), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ds.Features, []string{"P1", "P2", "Q6"}) || !slices.Equal(ds.Symbols, []string{"GENEA", "BETA", "Q6"}) {
		t.Errorf("features %v, symbols %v", ds.Features, ds.Symbols)
	}
	if !slices.Equal(ds.Samples, []string{"ctrl_1", "ctrl_2", "treat_1", "treat_2"}) || !slices.Equal(ds.Classes, []string{"ctrl", "treat"}) {
		t.Errorf("samples %v, classes %v", ds.Samples, ds.Classes)
	}
	if v := ds.X.At(1, 0); !math.IsNaN(v) || ds.X.At(0, 0) != 1000 {
		t.Errorf("ctrl_2's P1 %v (a zero: missing), ctrl_1's %v", v, ds.X.At(0, 0))
	}
	r := reasons(ds.LeftOut)
	if r["reverse hit (decoy)"] != 1 || r["potential contaminant"] != 1 || r["only identified by a modification site"] != 1 || r["no Intensity in any sample"] != 1 || len(ds.LeftOut) != 3 {
		t.Errorf("left out %v", ds.LeftOut)
	}
	ib, err := ReadMaxQuant("proteinGroups.txt", []byte(maxQuantLike), Options{Intensity: IntensityBAQ})
	if err != nil {
		t.Fatal(err)
	}
	if _, p := ib.Dims(); p != 4 || ib.X.At(0, 2) != 1 || !math.IsNaN(ib.X.At(0, 3)) {
		t.Errorf("iBAQ: %d groups (want 4: P5 has iBAQ values), ctrl_1's P5 %v (want 1), Q6 %v (a zero)", p, ib.X.At(0, 2), ib.X.At(0, 3))
	}
}

// TestReadMaxQuantRefusals: what cannot be read is refused with its line and column and
// what to do: a ragged row, a negative intensity, a SILAC file, sample names without a
// replicate number (a design table is asked for), an unknown intensity.
func TestReadMaxQuantRefusals(t *testing.T) {
	lines := strings.Split(maxQuantLike, "\n")
	for _, c := range []struct {
		name, text string
		o          Options
		want       string
	}{
		{"ragged", strings.Join(append(slices.Clone(lines[:2]), "P7\tP7\t\t"), "\n"), Options{}, "line 3, column 5: has 4 fields but the header has 17"},
		{"negative", strings.Replace(maxQuantLike, "\t5000\t", "\t-5\t", 1), Options{}, "line 3, column 6: Intensity ctrl_1 is \"-5\""},
		{"silac", strings.Replace(maxQuantLike, "\tid\n", "\tRatio H/L\n", 1), Options{}, "SILAC"},
		{"tmt", strings.Replace(maxQuantLike, "\tid\n", "\tReporter intensity 1 ctrl_1\n", 1), Options{}, "TMT"},
		{"names", strings.ReplaceAll(strings.ReplaceAll(maxQuantLike, "ctrl_", "ctrl"), "treat_1", "treatment"), Options{}, "give a design table (--design FILE"},
		{"kind", maxQuantLike, Options{Intensity: "spectral"}, "choose lfq, intensity or ibaq"},
	} {
		_, err := ReadMaxQuant("proteinGroups.txt", []byte(c.text), c.o)
		var pe *ParseError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &pe) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestDesignTable: a design table names the samples in one column (the one naming the
// most of the data's samples) and their condition in another; samples it does not name
// are left out (unlabelled for a cohort), and its samples the data lack are noted; a
// table without a condition column is refused naming the columns it has.
func TestDesignTable(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "proteinGroups.txt")
	os.WriteFile(data, []byte(maxQuantLike), 0o644)
	design := filepath.Join(dir, "design.tsv")
	os.WriteFile(design, []byte("label\tcondition\nctrl_1\tcontrol\nctrl_2\tcontrol\ntreat_1\tdrug\nghost_1\tdrug\n"), 0o644)
	ds, err := ReadFile(data, Options{DesignPath: design})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ds.Samples, []string{"ctrl_1", "ctrl_2", "treat_1"}) || !slices.Equal(ds.Classes, []string{"control", "drug"}) {
		t.Errorf("samples %v, classes %v", ds.Samples, ds.Classes)
	}
	note := ds.Notes[len(ds.Notes)-1]
	for _, w := range []string{`samples in "label", classes in "condition"`, "1 sample the design gives no class left out: treat_2", "1 sample of the design not in the data: ghost_1"} {
		if !strings.Contains(note, w) {
			t.Errorf("note %q lacks %q", note, w)
		}
	}
	cohort, err := ReadFile(data, Options{DesignPath: design, Unlabelled: true})
	if err != nil || len(cohort.Samples) != 4 || cohort.Classes[cohort.Labels[3]] != "" {
		t.Errorf("a cohort keeps treat_2 unlabelled: %v", err)
	}
	os.WriteFile(design, []byte("sample\tdose\nctrl_1\t1\n"), 0o644)
	if _, err := ReadFile(data, Options{DesignPath: design}); err == nil || !strings.Contains(err.Error(), "no column named condition") {
		t.Errorf("no condition column: %v", err)
	}
}

// TestCountsNotIntensities: whole-number intensities in the millions with missing
// values are not RNA-seq counts (Summarize's counts need small counts and no missing
// value), nor are they without missing values when none is small; a count table is.
func TestCountsNotIntensities(t *testing.T) {
	for _, c := range []struct {
		text   string
		counts bool
	}{
		{"g1,g2,class\n249850000,,A\n231460000,144190000,B\n12441000,7590500,A\n", false},
		{"g1,g2,class\n249850000,15207000,A\n231460000,144190000,B\n12441000,7590500,A\n", false},
		{"g1,g2,class\n10,90,A\n0,400,B\n7,7,A\n", true},
	} {
		if got := Summarize(mustRead(t, "x.csv", c.text, Options{})).Counts; got != c.counts {
			t.Errorf("%q: counts %v, want %v", c.text, got, c.counts)
		}
	}
}

// TestIntensitiesPreprocessed: the Proteus table opens with its missing values kept: on
// all samples the valid-value filter (70% of a class) keeps 2,928 of the 3,714 groups
// (R's count, compute/impute/testdata/impute_ref.R), the other 786 stay in the data,
// ranked last and named with their counts; X has no missing value, Raw keeps them; the
// notes say how many are missing, where and what is done. With impute "none" the 1,431
// groups with a missing value are left out, named; an infinite value is refused.
func TestIntensitiesPreprocessed(t *testing.T) {
	raw, err := ReadFile(shared(t, "proteus_proteomics.csv"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ds, dropped, err := PreprocessContext(context.Background(), raw, Prep{Log2: true, DropConstant: true, Impute: "knn"})
	if err != nil {
		t.Fatal(err)
	}
	if _, p := ds.Dims(); p != 3714 || ds.Raw == nil || len(dropped) != 0 {
		t.Fatalf("%d groups, raw kept %v, %d dropped", p, ds.Raw != nil, len(dropped))
	}
	if s := Summarize(ds); s.MissingCells != 0 {
		t.Errorf("%d values missing after imputation", s.MissingCells)
	}
	if r := reasons(ds.LeftOut); r["ranked"] != 786 || len(ds.LeftOut) != 786 {
		t.Errorf("left out %v, want 786 ranked last", r)
	}
	if !strings.HasPrefix(ds.LeftOut[0].Reason, "measured in A ") {
		t.Errorf("reason %q", ds.LeftOut[0].Reason)
	}
	notes := strings.Join(ds.Notes, "\n")
	for _, w := range []string{"10,916 of 51,996 values missing (21.0%), in 1,431 of 3,714 features; per sample 16.5% (B-7) to 23.7% (A-7)", "imputed by their 10 nearest proteins", "the filter keeps 2,928 of 3,714, the other 786 are ranked last"} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q:\n%s", w, notes)
		}
	}
	none, dropped, err := PreprocessContext(context.Background(), raw, Prep{Log2: true, Impute: "none"})
	if err != nil {
		t.Fatal(err)
	}
	if _, p := none.Dims(); p != 3714-1431 || len(dropped) != 1431 || Summarize(none).MissingCells != 0 {
		t.Errorf("impute none: %d groups kept, %d dropped", p, len(dropped))
	}
	raw.X.Set(0, 0, math.Inf(1))
	if _, _, err := PreprocessContext(context.Background(), raw, Prep{Log2: true}); err == nil || !strings.Contains(err.Error(), "infinite") {
		t.Errorf("an infinite value: %v", err)
	}
}

func FuzzReadMaxQuant(f *testing.F) {
	f.Add([]byte(maxQuantLike))
	f.Add([]byte("Protein IDs\tMajority protein IDs\tIntensity a_1\tIntensity b_1\nP1\tP1\t1\t2\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if !isMaxQuant(b) {
			return
		}
		ds, err := ReadMaxQuant("proteinGroups.txt", b, Options{})
		if err == nil {
			n, p := ds.Dims()
			if len(ds.Labels) != n || len(ds.Features) != p || len(ds.Symbols) != p || len(ds.Samples) != n {
				t.Fatalf("inconsistent dataset %d x %d", n, p)
			}
			Summarize(ds)
		}
	})
}

// A design table gives classes, a survival outcome is a time and an event: a table
// holding both (the outcome found by its columns' names, or named) is refused with what
// to leave out, never read with the design's classes beside the events. Without the
// design, the survival table's missing values are kept for every training set to impute
// and its outcome (the times written above) stays.
func TestDesignAndSurvivalRefused(t *testing.T) {
	dir := t.TempDir()
	data, design := filepath.Join(dir, "surv.csv"), filepath.Join(dir, "design.txt")
	os.WriteFile(data, []byte("sample,time,event,g1,g2,g3\ns1,5,1,1.5,,2\ns2,7,0,2.5,3,1\ns3,2,1,,4,3\ns4,9,0,1,2,4\n"), 0o644)
	os.WriteFile(design, []byte("sample\tcondition\ns1\tA\ns2\tA\ns3\tB\ns4\tB\n"), 0o644)
	_, err := ReadFile(data, Options{DesignPath: design})
	if err == nil || !strings.Contains(err.Error(), `surv.csv: holds a survival outcome (time "time", event "event")`) || !strings.Contains(err.Error(), "leave out the design table") {
		t.Errorf("found outcome and design: %v", err)
	}
	_, err = ReadFile(data, Options{DesignPath: design, Outcome: Outcome{Time: "time", Event: "event"}})
	if err == nil || !strings.Contains(err.Error(), "both a design table (design.txt") {
		t.Errorf("named outcome and design: %v", err)
	}
	ds, err := ReadFile(data, Options{})
	if err != nil || ds.Survival == nil {
		t.Fatalf("without the design table: %v", err)
	}
	// the missing values are imputed inside every training set, the outcome kept
	pre, _, err := PreprocessContext(context.Background(), ds, Prep{Impute: "halfmin"})
	if err != nil {
		t.Fatal(err)
	}
	if pre.Raw == nil || pre.Survival == nil || !slices.Equal(pre.Survival.Time, []float64{5, 7, 2, 9}) {
		t.Errorf("preprocessed: intensities kept %v, survival %+v", pre.Raw != nil, pre.Survival)
	}
}
