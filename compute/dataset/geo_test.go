package dataset

import (
	"math"
	"slices"
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
	if !strings.Contains(notes, `"tissue" (tumour 2, normal 2)`) || !strings.Contains(notes, `"patient" (1 2, 2 2)`) || !strings.Contains(notes, "1 cell is null") {
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

// TestSeriesMatrixJoinsClassesByGSMId: a table whose columns come in another order than
// the !Sample_geo_accession line gives each sample its own class (worked by hand: GSM2
// and GSM4 are normal whatever their column); a column missing from the table, or one
// the accession line does not name, is refused with the ids.
func TestSeriesMatrixJoinsClassesByGSMId(t *testing.T) {
	swapped := strings.Replace(seriesMatrix, `"ID_REF"	"GSM1"	"GSM2"	"GSM3"	"GSM4"`, `"ID_REF"	"GSM2"	"GSM1"	"GSM4"	"GSM3"`, 1)
	ds, err := readBytes("GSE0000_series_matrix.txt", []byte(swapped), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for s, want := range map[string]string{"GSM1": "tumour", "GSM2": "normal", "GSM3": "tumour", "GSM4": "normal"} {
		i := slices.Index(ds.Samples, s)
		if got := ds.Classes[ds.Labels[i]]; got != want {
			t.Errorf("%s is %s, want %s", s, got, want)
		}
	}
	var cut []string // the table without its GSM3 column
	for _, l := range strings.Split(seriesMatrix, "\n") {
		if f := strings.Split(l, "\t"); len(f) == 5 && !strings.HasPrefix(l, "!") {
			l = strings.Join(append(f[:3:3], f[4]), "\t")
		}
		cut = append(cut, l)
	}
	_, err = readBytes("g.txt", []byte(strings.Join(cut, "\n")), Options{})
	if err == nil || !strings.Contains(err.Error(), "without a table column: GSM3") {
		t.Errorf("a missing column: %v", err)
	}
	foreign := strings.Replace(seriesMatrix, `"ID_REF"	"GSM1"`, `"ID_REF"	"GSM9"`, 1)
	if _, err := readBytes("g.txt", []byte(foreign), Options{}); err == nil || !strings.Contains(err.Error(), "without annotations or given twice: GSM9") {
		t.Errorf("a foreign column: %v", err)
	}
}

// TestSeriesMatrixOffersAKeyGivenTwice: two characteristics lines with the key
// "treatment" keep both, the second as "treatment (2)", and say so.
func TestSeriesMatrixOffersAKeyGivenTwice(t *testing.T) {
	twice := strings.Replace(seriesMatrix, `"patient: 1"	"patient: 1"	"patient: 2"	"patient: 2"`,
		"\"treatment: A\"\t\"treatment: A\"\t\"treatment: B\"\t\"treatment: B\"\n!Sample_characteristics_ch1\t\"treatment: X\"\t\"treatment: Y\"\t\"treatment: X\"\t\"treatment: Y\"", 1)
	for key, want := range map[string]string{"treatment": "A,B", "treatment (2)": "X,Y"} {
		ds, err := readBytes("g.txt", []byte(twice), Options{ClassName: key})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(ds.Classes, ","); got != want {
			t.Errorf("%s: classes %s, want %s", key, got, want)
		}
		if !strings.Contains(strings.Join(ds.Notes, "; "), `"treatment" is given on more than one line`) {
			t.Errorf("no note: %v", ds.Notes)
		}
	}
}

// gds is a GEO DataSet of four samples and two probes with the subsets given.
func gds(subsets string) string {
	return "^DATASET = GDS1\n!dataset_title = t\n" + subsets + "!dataset_table_begin\nID_REF\tIDENTIFIER\tGSM1\tGSM2\tGSM3\tGSM4\n" +
		"p1\tA\t1\t2\t3\t4\np2\tB\t2\t3\t4\t6\n!dataset_table_end\n"
}

// TestGDSSampleInTwoSubsets: a sample in two subsets of the class's type is refused
// (it had silently taken the later subset); another type is still usable.
func TestGDSSampleInTwoSubsets(t *testing.T) {
	text := gds(`^SUBSET = S1
!subset_description = tumour
!subset_sample_id = GSM1,GSM2
!subset_type = disease state
^SUBSET = S2
!subset_description = normal
!subset_sample_id = GSM2,GSM3,GSM4
!subset_type = disease state
^SUBSET = S3
!subset_description = a
!subset_sample_id = GSM1,GSM2
!subset_type = batch
^SUBSET = S4
!subset_description = b
!subset_sample_id = GSM3,GSM4
!subset_type = batch
`)
	_, err := readBytes("GDS1.soft", []byte(text), Options{ClassName: "disease state"})
	if err == nil || !strings.Contains(err.Error(), `sample GSM2 is in two subsets of the type "disease state"`) {
		t.Errorf("two subsets: %v", err)
	}
	ds, err := readBytes("GDS1.soft", []byte(text), Options{ClassName: "batch"})
	if err != nil || strings.Join(ds.Classes, ",") != "a,b" {
		t.Errorf("batch: %v, %v", ds, err)
	}
}

// TestGDSWithoutSubsets: a DataSet without subsets is refused with what to open instead
// (it had listed an empty choice).
func TestGDSWithoutSubsets(t *testing.T) {
	_, err := readBytes("GDS1.soft", []byte(gds("")), Options{})
	if err == nil || !strings.Contains(err.Error(), "defines no subsets") || !strings.Contains(err.Error(), "series matrix") {
		t.Errorf("%v", err)
	}
}
