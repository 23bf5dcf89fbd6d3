package app

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/method"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/compute/synth"
	guidedocs "steadfast/docs/guide"
	"steadfast/plots"
	"steadfast/widgets"
)

// The window opens at the size the user left it, else 1400 x 880, never larger than the
// screen's work area less the window frame (16 x 48), at the canvas scale. Cases worked
// by hand: 1366 x 768 less the frame is 1350 x 720; at scale 2 a 2732 x 1536 screen
// holds 1366 x 768 units, less the frame 1350 x 720.
func TestWindowSize(t *testing.T) {
	for _, c := range []struct {
		name             string
		remembered, area fyne.Size
		scale            float32
		want             fyne.Size
	}{
		{"unknown screen", fyne.Size{}, fyne.Size{}, 1, fyne.NewSize(1400, 880)},
		{"large screen", fyne.Size{}, fyne.NewSize(2560, 1400), 1, fyne.NewSize(1400, 880)},
		{"1366 x 768 laptop", fyne.Size{}, fyne.NewSize(1366, 768), 1, fyne.NewSize(1350, 720)},
		{"1920 x 1080 at 150%", fyne.Size{}, fyne.NewSize(1920, 1080), 1.5, fyne.NewSize(1264, 672)},
		{"HiDPI at scale 2", fyne.Size{}, fyne.NewSize(2732, 1536), 2, fyne.NewSize(1350, 720)},
		{"remembered", fyne.NewSize(1000, 700), fyne.NewSize(2560, 1400), 1, fyne.NewSize(1000, 700)},
		{"remembered on a smaller screen", fyne.NewSize(1800, 1100), fyne.NewSize(1366, 768), 1, fyne.NewSize(1350, 720)},
		{"a minimised size is not remembered", fyne.NewSize(120, 40), fyne.NewSize(2560, 1400), 1, fyne.NewSize(1400, 880)},
	} {
		if got := windowSize(c.remembered, c.area, c.scale); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// The size the user leaves the window at is the size it opens at next time.
func TestWindowRemembersItsSize(t *testing.T) {
	a := test.NewTempApp(t)
	w := a.NewWindow("Steadfast")
	u := NewUI(a, w)
	w.SetContent(u.Content())
	w.Resize(fyne.NewSize(1100, 650))
	u.Quit() // nothing running, nothing unsaved: closes
	w2 := a.NewWindow("Steadfast")
	u2 := NewUI(a, w2)
	w2.SetContent(u2.Content())
	u2.fitScreen(fyne.NewSize(2560, 1400))
	if got := w2.Canvas().Size(); got != fyne.NewSize(1100, 650) {
		t.Errorf("reopened at %v, want the 1100 x 650 it was left at", got)
	}
}

// GDS507 (GEO; classes RCC 9, normal 8) under the default 10 x 10-fold CV: the Protocol
// tab says so as soon as the data are open, naming the smallest class, and offers 8 folds
// or DRAGS 2008 in one click. Run does not start meanwhile (it used to fail after Run,
// naming RCC).
func TestProtocolFitsTheDataBeforeRun(t *testing.T) {
	u, _ := newTestUI(t)
	gds := filepath.Join("..", "compute", "dataset", "testdata", "geo", "GDS507.soft.gz")
	serialized(func() { u.LoadFile(gds, dataset.Options{}) })
	waitFor(t, "GDS507", 20*time.Second, func() bool { return onUI(func() bool { return u.path == gds }) })
	fitShown := func() bool { return onUI(func() bool { return u.protocol.fit.Visible() }) }
	if !fitShown() {
		t.Fatal("no warning on the Protocol tab for 10-fold CV on classes of 9 and 8")
	}
	if got := onUI(func() string { return u.protocol.fitText.Text }); !strings.Contains(got, `smallest class, "normal", has 8 samples`) {
		t.Errorf("warning: %q", got)
	}
	if st := onUI(func() string { return u.progress.Status.Text }); !strings.Contains(st, "Protocol tab") {
		t.Errorf("status after opening: %q", st)
	}
	serialized(func() { test.Tap(u.runBtn) })
	if onUI(func() bool { return u.cancel != nil }) || onUI(u.left.SelectedIndex) != leftProtocol {
		t.Error("Run started, or did not bring the Protocol tab forward")
	}
	if u.protocol.useFolds.Hidden || u.protocol.useDRAGS.Hidden || u.protocol.useFolds.Text != "Use 8 folds" {
		t.Fatalf("fixes offered: %q (hidden %v), DRAGS hidden %v", u.protocol.useFolds.Text, u.protocol.useFolds.Hidden, u.protocol.useDRAGS.Hidden)
	}
	serialized(func() { test.Tap(u.protocol.useFolds) })
	if fitShown() {
		t.Error("the warning stays after choosing 8 folds")
	}
	if help, st := onUI(func() string { return u.protocol.help.Text }), onUI(func() string { return u.progress.Status.Text }); !strings.Contains(help, "With 8 folds instead of the protocol's 10 it runs as 10 x 8-fold CV") || !strings.Contains(st, "The protocol now suits the data") {
		t.Errorf("after the fix: help %q, status %q", help, st)
	}
	cfg, err := onUI(func() experiment.Config { c, _ := u.Config(); return c }), error(nil)
	if cfg, err = study.Plan(cfg, onUI(func() *dataset.Dataset { return u.data })); err != nil || cfg.Folds != 8 {
		t.Errorf("after the fix: %d folds, %v", cfg.Folds, err)
	}
	// the fix was for GDS507's small class: another file starts from the protocol's own
	// folds again, and the status says so (it had carried 8 folds over silently)
	colon := filepath.Join(sharedData, "colon.csv")
	serialized(func() { u.LoadFile(colon, dataset.Options{}) })
	waitFor(t, "colon", 20*time.Second, func() bool { return onUI(func() bool { return u.path == colon }) })
	if f, st := onUI(func() string { return u.protocol.folds.Text }), onUI(func() string { return u.progress.Status.Text }); f != "" || !strings.Contains(st, "8 folds chosen for the previous file") {
		t.Errorf("after opening colon.csv: folds %q, status %q", f, st)
	}
	serialized(func() { u.LoadFile(gds, dataset.Options{}) })
	waitFor(t, "GDS507 again", 20*time.Second, func() bool { return onUI(func() bool { return u.path == gds }) })
	serialized(func() { test.Tap(u.protocol.useFolds) })
	// back to the protocol's 10 folds, then the other fix
	serialized(func() { u.protocol.folds.SetText("") })
	if !fitShown() {
		t.Fatal("no warning after going back to 10 folds")
	}
	serialized(func() { test.Tap(u.protocol.useDRAGS) })
	if fitShown() || onUI(func() string { return u.protocol.protocol.Selected }) != "DRAGS 2008 (3-fold x 10)" {
		t.Errorf("after DRAGS 2008: protocol %q, warning shown %v", u.protocol.protocol.Selected, fitShown())
	}
}

// The class, sheet and symbols fields and the log2 box belong to one data file: after
// GDS507 with GPL97's symbols, opening colon.csv from File > Open data used to fail
// ("GPL97.annot.gz names none of the 2000 features"). Each file gets its own options
// and the preprocessing its values call for: log2 for GDS507's MAS5 values and Colon's
// raw intensities, none for SRBCT's log values.
func TestAnotherFileGetsItsOwnOptions(t *testing.T) {
	geo := filepath.Join("..", "compute", "dataset", "testdata", "geo")
	u, _ := newTestUI(t)
	open := func(path string, o dataset.Options) {
		t.Helper()
		serialized(func() { u.lastErr = nil; u.LoadFile(path, o) })
		waitFor(t, filepath.Base(path), 20*time.Second, func() bool { return onUI(func() bool { return u.path == path || u.lastErr != nil }) })
		if err := onUI(func() error { return u.lastErr }); err != nil {
			t.Fatalf("opening %s: %v", path, err)
		}
	}
	gds := filepath.Join(geo, "GDS507.soft.gz")
	open(gds, dataset.Options{SymbolsPath: filepath.Join(geo, "GPL97.annot.gz"), ClassName: "disease state"})
	if !u.dataTab.log2Check.Checked || u.dataTab.symbolsEntry.Text == "" {
		t.Errorf("GDS507: log2 %v, symbols %q", u.dataTab.log2Check.Checked, u.dataTab.symbolsEntry.Text)
	}
	if o := onUI(func() dataset.Options { return u.openOptions(gds) }); o.SymbolsPath == "" || o.ClassName != "disease state" {
		t.Errorf("re-opening the same file drops its options: %+v", o)
	}
	colon := filepath.Join(sharedData, "colon.csv")
	open(colon, onUI(func() dataset.Options { return u.openOptions(colon) }))
	if u.dataTab.symbolsEntry.Text != "" || u.dataTab.classEntry.Text != "" || !u.dataTab.log2Check.Checked {
		t.Errorf("colon.csv: symbols %q, class %q, log2 %v", u.dataTab.symbolsEntry.Text, u.dataTab.classEntry.Text, u.dataTab.log2Check.Checked)
	}
	srbct := filepath.Join(sharedData, "srbct.csv")
	open(srbct, onUI(func() dataset.Options { return u.openOptions(srbct) }))
	if u.dataTab.log2Check.Checked || strings.Contains(u.dataTab.summary.Text, "log2 is ticked") {
		t.Errorf("srbct.csv (log values): log2 ticked %v\n%s", u.dataTab.log2Check.Checked, u.dataTab.summary.Text)
	}
}

// Closing the window while a run goes asks first, with how far it is, whether or not
// there are earlier results (it quit at once without any, and with some asked only
// about those).
func TestQuitAsksDuringARun(t *testing.T) {
	u, w := newTestUI(t)
	ds, _ := synth.Generate(synth.D5k, 100, 1, 0)
	serialized(func() {
		u.setData(ds, "", dataset.Options{})
		for name, c := range u.methods.checks {
			c.SetChecked(name == "svmrfe")
		}
		u.protocol.protocol.SetSelectedIndex(0)
		c, _ := u.Config()
		c, _ = study.Plan(c, u.data)
		u.startRun(c, u.data)
	})
	waitFor(t, "some progress", 30*time.Second, func() bool { return onUI(func() float64 { return u.progress.Bar.Value }) > 0 })
	serialized(u.Quit)
	top := onUI(func() fyne.CanvasObject { return w.Canvas().Overlays().Top() })
	if top == nil || onUI(func() bool { return u.cancel == nil }) {
		t.Fatal("Quit during a run closed without asking")
	}
	title, msg := onUI(func() string { t, _ := u.quitQuestion(); return t }), onUI(func() string { _, m := u.quitQuestion(); return m })
	if title != "A run going" || !strings.Contains(msg, "A run is ") || !strings.Contains(msg, "% done: stop it and quit?") {
		t.Errorf("question %q: %q", title, msg)
	}
	serialized(u.Cancel)
	waitFor(t, "the cancel", 30*time.Second, func() bool { return onUI(func() bool { return u.cancel == nil }) })
	if _, msg := onUI(func() string { t, _ := u.quitQuestion(); return t }), onUI(func() string { _, m := u.quitQuestion(); return m }); msg != "" {
		t.Errorf("after the cancelled run (no results) Quit still asks: %q", msg)
	}
}

// The Sample size tool's Cancel keeps and shows the sizes already finished (it threw
// them away).
func TestSampleSizeCancelKeepsFinishedSizes(t *testing.T) {
	u, _ := newTestUI(t)
	serialized(func() {
		for name, c := range u.methods.checks {
			c.SetChecked(name == "fstat")
		}
		u.showTab(tabSampleSize)
		u.samples.sizes.SetText("30, 60, 90")
		u.samples.k.SetText("5")
		u.samples.compute()
	})
	waitFor(t, "the second size", 60*time.Second, func() bool {
		return onUI(func() bool { return strings.Contains(u.progress.Status.Text, "n = 60") })
	})
	serialized(u.Cancel)
	waitFor(t, "the cancel", 60*time.Second, func() bool { return onUI(func() bool { return u.cancel == nil }) })
	res := onUI(func() *experiment.SyntheticResult { return u.samples.result })
	if res == nil || len(res.Study.Sizes) != 1 || res.Study.Sizes[0] != 30 {
		t.Fatalf("after Cancel at n = 60 the tool holds %+v, want the finished n = 30", res)
	}
	if st := onUI(func() string { return u.progress.Status.Text }); !strings.Contains(st, "what it finished before is shown") {
		t.Errorf("status %q", st)
	}
	if f := onUI(func() plots.Figure { return u.currentFigure(tabSampleSize) }); len(f.Table) != 2 {
		t.Errorf("the figure's table after Cancel: %v", f.Table)
	}
}

// Every tab stays usable on a laptop: at 1280 x 720 and 1366 x 768 screens (less the
// window frame) the content fits, Cancel and the status line are inside the window, every
// chart on the tab is drawn at least at its readable minimum (the tab scrolls rather
// than squashes it: the MIDS chart was about 30 pixels tall), and the left panel can be
// made narrow (its forms scroll sideways).
func TestEveryTabUsableOnALaptop(t *testing.T) {
	u, w := newTestUI(t)
	for _, screen := range []fyne.Size{fyne.NewSize(1280, 720), fyne.NewSize(1366, 768)} {
		size := windowSize(fyne.Size{}, screen, 1)
		serialized(func() { w.Resize(size) })
		if m := onUI(func() fyne.Size { return u.Content().MinSize() }); m.Width > size.Width || m.Height > size.Height {
			t.Errorf("%v screen: the window needs %v", screen, m)
		}
		if m := onUI(func() fyne.Size { return u.left.MinSize() }); m.Width > 200 {
			t.Errorf("the left panel cannot be narrower than %.0f", m.Width)
		}
		// at the split's default the left forms fit their panel: no field or ? is cut off
		for _, c := range []fyne.CanvasObject{u.dataTab.content, u.methods.content, u.protocol.content} {
			if w, room := c.MinSize().Width, onUI(func() float32 { return u.left.Size().Width }); w > room-theme.ScrollBarSize() {
				t.Errorf("%v screen: a left panel's form needs %.0f, the panel gives %.0f", screen, w, room)
			}
		}
		for tab := 0; tab <= tabSampleSize; tab++ {
			if tab == tabTools {
				continue // the Tools tab shows its first tool, tabKChooser
			}
			serialized(func() { u.showTab(tab) })
			cancel := fyne.CurrentApp().Driver().AbsolutePositionForObject(u.progress.Cancel)
			if bottom := cancel.Y + u.progress.Cancel.Size().Height; bottom > size.Height+0.5 || !u.progress.Cancel.Visible() {
				t.Errorf("%v screen, tab %d: Cancel ends at %.0f, below the window's %.0f", screen, tab, bottom, size.Height)
			}
			charts := 0
			walkVisible(w.Content(), func(o fyne.CanvasObject) {
				if c, ok := o.(*widgets.Chart); ok {
					charts++
					if s, m := c.Size(), c.MinSize(); s.Width+0.5 < m.Width || s.Height+0.5 < m.Height {
						t.Errorf("%v screen, tab %d: a chart squashed to %v (readable from %v)", screen, tab, s, m)
					}
				}
			})
			if charts == 0 && tab != tabTop && tab != tabErrors {
				t.Errorf("%v screen, tab %d: no chart on screen", screen, tab)
			}
		}
	}
}

// walkVisible calls f on o and every visible object drawn inside it.
func walkVisible(o fyne.CanvasObject, f func(fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	f(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walkVisible(c, f)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			walkVisible(c, f)
		}
	}
}

// A group's heat map is drawn at about 10 points a gene (a 357-member group was an
// unreadable strip): 357 x 10 + 220 = 3790; a pair gets the chart's readable default.
func TestHeatMapSizeGrowsWithTheGroup(t *testing.T) {
	if got := heatMinSize(357); got != fyne.NewSize(3790, 3790) {
		t.Errorf("357 members: %v", got)
	}
	if got := heatMinSize(2); got != widgets.DefaultChartMin {
		t.Errorf("2 members: %v", got)
	}
	if got := heatMinSize(5000); got.Width != 4000 {
		t.Errorf("5000 members: %v", got)
	}
}

// With gene symbols known, the Selection grid table shows them beside the probe ids,
// and Copy genes copies ids, symbols (each once, in the table's order) or both.
func TestSelectionGridShowsAndCopiesSymbols(t *testing.T) {
	u, _ := newTestUI(t)
	ds, _ := synth.Generate(synth.D1k, 40, 1, 0)
	ds.Symbols = make([]string, len(ds.Features))
	for j := range ds.Symbols {
		if j%3 != 0 { // every third feature has no symbol; pairs of features share one
			ds.Symbols[j] = fmt.Sprintf("GENE%d", j/2)
		}
	}
	cfg := experiment.DefaultConfig()
	cfg.Methods, cfg.Protocol, cfg.Classifiers = []method.Spec{{Name: "fstat"}}, experiment.DRAGS2008, []string{"svm"}
	res, err := study.Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	serialized(func() { u.setData(ds, "", dataset.Options{}); u.setResult(res) })
	grid := u.results.gridTable
	if h := grid.Header(); len(h) != 3 || h[2] != "gene symbol" {
		t.Fatalf("grid table header %v", h)
	}
	var ids, syms, both []string
	seen := map[string]bool{}
	for _, row := range grid.Rows() {
		j := slices.Index(ds.Features, row[0])
		if row[2] != ds.Symbols[j] {
			t.Errorf("%s shown with symbol %q, want %q", row[0], row[2], ds.Symbols[j])
		}
		ids = append(ids, row[0])
		both = append(both, row[0]+"\t"+row[2])
		if s := ds.Symbols[j]; s != "" && !seen[s] {
			seen[s] = true
			syms = append(syms, s)
		}
	}
	clip := func(what int) string {
		serialized(func() { u.copyGenes(grid, 0, what) })
		return u.app.Clipboard().Content()
	}
	if got := clip(copyIDs); got != strings.Join(ids, "\n")+"\n" {
		t.Errorf("ids copied:\n%s", got)
	}
	if got := clip(copySymbols); got != strings.Join(syms, "\n")+"\n" {
		t.Errorf("symbols copied:\n%s\nwant\n%s", got, strings.Join(syms, "\n"))
	}
	if got := clip(copyBoth); got != strings.Join(both, "\n")+"\n" {
		t.Errorf("both copied:\n%s", got)
	}
}

// Help has a guide: it says what every tab of the window shows and every term a "?"
// explains; the "?" beside "top group" opens its sentence.
func TestGuideCoversEveryTabAndTerm(t *testing.T) {
	u, w := newTestUI(t)
	guide := guideText("")
	var tabs []string
	for _, at := range []*container.AppTabs{u.left, u.tabs} {
		for _, it := range at.Items {
			tabs = append(tabs, it.Text)
		}
	}
	for _, tab := range tabs {
		if !strings.Contains(guide, tab+" tab: ") {
			t.Errorf("the guide does not say what the %s tab shows", tab)
		}
	}
	for term, sentence := range glossary {
		if !strings.Contains(guide, term+": "+sentence) {
			t.Errorf("the guide lacks %q", term)
		}
	}
	menu := onUI(u.mainMenu)
	if help := menu.Items[len(menu.Items)-1]; help.Label != "Help" || help.Items[0].Label != "How to read Steadfast" {
		t.Errorf("Help menu: %q, first item %q", help.Label, help.Items[0].Label)
	}
	serialized(func() { test.Tap(u.explain("top group")) })
	top := onUI(func() fyne.CanvasObject { return w.Canvas().Overlays().Top() })
	found := false
	walkVisible(top, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, "McNemar") {
			found = true
		}
	})
	if !found {
		t.Error("the ? beside top group shows no explanation")
	}
	// Escape closes it (the "?" dialogs had only their button)
	serialized(func() { w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape}) })
	if top := onUI(func() fyne.CanvasObject { return w.Canvas().Overlays().Top() }); top != nil {
		t.Error("Escape left the explanation open")
	}
	// the guide is a window of its own that stays open, its search filters the entries
	serialized(u.showGuide)
	if onUI(func() bool { return u.guide == nil }) {
		t.Fatal("Help opened no window")
	}
	serialized(func() { u.guideSearch.SetText("S_W") })
	for _, term := range []string{"S_W", "S_R", "headline AUC", "pooled AUC", "nested AUC", "accuracy curve's area"} {
		if _, ok := glossary[term]; !ok {
			t.Errorf("the glossary lacks %q", term)
		}
	}
	if g := guideText("S_W"); !strings.Contains(g, "S_W: Kalousis's weight stability") || strings.Contains(g, "Sim_ID^M:") {
		t.Errorf("searching S_W gives %q", g)
	}
	// beside the glossary, every page of the user guide (docs/guide), which the README
	// points to
	if n, want := onUI(func() int { return u.guidePages.Length() }), len(guidedocs.Names()); n != want {
		t.Errorf("Help lists %d entries; the glossary and the guide's %d pages (index aside) make %d", n, want-1, want)
	}
	serialized(func() { u.guidePages.Select(2) })
	serialized(func() { u.guide.Close() })
}

// The Signature tab builds a run's signature in the background with the advice
// preselected: the genes table (k rows), the cross-validated AUC, the ROC figure for
// export, the heatmap on request, and the permutation test as a task whose p joins the
// metrics.
func TestSignatureTab(t *testing.T) {
	u, _ := newTestUI(t)
	ds, res := smallRun(t) // F-statistic under DRAGS 2008 on 40 synthetic samples, linear SVM
	serialized(func() { u.setData(ds, "", dataset.Options{}); u.setResult(res) })
	v := u.sigView
	if v.method.Selected != "F-statistic" || v.k.Selected == "" || v.classifier.Selected != "linear SVM" {
		t.Fatalf("preselected %q at k %q with %q", v.method.Selected, v.k.Selected, v.classifier.Selected)
	}
	k, _ := strconv.Atoi(v.k.Selected)
	if m := onUI(func() string { return v.metricsText() }); !strings.Contains(m, "Preselected, the advice the Errors tab gives for linear SVM: F-statistic at k = "+v.k.Selected) || !strings.Contains(m, "has the least error") {
		t.Errorf("the advice unsaid: %q", m)
	}
	for _, b := range v.needSig {
		if !b.Disabled() {
			t.Errorf("%q is enabled before a signature exists", b.Text)
		}
	}
	serialized(func() { u.showTab(tabSignature); test.Tap(v.build) })
	waitFor(t, "the signature", 60*time.Second, func() bool { return onUI(func() bool { return v.sig != nil && u.cancel == nil }) })
	for _, b := range v.needSig {
		if onUI(b.Disabled) {
			t.Errorf("%q is disabled after the signature was built", b.Text)
		}
	}
	// the gene-symbol column shows when the data have symbols (so Copy genes offers
	// them, as on Top features), and is left out, empty, when they have none
	if h, has := onUI(v.table.Header), onUI(func() bool { return u.data.Symbols != nil }); slices.Contains(h, symbolColumn) != has {
		t.Errorf("the gene table's header %q; the data have symbols: %v", h, has)
	}
	if rows := onUI(v.table.Rows); len(rows) != k {
		t.Errorf("%d genes for k = %d", len(rows), k)
	}
	if m := onUI(func() string { return v.metricsText() }); !strings.Contains(m, "Nested cross-validated AUC") || !strings.Contains(m, "95% CI") || !strings.Contains(m, "optimistic") || !strings.Contains(m, "low positive (high is the reference, first in alphabetical order)") || !strings.Contains(v.details(), "corrected resampled") {
		t.Errorf("metrics %q", m)
	}
	// the nested estimate's inner choices: one table of counts adding up to the outer
	// training sets, as nested-choice-counts.csv
	serialized(func() { v.tables.SetSelected(tableShows[7]) })
	if opts, rows, n := onUI(func() []string { return v.tables.Options }), onUI(v.choices.Rows), onUI(func() int { return len(v.sig.Nested.Choices) }); !slices.Contains(opts, tableShows[7]) || len(rows) == 0 {
		t.Errorf("tables offered %q; inner choices %v", opts, rows)
	} else {
		total := 0
		for _, r := range rows {
			c, _ := strconv.Atoi(r[2])
			total += c
		}
		if total != n {
			t.Errorf("the inner choices count %d of %d outer training sets", total, n)
		}
	}
	serialized(func() { v.tables.SetSelected(tableShows[0]) })
	if f := onUI(func() plots.Figure { return u.currentFigure(tabSignature) }); f.Name != "signature-roc" {
		t.Errorf("the tab exports %q", f.Name)
	}
	serialized(func() { v.show.SetSelected("heatmap") })
	if f := onUI(func() plots.Figure { return u.currentFigure(tabSignature) }); f.Name != "signature-heatmap" {
		t.Errorf("after choosing the heatmap the tab exports %q", f.Name)
	}
	waitFor(t, "the heatmap", 30*time.Second, func() bool { return onUI(v.chart.Image) != nil })
	// Save model... writes a model file that reads back through its checks
	model := filepath.Join(t.TempDir(), "model.json")
	if err := onUI(func() error { return v.writeModel(model) }); err != nil {
		t.Fatal(err)
	}
	if m, err := signature.ReadModel(model); err != nil || len(m.Genes) != k {
		t.Errorf("the saved model: %v", err)
	}
	// Validate on another cohort...: the dialog's form, then the validation as a task;
	// the training data given as the cohort is predicted and warned of
	cohort := filepath.Join(t.TempDir(), "cohort.csv")
	f, err := os.Create(cohort)
	if err != nil {
		t.Fatal(err)
	}
	if err := dataset.WriteCSV(f, ds); err != nil {
		t.Fatal(err)
	}
	f.Close()
	serialized(v.showValidate)
	serialized(func() { v.form.path.SetText(cohort) })
	var confirm *widget.Button
	serialized(func() {
		walkVisible(u.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
			if b, ok := o.(*widget.Button); ok && b.Text == "Validate" {
				confirm = b
			}
		})
	})
	if confirm == nil {
		t.Fatal("the Validate dialog has no Validate button")
	}
	serialized(func() { test.Tap(confirm) })
	waitFor(t, "the validation", 60*time.Second, func() bool { return onUI(func() bool { return v.sig.Validation != nil && u.cancel == nil }) })
	if m := onUI(func() string { return v.metricsText() }); !strings.Contains(m, "Cohort cohort.csv: "+strconv.Itoa(k)+" of "+strconv.Itoa(k)+" signature genes found") || !strings.Contains(m, "training data itself") || !strings.Contains(m, "AUC") {
		t.Errorf("after the validation the metrics say %q", m)
	}
	if rows := onUI(v.cohortTable.Rows); len(rows) != len(ds.Samples) {
		t.Errorf("%d predictions for %d samples", len(rows), len(ds.Samples))
	}
	// after a validation the figure keeps the pane: at a laptop's 1366 x 768 the
	// headline takes a line or two (the rest under More) and the chart at least 60% of
	// the Signature tab, which needs no scrolling (the summary had left it 190 px)
	serialized(func() {
		u.win.Resize(fyne.NewSize(1366, 720))
		u.tabs.SelectIndex(tabSignature)
		v.views.SelectIndex(0)
	})
	pane := onUI(func() fyne.Size { return u.tabs.Items[tabSignature].Content.Size() })
	chart := onUI(func() fyne.Size { return v.chart.Size() })
	inner := onUI(func() fyne.Size { return u.tabs.Items[tabSignature].Content.(*container.Scroll).Content.MinSize() })
	if chart.Height < 0.6*pane.Height || inner.Height > pane.Height+1 {
		t.Errorf("at 1366 x 720 the chart is %v of a pane of %v (its content needs %v)", chart, pane, inner)
	}
	if lines := onUI(func() int { return strings.Count(v.metrics.Text, ". ") }); lines > 4 {
		t.Errorf("the headline is long: %q", onUI(func() string { return v.metrics.Text }))
	}
	serialized(func() { v.show.SetSelected("cohort ROC") })
	if f := onUI(func() plots.Figure { return u.currentFigure(tabSignature) }); f.Name != "validation-roc" {
		t.Errorf("after choosing the cohort ROC the tab exports %q", f.Name)
	}
	if opts := onUI(func() []string { return v.tables.Options }); len(opts) != 8 || opts[6] != "cohort confusion matrix" || opts[7] != tableShows[7] { // the inner choices last
		t.Errorf("tables offered %q", opts)
	}
	var report bytes.Buffer
	size, _ := plots.NewExportOptions(16, 10, "cm", 96)
	if err := plots.ReportWith(context.Background(), &report, res, onUI(func() *study.Signature { return v.sig }), size); err != nil || !strings.Contains(report.String(), "<h2>Validation</h2>") {
		t.Errorf("the report: %v, Validation section %v", err, strings.Contains(report.String(), "<h2>Validation</h2>"))
	}
	// the test asks first, with its cost from the study's own timings, and goes on
	permAskAbove = 0
	defer func() { permAskAbove = 2 * time.Minute }()
	serialized(func() { v.perms.SetText("4"); test.Tap(v.permBtn) })
	var goOn *widget.Button
	waitFor(t, "the permutation test's question", 60*time.Second, func() bool {
		return onUI(func() bool {
			said := false
			walkVisible(u.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
				if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, "on 4 permutations. From the study's own timings that takes about") {
					said = true
				}
				if b, ok := o.(*widget.Button); ok && b.Text == "Yes" {
					goOn = b
				}
			})
			return said && goOn != nil && u.cancel == nil // nothing runs before the answer
		})
	})
	serialized(func() { test.Tap(goOn) })
	waitFor(t, "the permutation test", 120*time.Second, func() bool {
		return onUI(func() bool { return strings.Contains(v.metricsText(), "Permutation test: p =") && u.cancel == nil })
	})
	if p := onUI(func() float64 { return v.sig.Perm.P }); p < 0.2 || p > 1 { // 1/5 at least with 4 permutations
		t.Errorf("p = %g", p)
	}
	if shows := onUI(func() []string { return v.show.Options }); !slices.Contains(shows, "permutation test") {
		t.Errorf("figures offered %q", shows)
	}
	// Save run keeps the signature: reopened, its choice is preselected and Build
	// restores the permutation test and the nested estimate without recomputing them,
	// and validates the saved cohort again
	saved := filepath.Join(t.TempDir(), "run.json")
	if err := study.SaveRun(saved, res, onUI(u.tools)); err != nil {
		t.Fatal(err)
	}
	perm, nested := onUI(func() *study.Permutations { return v.sig.Perm }), onUI(func() *study.Nested { return v.sig.Nested })
	w, _ := newTestUI(t)
	serialized(func() { w.setData(ds, "", dataset.Options{}); w.OpenRun(saved) })
	wv := w.sigView
	if m := onUI(func() string { return wv.metricsText() }); !strings.Contains(m, "saved with a signature") || !strings.Contains(m, "permutation test (p = ") {
		t.Errorf("the reopened run says %q", m)
	}
	serialized(func() { w.showTab(tabSignature); test.Tap(wv.build) })
	waitFor(t, "the rebuilt signature", 60*time.Second, func() bool { return onUI(func() bool { return wv.sig != nil && w.cancel == nil }) })
	got := onUI(func() *study.Signature { return wv.sig })
	if got.Perm == nil || got.Perm.P != perm.P || len(got.Perm.AUCs) != len(perm.AUCs) || nested != nil && (got.Nested == nil || got.Nested.MeanAUC != nested.MeanAUC) {
		t.Errorf("restored: permutations %+v (saved %+v), nested %v", got.Perm, perm, got.Nested != nil)
	}
	if got.Validation == nil || got.Validation.Metrics == nil || got.Validation.Metrics.AUC != onUI(func() *study.Signature { return v.sig }).Validation.Metrics.AUC {
		t.Errorf("the validation was not restored: %+v", got.Validation)
	}
	if m := onUI(func() string { return wv.metricsText() }); !strings.Contains(m, "Cohort cohort.csv") {
		t.Errorf("the restored validation is unsaid: %q", m)
	}
}
