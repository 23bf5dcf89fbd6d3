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
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/study"
)

// A biologist opens a survival table (DLBCL CHOP: sample, time, event, probes): the
// Data tab says it is a survival outcome and names its columns, the Methods tab offers
// the Cox score test alone, the Protocol tab the Cox model; a run measures Harrell's C,
// and the Signature tab builds the survival signature (the Cox model locked, its
// cross-validated C, Kaplan-Meier curves of the cross-validated risk groups, hazard
// ratios, calibration and heatmap) and saves it in a folder. Back on class data
// (Colon) the class methods and the class Signature tab return.
func TestSurvivalStudyInTheWindow(t *testing.T) {
	path := filepath.Join(sharedData, "dlbcl_chop_survival.csv")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	u, _ := newTestUI(t)
	serialized(func() { u.LoadFile(path, dataset.Options{}) })
	waitFor(t, "the survival data", 20*time.Second, func() bool {
		return onUI(func() bool { return strings.Contains(u.dataTab.summary.Text, "dlbcl_chop_survival.csv: 181 samples") })
	})
	serialized(func() {
		d := u.dataTab
		if d.outcome.Selected != outcomeSurvival || d.timeEntry.Text != "time" || d.eventEntry.Text != "event" || !d.survivalRow.Visible() {
			t.Errorf("outcome %q, time %q, event %q", d.outcome.Selected, d.timeEntry.Text, d.eventEntry.Text)
		}
		if !strings.Contains(d.summary.Text, "Survival outcome: time \"time\", event \"event\" (1 event, 0 censored); 105 events, 76 censored") {
			t.Errorf("summary %q", d.summary.Text)
		}
		if !u.methods.checks["cox"].Checked || u.methods.cards["fstat"].Visible() || !u.methods.cards["cox"].Visible() {
			t.Error("the Methods tab does not offer the Cox score test alone")
		}
		if !u.protocol.classifs["cox"].Checked || !u.protocol.classifs["cox"].Visible() || u.protocol.classifs["svm"].Visible() {
			t.Error("the Protocol tab does not offer the Cox model alone")
		}
		u.protocol.ks.SetText("5,10")
		u.protocol.folds.SetText("5")
		test.Tap(u.runBtn)
	})
	waitFor(t, "the survival run", 60*time.Second, func() bool { return onUI(func() bool { return u.result != nil && u.cancel == nil }) })
	res := onUI(u.Result)
	if res.Data.Survival == nil || !slices.Equal(res.Config.Classifiers, []string{"cox"}) || res.Config.Outcome.Time != "time" {
		t.Fatalf("result: survival %v, classifiers %v, outcome %+v", res.Data.Survival != nil, res.Config.Classifiers, res.Config.Outcome)
	}
	sv := u.survView
	serialized(func() {
		if !sv.content.Visible() || u.sigView.content.Visible() {
			t.Error("the Signature tab is not the survival one")
		}
		if sv.method.Selected != "Cox score test" || !strings.Contains(sv.metrics.Text, "largest Harrell's C") {
			t.Errorf("advice: method %q, %q", sv.method.Selected, sv.metrics.Text)
		}
		// the choices fit a laptop's pane (the covariates' note, a line wider than the
		// pane, had pushed the advice's paragraph behind a horizontal scroll)
		if w := sv.content.MinSize().Width; w > 700 {
			t.Errorf("the survival Signature tab needs %.0f pixels across", w)
		}
		sv.unit.SetText("years")
		sv.horizons.SetText("2, 5")
		test.Tap(sv.build)
	})
	waitFor(t, "the survival signature", 120*time.Second, func() bool { return onUI(func() bool { return sv.sig != nil && u.cancel == nil }) })
	serialized(func() {
		if !strings.Contains(sv.metrics.Text, "cross-validated Harrell's C") || !slices.Contains(sv.show.Options, "Kaplan-Meier (cross-validated groups)") || len(sv.show.Options) != 4 {
			t.Errorf("metrics %q, figures %v", sv.metrics.Text, sv.show.Options)
		}
		if sv.sig.Opts.Unit != "years" || !slices.Equal(sv.sig.Opts.Horizons, []float64{2, 5}) || u.currentFigure(tabSignature).Name != "signature-km" {
			t.Errorf("options %+v, figure %q", sv.sig.Opts, u.currentFigure(tabSignature).Name)
		}
	})
	// the independent R-CHOP cohort, with its own times and events
	serialized(func() { sv.runValidate(filepath.Join(sharedData, "dlbcl_rchop_survival.csv"), study.CohortOptions{}) })
	waitFor(t, "the cohort", 30*time.Second, func() bool { return onUI(func() bool { return sv.val != nil && u.cancel == nil }) })
	serialized(func() {
		if sv.val.Survival == nil || sv.val.Survival.N != 233 || !slices.Contains(sv.show.Options, "cohort Kaplan-Meier") || u.currentFigure(tabSignature).Name != "cohort-km" {
			t.Errorf("cohort: %+v, figures %v, shown %q", sv.val.Survival, sv.show.Options, u.currentFigure(tabSignature).Name)
		}
		if !strings.Contains(sv.more.Text, "dlbcl_rchop_survival.csv: On 233 cohort samples (60 events): Harrell's C") {
			t.Errorf("more: %q", sv.more.Text)
		}
	})
	dir := t.TempDir()
	serialized(func() {
		if err := sv.writeFolder(filepath.Join(dir, "sig")); err != nil {
			t.Fatal(err)
		}
	})
	// the report of a survival study: its Signature section with REMARK's checklist and the cohort
	html := filepath.Join(dir, "report.html")
	surv, val := onUI(func() *study.SurvivalSignature { s, _ := sv.of(res); return s }), onUI(func() *signature.Validation { _, v := sv.of(res); return v })
	if surv == nil || val == nil {
		t.Fatal("the survival signature and its cohort are not the run's")
	}
	if err := writeReport(html, res, nil, surv, val); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(html); !strings.Contains(string(b), "REMARK checklist") || !strings.Contains(string(b), "a survival outcome (time") || !strings.Contains(string(b), "Risk scores on the cohort") {
		t.Error("the report lacks the survival signature's section, its outcome or its cohort")
	}
	for _, f := range []string{"model.json", "metrics.csv", "predictions.csv", "signature.csv", "signature-km.pdf", "signature-km.csv", "signature-forest.png"} {
		if _, err := os.Stat(filepath.Join(dir, "sig", f)); err != nil {
			t.Errorf("the saved signature lacks %s", f)
		}
	}
	// class data again: the class tabs return
	serialized(func() { u.LoadFile(filepath.Join(sharedData, "colon.csv"), dataset.Options{}) })
	waitFor(t, "colon", 20*time.Second, func() bool {
		return onUI(func() bool { return strings.Contains(u.dataTab.summary.Text, "colon.csv: 62 samples") })
	})
	serialized(func() {
		if u.dataTab.outcome.Selected != outcomeClass || !u.methods.checks["fstat"].Checked || u.methods.checks["cox"].Checked || u.methods.cards["cox"].Visible() || !u.protocol.classifs["svm"].Checked {
			t.Error("class data did not bring back the class methods and classifiers")
		}
		var cfg experiment.Config
		if err := u.protocol.fill(&cfg); err != nil || slices.Contains(cfg.Classifiers, "cox") {
			t.Errorf("classifiers %v, %v", cfg.Classifiers, err)
		}
	})
}
