package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

func gz(t *testing.T, s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

// TestReadsCompressedAndOtherEncodings: gzip (found by content, also without .gz),
// UTF-16 with a byte-order mark and Latin-1 text read as the same table, each with a
// note; a GCT.gz finds its CLS (plain or gzipped).
func TestReadsCompressedAndOtherEncodings(t *testing.T) {
	table := "gene,s1,s2,s3,s4\ng1,1.5,2,3,4\ng2,2,1,4,3.25\nclass,Tumeur,Tumeur,Normal,Normal\n"
	utf16le := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(table)) {
		utf16le = append(utf16le, byte(u), byte(u>>8))
	}
	latin := strings.Replace(table, "Normal", "Norm\xe9", -1) // é in Latin-1
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		content []byte
		note    string
		class   string
	}{
		{"a.csv.gz", gz(t, table), "gzip", "Normal"},
		{"b.csv", gz(t, table), "gzip", "Normal"},
		{"padded.csv.gz", append(gz(t, table), make([]byte, 512)...), "gzip", "Normal"},       // gunzip accepts it
		{"members.csv.gz", append(gz(t, table[:30]), gz(t, table[30:])...), "gzip", "Normal"}, // bgzip
		{"c.txt", utf16le, "UTF-16", "Normal"},
		{"d.csv", []byte(latin), "Latin-1", "Normé"},
	} {
		path := filepath.Join(dir, tc.name)
		os.WriteFile(path, tc.content, 0o644)
		ds, err := ReadFile(path, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if n, p := ds.Dims(); n != 4 || p != 2 || ds.X.At(0, 0) != 1.5 || ds.Classes[1] != tc.class {
			t.Errorf("%s: %d x %d, classes %v", tc.name, n, p, ds.Classes)
		}
		if !strings.Contains(strings.Join(ds.Notes, "; "), tc.note) {
			t.Errorf("%s: notes %v lack %q", tc.name, ds.Notes, tc.note)
		}
	}
	gct := "#1.2\n2\t4\nName\tDescription\ts1\ts2\ts3\ts4\ng1\td\t1\t2\t3\t4\ng2\td\t3\t4\t1\t0\n"
	cls := "4 2 1\n# A B\n0 0 1 1\n"
	os.WriteFile(filepath.Join(dir, "x.gct.gz"), gz(t, gct), 0o644)
	os.WriteFile(filepath.Join(dir, "x.cls.gz"), gz(t, cls), 0o644)
	if ds, err := ReadFile(filepath.Join(dir, "x.gct.gz"), Options{}); err != nil || len(ds.Classes) != 2 {
		t.Errorf("GCT.gz with CLS.gz: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "bad.csv.gz"), gz(t, table)[:20], 0o644)
	if _, err := ReadFile(filepath.Join(dir, "bad.csv.gz"), Options{}); err == nil || !strings.Contains(err.Error(), "gzip") {
		t.Errorf("truncated gzip: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "junk.csv.gz"), append(gz(t, table), "junk after"...), 0o644)
	if _, err := ReadFile(filepath.Join(dir, "junk.csv.gz"), Options{}); err == nil || !strings.Contains(err.Error(), "not gzip") {
		t.Errorf("junk after the data: %v", err)
	}
}

// TestLogCPM: counts become log2((x + 0.5) / (L + 1) 10^6) per sample, L the sample's
// sum, and a count table is recognised as such. Worked by hand: the sample (10, 90) has
// L = 100, so 10 -> log2(10.5 / 101 * 1e6) = 16.66567 and 90 -> log2(90.5 / 101 * 1e6).
func TestLogCPM(t *testing.T) {
	ds := mustRead(t, "counts.csv", "g1,g2,class\n10,90,A\n0,400,B\n7,7,A\n", Options{})
	if !Summarize(ds).Counts {
		t.Error("an integer table with values over 50 is not recognised as counts")
	}
	out, _ := Preprocess(ds, Prep{LogCPM: true, Log2: true})
	for _, c := range []struct {
		i, j int
		want float64
	}{{0, 0, math.Log2(10.5 / 101 * 1e6)}, {0, 1, math.Log2(90.5 / 101 * 1e6)}, {1, 0, math.Log2(0.5 / 401 * 1e6)}} {
		if got := out.X.At(c.i, c.j); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("(%d, %d) = %v, want %v", c.i, c.j, got, c.want)
		}
	}
	if math.Abs(math.Log2(10.5/101*1e6)-16.66567) > 1e-5 {
		t.Error("the hand value")
	}
	if Summarize(mustRead(t, "x.csv", "g1,g2,class\n1.5,2,A\n3,4,B\n", Options{})).Counts {
		t.Error("fractions taken for counts")
	}
}

// TestQuotedLineBreaks: a quoted field holding a line break (valid CSV, RFC 4180) stays
// one field, and errors after it name the right file line.
func TestQuotedLineBreaks(t *testing.T) {
	ds := mustRead(t, "q.csv", "sample,g1,g2,class\n\"patient 1\nbiopsy\",1,2,A\ns2,3,4,B\ns3,5,6,A\n", Options{})
	if n, _ := ds.Dims(); n != 3 || ds.Samples[0] != "patient 1\nbiopsy" {
		t.Errorf("%d samples, first %q", n, ds.Samples[0])
	}
	_, err := ReadDelimited("q.csv", []byte("sample,g1,g2,class\n\"patient 1\nbiopsy\",1,2,A\ns2,3,x,B\n"), Options{})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 4 || pe.Column != 3 {
		t.Errorf("error after the quoted break: %v", err)
	}
}

// TestGeneSymbols: a GCT's Description column and a GEO platform table (ID, Gene
// Symbol; "A /// B" keeps both) give symbols that follow the features through dropping.
func TestGeneSymbols(t *testing.T) {
	dir := t.TempDir()
	gct := "#1.2\n3\t4\nName\tDescription\ts1\ts2\ts3\ts4\n1007_s_at\tDDR1\t1\t2\t3\t4\n1053_at\tRFC2\t5\t5\t5\t5\n117_at\tna\t3\t4\t1\t0\n"
	os.WriteFile(filepath.Join(dir, "x.gct"), []byte(gct), 0o644)
	os.WriteFile(filepath.Join(dir, "x.cls"), []byte("4 2 1\n# A B\n0 0 1 1\n"), 0o644)
	ds, err := ReadFile(filepath.Join(dir, "x.gct"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(ds.Symbols, ",") != "DDR1,RFC2," || ds.Label(0) != "1007_s_at (DDR1)" || ds.Label(2) != "117_at" {
		t.Fatalf("symbols %q, labels %q %q", ds.Symbols, ds.Label(0), ds.Label(2))
	}
	out, _ := Preprocess(ds, Prep{DropConstant: true}) // 1053_at is constant
	if strings.Join(out.Features, ",") != "1007_s_at,117_at" || strings.Join(out.Symbols, ",") != "DDR1," {
		t.Errorf("after dropping: %v %q", out.Features, out.Symbols)
	}
	gpl := "#ID = probe\n!platform_table_begin\nID\tGB_ACC\tGene Symbol\n1007_s_at\tU48705\tDDR1 /// MIR4640\n117_at\tX51757\tHSPA6\n!platform_table_end\n"
	os.WriteFile(filepath.Join(dir, "gpl.txt"), []byte(gpl), 0o644)
	ds, err = ReadFile(filepath.Join(dir, "x.gct"), Options{SymbolsPath: filepath.Join(dir, "gpl.txt")})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(ds.Symbols, ",") != "DDR1 /// MIR4640,,HSPA6" || !strings.Contains(strings.Join(ds.Notes, ";"), "symbols for 2 of 3") {
		t.Errorf("from the platform table: %q %v", ds.Symbols, ds.Notes)
	}
}

// TestNumericFeatureNamesAreAHeader: a proteomics table whose features are m/z values
// (numbers with decimals) has a header; a file whose first line is a sample is refused.
func TestNumericFeatureNamesAreAHeader(t *testing.T) {
	ds := mustRead(t, "spectra.csv", "1001.25,1002.5,1003.75,class\n5,6,7,cancer\n4,5,9,control\n6,6,6,cancer\n", Options{})
	if ds.Features[0] != "1001.25" || len(ds.Samples) != 3 {
		t.Errorf("features %v, %d samples", ds.Features, len(ds.Samples))
	}
	if _, err := ReadDelimited("nohead.csv", []byte("1.5,2.25,A\n3.5,4.75,B\n1.25,2.5,A\n"), Options{}); err == nil || !strings.Contains(err.Error(), "no header") {
		t.Errorf("a file without a header: %v", err)
	}
}

// TestNumberedSamplesAsColumns: samples numbered 1..n across the top of a table with
// samples as columns are sample names, not a feature called "gene".
func TestNumberedSamplesAsColumns(t *testing.T) {
	ds := mustRead(t, "n.csv", "gene,1,2,3,4\ng1,1.5,2,3,4\ng2,2,1,4,3.25\nclass,A,A,B,B\n", Options{})
	if strings.Join(ds.Features, ",") != "g1,g2" || ds.Samples[3] != "4" {
		t.Errorf("features %v, samples %v", ds.Features, ds.Samples)
	}
}
