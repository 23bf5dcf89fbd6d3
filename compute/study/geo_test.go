package study

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"steadfast/compute/counts"
	"steadfast/compute/dataset"
)

// A series whose matrix holds no values (an RNA-seq series: GEO's matrix has the
// samples' annotations but an empty table) is refused with the address of the series'
// supplementary files, where its counts are.
func TestRNASeqSeriesSaysWhereTheCountsAre(t *testing.T) {
	var matrix bytes.Buffer
	zw := gzip.NewWriter(&matrix)
	zw.Write([]byte("!Series_geo_accession\t\"GSE3000\"\n!Series_platform_id\t\"GPL16791\"\n!Sample_geo_accession\t\"GSM1\"\t\"GSM2\"\n!Sample_characteristics_ch1\t\"tissue: a\"\t\"tissue: b\"\n!series_matrix_table_begin\n\"ID_REF\"\t\"GSM1\"\t\"GSM2\"\n!series_matrix_table_end\n"))
	zw.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/geo/series/GSE3nnn/GSE3000/matrix/":
			w.Write([]byte(`<a href="GSE3000_series_matrix.txt.gz">GSE3000_series_matrix.txt.gz</a>`))
		case "/geo/series/GSE3nnn/GSE3000/matrix/GSE3000_series_matrix.txt.gz":
			w.Write(matrix.Bytes())
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	t.Setenv("STEADFAST_GEO_URL", srv.URL+"/geo")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	_, err := ReadData(context.Background(), "GSE3000", dataset.Options{}, nil)
	if err == nil || !strings.Contains(err.Error(), "supplementary files") || !strings.Contains(err.Error(), srv.URL+"/geo/series/GSE3nnn/GSE3000/suppl/") {
		t.Errorf("an RNA-seq series: %v", err)
	}
}

// An RNA-seq series for which GEO computed counts: the series matrix (annotations only,
// its samples in another order than the counts' columns and one more sample), GEO's
// download page linking the raw counts and the genome's annotation, both files served
// as GEO's download service serves them (real-shaped: GeneID then a column a GSM id;
// GeneID, Symbol, Description, ...). The counts are read with the classes joined by GSM
// id, the gene symbols from the annotation, the sample without counts named; every file
// is recorded with its digest, and the cache serves it all again with the server gone.
func TestRNASeqSeriesReadsGEOsCounts(t *testing.T) {
	gz := func(s string) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		return b.Bytes()
	}
	// 6 samples x 40 genes of counts; class a for GSM11-13, b for GSM14-16 (GSM17 no counts)
	var counts strings.Builder
	counts.WriteString("GeneID")
	for s := 11; s <= 16; s++ {
		fmt.Fprintf(&counts, "\tGSM%d", s)
	}
	var annot strings.Builder
	annot.WriteString("GeneID\tSymbol\tDescription\tTaxID\tStatus\tSynonyms\tGeneType\tEnsemblGeneID\n")
	for g := 0; g < 40; g++ {
		fmt.Fprintf(&counts, "\n%d", 1000+g)
		for s := 0; s < 6; s++ {
			v := 20 + 3*g + 7*s
			if g < 5 && s >= 3 {
				v *= 8 // up in class b
			}
			fmt.Fprintf(&counts, "\t%d", v)
		}
		fmt.Fprintf(&annot, "%d\tGENE%d\tgene %d\t9606\tlive\t-\tprotein-coding\tENSG%011d\n", 1000+g, g, g, g)
	}
	counts.WriteString("\n")
	matrix := "!Series_geo_accession\t\"GSE3001\"\n!Series_platform_id\t\"GPL16791\"\n" +
		"!Sample_geo_accession\t\"GSM17\"\t\"GSM16\"\t\"GSM15\"\t\"GSM14\"\t\"GSM13\"\t\"GSM12\"\t\"GSM11\"\n" +
		"!Sample_characteristics_ch1\t\"tissue: b\"\t\"tissue: b\"\t\"tissue: b\"\t\"tissue: b\"\t\"tissue: a\"\t\"tissue: a\"\t\"tissue: a\"\n" +
		"!series_matrix_table_begin\n\"ID_REF\"\t\"GSM17\"\t\"GSM16\"\t\"GSM15\"\t\"GSM14\"\t\"GSM13\"\t\"GSM12\"\t\"GSM11\"\n!series_matrix_table_end\n"
	files := map[string][]byte{
		"GSE3001_raw_counts_GRCh38.p13_NCBI.tsv.gz": gz(counts.String()),
		"Human.GRCh38.p13.annot.tsv.gz":             gz(annot.String()),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		switch {
		case r.URL.Path == "/geo/series/GSE3nnn/GSE3001/matrix/":
			w.Write([]byte(`<a href="GSE3001_series_matrix.txt.gz">GSE3001_series_matrix.txt.gz</a>`))
		case r.URL.Path == "/geo/series/GSE3nnn/GSE3001/matrix/GSE3001_series_matrix.txt.gz":
			w.Write(gz(matrix))
		case r.URL.Path == "/geo/download/" && q.Get("format") == "" && q.Get("acc") == "GSE3001":
			w.Write([]byte(`<html><body><h2>NCBI-generated data</h2><table>
<tr><td><a href="/geo/download/?type=rnaseq_counts&amp;acc=GSE3001&amp;format=file&amp;file=GSE3001_raw_counts_GRCh38.p13_NCBI.tsv.gz">GSE3001_raw_counts_GRCh38.p13_NCBI.tsv.gz</a></td><td>Series RNA-seq raw counts matrix</td></tr>
<tr><td><a href="/geo/download/?format=file&amp;type=rnaseq_counts&amp;file=Human.GRCh38.p13.annot.tsv.gz">Human.GRCh38.p13.annot.tsv.gz</a></td><td>Human gene annotation table</td></tr>
</table></body></html>`))
		case r.URL.Path == "/geo/download/" && q.Get("format") == "file" && q.Get("type") == "rnaseq_counts" && files[q.Get("file")] != nil:
			w.Write(files[q.Get("file")])
		default:
			http.NotFound(w, r)
		}
	}))
	t.Setenv("STEADFAST_GEO_URL", srv.URL+"/geo")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	check := func(ds *dataset.Dataset) {
		t.Helper()
		if n, p := ds.Dims(); n != 6 || p != 40 {
			t.Fatalf("%d samples x %d genes, want 6 x 40", n, p)
		}
		for i, s := range ds.Samples {
			want := "a"
			if s >= "GSM14" {
				want = "b"
			}
			if ds.Classes[ds.Labels[i]] != want {
				t.Errorf("%s is %s, its characteristics say %s", s, ds.Classes[ds.Labels[i]], want)
			}
		}
		if ds.Symbols == nil || ds.Symbols[3] != "GENE3" || ds.Features[3] != "1003" || ds.X.At(3, 3) != 8*(20+9+21) {
			t.Errorf("gene 4: %s %v, GSM14 %v", ds.Features[3], ds.Symbols != nil && ds.Symbols[3] == "GENE3", ds.X.At(3, 3))
		}
		if ds.Source == nil || len(ds.Source.Files) != 3 {
			t.Fatalf("source %+v, want the matrix, the counts and the annotation", ds.Source)
		}
		notes := strings.Join(ds.Notes, "\n")
		for _, want := range []string{"RNA-seq counts computed by GEO", "1 sample of the series has no counts from GEO and is left out: GSM17"} {
			if !strings.Contains(notes, want) {
				t.Errorf("notes lack %q:\n%s", want, notes)
			}
		}
	}
	ds, err := ReadData(context.Background(), "GSE3001", dataset.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	check(ds)
	prepared, _, err := Prepare(ds, dataset.Prep{LogCPM: true, TMM: true, DropConstant: true})
	if err != nil || prepared.Counts == nil {
		t.Fatalf("normalising GEO's counts: %v", err)
	}
	srv.Close() // offline: the cache has it all
	again, err := ReadData(context.Background(), "GSE3001", dataset.Options{}, nil)
	if err != nil {
		t.Fatalf("from the cache: %v", err)
	}
	check(again)
}

// An RNA-seq series for which GEO computed no counts: the submitter's count table among
// the supplementary files (the one named raw counts, beside a RAW.tar and a normalised
// table) is fetched and read, its columns named by the samples' titles joined to their
// GSM ids and classes, its text columns (chromosome, gene name) and gene lengths left
// out and named; a table whose columns name no sample is refused, naming the ids and
// titles it could have used.
func TestRNASeqSeriesReadsTheSubmittersCounts(t *testing.T) {
	gz := func(s string) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		return b.Bytes()
	}
	table := "Geneid\tChr\tgene_name\tLength\ttumour 1\ttumour 2\ttumour 3\tnormal 1\tnormal 2\tnormal 3\n" // as featureCounts writes it
	for g := 0; g < 30; g++ {
		table += fmt.Sprintf("ENSG%011d\tchr1;chr1\tGENE%d\t%d", g, g, 1000+g)
		for s := 0; s < 6; s++ {
			table += fmt.Sprintf("\t%d", 30+g*5+s*3)
		}
		table += "\n"
	}
	matrix := "!Series_geo_accession\t\"GSE3002\"\n!Series_platform_id\t\"GPL24676\"\n" +
		"!Sample_title\t\"normal 3\"\t\"normal 2\"\t\"normal 1\"\t\"tumour 3\"\t\"tumour 2\"\t\"tumour 1\"\n" +
		"!Sample_geo_accession\t\"GSM26\"\t\"GSM25\"\t\"GSM24\"\t\"GSM23\"\t\"GSM22\"\t\"GSM21\"\n" +
		"!Sample_characteristics_ch1\t\"tissue: normal\"\t\"tissue: normal\"\t\"tissue: normal\"\t\"tissue: tumour\"\t\"tissue: tumour\"\t\"tissue: tumour\"\n" +
		"!series_matrix_table_begin\n\"ID_REF\"\t\"GSM26\"\t\"GSM25\"\t\"GSM24\"\t\"GSM23\"\t\"GSM22\"\t\"GSM21\"\n!series_matrix_table_end\n"
	counts := gz(table)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/geo/series/GSE3nnn/GSE3002/matrix/":
			w.Write([]byte(`<a href="GSE3002_series_matrix.txt.gz">GSE3002_series_matrix.txt.gz</a>`))
		case "/geo/series/GSE3nnn/GSE3002/matrix/GSE3002_series_matrix.txt.gz":
			w.Write(gz(matrix))
		case "/geo/series/GSE3nnn/GSE3002/suppl/":
			w.Write([]byte(`<a href="GSE3002_RAW.tar">GSE3002_RAW.tar</a> <a href="GSE3002_normalized_counts_TPM.csv.gz">x</a> <a href="GSE3002_raw_counts.txt.gz">x</a>`))
		case "/geo/series/GSE3nnn/GSE3002/suppl/GSE3002_raw_counts.txt.gz":
			w.Write(counts)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	t.Setenv("STEADFAST_GEO_URL", srv.URL+"/geo")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ds, err := ReadData(context.Background(), "GSE3002", dataset.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n, p := ds.Dims(); n != 6 || p != 30 {
		t.Fatalf("%d samples x %d genes, want 6 x 30 (the length column left out)", n, p)
	}
	for i, s := range ds.Samples {
		want := map[bool]string{true: "tumour", false: "normal"}[s <= "GSM23"]
		if ds.Classes[ds.Labels[i]] != want {
			t.Errorf("%s is %s, its characteristics say %s", s, ds.Classes[ds.Labels[i]], want)
		}
	}
	if ds.Samples[0] != "GSM21" || ds.X.At(0, 0) != 30 { // "tumour 1", the table's first sample column
		t.Errorf("first sample %s with %v reads", ds.Samples[0], ds.X.At(0, 0))
	}
	notes := strings.Join(ds.Notes, "\n")
	for _, want := range []string{"the submitter's count table GSE3002_raw_counts.txt.gz", "1 column of the count table left out, naming no sample of the series: Length",
		"2 columns of the count table hold text, not counts, and are left out: Chr, gene_name", "6 columns of the count table matched to the series' samples by their titles"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	// columns named otherwise: refused
	counts = gz(strings.ReplaceAll(strings.ReplaceAll(table, "tumour ", "T"), "normal ", "N"))
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	if _, err := ReadData(context.Background(), "GSE3002", dataset.Options{}, nil); err == nil || !strings.Contains(err.Error(), "name neither the series' samples' GSM ids") {
		t.Errorf("a table of unknown column names: %v", err)
	}
}

// A series whose counts are one file a sample inside its RAW.tar (GSE63310, the real
// archive: 11 files of EntrezID, GeneLength and Count) is read by accession: the files
// are chosen from GEO's filelist.txt, unpacked, joined to the series' samples by the GSM
// id opening each name, and the classes come from the matrix (constructed, see
// testdata/gse63310/make_fixture.py; the two samples the RNAseq123 workflow leaves out
// have no class and are left out here too). Expected: every sample's library size as
// readDGE gives it, the 16,624 genes filterByExpr keeps and the TMM factors of edgeR
// 3.40 (testdata/gse63310/gse63310_ref.R), to 1e-10; the same without filelist.txt,
// and again from the cache with the server closed.
func TestRNASeqSeriesReadsRAWTar(t *testing.T) {
	dir := filepath.Join("testdata", "gse63310")
	file := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	listing := `<a href="GSE63310_RAW.tar">GSE63310_RAW.tar</a> <a href="filelist.txt">filelist.txt</a>`
	var requests []string
	srv := gse63310Server(t, func(path string) { requests = append(requests, path) }, func() string { return listing })
	ref := readCSV(t, filepath.Join(dir, "ref_norm.csv"))[1:]
	keptRef, _ := strconv.Atoi(strings.TrimSpace(string(file("ref_kept.txt"))))
	check := func(what string) {
		t.Helper()
		ds, err := ReadData(context.Background(), "GSE63310", dataset.Options{}, nil)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if n, p := ds.Dims(); n != 9 || p != 27179 {
			t.Fatalf("%s: %d samples x %d genes, want 9 x 27179", what, n, p)
		}
		notes := strings.Join(ds.Notes, "\n")
		for _, want := range []string{"RNA-seq counts from the 11 per-sample count files in GSE63310_RAW.tar (GSM1545535_10_6_5_11.txt.gz, ...), each a sample's by the GSM id opening its name, joined by GSM id to the sample annotations of GSE63310_series_matrix.txt.gz", `the counts are the column "Count" of each sample's file`, "2 samples without a class (NA or empty) left out: GSM1545537, GSM1545543", "no gene annotation came with the counts"} {
			if !strings.Contains(notes, want) {
				t.Errorf("%s: notes lack %q:\n%s", what, want, notes)
			}
		}
		rows := counts.Rows(ds.X, nil)
		norm, err := counts.Fit(rows, ds.Labels)
		if err != nil {
			t.Fatal(err)
		}
		if len(norm.Kept) != keptRef {
			t.Errorf("%s: filterByExpr keeps %d genes, edgeR %d", what, len(norm.Kept), keptRef)
		}
		for s, r := range ref {
			if ds.Samples[s] != r[0] {
				t.Fatalf("%s: sample %d is %s, edgeR's %s", what, s, ds.Samples[s], r[0])
			}
			full := 0.0
			for _, v := range rows[s] {
				full += v
			}
			lib, f := norm.Factor(rows[s])
			wantFull, _ := strconv.ParseFloat(r[1], 64)
			wantLib, _ := strconv.ParseFloat(r[2], 64)
			wantF, _ := strconv.ParseFloat(r[3], 64)
			if full != wantFull || lib != wantLib || math.Abs(f-wantF) > 1e-10 {
				t.Errorf("%s: %s library %v (kept genes %v), factor %.15g; edgeR %v, %v, %.15g", what, r[0], full, lib, f, wantFull, wantLib, wantF)
			}
		}
		if want := map[string]string{"GSM1545535": "LP", "GSM1545538": "Basal", "GSM1545544": "ML"}; true {
			for i, s := range ds.Samples {
				if c, ok := want[s]; ok && ds.Classes[ds.Labels[i]] != c {
					t.Errorf("%s: %s is %s, the matrix says %s", what, s, ds.Classes[ds.Labels[i]], c)
				}
			}
		}
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	check("with filelist.txt")
	if !slices.Contains(requests, "/geo/series/GSE63nnn/GSE63310/suppl/filelist.txt") {
		t.Errorf("filelist.txt was not read: %v", requests)
	}
	listing = `<a href="GSE63310_RAW.tar">GSE63310_RAW.tar</a>`
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	check("without filelist.txt")
	srv.Close()
	check("from the cache, offline")
}

// gse63310Server serves GSE63310 as GEO lays it out (testdata/gse63310: the matrix, the
// RAW.tar and filelist.txt), the suppl folder's page from listing, each request's path
// passed to seen; STEADFAST_GEO_URL points at it for the test.
func gse63310Server(t *testing.T, seen func(string), listing func() string) *httptest.Server {
	t.Helper()
	dir := filepath.Join("testdata", "gse63310")
	file := func(w http.ResponseWriter, name string) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Write(b)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen(r.URL.Path)
		switch r.URL.Path {
		case "/geo/series/GSE63nnn/GSE63310/matrix/":
			w.Write([]byte(`<a href="GSE63310_series_matrix.txt.gz">GSE63310_series_matrix.txt.gz</a>`))
		case "/geo/series/GSE63nnn/GSE63310/matrix/GSE63310_series_matrix.txt.gz":
			file(w, "GSE63310_series_matrix.txt.gz")
		case "/geo/series/GSE63nnn/GSE63310/suppl/":
			w.Write([]byte(listing()))
		case "/geo/series/GSE63nnn/GSE63310/suppl/filelist.txt":
			file(w, "filelist.txt")
		case "/geo/series/GSE63nnn/GSE63310/suppl/GSE63310_RAW.tar":
			file(w, "GSE63310_RAW.tar")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	t.Setenv("STEADFAST_GEO_URL", srv.URL+"/geo")
	return srv
}
