package dataset

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadGDS507 reads a real GEO DataSet (testdata/geo, from GEOquery's extdata): the
// 17 GSM columns become samples, the 22,645 probes features, IDENTIFIER their symbols,
// and the class the first subset type, "disease state"; the counts and cells are read
// off the file's text (testdata/geo/geo_sklearn.txt).
func TestReadGDS507(t *testing.T) {
	ds, err := ReadFile(filepath.Join("testdata", "geo", "GDS507.soft.gz"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n, p := ds.Dims(); n != 17 || p != 22645 {
		t.Fatalf("%d samples x %d probes, want 17 x 22645", n, p)
	}
	if got := ds.ClassCounts(); strings.Join(ds.Classes, ",") != "RCC,normal" || got[0] != 9 || got[1] != 8 {
		t.Errorf("classes %v %v, want RCC 9, normal 8", ds.Classes, got)
	}
	// first data line: 200000_s_at PRPF8 4254.000 (GSM11815) ... 3482.100 (GSM12448)
	if ds.Features[0] != "200000_s_at" || ds.Symbols[0] != "PRPF8" || ds.Samples[0] != "GSM11815" || ds.X.At(0, 0) != 4254 || ds.X.At(16, 0) != 3482.1 {
		t.Errorf("first probe %s %s, sample %s, values %v %v", ds.Features[0], ds.Symbols[0], ds.Samples[0], ds.X.At(0, 0), ds.X.At(16, 0))
	}
	// IDENTIFIER gives a GenBank accession for 9,517 probes of no known gene (the table's
	// lines: zcat GDS507.soft.gz | sed -n '/dataset_table_begin/,/dataset_table_end/p' |
	// sed '1,2d;$d' | cut -f2 | grep -cE '^([A-Z]{1,2}[0-9]{5,6}|[A-Z]{2}_[0-9]{6,9})(\.[0-9]+)?$'):
	// those are no symbols, and the note says where the symbols came from
	blank := 0
	for _, s := range ds.Symbols {
		if s == "" {
			blank++
		}
	}
	if blank != 9517 || !slices.ContainsFunc(ds.Notes, func(n string) bool {
		return strings.Contains(n, "IDENTIFIER column") && strings.Contains(n, "9517 probes have a GenBank or RefSeq accession there")
	}) {
		t.Errorf("%d probes without a symbol; notes %q", blank, ds.Notes)
	}
	var keys []string
	for _, c := range ds.ClassChoices {
		keys = append(keys, c.String())
	}
	if got := strings.Join(keys, "; "); !strings.Contains(got, "disease state (RCC 9, normal 8)") || !strings.Contains(got, "individual (035 2, 023 2") {
		t.Errorf("class choices %s", got)
	}
	ind, err := ReadFile(filepath.Join("testdata", "geo", "GDS507.soft.gz"), Options{ClassName: "individual"})
	if err != nil || len(ind.Classes) != 10 {
		t.Errorf("class individual: %v classes, %v", ind.Classes, err)
	}
}

// TestSymbolsFromGEOAnnot reads GEO's GPL97.annot.gz (header lines, then the platform
// table with "Gene symbol" in its third column): 13,179 of GDS507's probes have a
// symbol (testdata/geo/geo_sklearn.txt).
func TestSymbolsFromGEOAnnot(t *testing.T) {
	sym, _, err := ReadSymbols(filepath.Join("testdata", "geo", "GPL97.annot.gz"))
	if err != nil {
		t.Fatal(err)
	}
	ds, err := ReadFile(filepath.Join("testdata", "geo", "GDS507.soft.gz"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if found := ds.SetSymbols(sym); found != 13179 {
		t.Errorf("%d probes with a symbol, want 13179", found)
	}
	if sym["228581_at"] != "KCNJ10" || sym["200001_at"] != "CAPNS1" {
		t.Errorf("228581_at %q, 200001_at %q", sym["228581_at"], sym["200001_at"])
	}
}

// TestSOFTFilesWithoutSamplesExplained: a platform, a single sample or a family SOFT file
// given as data gets a message saying what it is and what to open instead.
func TestSOFTFilesWithoutSamplesExplained(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, text, want string }{
		{"GPL97.soft", "^PLATFORM = GPL97\n!Platform_title = HG-U133B\n!platform_table_begin\nID\tGene Symbol\n200000_s_at\tPRPF8\n!platform_table_end\n", "gene-symbol annotation"},
		{"GSM11805.txt", "^SAMPLE = GSM11805\n!Sample_title = N035\n!sample_table_begin\nID_REF\tVALUE\n1007_s_at\t5.2\n!sample_table_end\n", "holds one sample"},
		{"GSE781_family.soft", "^DATABASE = GeoMiame\n^SERIES = GSE781\n!Series_title = RCC\n^SAMPLE = GSM11805\n!sample_table_begin\nID_REF\tVALUE\n1007_s_at\t5.2\n!sample_table_end\n", "series matrix"},
	} {
		path := filepath.Join(dir, tc.name)
		os.WriteFile(path, []byte(tc.text), 0o644)
		if _, err := ReadFile(path, Options{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a message with %q", tc.name, err, tc.want)
		}
	}
}

// FuzzReadGDS feeds the DataSet reader arbitrary text after a SOFT header: it returns a
// dataset or an error, never panics.
func FuzzReadGDS(f *testing.F) {
	f.Add([]byte("^DATASET = GDS1\n^SUBSET = GDS1_1\n!subset_description = A\n!subset_sample_id = GSM1,GSM2\n!subset_type = disease state\n^SUBSET = GDS1_2\n!subset_description = B\n!subset_sample_id = GSM3,GSM4\n!subset_type = disease state\n!dataset_table_begin\nID_REF\tIDENTIFIER\tGSM1\tGSM2\tGSM3\tGSM4\np1\tTP53\t1\t2\t3\t4\np2\tDDR1\t2\tnull\t1\t5\n!dataset_table_end\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ds, err := ReadGDS("f.soft", b, Options{})
		if err == nil {
			if n, p := ds.Dims(); n != len(ds.Labels) || p != len(ds.Features) {
				t.Fatalf("%d x %d with %d labels and %d names", n, p, len(ds.Labels), len(ds.Features))
			}
		}
	})
}

// A GEO file names its accession and platform: GDS507's header (^DATASET = GDS507,
// !dataset_platform = GPL97) and a series matrix's !Series_geo_accession and
// !Series_platform_id; a header that is not a GEO id is not taken (it becomes part of
// reports and, later, of addresses).
func TestGEOAccessionAndPlatform(t *testing.T) {
	ds, err := ReadFile(filepath.Join("testdata", "geo", "GDS507.soft.gz"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Accession != "GDS507" || ds.Platform != "GPL97" {
		t.Errorf("GDS507: accession %q, platform %q", ds.Accession, ds.Platform)
	}
	gse := "!Series_title\t\"x\"\n!Series_geo_accession\t\"GSE781\"\n!Series_platform_id\t\"GPL97\"\n!Sample_geo_accession\t\"GSM1\"\t\"GSM2\"\t\"GSM3\"\t\"GSM4\"\n" +
		"!Sample_characteristics_ch1\t\"tissue: tumour\"\t\"tissue: normal\"\t\"tissue: tumour\"\t\"tissue: normal\"\n" +
		"!series_matrix_table_begin\n\"ID_REF\"\t\"GSM1\"\t\"GSM2\"\t\"GSM3\"\t\"GSM4\"\n\"a\"\t1\t2\t3\t4.5\n\"b\"\t2\t1\t4\t3\n!series_matrix_table_end\n"
	ds, err = readBytes("GSE781_series_matrix.txt", []byte(gse), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Accession != "GSE781" || ds.Platform != "GPL97" {
		t.Errorf("series matrix: accession %q, platform %q", ds.Accession, ds.Platform)
	}
	bad := strings.Replace(gse, `"GSE781"`, `"GSE781/../../etc"`, 1)
	if ds, err = readBytes("GSE781_series_matrix.txt", []byte(bad), Options{}); err != nil || ds.Accession != "" {
		t.Errorf("a header that is no GEO id: accession %q, %v", ds.Accession, err)
	}
	clean, _ := Preprocess(ds, Prep{Log2: true})
	if clean.Platform != "GPL97" {
		t.Error("preprocessing drops the platform")
	}
}
