package study

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
