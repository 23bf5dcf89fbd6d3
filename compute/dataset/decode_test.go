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
