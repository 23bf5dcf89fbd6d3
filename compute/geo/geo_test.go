package geo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"steadfast/compute/dataset"
)

// The files the server serves, in GEO's layout: GSE781's two series matrices (built by
// testdata/make_series_matrix.py from GEOquery's GSE781_family.soft.gz), GPL97's real
// annotation and GDS507 (copied from GEOquery's extdata, ../dataset/testdata/geo), and
// GPL96's platform SOFT (no .annot for it here, as for platforms GEO never annotated).
var layout = map[string]string{
	"/geo/series/GSEnnn/GSE781/matrix/GSE781-GPL96_series_matrix.txt.gz": "testdata/GSE781-GPL96_series_matrix.txt.gz",
	"/geo/series/GSEnnn/GSE781/matrix/GSE781-GPL97_series_matrix.txt.gz": "testdata/GSE781-GPL97_series_matrix.txt.gz",
	"/geo/platforms/GPLnnn/GPL97/annot/GPL97.annot.gz":                   "../dataset/testdata/geo/GPL97.annot.gz",
	"/geo/platforms/GPLnnn/GPL96/soft/GPL96_family.soft.gz":              "testdata/GPL96_family.soft.gz",
	"/geo/datasets/GDSnnn/GDS507/soft/GDS507.soft.gz":                    "../dataset/testdata/geo/GDS507.soft.gz",
	// a series on one platform: GPL97's matrix under another accession's name
	"/geo/series/GSE1nnn/GSE1781/matrix/GSE1781_series_matrix.txt.gz": "testdata/GSE781-GPL97_series_matrix.txt.gz",
}

// server is a GEO file server on this machine; mode changes how it answers files:
// "" whole, "cut" half the bytes then the connection closed, "gzip" garbage, "slow" a
// little then nothing until the client goes, "503" a server error, "redirect" a
// redirect to plain http elsewhere.
type server struct {
	*httptest.Server
	mode  atomic.Value
	files atomic.Int32
}

func newServer(t *testing.T) *server {
	s := &server{}
	s.mode.Store("")
	s.Server = httptest.NewTLSServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *server) serve(w http.ResponseWriter, r *http.Request) {
	if strings.HasSuffix(r.URL.Path, "/matrix/") {
		dir := r.URL.Path
		if dir != "/geo/series/GSEnnn/GSE781/matrix/" && dir != "/geo/series/GSE1nnn/GSE1781/matrix/" && dir != "/geo/series/GSE2nnn/GSE2000/matrix/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, "<html><body><h1>Index of "+dir+"</h1><pre><a href=\"../\">Parent Directory</a>\n")
		for p := range layout {
			if strings.HasPrefix(p, dir) {
				n := strings.TrimPrefix(p, dir)
				fmt.Fprintf(w, "<a href=\"%s\">%s</a>  26-Nov-2026 10:00  1.0M\n", n, n)
			}
		}
		fmt.Fprint(w, "</pre></body></html>")
		return
	}
	local, ok := layout[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	b, err := os.ReadFile(local)
	if err != nil {
		http.Error(w, err.Error(), 500)
		return
	}
	s.files.Add(1)
	w.Header().Set("Content-Length", fmt.Sprint(len(b)))
	switch s.mode.Load().(string) {
	case "cut":
		w.Write(b[:len(b)/2])
		panic(http.ErrAbortHandler) // the connection closes half-way
	case "gzip":
		copy(b[len(b)/2:], make([]byte, 4096)) // a stretch of zeros inside the stream
		w.Write(b)
	case "slow":
		w.Write(b[:1024])
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	case "503":
		w.Header().Del("Content-Length")
		http.Error(w, "busy", http.StatusServiceUnavailable)
	case "redirect":
		w.Header().Del("Content-Length")
		http.Redirect(w, r, "http://example.org/elsewhere.gz", http.StatusFound)
	default:
		w.Write(b)
	}
}

func (s *server) client(t *testing.T) *Client {
	base, err := url.Parse(s.URL + "/geo")
	if err != nil {
		t.Fatal(err)
	}
	return &Client{Base: base, Cache: filepath.Join(t.TempDir(), "Steadfast", "geo"), HTTP: s.Client()}
}

func sha(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// cached lists the files in the cache (relative), temporary ones included.
func cached(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			r, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(r))
		}
		return nil
	})
	return out
}

// A series on two platforms lists them; with one chosen, its matrix and its platform's
// annotation are downloaded into the cache in GEO's layout, their SHA-256s recorded, and
// the data read with the symbols joined (GPL97 from its .annot; GPL96, which has none
// here, from its platform SOFT). The samples' classes come from the matrix.
func TestFetchSeriesWithSymbols(t *testing.T) {
	s := newServer(t)
	c := s.client(t)
	var pe *PlatformsError
	if _, err := c.Fetch(context.Background(), "gse781", ""); !errors.As(err, &pe) || strings.Join(pe.Platforms, ",") != "GPL96,GPL97" || !strings.Contains(err.Error(), "--platform GPL96") {
		t.Fatalf("two platforms: %v", err)
	}
	var progressed atomic.Int64
	c.Progress = func(what string, done, total int64) { progressed.Store(done) }
	f, err := c.Fetch(context.Background(), "GSE781", "gpl97")
	if err != nil {
		t.Fatal(err)
	}
	if f.Platform != "GPL97" || f.SymbolsFile != "platforms/GPLnnn/GPL97/annot/GPL97.annot.gz" || len(f.Files) != 2 || progressed.Load() == 0 {
		t.Fatalf("fetched %+v, progress %d", f, progressed.Load())
	}
	if f.Files[0].SHA256 != sha(t, "testdata/GSE781-GPL97_series_matrix.txt.gz") || f.Files[1].SHA256 != sha(t, "../dataset/testdata/geo/GPL97.annot.gz") || f.Files[0].FromCache {
		t.Errorf("files %+v", f.Files)
	}
	ds, err := dataset.ReadFile(f.Data, dataset.Options{SymbolsPath: f.Symbols})
	if err != nil {
		t.Fatal(err)
	}
	n, p := ds.Dims()
	named := 0
	for _, sym := range ds.Symbols {
		if sym != "" {
			named++
		}
	}
	if n != 17 || p != 22645 || named < 10000 || ds.Accession != "GSE781" || ds.Platform != "GPL97" || len(ds.Classes) != 2 {
		t.Errorf("%d samples, %d probes, %d with symbols, %s on %s, classes %q", n, p, named, ds.Accession, ds.Platform, ds.Classes)
	}
	// GPL96: no .annot here, so the platform's SOFT table
	f, err = c.Fetch(context.Background(), "GSE781", "GPL96")
	if err != nil {
		t.Fatal(err)
	}
	if f.SymbolsFile != "platforms/GPLnnn/GPL96/soft/GPL96_family.soft.gz" {
		t.Fatalf("GPL96's symbols from %q", f.SymbolsFile)
	}
	ds, err = dataset.ReadFile(f.Data, dataset.Options{SymbolsPath: f.Symbols})
	if err != nil {
		t.Fatal(err)
	}
	if j := indexOf(ds.Features, "1007_s_at"); j < 0 || ds.Symbols == nil || !strings.Contains(ds.Symbols[j], "DDR1") {
		t.Errorf("1007_s_at's symbol on GPL96: %v", ds.Symbols)
	}
	// a series on one platform needs no choice; its platform is read from the matrix
	f, err = c.Fetch(context.Background(), "GSE1781", "")
	if err != nil || f.Platform != "GPL97" || f.Symbols == "" {
		t.Errorf("one platform: %+v, %v", f, err)
	}
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// Once fetched, a series is read from the cache with the server gone, and says so.
func TestCacheWorksOffline(t *testing.T) {
	s := newServer(t)
	c := s.client(t)
	first, err := c.Fetch(context.Background(), "GSE781", "GPL97")
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	again, err := c.Fetch(context.Background(), "GSE781", "GPL97")
	if err != nil {
		t.Fatalf("offline: %v", err)
	}
	for i, f := range again.Files {
		if !f.FromCache || f.SHA256 != first.Files[i].SHA256 {
			t.Errorf("offline file %+v, first %+v", f, first.Files[i])
		}
	}
	if b, n := CacheSize(c.Cache); n != 3 || b < 2_000_000 { // two files and the folder's list
		t.Errorf("cache %d bytes in %d files", b, n)
	}
	if err := ClearCache(c.Cache); err != nil {
		t.Fatal(err)
	}
	if _, n := CacheSize(c.Cache); n != 0 {
		t.Errorf("%d files after clearing", n)
	}
	if _, err := c.Fetch(context.Background(), "GSE781", "GPL97"); err == nil || !strings.Contains(err.Error(), "could not reach GEO") || !strings.Contains(err.Error(), "Open data...") {
		t.Errorf("no server, no cache: %v", err)
	}
	if err := ClearCache(t.TempDir()); err == nil {
		t.Error("ClearCache removed a folder that is not the GEO cache")
	}
}

// A download cut half-way, or whose gzip is damaged, leaves nothing in the cache (no
// file read later as data, no temporary file) and says what happened; the next try,
// with the server whole again, succeeds.
func TestBrokenDownloadsKeepNothing(t *testing.T) {
	for _, c := range []struct{ mode, want string }{
		{"cut", "nothing was kept; try again"},
		{"gzip", "nothing was kept; try again"},
		{"503", "503 Service Unavailable"},
		{"redirect", "not NCBI over https: refused"},
	} {
		s := newServer(t)
		cl := s.client(t)
		s.mode.Store(c.mode)
		_, err := cl.Fetch(context.Background(), "GDS507", "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.mode, err)
		}
		if files := cached(cl.Cache); len(files) != 0 {
			t.Errorf("%s: the cache holds %q", c.mode, files)
		}
		s.mode.Store("")
		if f, err := cl.Fetch(context.Background(), "GDS507", ""); err != nil || f.Files[0].SHA256 != sha(t, "../dataset/testdata/geo/GDS507.soft.gz") {
			t.Errorf("%s, then whole: %v", c.mode, err)
		}
	}
}

// An accession GEO does not have is said to be missing; platforms alone and anything
// that is not an accession are refused before any address is made of them.
func TestAccessionsAreChecked(t *testing.T) {
	s := newServer(t)
	c := s.client(t)
	if _, err := c.Fetch(context.Background(), "GSE999999", ""); err == nil || !strings.Contains(err.Error(), "GEO has no GSE999999") {
		t.Errorf("a missing series: %v", err)
	}
	if _, err := c.Fetch(context.Background(), "GDS99", ""); err == nil || !strings.Contains(err.Error(), "GEO has no GDS99") {
		t.Errorf("a missing DataSet: %v", err)
	}
	if _, err := c.Fetch(context.Background(), "GSE2000", ""); err == nil || !strings.Contains(err.Error(), "GSE2000 has no series matrix on GEO") || !strings.Contains(err.Error(), "/geo/series/GSE2nnn/GSE2000/suppl/") {
		t.Errorf("a series without a matrix: %v", err)
	}
	before := s.files.Load()
	for _, bad := range []string{"GSE781/../../x", "GSM11805", "GSE 781", "GSE", "GSE7811234567890", "../GSE781"} {
		if _, err := c.Fetch(context.Background(), bad, ""); err == nil || !strings.Contains(err.Error(), "not a GEO accession") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, err := c.Fetch(context.Background(), "GPL96", ""); err == nil || !strings.Contains(err.Error(), "is a platform") {
		t.Errorf("a platform: %v", err)
	}
	if _, err := c.Fetch(context.Background(), "GSE781", "GPL96/../x"); err == nil || !strings.Contains(err.Error(), "--platform") {
		t.Errorf("a bad platform: %v", err)
	}
	if s.files.Load() != before {
		t.Error("a refused accession reached the server")
	}
	for acc, want := range map[string]string{"GSE2034": "GSE2nnn", "GSE781": "GSEnnn", "GDS507": "GDSnnn", "GSE12345": "GSE12nnn", "GPL1": "GPLnnn"} {
		if got := stub(acc); got != want {
			t.Errorf("stub(%s) = %s, want %s (GEOquery's)", acc, got, want)
		}
	}
}

// A slow server is stopped by Cancel within a second, and by the stall time when it
// sends nothing; neither leaves a file.
func TestSlowServerAndCancel(t *testing.T) {
	s := newServer(t)
	s.mode.Store("slow")
	c := s.client(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := c.Fetch(ctx, "GDS507", ""); done <- err }()
	time.Sleep(300 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled: %v", err)
		}
	case <-time.After(5 * time.Second): // Cancel must act within a second; this only bounds a hang
		t.Fatal("Cancel did not stop the download")
	}
	c.Stall = 200 * time.Millisecond
	if _, err := c.Fetch(context.Background(), "GDS507", ""); err == nil || !strings.Contains(err.Error(), "GEO stopped sending") {
		t.Errorf("stalled: %v", err)
	}
	if files := cached(c.Cache); len(files) != 0 {
		t.Errorf("the cache holds %q", files)
	}
}

// A download larger than the free disk space is refused before it starts.
func TestDownloadLargerThanTheDisk(t *testing.T) {
	s := newServer(t)
	c := s.client(t)
	defer func(f func(string) (uint64, bool)) { freeSpace = f }(freeSpace)
	freeSpace = func(string) (uint64, bool) { return 10 << 20, true }
	if _, err := c.Fetch(context.Background(), "GDS507", ""); err == nil || !strings.Contains(err.Error(), "free") {
		t.Errorf("a full disk: %v", err)
	}
}

// The server's address comes from STEADFAST_GEO_URL: https anywhere, plain http only on
// this machine.
func TestBase(t *testing.T) {
	for s, ok := range map[string]bool{
		"https://ftp.ncbi.nlm.nih.gov/geo": true, "https://mirror.example.edu/geo/": true, "http://127.0.0.1:8080/geo": true,
		"http://localhost:9/": true, "http://[::1]:80/geo": true, "http://mirror.example.edu/geo": false, "ftp://ftp.ncbi.nlm.nih.gov/geo": false,
		"https://user:pw@host/geo": false, "mirror": false,
	} {
		t.Setenv(BaseEnv, s)
		if _, err := Base(); (err == nil) != ok {
			t.Errorf("%s: %v", s, err)
		}
	}
	t.Setenv(BaseEnv, "")
	if b, err := Base(); err != nil || b.String() != DefaultBase {
		t.Errorf("default %v %v", b, err)
	}
}
