package app

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/method"
	"steadfast/compute/signature"
	"steadfast/compute/study"
)

// confirmDialog taps the button named ok of the dialog on top once it says said.
func confirmDialog(t *testing.T, u *UI, said, ok string) {
	t.Helper()
	var b *widget.Button
	waitFor(t, "the dialog saying "+said, 20*time.Second, func() bool {
		return onUI(func() bool {
			seen := false
			b = nil
			walkVisible(u.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
				if l, isLabel := o.(*widget.Label); isLabel && strings.Contains(l.Text, said) {
					seen = true
				}
				if x, isButton := o.(*widget.Button); isButton && x.Text == ok {
					b = x
				}
			})
			return seen && b != nil
		})
	})
	serialized(func() { test.Tap(b) })
}

// The headline stays honest on every click (issue 59, item 1), on a real Colon study
// (F-statistic and SVM weights, DRAGS 2008, three classifiers): built with the advice
// preselected its headline is the nested AUC; changing only the classifier marks the
// results stale, and building again keeps the headline nested (the advice made again
// with the new classifier) and Details never calls the plain estimate honest. A k
// typed (not any classifier's advice) gives the plain estimate, said to be optimistic
// if chosen after seeing the results, with the nested estimate offered; taking the
// offer makes the headline nested.
func TestHeadlineStaysHonestOnEveryClick(t *testing.T) {
	ds, err := study.Open(filepath.Join(sharedData, "colon.csv"), dataset.Options{}, dataset.Prep{Log2: true, DropConstant: true})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	cfg := experiment.DefaultConfig()
	cfg.Methods, cfg.Protocol, cfg.Classifiers = []method.Spec{{Name: "fstat"}, {Name: "svmone"}}, experiment.DRAGS2008, []string{"svm", "1nn", "3nn"}
	cfg.Prep = dataset.Prep{Log2: true, DropConstant: true}
	res, err := study.Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	// the premise of the bug: another classifier whose own advice differs from the
	// linear SVM's, so the preselected method and k are not its advice
	sm, sk, _ := signature.Advice(res, "svm")
	other := ""
	for _, cl := range cfg.Classifiers[1:] {
		if m, k, ok := signature.Advice(res, cl); ok && (m != sm || k != sk) {
			other = cl
			break
		}
	}
	if other == "" {
		t.Fatal("every classifier's advice is the linear SVM's: the test's premise fails")
	}
	u, _ := newTestUI(t)
	serialized(func() { u.setData(ds, "", dataset.Options{}); u.setResult(res); u.showTab(tabSignature) })
	v := u.sigView
	build := func(what string) {
		t.Helper()
		serialized(func() { v.sig = nil; test.Tap(v.build) })
		waitFor(t, what, 120*time.Second, func() bool { return onUI(func() bool { return v.sig != nil && u.cancel == nil }) })
	}
	build("the advice's signature")
	serialized(func() {
		if h := v.sig.Headline(); h.Estimate != signature.HeadlineNested || !strings.Contains(v.metrics.Text, "Nested cross-validated AUC") {
			t.Errorf("the advice's headline %+v: %q", h, v.metrics.Text)
		}
		if v.stale.Visible() || v.nestBtn.Visible() {
			t.Error("a signature of the choice shown is marked stale, or offered the nested estimate it has")
		}
		// the actions are in view with the choice folded away
		if v.fold.Visible() || findButton(v.content, "Validate...") == nil || findButton(v.content, "Report...") == nil {
			t.Error("after a build the actions are not in view")
		}
		v.classifier.SetSelected(experiment.ClassifierLabel(other))
		if !v.stale.Visible() || !strings.Contains(v.stale.Text, "Stale: the results below are of") || !strings.Contains(v.stale.Text, "with linear SVM") {
			t.Errorf("changing only the classifier: stale mark %v %q", v.stale.Visible(), v.stale.Text)
		}
	})
	build("the signature with the other classifier")
	serialized(func() {
		h := v.sig.Headline()
		if v.sig.Choice.Classifier != other || h.Estimate != signature.HeadlineNested || v.sig.Nested.Classifier != other {
			t.Errorf("with %s the headline is %+v (nested of %v)", other, h, v.sig.Nested)
		}
		if d := v.details(); strings.Contains(d, "is honest") || !strings.HasPrefix(d[strings.Index(d, "Headline"):], "Headline: the nested cross-validated AUC") {
			t.Errorf("details: %.300s", d)
		}
		if v.stale.Visible() {
			t.Error("still marked stale after building again")
		}
	})
	// a k typed: of no classifier's advice
	typedM, typedK := -1, 0
	for m := range res.Methods {
		for _, k := range res.Config.AccuracyKs() {
			if typedM < 0 && !study.FromStudy(res, m, k) {
				typedM, typedK = m, k
			}
		}
	}
	if typedM < 0 {
		t.Fatal("every method and k is some classifier's advice")
	}
	serialized(func() {
		v.method.SetSelectedIndex(typedM)
		v.k.SetSelected(strconv.Itoa(typedK))
		if !v.stale.Visible() {
			t.Error("a k typed does not mark the results stale")
		}
	})
	build("the signature of a k typed")
	serialized(func() {
		if h := v.sig.Headline(); h.Estimate != signature.HeadlineGiven || v.sig.Advised {
			t.Errorf("a k typed: headline %+v", h)
		}
		if !strings.Contains(v.metrics.Text, signature.GivenWarning) || !v.nestBtn.Visible() || !strings.Contains(v.details(), signature.GivenWarning) || strings.Contains(v.details(), "fixed before this study: the plain cross-validated estimate is honest") {
			t.Errorf("a k typed: metrics %q, nested offered %v", v.metrics.Text, v.nestBtn.Visible())
		}
		test.Tap(v.nestBtn)
	})
	confirmDialog(t, u, "Chosen after seeing this study's results?", "Compute")
	waitFor(t, "the nested estimate", 120*time.Second, func() bool {
		return onUI(func() bool { return v.sig.Nested != nil && u.cancel == nil })
	})
	serialized(func() {
		if h := v.sig.Headline(); h.Estimate != signature.HeadlineNested || !strings.Contains(v.metrics.Text, "Nested cross-validated AUC") || v.nestBtn.Visible() {
			t.Errorf("after the offer: headline %+v, %q", h, v.metrics.Text)
		}
	})
}

// The survival Signature tab keeps the same honesty (DLBCL CHOP, the Cox score test at
// k = 10 or 20): the advice's signature leads with the nested C; a k typed marks the
// results stale, and built gives the plain C said to be optimistic if chosen after
// seeing the results, with the nested C offered; going back to the advice's k builds
// the nested C again.
func TestSurvivalHeadlineStaysHonest(t *testing.T) {
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
		u.protocol.ks.SetText("10,20")
		u.protocol.folds.SetText("4")
		test.Tap(u.runBtn)
	})
	waitFor(t, "the survival run", 120*time.Second, func() bool { return onUI(func() bool { return u.result != nil && u.cancel == nil }) })
	sv := u.survView
	build := func(what string) {
		t.Helper()
		serialized(func() { sv.sig = nil; test.Tap(sv.build) })
		waitFor(t, what, 120*time.Second, func() bool { return onUI(func() bool { return sv.sig != nil && u.cancel == nil }) })
	}
	build("the advice's survival signature")
	advised := onUI(func() string { return sv.k.Selected })
	serialized(func() {
		if h := sv.sig.Headline(); h.Estimate != signature.HeadlineNested || !strings.Contains(sv.metrics.Text, "Headline: the nested cross-validated Harrell's C") {
			t.Errorf("the advice's headline %+v: %q", h, sv.metrics.Text)
		}
		if sv.stale.Visible() || sv.nestBtn.Visible() || sv.fold.Items[0].Open || !sv.report.Visible() || sv.report.Disabled() || !sv.permBtn.Visible() {
			t.Error("after a build: stale, nested offered, choice open, or the actions out of view")
		}
		typed := "10"
		if advised == "10" {
			typed = "20"
		}
		sv.k.SetSelected(typed)
		if !sv.stale.Visible() || !strings.Contains(sv.stale.Text, "Cox score test at k = "+advised) {
			t.Errorf("a k typed: stale %v %q", sv.stale.Visible(), sv.stale.Text)
		}
	})
	build("the survival signature of a k typed")
	serialized(func() {
		if h := sv.sig.Headline(); h.Estimate != signature.HeadlineGiven || !strings.Contains(sv.metrics.Text, signature.GivenWarning) || !sv.nestBtn.Visible() || sv.stale.Visible() {
			t.Errorf("a k typed: headline %+v, %q, nested offered %v", h, sv.metrics.Text, sv.nestBtn.Visible())
		}
		if strings.Contains(sv.metrics.Text, "fixed before this study: the plain cross-validated estimate is honest") {
			t.Error("the plain C of a k typed is called honest")
		}
		sv.k.SetSelected(advised)
	})
	build("the advice's survival signature again")
	if h := onUI(func() study.SurvivalHeadline { return sv.sig.Headline() }); h.Estimate != signature.HeadlineNested {
		t.Errorf("back at the advice's k: headline %+v", h)
	}
}

// While a run is under way the result charts say so, not "Press Run to see..." (issue
// 59, item 11); a run that fails puts back what to do.
func TestChartsSayARunIsUnderWay(t *testing.T) {
	u, _ := newTestUI(t)
	ds, res := smallRun(t)
	serialized(func() {
		u.setData(ds, "", dataset.Options{})
		u.startRun(res.Config, ds)
		if p := u.results.stabChart.Placeholder(); !strings.HasPrefix(p, "Running: the stability") {
			t.Errorf("during a run the stability chart says %q", p)
		}
	})
	waitFor(t, "the run", 60*time.Second, func() bool { return onUI(func() bool { return u.result != nil && u.cancel == nil }) })
	if p := onUI(u.results.stabChart.Placeholder); p != stabWaits {
		t.Errorf("after the run the stability chart would say %q", p)
	}
	serialized(func() { u.results.running(true); u.results.running(false) })
	if p := onUI(u.results.accChart.Placeholder); p != accWaits {
		t.Errorf("after a failed run the accuracy chart says %q", p)
	}
}
