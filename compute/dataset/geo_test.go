package dataset

import (
	"math"
	"strings"
	"testing"
)

// seriesMatrix is a GEO series matrix in the layout GEO writes (GSE..._series_matrix.txt),
// cut to four samples and three probes.
const seriesMatrix = `!Series_title	"Tumour vs normal"
!Series_geo_accession	"GSE0000"
!Sample_title	"patient 1 tumour"	"patient 1 normal"	"patient 2 tumour"	"patient 2 normal"
!Sample_geo_accession	"GSM1"	"GSM2"	"GSM3"	"GSM4"
!Sample_source_name_ch1	"colon"	"colon"	"colon"	"colon"
!Sample_characteristics_ch1	"tissue: tumour"	"tissue: normal"	"tissue: tumour"	"tissue: normal"
!Sample_characteristics_ch1	"patient: 1"	"patient: 1"	"patient: 2"	"patient: 2"
!series_matrix_table_begin
"ID_REF"	"GSM1"	"GSM2"	"GSM3"	"GSM4"
"1007_s_at"	5.1	6.2	5.3	null
"1053_at"	7.5	7.1	7.9	7.2
"117_at"	3.25	4	3.5	4.5
!series_matrix_table_end
`

// TestReadSeriesMatrix: probes become features, GSM ids samples, "null" missing, and the
// class the first characteristic that splits the samples ("tissue"; "patient" would do
// too but comes second); asking for "patient" takes that one.
func TestReadSeriesMatrix(t *testing.T) {
	ds, err := readBytes("GSE0000_series_matrix.txt", []byte(seriesMatrix), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n, p := ds.Dims(); n != 4 || p != 3 || ds.Features[0] != "1007_s_at" || ds.Samples[3] != "GSM4" {
		t.Fatalf("%d x %d, features %v, samples %v", n, p, ds.Features, ds.Samples)
	}
	if !math.IsNaN(ds.X.At(3, 0)) || ds.X.At(1, 2) != 4 {
		t.Errorf("values: %v %v", ds.X.At(3, 0), ds.X.At(1, 2))
	}
	if strings.Join(ds.Classes, ",") != "tumour,normal" {
		t.Errorf("classes %v", ds.Classes)
	}
	var choices []string
	for _, c := range ds.ClassChoices {
		choices = append(choices, c.String())
	}
	// the counts worked by hand from seriesMatrix's annotation lines
	if got := strings.Join(choices, "; "); !strings.HasPrefix(got, "title (") || !strings.Contains(got, "; tissue (tumour 2, normal 2); patient (1 2, 2 2)") {
		t.Errorf("class choices %s", got)
	}
	notes := strings.Join(ds.Notes, "; ")
	if !strings.Contains(notes, `"tissue" (tumour 2, normal 2)`) || !strings.Contains(notes, `"patient" (1 2, 2 2)`) || !strings.Contains(notes, "1 cells are null") {
		t.Errorf("notes: %s", notes)
	}
	ds, err = readBytes("GSE0000_series_matrix.txt", []byte(seriesMatrix), Options{ClassName: "patient"})
	if err != nil || strings.Join(ds.Classes, ",") != "1,2" {
		t.Errorf("class patient: %v %v", ds, err)
	}
	if _, err := readBytes("g.txt", []byte(seriesMatrix), Options{ClassName: "age"}); err == nil || !strings.Contains(err.Error(), `no sample annotation is named "age"`) {
		t.Errorf("unknown key: %v", err)
	}
	empty := strings.Replace(seriesMatrix, seriesMatrix[strings.Index(seriesMatrix, "\"ID_REF\""):strings.Index(seriesMatrix, "!series_matrix_table_end")], "\"ID_REF\"\t\"GSM1\"\t\"GSM2\"\t\"GSM3\"\t\"GSM4\"\n", 1)
	if _, err := readBytes("rnaseq.txt", []byte(empty), Options{}); err == nil || !strings.Contains(err.Error(), "supplementary files") {
		t.Errorf("an empty table: %v", err)
	}
}

// readBytes reads b as ReadFile reads a file, by its content.
func readBytes(file string, b []byte, o Options) (*Dataset, error) {
	return readAs(file, file, file, b, o)
}

// FuzzReadByContent reads arbitrary bytes as ReadFile would (series matrix, GCT 1.3,
// gzip, UTF-16, delimited): an error or a consistent dataset, never a panic.
func FuzzReadByContent(f *testing.F) {
	f.Add([]byte(seriesMatrix))
	f.Add([]byte(gct13))
	f.Add([]byte("\xFF\xFEg\x00,\x00c\x00\n\x001\x00,\x00A\x00\n\x00"))
	f.Add([]byte("sample,g1,class\n\"a\nb\",1,A\ns2,2,B\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, name := range []string{"f.txt", "f.gct"} {
			ds, err := readBytes(name, b, Options{})
			if err != nil {
				continue
			}
			n, p := ds.Dims()
			if len(ds.Labels) != n || len(ds.Samples) != n || len(ds.Features) != p || (ds.Symbols != nil && len(ds.Symbols) != p) {
				t.Fatalf("%s: inconsistent dataset %d x %d", name, n, p)
			}
			for _, l := range ds.Labels {
				if l < 0 || l >= len(ds.Classes) {
					t.Fatalf("%s: label %d of %d classes", name, l, len(ds.Classes))
				}
			}
		}
	})
}

// FuzzReadSeriesMatrix feeds the series matrix reader arbitrary text: it returns a
// dataset or an error, never panics.
func FuzzReadSeriesMatrix(f *testing.F) {
	f.Add([]byte(seriesMatrix))
	f.Fuzz(func(t *testing.T, b []byte) {
		ds, err := ReadSeriesMatrix("f.txt", b, Options{})
		if err == nil {
			if n, p := ds.Dims(); n != len(ds.Labels) || p != len(ds.Features) {
				t.Fatalf("%d x %d with %d labels and %d names", n, p, len(ds.Labels), len(ds.Features))
			}
		}
	})
}
