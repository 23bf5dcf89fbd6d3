package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"steadfast/compute/dataset"
	"steadfast/compute/study"
)

// The NKI 70-gene data (compute/study/testdata/nki70.csv, with its five clinical
// covariates; see its PROVENANCE.md): after a survival run the Signature tab offers the
// covariates, all ticked; with Diam unticked the signature's added value is over the
// other four, on the 144 patients and 48 events of the data; the tab shows its forest
// plot and table, Save signature writes added_value.csv, its data and the forest plot,
// and the report gives the added value and says how it was assessed. A column the
// data lack is refused with the covariates they have; none chosen skips it.
func TestAddedValueInTheWindow(t *testing.T) {
	path, _ := filepath.Abs(filepath.Join("..", "compute", "study", "testdata", "nki70.csv"))
	u, _ := newTestUI(t)
	serialized(func() { u.LoadFile(path, dataset.Options{}) })
	waitFor(t, "the NKI data", 20*time.Second, func() bool {
		return onUI(func() bool { return strings.Contains(u.dataTab.summary.Text, "nki70.csv: 144 samples") })
	})
	serialized(func() {
		u.protocol.ks.SetText("5,10")
		u.protocol.folds.SetText("5")
		test.Tap(u.runBtn)
	})
	waitFor(t, "the survival run", 60*time.Second, func() bool { return onUI(func() bool { return u.result != nil && u.cancel == nil }) })
	sv := u.survView
	serialized(func() {
		if want := []string{"Diam", "N", "ER", "Grade", "Age"}; !slices.Equal(sv.covs.Options, want) || !slices.Equal(sv.covs.Selected, want) {
			t.Errorf("covariates offered %v, ticked %v", sv.covs.Options, sv.covs.Selected)
		}
		sv.covs.SetSelected([]string{"N", "ER", "Grade", "Age"})
		test.Tap(sv.build)
	})
	waitFor(t, "the survival signature", 60*time.Second, func() bool { return onUI(func() bool { return sv.sig != nil && u.cancel == nil }) })
	res := onUI(u.Result)
	serialized(func() {
		av := sv.sig.Added
		if av == nil || !slices.Equal(av.Covariates, []string{"N", "ER", "Grade", "Age"}) || av.N != 144 || av.Events != 48 {
			t.Fatalf("added value %+v", av)
		}
		if !slices.Contains(sv.show.Options, "hazard ratios with clinical covariates") || !strings.Contains(sv.more.Text, "Added value over N, ER, Grade, Age (144 patients, 48 events)") ||
			!strings.Contains(sv.metrics.Text, "Added value over N, ER, Grade, Age: C ") {
			t.Errorf("figures %v, more %q, metrics %q", sv.show.Options, sv.more.Text, sv.metrics.Text)
		}
		sv.show.SetSelected("hazard ratios with clinical covariates")
		if u.currentFigure(tabSignature).Name != "signature-forest-covariates" {
			t.Errorf("shown %q", u.currentFigure(tabSignature).Name)
		}
		sv.tables.SetSelected("added value over covariates")
		if !sv.stack[4].Visible() || sv.stack[0].Visible() {
			t.Error("the added value's table is not shown")
		}
	})
	dir := t.TempDir()
	serialized(func() {
		if err := sv.writeFolder(filepath.Join(dir, "sig")); err != nil {
			t.Fatal(err)
		}
	})
	for _, f := range []string{"added_value.csv", "added_value_data.csv", "signature-forest-covariates.png", "signature-forest-covariates.csv", "model.json"} {
		if _, err := os.Stat(filepath.Join(dir, "sig", f)); err != nil {
			t.Errorf("the saved signature lacks %s", f)
		}
	}
	html := filepath.Join(dir, "report.html")
	surv := onUI(func() *study.SurvivalSignature { s, _ := sv.of(res); return s })
	if err := writeReport(html, res, nil, surv, nil); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(html)
	for _, w := range []string{"Added value over N, ER, Grade, Age", "The added value of the signature over the clinical covariates N, ER, Grade and Age", "c_change", "alone and with the cross-validated risk score"} {
		if !strings.Contains(string(b), w) {
			t.Errorf("the report lacks %q", w)
		}
	}
	// a column the data lack, typed among the others: the signature is built, and the
	// error names the data's covariates; none ticked and none typed: no added value
	serialized(func() {
		u.lastErr = nil
		sv.covOther.SetText("Stage")
		test.Tap(sv.build)
	})
	waitFor(t, "the error", 60*time.Second, func() bool { return onUI(func() bool { return u.lastErr != nil && u.cancel == nil }) })
	serialized(func() {
		if err := u.lastErr.Error(); !strings.Contains(err, `the signature is built, but its added value over N, ER, Grade, Age, Stage could not be measured: no covariate "Stage" in nki70.csv: its clinical covariates are Diam, N, ER, Grade, Age`) || sv.sig == surv || sv.sig.Added != nil {
			t.Errorf("error %q", err)
		}
		sv.covs.SetSelected(nil)
		sv.covOther.SetText("")
		test.Tap(sv.build)
	})
	prev := onUI(func() *study.SurvivalSignature { return sv.sig })
	waitFor(t, "the signature again", 60*time.Second, func() bool {
		return onUI(func() bool { return sv.sig != prev && u.cancel == nil })
	})
	serialized(func() {
		if sv.sig.Added != nil || slices.Contains(sv.show.Options, "hazard ratios with clinical covariates") {
			t.Errorf("added value without covariates: %v", sv.show.Options)
		}
	})
}
