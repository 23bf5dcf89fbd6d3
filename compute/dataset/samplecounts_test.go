package dataset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The per-sample count files pipelines write, worked by hand: htseq-count's two columns
// without a header and its __ summary rows; featureCounts' comment and table, the counts
// in the column after Length; genes not in every file left out. The samples are named by
// the GSM ids opening the file names, in the order given.
func TestReadSampleCountsOfThreePipelines(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	htseq := write("GSM11_a.htseq.txt", "g1\t5\ng2\t0\ng3\t9\n__no_feature\t100\n__ambiguous\t3\n")
	fc := write("GSM12_b.txt", "# Program:featureCounts v2.0.1\nGeneid\tChr\tStart\tEnd\tStrand\tLength\tb.bam\ng2\tchr1\t1\t10\t+\t10\t4\ng1\tchr1\t20\t30\t+\t11\t6\ng3\tchr2\t1\t5\t-\t5\t1\n")
	named := write("GSM13_c.tsv", "EntrezID\tGeneLength\tCount\ng3\t100\t2\ng1\t200\t8\ng4\t10\t1\n")
	ds, err := readSampleCounts([]string{htseq, fc, named})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(ds.Samples, " ") != "GSM11 GSM12 GSM13" || strings.Join(ds.Features, " ") != "g1 g3" {
		t.Fatalf("samples %v, genes %v", ds.Samples, ds.Features)
	}
	want := [][]float64{{5, 9}, {6, 1}, {8, 2}}
	for i, row := range want {
		for j, v := range row {
			if ds.X.At(i, j) != v {
				t.Errorf("%s %s: %v, want %v", ds.Samples[i], ds.Features[j], ds.X.At(i, j), v)
			}
		}
	}
	notes := strings.Join(ds.Notes, "\n")
	for _, w := range []string{"1 gene of GSM11_a.htseq.txt is not in every sample's file", "htseq-count's summary rows left out of the genes: __ambiguous, __no_feature"} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q:\n%s", w, notes)
		}
	}
}

// What cannot be read is refused with the file, line and column: a table whose counts
// column is not named, a count that is not a number, a gene given twice, a file not
// named by its sample.
func TestReadSampleCountsRefusals(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	ok := write("GSM1_ok.txt", "g1\t1\ng2\t2\n")
	for _, c := range []struct{ name, body, want string }{
		{"GSM2_rsem.txt", "gene_id\tlength\tTPM\tFPKM\ng1\t1\t2\t3\n", "GSM2_rsem.txt, line 1: has 4 columns (gene_id, length, TPM, FPKM) and none is headed as the read counts"},
		{"GSM3_bad.txt", "g1\t1\ng2\tlots\n", `GSM3_bad.txt, line 2, column 2: "lots", the count of "g2", is not a number`},
		{"GSM4_twice.txt", "g1\t1\ng1\t2\n", `GSM4_twice.txt, line 2: gives gene "g1" a second time`},
		{"sample5.txt", "g1\t1\n", "sample5.txt: does not name its sample"},
	} {
		_, err := readSampleCounts([]string{ok, write(c.name, c.body)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
