package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// geoServer serves GDS507 (GEOquery's real file) in GEO's layout over plain http on
// this machine, and points STEADFAST_GEO_URL at it with the cache in a fresh folder.
func geoServer(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "compute", "dataset", "testdata", "geo", "GDS507.soft.gz"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/geo/datasets/GDSnnn/GDS507/soft/GDS507.soft.gz" {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	cache := t.TempDir()
	t.Setenv("STEADFAST_GEO_URL", srv.URL+"/geo")
	t.Setenv("XDG_CACHE_HOME", cache)
	return srv, filepath.Join(cache, "Steadfast", "geo", "datasets", "GDSnnn", "GDS507", "soft", "GDS507.soft.gz")
}

// steadfast rank --data GDS507 downloads the DataSet once (gene symbols from its
// IDENTIFIER column), then reads it from the cache with the server gone; a run of a
// configuration naming GDS507 records the file's SHA-256, and running it again after
// GEO's file changed says so.
func TestGEOAccessionOnTheCommandLine(t *testing.T) {
	srv, cached := geoServer(t)
	code, out, errw := cmd("rank", "--data", "gds507", "--method", "fstat", "--log2")
	if code != 0 || !strings.Contains(errw, "GDS507.soft.gz downloaded from GEO") || !strings.Contains(errw, "downloading GDS507.soft.gz from GEO") {
		t.Fatalf("rank: exit %d, %q", code, errw)
	}
	first := strings.SplitN(out, "\n", 2)[0]
	if f := strings.Split(first, "\t"); len(f) != 4 || f[0] != "1" || f[3] == "" {
		t.Errorf("the first rank %q has no gene symbol", first)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.json")
	os.WriteFile(cfg, []byte(`{"dataPath":"GDS507","methods":[{"name":"fstat"}],"protocol":"drags2008","ks":[5],"classifiers":["svm"],"prep":{"log2":true,"dropConstant":true}}`), 0o644)
	run := filepath.Join(dir, "run")
	if code, _, errw := cmd("run", cfg, "-o", run); code != 0 {
		t.Fatalf("run: %s", errw)
	}
	b, _ := os.ReadFile(filepath.Join(run, "result.json"))
	var saved struct {
		Config struct {
			DataPath string `json:"dataPath"`
			Source   struct {
				Accession string `json:"accession"`
				Files     []struct{ Name, SHA256 string }
			} `json:"source"`
		} `json:"config"`
	}
	if err := json.Unmarshal(b, &saved); err != nil {
		t.Fatal(err)
	}
	if c := saved.Config; c.DataPath != "GDS507" || c.Source.Accession != "GDS507" || len(c.Source.Files) != 1 || len(c.Source.Files[0].SHA256) != 64 {
		t.Fatalf("the saved configuration: %+v", c)
	}
	srv.Close()
	code, out2, errw := cmd("rank", "--data", "GDS507", "--method", "fstat", "--log2")
	if code != 0 || out2 != out || !strings.Contains(errw, "GDS507.soft.gz from the GEO cache") {
		t.Fatalf("offline: exit %d, %q", code, errw)
	}
	// GEO's file changes (here: the same data compressed anew, so other bytes)
	zb, _ := os.ReadFile(cached)
	zr, err := gzip.NewReader(bytes.NewReader(zb))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	var again bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&again, gzip.BestSpeed)
	zw.Write(plain)
	zw.Close()
	os.WriteFile(cached, again.Bytes(), 0o644)
	code, _, errw = cmd("run", filepath.Join(run, "result.json"), "-o", filepath.Join(dir, "rerun"))
	if code != 0 || !strings.Contains(errw, "warning: GEO's GDS507.soft.gz has changed since this configuration was saved") {
		t.Errorf("a changed file: exit %d, %q", code, errw)
	}
	if code, _, errw := cmd("rank", "--data", "GDS507", "--platform", "GPL96", "--method", "fstat"); code != 2 || !strings.Contains(errw, "GDS507 is measured on GPL97, not GPL96") {
		t.Errorf("--platform on a DataSet: exit %d, %q", code, errw)
	}
	// steadfast version shows the cache; --clear-geo-cache empties it
	if code, out, _ := cmd("version"); code != 0 || !strings.Contains(out, "GEO cache: ") || !strings.Contains(out, "in 1 file)") {
		t.Errorf("version: %q", out)
	}
	if code, out, _ := cmd("version", "--clear-geo-cache"); code != 0 || !strings.Contains(out, "(empty)") {
		t.Errorf("version --clear-geo-cache: %q", out)
	}
}
