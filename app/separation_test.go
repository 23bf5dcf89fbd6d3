package app

import (
	"bytes"
	"encoding/csv"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"steadfast/compute/dataset"
	"steadfast/compute/study"
)

// separatedData writes dir/dlbcl_separated.csv: the first 3 samples with an event and
// the first 27 censored ones of dlbcl_chop_survival.csv, with a column "stage" of 2 for
// the events and 1 for the censored, which separates the events.
func separatedData(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(sharedData, "dlbcl_chop_survival.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	with := func(r []string, stage string) []string {
		return append(append(append([]string{}, r[:3]...), stage), r[3:]...)
	}
	out := [][]string{with(recs[0], "stage")}
	events, censored := 0, 0
	for _, r := range recs[1:] {
		if r[2] == "1" && events < 3 {
			events++
			out = append(out, with(r, "2"))
		} else if r[2] == "0" && censored < 27 {
			censored++
			out = append(out, with(r, "1"))
		}
	}
	var buf bytes.Buffer
	csv.NewWriter(&buf).WriteAll(out)
	path := filepath.Join(dir, "dlbcl_separated.csv")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// 30 DLBCL CHOP patients with 3 events and a stage that separates them (R's coxph
// warns "coefficient may be infinite" for stage: compute/study's
// testdata/added_value_separation.R), 3-fold CV: the Signature tab's headline, its
// More text and the added value's table name stage's infinite coefficient; the
// export dialog's action writes the Kaplan-Meier figure at the 16 x 10 cm asked (at
// 100 dpi 16/2.54*100 = 629.9 -> 630 by 10/2.54*100 = 393.7 -> 394 pixels) saying
// nothing of its size, and the forest plot, taller than 10 cm, with a note saying so.
func TestSeparationInTheWindow(t *testing.T) {
	dir := t.TempDir()
	path := separatedData(t, dir)
	u, _ := newTestUI(t)
	serialized(func() { u.LoadFile(path, dataset.Options{}) })
	waitFor(t, "the data", 20*time.Second, func() bool {
		return onUI(func() bool { return strings.Contains(u.dataTab.summary.Text, "dlbcl_separated.csv: 30 samples") })
	})
	serialized(func() {
		u.protocol.ks.SetText("5")
		u.protocol.folds.SetText("3")
		test.Tap(u.runBtn)
	})
	waitFor(t, "the survival run", 60*time.Second, func() bool { return onUI(func() bool { return u.result != nil && u.cancel == nil }) })
	sv := u.survView
	serialized(func() {
		sv.covs.SetSelected([]string{"stage"})
		test.Tap(sv.build)
	})
	waitFor(t, "the survival signature", 60*time.Second, func() bool { return onUI(func() bool { return sv.sig != nil && u.cancel == nil }) })
	const warn = "the Cox coefficient of stage: 2 vs 1 may be infinite"
	serialized(func() {
		av := sv.sig.Added
		if av == nil || av.Events != 3 {
			t.Fatalf("added value %+v", av)
		}
		if !strings.Contains(sv.metrics.Text, "warning: "+warn) || !strings.Contains(sv.more.Text, "Warning, the model of the covariates: "+warn) {
			t.Errorf("metrics %q, more %q", sv.metrics.Text, sv.more.Text)
		}
		if h := sv.added.Header(); len(h) < 7 || h[len(h)-1] != "warning" {
			t.Errorf("the added value's table: %v", h)
		}
	})
	figs := onUI(func() map[string]bool {
		out := map[string]bool{}
		for _, o := range sv.show.Options {
			out[o] = true
		}
		return out
	})
	if !figs["hazard ratios with clinical covariates"] {
		t.Fatalf("figures %v", figs)
	}
	out := filepath.Join(dir, "export")
	serialized(func() {
		sv.show.SetSelectedIndex(0)
		km := u.currentFigure(tabSignature)
		if km.Name != "signature-km" {
			t.Fatalf("shown %s", km.Name)
		}
		if err := u.exportFormats(km, out, "km", map[string]bool{"png": true, "pdf": true}, "16", "10", "cm", "100"); err != nil {
			t.Fatal(err)
		}
		if st := u.progress.Status.Text; strings.Contains(st, "Note") {
			t.Errorf("status %q", st)
		}
		sv.show.SetSelected("hazard ratios with clinical covariates")
		forest := u.currentFigure(tabSignature)
		if len(forest.Table[0]) != 8 || !strings.Contains(forest.Table[1][7], "coefficient may be infinite") {
			t.Errorf("forest table %v", forest.Table[:2])
		}
	})
	f, err := os.Open(filepath.Join(out, "km.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if c, err := png.DecodeConfig(f); err != nil || c.Width != 630 || c.Height != 394 {
		t.Errorf("km.png %d x %d (%v)", c.Width, c.Height, err)
	}
	if pdf, _ := os.ReadFile(filepath.Join(out, "km.pdf")); !bytes.Contains(pdf, []byte("MediaBox [0 0 453.54 283.46]")) {
		t.Error("km.pdf is not 16 x 10 cm")
	}
	surv := onUI(func() *study.SurvivalSignature { return sv.sig })
	serialized(func() {
		if err := u.exportFormats(u.currentFigure(tabSignature), out, "forest", map[string]bool{"png": true}, "16", "4", "cm", "100"); err != nil {
			t.Fatal(err)
		}
		if st := u.progress.Status.Text; !strings.Contains(st, "Note: forest: exported 16 x") || !strings.Contains(st, "not the 16 x 4 cm asked") {
			t.Errorf("status %q", st)
		}
	})
	if surv.Added == nil {
		t.Error("no added value kept")
	}
}
