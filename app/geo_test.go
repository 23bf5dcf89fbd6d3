package app

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/experiment"
)

// A user types GDS507 in Open GEO accession...: it downloads (from a GEO file server on
// this machine serving GEOquery's real files) behind the progress bar and opens with
// its classes and gene symbols; the configuration records the accession and the file's
// SHA-256. GSE781, on two platforms, asks which, and opens GPL97's matrix with the
// platform's annotation joined.
func TestOpenGEOAccession(t *testing.T) {
	layout := map[string]string{
		"/geo/datasets/GDSnnn/GDS507/soft/GDS507.soft.gz":                    "../compute/dataset/testdata/geo/GDS507.soft.gz",
		"/geo/series/GSEnnn/GSE781/matrix/GSE781-GPL96_series_matrix.txt.gz": "../compute/geo/testdata/GSE781-GPL96_series_matrix.txt.gz",
		"/geo/series/GSEnnn/GSE781/matrix/GSE781-GPL97_series_matrix.txt.gz": "../compute/geo/testdata/GSE781-GPL97_series_matrix.txt.gz",
		"/geo/platforms/GPLnnn/GPL97/annot/GPL97.annot.gz":                   "../compute/dataset/testdata/geo/GPL97.annot.gz",
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/geo/series/GSEnnn/GSE781/matrix/" {
			w.Write([]byte(`<a href="GSE781-GPL96_series_matrix.txt.gz">a</a> <a href="GSE781-GPL97_series_matrix.txt.gz">b</a>`))
			return
		}
		local, ok := layout[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, local)
	}))
	defer srv.Close()
	t.Setenv("STEADFAST_GEO_URL", srv.URL+"/geo")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	u, w := newTestUI(t)
	serialized(u.ShowOpenGEO)
	entry := onUI(func() *widget.Entry { return w.Canvas().Focused().(*widget.Entry) })
	serialized(func() { test.Type(entry, "gds507") })
	tapButton(t, w, "Open")
	waitFor(t, "GDS507", 30*time.Second, func() bool { return onUI(func() bool { return u.path == "GDS507" && u.cancel == nil }) })
	if s := onUI(func() string { return u.dataTab.summary.Text }); !strings.Contains(s, "17 samples") || !strings.Contains(s, "RCC 9") {
		t.Errorf("the Data tab: %q", s)
	}
	if u.raw.Symbols == nil || u.raw.Source == nil || u.raw.Source.Accession != "GDS507" {
		t.Fatalf("symbols %v, source %+v", u.raw.Symbols != nil, u.raw.Source)
	}
	var cfg experiment.Config
	var err error
	serialized(func() { cfg, err = u.Config() })
	if err != nil || cfg.DataPath != "GDS507" || cfg.Source == nil || len(cfg.Source.Files[0].SHA256) != 64 {
		t.Errorf("the configuration: %v, %s, %+v", err, cfg.DataPath, cfg.Source)
	}
	// a series on two platforms: the choice, then GPL97 with its annotation
	serialized(u.ShowOpenGEO)
	entry = onUI(func() *widget.Entry { return w.Canvas().Focused().(*widget.Entry) })
	serialized(func() { entry.SetText("GSE781") })
	tapButton(t, w, "Open")
	var radio *widget.RadioGroup
	waitFor(t, "the platform choice", 30*time.Second, func() bool {
		return onUI(func() bool {
			walkVisible(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
				if r, ok := o.(*widget.RadioGroup); ok {
					radio = r
				}
			})
			return radio != nil
		})
	})
	if strings.Join(radio.Options, ",") != "GPL96,GPL97" {
		t.Errorf("platforms offered %q", radio.Options)
	}
	serialized(func() { radio.SetSelected("GPL97") })
	tapButton(t, w, "Open")
	waitFor(t, "GSE781 on GPL97", 30*time.Second, func() bool { return onUI(func() bool { return u.path == "GSE781" && u.cancel == nil }) })
	if u.readOpt.Platform != "GPL97" || u.raw.Symbols == nil || u.raw.Name != "GSE781-GPL97" {
		t.Errorf("platform %q, symbols %v, name %q", u.readOpt.Platform, u.raw.Symbols != nil, u.raw.Name)
	}
	if _, err := os.Stat(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "Steadfast", "geo", "platforms", "GPLnnn", "GPL97", "annot", "GPL97.annot.gz")); err != nil {
		t.Errorf("the annotation is not in the cache: %v", err)
	}
}

// tapButton taps the button labelled text in the dialog on top.
func tapButton(t *testing.T, w fyne.Window, text string) {
	t.Helper()
	var b *widget.Button
	serialized(func() {
		walkVisible(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
			if x, ok := o.(*widget.Button); ok && x.Text == text {
				b = x
			}
		})
	})
	if b == nil {
		t.Fatalf("no %q button on top", text)
	}
	serialized(func() { test.Tap(b) })
}
