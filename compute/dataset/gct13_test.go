package dataset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gct13 is a GCT 1.3 file as the format's description lays it out: two row-metadata
// fields (Description, a chromosome) and two column-metadata fields (a batch and the
// tissue).
const gct13 = "#1.3\n3\t4\t2\t2\n" +
	"id\tDescription\tchrom\tS1\tS2\tS3\tS4\n" +
	"batch\tna\tna\t1\t1\t2\t2\n" +
	"tissue\tna\tna\ttumour\tnormal\ttumour\tnormal\n" +
	"1007_s_at\tDDR1\t6\t5.1\t6.2\t5.3\t6.0\n" +
	"1053_at\tRFC2\t7\t7.5\t7.1\t7.9\t7.2\n" +
	"117_at\tHSPA6\t1\t3.25\t4\t3.5\t4.5\n"

// TestReadGCT13: values skip the row metadata, samples are the header's ids, and the
// class is the first column-metadata row that splits the samples (batch, 1 and 2) or
// the one named (tissue).
func TestReadGCT13(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.gct")
	os.WriteFile(path, []byte(gct13), 0o644)
	ds, err := ReadFile(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n, p := ds.Dims(); n != 4 || p != 3 || ds.X.At(0, 2) != 3.25 || ds.Samples[3] != "S4" || ds.Features[1] != "1053_at" {
		t.Fatalf("%d x %d %v %v", n, p, ds.Samples, ds.Features)
	}
	if strings.Join(ds.Classes, ",") != "1,2" {
		t.Errorf("classes %v", ds.Classes)
	}
	ds, err = ReadFile(path, Options{ClassName: "tissue"})
	if err != nil || strings.Join(ds.Classes, ",") != "tumour,normal" {
		t.Errorf("class tissue: %v %v", ds, err)
	}
	bad := strings.Replace(gct13, "3\t4\t2\t2", "3\t4\t2", 1)
	os.WriteFile(path, []byte(bad), 0o644)
	if _, err := ReadFile(path, Options{}); err == nil || !strings.Contains(err.Error(), "four numbers") {
		t.Errorf("three counts: %v", err)
	}
}

// TestGCT13WithCLSSaysSo: a .cls beside a GCT 1.3 whose metadata rows hold classes gives
// the class, and a note says the rows offer others and how to take one (it had
// overridden them without a word); a byte-order mark does not make it a GCT 1.2.
func TestGCT13WithCLSSaysSo(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.gct")
	os.WriteFile(path, []byte("\xEF\xBB\xBF"+gct13), 0o644)
	ds, err := ReadFile(path, Options{})
	if err != nil || strings.Join(ds.Classes, ",") != "1,2" {
		t.Fatalf("with a BOM: %v, %v", ds, err)
	}
	os.WriteFile(filepath.Join(dir, "x.cls"), []byte("4 2 1\n# a b\n0 0 1 1\n"), 0o644)
	ds, err = ReadFile(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(ds.Classes, ",") != "a,b" {
		t.Errorf("classes %v, want the CLS's a,b", ds.Classes)
	}
	if notes := strings.Join(ds.Notes, "; "); !strings.Contains(notes, "class from x.cls") || !strings.Contains(notes, `"tissue" (tumour 2, normal 2)`) {
		t.Errorf("notes: %s", notes)
	}
}
