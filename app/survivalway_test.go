package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/dataset"
	"steadfast/compute/study"
)

// overlayTexts are the texts of the top dialog's labels and form labels, its buttons
// by text, its entries and its check groups.
func overlayTexts(w fyne.Window) (texts []string, buttons map[string]*widget.Button, entries []*widget.Entry, groups []*widget.CheckGroup) {
	buttons = map[string]*widget.Button{}
	walkVisible(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		switch v := o.(type) {
		case *widget.Label:
			texts = append(texts, v.Text)
		case *canvas.Text:
			texts = append(texts, v.Text)
		case *widget.Button:
			buttons[v.Text] = v
		case *widget.Entry:
			entries = append(entries, v)
		case *widget.CheckGroup:
			groups = append(groups, v)
		}
	})
	return texts, buttons, entries, groups
}

// A survival study speaks of events all the way (DLBCL CHOP -> R-CHOP, ../shared/data):
// the Data tab previews each patient's time and event (not a class) and its valid-value
// filter is a share of the events or of the censored; the Protocol tab's folds need
// events; the Data tab's Covariates dialog marks a column (here a probe, 1552325_at,
// the file having no clinical column) as a clinical covariate, read as --covariates
// reads it, kept in the run's configuration and offered for the added value; the
// Validate dialog asks for the cohort's time and event, found by name as predict
// finds them (R-CHOP's "time" and "event"); and a saved run reopened restores the
// signature's nested C and permutation test instead of recomputing them.
func TestSurvivalAllTheWayInTheWindow(t *testing.T) {
	path := filepath.Join(sharedData, "dlbcl_chop_survival.csv")
	cohort := filepath.Join(sharedData, "dlbcl_rchop_survival.csv")
	for _, p := range []string{path, cohort} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("real data missing (../shared/data): %v", err)
		}
	}
	u, w := newTestUI(t)
	serialized(func() { u.LoadFile(path, dataset.Options{}) })
	waitFor(t, "the survival data", 20*time.Second, func() bool {
		return onUI(func() bool { return strings.Contains(u.dataTab.summary.Text, "dlbcl_chop_survival.csv: 181 samples") })
	})
	serialized(func() {
		d := u.dataTab
		// the file's first row: CHOP_V2,2.68,1 (head -2 dlbcl_chop_survival.csv)
		if h := d.preview.Header(); len(h) < 3 || h[1] != "time" || h[2] != "event" {
			t.Errorf("preview header %q", h)
		}
		if r := d.preview.Rows()[0]; len(r) < 3 || r[1] != "2.68" || r[2] != "1 (event)" {
			t.Errorf("preview's first row %q", r)
		}
		if got := d.intens.validWhat.Text; !strings.Contains(got, "events") || strings.Contains(got, "class") {
			t.Errorf("valid values: %q", got)
		}
		if got := u.protocol.foldsHint.Text; !strings.Contains(got, "events") || strings.Contains(got, "class") {
			t.Errorf("folds hint: %q", got)
		}
		u.showCovariates(d.covEntry)
	})
	// the Covariates dialog: filter the columns, tick one, read the file again with it
	var group *widget.CheckGroup
	var read *widget.Button
	waitFor(t, "the covariates dialog", 10*time.Second, func() bool {
		return onUI(func() bool {
			_, buttons, entries, groups := overlayTexts(w)
			if len(entries) > 0 && len(groups) > 0 {
				entries[0].SetText("1552325")
				group, read = groups[0], buttons["Read with these"]
			}
			return group != nil && read != nil
		})
	})
	serialized(func() {
		if !slices.Contains(group.Options, "1552325_at") || slices.Contains(group.Options, "1552365_at") {
			t.Errorf("filtered columns %q", group.Options)
		}
		group.SetSelected([]string{"1552325_at"})
		test.Tap(read)
	})
	waitFor(t, "the data read with the covariate", 20*time.Second, func() bool {
		return onUI(func() bool { return u.raw != nil && slices.Contains(u.raw.CovariateNames(), "1552325_at") })
	})
	serialized(func() {
		if got := u.dataTab.covEntry.Text; got != "1552325_at" {
			t.Errorf("covariates field %q", got)
		}
		if slices.Contains(u.raw.Features, "1552325_at") {
			t.Error("the covariate is still a feature")
		}
		u.protocol.ks.SetText("10,20") // two ks the advice chooses between (as in TestSurvivalPermutationInTheWindow)
		u.protocol.folds.SetText("3")
		test.Tap(u.runBtn)
	})
	waitFor(t, "the survival run", 120*time.Second, func() bool { return onUI(func() bool { return u.result != nil && u.cancel == nil }) })
	if got := onUI(func() []string { return u.result.Config.Read.Covariates }); !slices.Equal(got, []string{"1552325_at"}) {
		t.Errorf("the run's configuration has the covariates %q (as --covariates 1552325_at would)", got)
	}
	sv := u.survView
	if got := onUI(func() []string { return sv.covs.Options }); !slices.Contains(got, "1552325_at") {
		t.Errorf("added value offers %q", got)
	}
	serialized(func() { test.Tap(sv.build) })
	waitFor(t, "the survival signature", 120*time.Second, func() bool { return onUI(func() bool { return sv.sig != nil && u.cancel == nil }) })
	if onUI(func() bool { return sv.sig.Nested == nil }) {
		err := onUI(func() error { return sv.sig.Nest(context.Background(), u.result, u.data, nil) })
		t.Fatalf("%v; "+"no nested C for the advice's signature: advised %v; %q; status %q", err, onUI(func() bool { return sv.sig.Advised }), onUI(func() string { return sv.metrics.Text + " | " + sv.more.Text }), onUI(func() string { return u.progress.Status.Text }))
	}
	serialized(func() { sv.runPermutations(3) })
	waitFor(t, "the permutation test", 120*time.Second, func() bool {
		return onUI(func() bool { return sv.sig.Perm != nil && u.cancel == nil })
	})

	// the Validate dialog of a survival model: time and event, no class
	serialized(func() { test.Tap(sv.validate) })
	var validate *widget.Button
	waitFor(t, "the validate dialog", 10*time.Second, func() bool {
		return onUI(func() bool {
			texts, buttons, _, _ := overlayTexts(w)
			if validate = buttons["Validate"]; validate == nil {
				return false
			}
			if !slices.Contains(texts, "Time") || !slices.Contains(texts, "Event") || slices.Contains(texts, "Class") || slices.Contains(texts, "Class map") {
				t.Errorf("the survival model's Validate dialog asks for %q", texts)
			}
			return true
		})
	})
	serialized(func() {
		if !strings.Contains(sv.form.time.PlaceHolder, "found by name") {
			t.Errorf("time hint %q", sv.form.time.PlaceHolder)
		}
		sv.form.path.SetText(cohort)
		test.Tap(validate)
	})
	waitFor(t, "the validation", 120*time.Second, func() bool { return onUI(func() bool { return sv.val != nil && u.cancel == nil }) })
	// the same cohort as predict reads it without --time and --event
	want, err := study.Validate(context.Background(), onUI(func() *study.SurvivalSignature { return sv.sig }).Model, cohort, study.CohortOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := onUI(func() *study.SurvivalSignature { return sv.sig })
	if val := onUI(func() bool { return sv.val.Survival == nil }); val || want.Survival == nil || onUI(func() float64 { return sv.val.Survival.C.C }) != want.Survival.C.C {
		t.Errorf("the window's validation did not find R-CHOP's time and event as predict does")
	}

	// leaving unsaved results names the survival signature too
	serialized(func() { u.unsaved = true; u.unlessUnsaved("Opening colon.csv", func() {}) })
	serialized(func() {
		texts, buttons, _, _ := overlayTexts(w)
		if !slices.ContainsFunc(texts, func(s string) bool { return strings.Contains(s, "the signature built from them are not saved") }) {
			t.Errorf("unsaved dialog: %q", texts)
		}
		if c := buttons["Cancel"]; c != nil {
			test.Tap(c)
		}
	})

	// Save run, then reopen: the nested C and the permutation test come back
	dir := t.TempDir()
	run := filepath.Join(dir, "run.json")
	if err := study.SaveRun(run, onUI(u.Result), onUI(u.tools)); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(run)
	if !strings.Contains(string(b), `"survivalNested"`) || !strings.Contains(string(b), `"permutations"`) {
		t.Fatal("the saved run lacks the survival signature's nested C or permutation test")
	}
	// mark the saved nested C (inner folds 7, which no study of this run used) to tell
	// a restored estimate from one computed again
	s, err := study.LoadRun(run)
	if err != nil {
		t.Fatal(err)
	}
	s.Tools.Signature.SurvivalNested.InnerFolds = 7
	if err := study.SaveRun(run, s.Result, s.Tools); err != nil {
		t.Fatal(err)
	}
	u2, _ := newTestUI(t)
	serialized(func() { u2.OpenRun(run) })
	waitFor(t, "the reopened run's data", 30*time.Second, func() bool { return onUI(func() bool { return u2.data != nil && u2.path == path }) })
	sv2 := u2.survView
	serialized(func() {
		if got := u2.dataTab.covEntry.Text; got != "1552325_at" {
			t.Errorf("reopened: covariates field %q", got)
		}
		if m := sv2.metrics.Text; !strings.Contains(m, "saved with a survival signature") || !strings.Contains(m, "nested C") || !strings.Contains(m, "permutation test") {
			t.Errorf("reopened: %q", m)
		}
		test.Tap(sv2.build)
	})
	waitFor(t, "the rebuilt signature", 120*time.Second, func() bool { return onUI(func() bool { return sv2.sig != nil && u2.cancel == nil }) })
	serialized(func() {
		sig := sv2.sig
		if sig.Nested == nil || sig.Nested.InnerFolds != 7 || sig.Nested.C != got.Nested.C {
			t.Errorf("reopened: nested %+v, saved %+v", sig.Nested, got.Nested.C)
		}
		if sig.Perm == nil || sig.Perm.P != got.Perm.P {
			t.Errorf("reopened: permutation test %+v, saved p %g", sig.Perm, got.Perm.P)
		}
		if !strings.Contains(sv2.metrics.Text, "Permutation test of C: p =") {
			t.Errorf("reopened headline %q", sv2.metrics.Text)
		}
	})
	// a new result names no figure of the last signature (it showed "cohort Kaplan-Meier")
	if got := onUI(func() string { sv.setResult(u.result); return sv.show.Selected }); got != "" {
		t.Errorf("after a new result the figure choice shows %q", got)
	}
}
