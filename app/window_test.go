package app

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/fastblas"
	"steadfast/compute/method"
	"steadfast/compute/study"
	"steadfast/compute/synth"
	"steadfast/plots"
)

// waitFor waits until cond holds. timeout is what the wait takes on a quiet machine;
// the wait gives up (a hang) only after five times that and at least two minutes, so a
// loaded 2-core machine passes: tests assert behaviour, never wall-clock time.
func waitFor(t *testing.T, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(max(5*timeout, 2*time.Minute))
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// uiLock stands in for the UI goroutine in tests: the UI's handoffs and the test's
// reads and actions take it in turn.
var uiLock sync.Mutex

func serialized(f func()) {
	uiLock.Lock()
	defer uiLock.Unlock()
	f()
}

// onUI reads UI state as the UI goroutine would.
func onUI[T any](f func() T) T {
	var v T
	serialized(func() { v = f() })
	return v
}

func newTestUI(t *testing.T) (*UI, fyne.Window) {
	a := test.NewTempApp(t)
	w := a.NewWindow("Steadfast")
	u := NewUI(a, w)
	u.do = serialized
	w.SetContent(u.Content())
	w.Resize(fyne.NewSize(1280, 820))
	return u, w
}

func TestWindowLoadRunExport(t *testing.T) {
	colon := filepath.Join(sharedData, "colon.csv")
	if _, err := os.Stat(colon); err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	u, _ := newTestUI(t)
	if !strings.Contains(u.dataTab.summary.Text, "100 samples, 1000 features") {
		t.Fatalf("example not shown: %q", u.dataTab.summary.Text)
	}
	// a broken file: a message, and the example stays
	dir := t.TempDir()
	bad := filepath.Join(dir, "broken.csv")
	os.WriteFile(bad, []byte("g1,g2,class\n1,2,A\n3,oops,B\n"), 0o644)
	serialized(func() { u.LoadFile(bad, dataset.Options{}) })
	waitFor(t, "the error", 5*time.Second, func() bool { return onUI(func() string { return u.progress.Status.Text }) != "Reading broken.csv..." })
	if st := onUI(func() string { return u.progress.Status.Text }); !strings.Contains(st, "previous data are kept") || !strings.Contains(u.dataTab.summary.Text, "1000 features") {
		t.Fatalf("after a bad file: status %q, summary %q", st, u.dataTab.summary.Text)
	}
	serialized(func() { u.LoadFile(colon, dataset.Options{}) })
	waitFor(t, "colon", 10*time.Second, func() bool {
		return onUI(func() bool { return strings.Contains(u.dataTab.summary.Text, "colon.csv: 62 samples, 2000 features") })
	})
	if !strings.Contains(u.dataTab.summary.Text, "tumor 40, normal 22") {
		t.Errorf("summary: %q", u.dataTab.summary.Text)
	}
	// DRAGS 2008 protocol, F and SVM-ONE, a short k grid
	serialized(func() {
		u.protocol.protocol.SetSelectedIndex(1)
		u.protocol.ks.SetText("2,4,8,16")
		u.methods.checks["svmrfe"].SetChecked(false)
		u.methods.checks["svmone"].SetChecked(true)
		test.Tap(u.runBtn)
	})
	// wait for what the user sees last: the whole-ranking numbers under the chart
	waitFor(t, "the run", 60*time.Second, func() bool {
		return onUI(func() bool { return strings.Contains(u.results.numbers.Text, "S_W") && u.cancel == nil })
	})
	res := onUI(u.Result)
	if res.Config.Protocol != "drags2008" || len(res.Methods) != 2 || res.Methods[1].Label != "SVM-ONE" || len(res.Methods[0].Runs) != 30 {
		t.Fatalf("result: %s with %d methods", res.Config.Protocol, len(res.Methods))
	}
	waitFor(t, "the chart", 5*time.Second, func() bool { return onUI(func() image.Image { return u.results.stabChart.Image() }) != nil })
	// hovering a drawn point names it
	serialized(func() {
		pos, ok := u.results.stabChart.PointPosition(0)
		if !ok {
			t.Fatal("no points on the chart")
		}
		u.results.stabChart.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: pos}})
	})
	if tip := onUI(u.results.stabChart.Tooltip); !strings.Contains(tip, "k = 2") {
		t.Errorf("tooltip %q", tip)
	}
	// top features table: F's best on Colon is Hsa.8147 (sklearn f_classif, compute/score/testdata)
	serialized(func() { u.results.topMethod.SetSelectedIndex(0) })
	if rows := onUI(u.results.topTable.Rows); len(rows) == 0 || rows[0][0] != "Hsa.8147" && rows[0][3] != "1" {
		t.Errorf("top table starts %v", rows[0])
	}
	// the error table (Kalousis Table 3): no k of 10, 20, ... in the grid, so one row per
	// k; per method the error, S_S and the top-group mark, and the least error is marked
	rows := onUI(u.results.errTable.Rows)
	if len(rows) != 4 || len(rows[0]) != 7 {
		t.Fatalf("error table %v", rows)
	}
	for _, r := range rows {
		e1, _ := strconv.ParseFloat(r[1], 64)
		e2, _ := strconv.ParseFloat(r[4], 64)
		if e1 <= e2 && r[3] != "yes" || e2 <= e1 && r[6] != "yes" {
			t.Errorf("error row %v: the least error is not in the top group", r)
		}
	}
	// export the stability figure as PDF and PNG
	out := filepath.Join(dir, "figs")
	serialized(func() {
		fig := u.currentFigure(tabStability)
		checks := map[string]bool{"png": true, "pdf": true}
		err := u.exportFormats(fig, out, "stab", checks, "8", "3", "in", "150")
		if err != nil {
			t.Error(err)
		}
	})
	png, err := os.ReadFile(filepath.Join(out, "stab.png"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg, _, err := image.DecodeConfig(strings.NewReader(string(png))); err != nil || cfg.Width != 1200 || cfg.Height != 450 {
		t.Errorf("PNG 8 x 3 in at 150 dpi: %+v %v", cfg, err)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "stab.pdf")); !strings.HasPrefix(string(b), "%PDF") {
		t.Error("PDF not written")
	}
	if _, err := os.Stat(filepath.Join(out, "stab.csv")); err != nil {
		t.Error("CSV not written")
	}
	// save and reopen
	saved := filepath.Join(dir, "run.json")
	if err := study.SaveRun(saved, res, nil); err != nil {
		t.Fatal(err)
	}
	serialized(func() { u.result = nil; u.OpenRun(saved) })
	if r := onUI(u.Result); r == nil || r.Config.Seed != res.Config.Seed || len(r.Methods) != 2 {
		t.Fatal("reopened run not shown")
	}
	// a cancelled run keeps the previous results
	serialized(func() {
		u.protocol.protocol.SetSelectedIndex(0)
		u.protocol.ks.SetText("")
		u.methods.checks["svmrfe"].SetChecked(true)
		u.methods.forms["svmrfe"].Entry("step").SetText("0.01")
		test.Tap(u.runBtn)
	})
	time.Sleep(300 * time.Millisecond)
	serialized(func() { test.Tap(u.progress.Cancel) })
	waitFor(t, "cancel", 2*time.Second, func() bool { return onUI(func() bool { return u.cancel == nil }) })
	if st := onUI(func() string { return u.progress.Status.Text }); !strings.Contains(st, "cancelled") || onUI(u.Result).Config.Protocol != "drags2008" {
		t.Errorf("after cancel: %q", st)
	}
}

func TestFormErrorsAreShownNotRun(t *testing.T) {
	u, _ := newTestUI(t)
	serialized(func() {
		u.protocol.seed.SetText("minus one")
		test.Tap(u.runBtn)
	})
	if u.cancel != nil {
		t.Fatal("a run started with a bad seed")
	}
	serialized(func() {
		u.protocol.seed.SetText("1")
		for _, c := range u.methods.checks {
			c.SetChecked(false)
		}
		test.Tap(u.runBtn)
	})
	if u.cancel != nil {
		t.Fatal("a run started with no method")
	}
}

func TestGroupsViewAndKChooser(t *testing.T) {
	u, _ := newTestUI(t) // the built-in D1k example
	serialized(func() {
		for name, c := range u.methods.checks {
			c.SetChecked(name == "drags" || name == "fstat")
		}
		u.protocol.protocol.SetSelectedIndex(1) // DRAGS 2008
		u.protocol.ks.SetText("2,4,8")
		test.Tap(u.runBtn)
	})
	waitFor(t, "the run", 120*time.Second, func() bool {
		return onUI(func() bool { return u.result != nil && u.cancel == nil })
	})
	rows := onUI(u.groups.table.Rows)
	if len(rows) == 0 || onUI(func() string { return u.groups.method.Selected }) != "DRAGS" || rows[0][3] == "" {
		t.Fatalf("groups table: %d rows", len(rows))
	}
	// D1k names members gNNN.fMM: the members of a DRAGS group belong to one true group
	members := slices.Index(onUI(u.groups.table.Header), "members") // columns empty for these data are left out
	first := strings.Split(rows[0][members], ", ")
	for _, m := range first {
		if m[:4] != first[0][:4] {
			t.Errorf("group 1 mixes %s and %s", first[0], m)
		}
	}
	serialized(func() { u.groups.search.SetText(first[0]) })
	if r := onUI(u.groups.table.Rows); len(r) == 0 || !strings.Contains(r[0][members], first[0]) {
		t.Errorf("search for %s: %v", first[0], r)
	}
	serialized(func() { u.showTab(tabGroups); u.groups.show(0) })
	waitFor(t, "the heat map", 10*time.Second, func() bool { return onUI(u.groups.heat.Image) != nil })
	// sorted by size, largest first, the row chosen is the group shown (the heat map
	// showed the group of that row's place before sorting)
	serialized(func() { u.groups.search.SetText(""); u.groups.table.SortBy(2); u.groups.table.SortBy(2) })
	sorted := onUI(u.groups.table.Rows)
	serialized(func() { u.groups.show(0) })
	if title := onUI(func() string { return u.groups.shown.Title }); !strings.Contains(title, " group "+sorted[0][0]+" (representative "+sorted[0][1]+")") {
		t.Errorf("after sorting, row 0 is group %s (%s, %s members) but the heat map shows %q", sorted[0][0], sorted[0][1], sorted[0][2], title)
	}
	// stability of group methods: Sim_ID^M is drawn
	res := onUI(u.Result)
	if res.Methods[1].Stability[0].SimIDM <= 0 || res.Methods[1].Stability[0].SimVM <= 0 {
		t.Errorf("group stability %+v", res.Methods[1].Stability[0])
	}
	serialized(func() { u.showTab(tabKChooser); u.kchooser.compute() })
	waitFor(t, "the K chooser", 30*time.Second, func() bool { return onUI(u.kchooser.chart.Image) != nil })
	if f := onUI(func() plots.Figure { return u.kchooser.figure }); len(f.Table) != 14 {
		t.Errorf("K chooser table has %d rows", len(f.Table))
	}
	serialized(func() { u.showTab(tabWrapper); u.wrapper.nas.SetText("0.5, 1"); u.wrapper.compute() })
	waitFor(t, "the wrapper chart", 60*time.Second, func() bool { return onUI(u.wrapper.chart.Image) != nil })
	// two Na values and the K = 1 baseline, each an AUC in [0, 1]
	f := onUI(func() plots.Figure { return u.wrapper.figure })
	if len(f.Table) != 4 {
		t.Fatalf("wrapper table %v", f.Table)
	}
	for _, row := range f.Table[1:] {
		if v, err := strconv.ParseFloat(row[1], 64); err != nil || v < 0 || v > 1 {
			t.Errorf("AUC row %v", row)
		}
	}
	// MIDS: sizes for the seven thresholds, never above the greedy set's, and one table
	// row per MIDS gene at the chosen 0.6
	serialized(func() { u.showTab(tabMIDS); u.mids.compute() })
	waitFor(t, "the MIDS table", 30*time.Second, func() bool { return len(onUI(u.mids.table.Rows)) > 0 })
	f = onUI(func() plots.Figure { return u.mids.figure })
	if len(f.Table) != 8 {
		t.Fatalf("MIDS table %v", f.Table)
	}
	for _, row := range f.Table[1:] {
		m, _ := strconv.Atoi(row[2])
		g, _ := strconv.Atoi(row[3])
		if m <= 0 || m > g {
			t.Errorf("MIDS row %v: MIDS larger than the greedy set", row)
		}
		if row[0] == "0.6" && len(onUI(u.mids.table.Rows)) != m {
			t.Errorf("%d rows for a MIDS of %d", len(onUI(u.mids.table.Rows)), m)
		}
	}
	if got := onUI(func() plots.Figure { return u.currentFigure(tabMIDS) }); got.Name != "mids-size-vs-epsilon" {
		t.Errorf("export of the MIDS tab would write %q", got.Name)
	}
	// the sample-size study with the ticked methods (F and DRAGS), two small sizes
	serialized(func() {
		u.showTab(tabSampleSize)
		u.samples.sizes.SetText("30, 60")
		u.samples.k.SetText("5")
		u.samples.compute()
	})
	waitFor(t, "the sample-size chart", 120*time.Second, func() bool { return onUI(u.samples.chart.Image) != nil })
	f = onUI(func() plots.Figure { return u.currentFigure(tabSampleSize) })
	if f.Name != "sample-size-precision-d1k" || len(f.Table) != 1+2*2 {
		t.Fatalf("sample-size figure %s: %v", f.Name, f.Table)
	}
	serialized(func() { u.samples.measure.SetSelected("accuracy") })
	if f = onUI(func() plots.Figure { return u.currentFigure(tabSampleSize) }); f.Name != "sample-size-accuracy-d1k" {
		t.Errorf("after choosing accuracy the tab shows %s", f.Name)
	}
}

// TestLongRunAsksFirst: a CGS study estimated above two minutes opens a dialog with the
// estimate instead of starting; confirming starts it.
func TestLongRunAsksFirst(t *testing.T) {
	u, w := newTestUI(t)
	ds, _ := synth.Generate(synth.D5k, 100, 1, 0) // 5000 genes: CGS 101 x 10 DGF runs of about 0.85 s
	serialized(func() {
		u.setData(ds, "", dataset.Options{})
		for name, c := range u.methods.checks {
			c.SetChecked(name == "cgs")
		}
		u.protocol.protocol.SetSelectedIndex(0) // 10 x 10-fold CV
		test.Tap(u.runBtn)
	})
	if u.cancel != nil {
		t.Fatal("a long run started without asking")
	}
	top := onUI(func() fyne.CanvasObject { return w.Canvas().Overlays().Top() })
	if top == nil {
		t.Fatal("no dialog before a long run")
	}
	var texts []string
	var confirm *widget.Button
	walk(top, func(o fyne.CanvasObject) {
		switch v := o.(type) {
		case *widget.Label:
			texts = append(texts, v.Text)
		case *widget.Button:
			if v.Text == "Yes" {
				confirm = v
			}
		}
	})
	if all := strings.Join(texts, " "); !strings.Contains(all, "cgs: 101 rankings") || !strings.Contains(all, "min") {
		t.Errorf("dialog says %q", all)
	}
	if confirm == nil {
		t.Fatal("no Yes button")
	}
	serialized(func() { test.Tap(confirm) })
	if onUI(func() bool { return u.cancel == nil }) {
		t.Fatal("confirming did not start the run")
	}
	serialized(func() { u.cancel() })
	waitFor(t, "the cancel", 10*time.Second, func() bool { return onUI(func() bool { return u.cancel == nil }) })
}

// walk visits o and everything inside it.
func walk(o fyne.CanvasObject, f func(fyne.CanvasObject)) {
	f(o)
	switch v := o.(type) {
	case *fyne.Container:
		for _, c := range v.Objects {
			walk(c, f)
		}
	case fyne.Widget:
		r := test.WidgetRenderer(v)
		for _, c := range r.Objects() {
			walk(c, f)
		}
	}
}

func TestParseKs(t *testing.T) {
	ks, err := ParseKs("1-3, 10, 20-40:10")
	if err != nil || FormatKs(ks) != "1-3,10,20,30,40" {
		t.Errorf("ParseKs = %v %v", ks, err)
	}
	for _, bad := range []string{"0", "5-2", "a", "1-10:0"} {
		if _, err := ParseKs(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestWindowKeepsDataOnHostileInput: awkward files and damaged saved runs give an error
// dialog; the window keeps the data and results it had.
func TestWindowKeepsDataOnHostileInput(t *testing.T) {
	u, _ := newTestUI(t)
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		return p
	}
	fifo := filepath.Join(dir, "fifo.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{
		filepath.Join(dir, "none.csv"),
		dir,
		fifo,
		"/dev/zero",
		write("empty.csv", ""),
		write("binary.csv", "PK\x03\x04\x00\x00"),
		write("ragged.csv", "g1,g2,class\n1,2,A\n3,B\n"),
		write("noheader.csv", "1.5,2.25,A\n3.5,4.75,B\n1.25,2.5,A\n"),
		write("constant.csv", "g1,g2,class\n1,1,A\n1,1,B\n1,1,A\n"),
		write("nolabels.csv", "g1,g2,class\n1,2,NA\n3,4,NA\n"),
		write("undeclared.arff", "@relation r\n@attribute g1 numeric\n@attribute class {A,B}\n@data\n1,A\n2,C\n"),
	}
	before := onUI(func() *dataset.Dataset { return u.data })
	for _, f := range files {
		serialized(func() { u.lastErr = nil; u.LoadFile(f, dataset.Options{}) })
		waitFor(t, "an error dialog for "+filepath.Base(f), 10*time.Second, func() bool { return onUI(func() bool { return u.lastErr != nil }) })
		if got := onUI(func() *dataset.Dataset { return u.data }); got != before {
			t.Errorf("%s replaced the data", filepath.Base(f))
		}
	}
	for _, run := range []string{
		write("cut.json", `{"config":{"methods":[{"name":"fstat"}]},"result":{"version":"0.1.0","data":{"features":["g1"]`),
		write("edited.json", `{"config":{"methods":[{"name":"fstat"}],"protocol":"drags2008"},"result":{"config":{"methods":[{"name":"fstat"}],"protocol":"drags2008"},"data":{"features":["g1","g2"],"classes":["A","B"],"classCounts":[2,2]},"methods":[{"label":"F","reference":{"order":[7]}}]}}`),
		write("nomethods.json", `{"config":{"methods":[]},"result":{"data":{"features":["g1"]},"methods":[]}}`),
	} {
		serialized(func() { u.lastErr = nil; u.OpenRun(run) })
		if err := onUI(func() error { return u.lastErr }); err == nil {
			t.Errorf("%s opened without an error", filepath.Base(run))
		}
	}
}

// TestToolsRunOnImputedData: with missing values kept, the data the tools see are
// imputed on all samples (the Data tab's Missing values), so they compute on them
// (they had refused data with a missing value).
func TestToolsRunOnImputedData(t *testing.T) {
	u, _ := newTestUI(t)
	ds, err := dataset.ReadDelimited("na.csv", []byte("g1,g2,g3,class\n1,2,NA,A\n2,3,4,B\n3,1,2,A\n4,4,1,B\n"), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	serialized(func() {
		u.dataTab.missCheck.SetChecked(false)
		if !u.setData(ds, "", dataset.Options{}) {
			t.Fatal("data refused")
		}
	})
	if got := onUI(func() *dataset.Dataset { return u.data }); got.Raw == nil || dataset.Summarize(got).MissingCells != 0 {
		t.Fatal("the data on screen are not imputed")
	}
	for name, compute := range map[string]func(){"K chooser": u.kchooser.compute, "MIDS": u.mids.compute} {
		serialized(func() { u.lastErr = nil; compute() })
		// the tool runs in the background: wait for it, so that it neither meets the next
		// tool nor outlives the test (its drawing raced with the next test's window)
		waitFor(t, name+" to finish", 60*time.Second, func() bool { return onUI(func() bool { return u.cancel == nil }) })
		if err := onUI(func() error { return u.lastErr }); err != nil && strings.Contains(err.Error(), "missing") {
			t.Errorf("%s on imputed data: %v", name, err)
		}
	}
}

// findButton returns the first button labelled text under o.
func findButton(o fyne.CanvasObject, text string) *widget.Button {
	switch v := o.(type) {
	case *widget.Button:
		if v.Text == text {
			return v
		}
	case *fyne.Container:
		for _, c := range v.Objects {
			if b := findButton(c, text); b != nil {
				return b
			}
		}
	case *container.Split:
		if b := findButton(v.Leading, text); b != nil {
			return b
		}
		return findButton(v.Trailing, text)
	case *container.Scroll:
		return findButton(v.Content, text)
	}
	return nil
}

// TestCopyGenesAndRows: Copy genes puts the top features on the clipboard one a line,
// in the table's order; a selected row copies tab-separated; a finished run counts as
// unsaved until it is saved.
func TestCopyGenesAndRows(t *testing.T) {
	u, _ := newTestUI(t)
	_, res := smallRun(t)
	serialized(func() { u.setResult(res) })
	top := u.tabs.Items[3].Content
	copyGenes := findButton(top, "Copy genes")
	if copyGenes == nil {
		t.Fatal("no Copy genes button on the Top features tab")
	}
	serialized(func() { test.Tap(copyGenes) })
	got := strings.Split(strings.TrimSpace(u.app.Clipboard().Content()), "\n")
	rows := onUI(u.results.topTable.Rows)
	if len(got) != len(rows) || got[0] != rows[0][0] || got[len(got)-1] != rows[len(rows)-1][0] {
		t.Fatalf("clipboard holds %d genes starting %q; the table %d starting %q", len(got), got[0], len(rows), rows[0][0])
	}
	serialized(func() {
		u.results.topTable.Table.Select(widget.TableCellID{Row: 2, Col: 1})
		test.Tap(findButton(top, "Copy row"))
	})
	if want := strings.Join(rows[2], "\t") + "\n"; u.app.Clipboard().Content() != want {
		t.Errorf("row copied as %q, want %q", u.app.Clipboard().Content(), want)
	}
}

// TestResultsOfOtherDataAreMarked: after opening other data the results say whose they
// are, and the mark goes when the run's data are open again.
func TestResultsOfOtherDataAreMarked(t *testing.T) {
	u, w := newTestUI(t)
	ds, res := smallRun(t)
	other, _ := synth.Generate(synth.D1k, 30, 2, 0)
	other.Name = "other.csv"
	serialized(func() {
		u.setData(ds, "", dataset.Options{})
		u.setResult(res)
	})
	if onUI(u.stale.Visible) {
		t.Error("results of the data open marked as other data's")
	}
	serialized(func() { u.setData(other, "", dataset.Options{}) })
	if !onUI(u.stale.Visible) || !strings.Contains(onUI(func() string { return u.stale.Text }), "not of the data now open (other.csv)") {
		t.Errorf("no mark after opening other data: %q", onUI(func() string { return u.stale.Text }))
	}
	serialized(func() { w.Resize(fyne.NewSize(1281, 820)) }) // laid out with the mark
	serialized(func() { u.setData(ds, "", dataset.Options{}) })
	if onUI(u.stale.Visible) {
		t.Error("the mark stays after the run's data are open again")
	}
	// and it leaves no gap: the tabs start at the top of their pane again
	if y := onUI(func() float32 { return u.tabs.Position().Y }); y != 0 {
		t.Errorf("the result tabs start %.0f below their pane's top after the mark went", y)
	}
}

// TestRecentFilesAndDrop: a data file read goes first in File > Open recent; a saved run
// dropped on the window opens.
func TestRecentFilesAndDrop(t *testing.T) {
	u, _ := newTestUI(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "d.csv")
	os.WriteFile(data, []byte("g1,g2,g3,class\n1,2,3,A\n2,3,1,B\n3,1,2,A\n4,4,4,B\n"), 0o644)
	serialized(func() { u.LoadFile(data, dataset.Options{}) })
	waitFor(t, "the data", 5*time.Second, func() bool { return onUI(func() bool { return len(u.recent()) > 0 }) })
	if got := onUI(u.recent); got[0] != data {
		t.Errorf("recent files %v", got)
	}
	menu := onUI(u.mainMenu)
	if r := menu.Items[0].Items[2]; r.Label != "Open recent" || r.Disabled || len(r.ChildMenu.Items) != 1 || r.ChildMenu.Items[0].Label != data {
		t.Errorf("Open recent menu: %+v", r)
	}
	_, res := smallRun(t)
	run := filepath.Join(dir, "run.json")
	if err := study.SaveRun(run, res, nil); err != nil {
		t.Fatal(err)
	}
	serialized(func() { u.onDrop(fyne.NewPos(10, 10), []fyne.URI{storage.NewFileURI(run)}) })
	if got := onUI(u.Result); got == nil || got.Data.Name != res.Data.Name {
		t.Error("the dropped run did not open")
	}
}

// TestToolResultsSavedWithRun: the tools' results go into the saved run and come back
// when it is opened.
func TestToolResultsSavedWithRun(t *testing.T) {
	u, _ := newTestUI(t)
	_, res := smallRun(t)
	wr := &study.WrapperResult{Data: "d", NAs: []float64{0.2, 0.4}, AUCs: []float64{0.81, 0.84}, Baselines: map[string]float64{"exhaustive K = 1": 0.86}}
	mr := &study.MIDSResult{Data: "d", Features: 100, Epsilons: []float64{0.5, 0.6}, MIDS: []int{20, 30}, Greedy: []int{25, 33}, Edges: []int{900, 400},
		Summary: "s", Header: []string{"MIDS gene", "linked genes"}, Rows: [][]string{{"g1", "4"}}}
	serialized(func() {
		u.setResult(res)
		u.wrapper.show(wr)
		u.mids.show(mr)
	})
	path := filepath.Join(t.TempDir(), "run.json")
	if err := study.SaveRun(path, res, onUI(u.tools)); err != nil {
		t.Fatal(err)
	}
	v, _ := newTestUI(t)
	serialized(func() { v.OpenRun(path) })
	if got := onUI(func() *study.WrapperResult { return v.wrapper.result }); got == nil || got.AUCs[1] != 0.84 || onUI(func() plots.Figure { return v.wrapper.figure }).Build == nil {
		t.Errorf("wrapper after reopening: %+v", got)
	}
	if rows := onUI(v.mids.table.Rows); len(rows) != 1 || rows[0][0] != "g1" {
		t.Errorf("MIDS table after reopening: %v", rows)
	}
	if onUI(func() *study.KChooserResult { return v.kchooser.result }) != nil {
		t.Error("a K chooser result appeared from nowhere")
	}
}

// TestSeriesMatrixClassChoices: after a GEO series matrix is read, the class field offers
// its sample annotations, and choosing one re-reads the file with it.
func TestSeriesMatrixClassChoices(t *testing.T) {
	u, _ := newTestUI(t)
	path := filepath.Join(t.TempDir(), "GSE1_series_matrix.txt")
	gse := "!Series_title\t\"x\"\n!Sample_geo_accession\t\"GSM1\"\t\"GSM2\"\t\"GSM3\"\t\"GSM4\"\n" +
		"!Sample_characteristics_ch1\t\"tissue: tumour\"\t\"tissue: normal\"\t\"tissue: tumour\"\t\"tissue: normal\"\n" +
		"!Sample_characteristics_ch1\t\"batch: 1\"\t\"batch: 1\"\t\"batch: 2\"\t\"batch: 2\"\n" +
		"!series_matrix_table_begin\n\"ID_REF\"\t\"GSM1\"\t\"GSM2\"\t\"GSM3\"\t\"GSM4\"\n\"a\"\t1\t2\t3\t4.5\n\"b\"\t2\t1\t4\t3\n!series_matrix_table_end\n"
	os.WriteFile(path, []byte(gse), 0o644)
	serialized(func() { u.LoadFile(path, dataset.Options{}) })
	waitFor(t, "the series", 5*time.Second, func() bool { return onUI(func() bool { return u.raw != nil && u.raw.Name == filepath.Base(path) }) })
	// the pick list shows what each choice gives (counted by hand from the lines above)
	if got := onUI(func() []string { return u.dataTab.classOptions() }); strings.Join(got, "; ") != "tissue (tumour 2, normal 2); batch (1 2, 2 2)" {
		t.Errorf("class choices %v", got)
	}
	serialized(func() { u.dataTab.classEntry.SetText("batch (1 2, 2 2)"); u.LoadFile(path, u.dataTab.readOptions("")) })
	waitFor(t, "batch as the class", 5*time.Second, func() bool {
		return onUI(func() bool { return strings.Join(u.data.Classes, ",") == "1,2" })
	})
}

// smallRun runs the F-statistic under DRAGS 2008 on 40 synthetic samples.
func smallRun(t *testing.T) (*dataset.Dataset, *experiment.Result) {
	t.Helper()
	ds, _ := synth.Generate(synth.D1k, 40, 1, 0)
	cfg := experiment.DefaultConfig()
	cfg.Methods, cfg.Protocol, cfg.Classifiers = []method.Spec{{Name: "fstat"}}, experiment.DRAGS2008, []string{"svm"}
	res, err := study.Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ds, res
}

// TestReadingOptionsSheetAndSymbols: the Data tab's sheet and gene-symbol fields reach
// the reader.
func TestReadingOptionsSheetAndSymbols(t *testing.T) {
	u, _ := newTestUI(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "d.csv")
	os.WriteFile(data, []byte("g1,g2,class\n1,2,A\n2,3,B\n3,1,A\n4,4,B\n"), 0o644)
	sym := filepath.Join(dir, "sym.txt")
	os.WriteFile(sym, []byte("g1\tTP53\ng2\tBRCA1\n"), 0o644)
	serialized(func() {
		u.dataTab.symbolsEntry.SetText(sym)
		u.LoadFile(data, u.dataTab.readOptions(""))
	})
	waitFor(t, "the data with symbols", 5*time.Second, func() bool {
		return onUI(func() bool { return u.raw != nil && u.raw.Name == "d.csv" })
	})
	if got := onUI(func() []string { return u.raw.Symbols }); strings.Join(got, ",") != "TP53,BRCA1" {
		t.Errorf("symbols %v", got)
	}
	if o := onUI(func() dataset.Options { return u.dataTab.readOptions("") }); o.SymbolsPath != sym || o.Sheet != "" {
		t.Errorf("options %+v", o)
	}
}

// TestOpenGEODataSetWithPlatformAnnotation opens a real GEO DataSet (GDS507, from
// GEOquery's extdata) with GEO's GPL97 annotation as the gene symbols, as a user would
// from the Data tab: the class is the subset type "disease state" (RCC 9, normal 8), the
// symbols come from the annotation (13,179 of 22,645: geo_sklearn.txt), log2 is ticked
// for the MAS5 values, and the advice to tick it comes when it is unticked.
func TestOpenGEODataSetWithPlatformAnnotation(t *testing.T) {
	geo := filepath.Join("..", "compute", "dataset", "testdata", "geo")
	u, _ := newTestUI(t)
	serialized(func() {
		u.dataTab.symbolsEntry.SetText(filepath.Join(geo, "GPL97.annot.gz"))
		u.LoadFile(filepath.Join(geo, "GDS507.soft.gz"), u.dataTab.readOptions(""))
	})
	waitFor(t, "GDS507", 10*time.Second, func() bool {
		return onUI(func() bool { return u.data != nil && u.raw.Name == "GDS507.soft.gz" })
	})
	summary := onUI(func() string { return u.dataTab.summary.Text })
	for _, want := range []string{"17 samples, 22645 features", "RCC 9, normal 8", "gene symbols for 13179 of 22645", "log2 is ticked"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
	if got := onUI(func() []string { return u.dataTab.classOptions() }); len(got) != 2 || got[0] != "disease state (RCC 9, normal 8)" {
		t.Errorf("class choices %v", got)
	}
	serialized(func() { u.dataTab.log2Check.SetChecked(false) }) // prepared in the background
	waitFor(t, "the log2 advice after unticking log2", 10*time.Second, func() bool {
		return strings.Contains(onUI(func() string { return u.dataTab.summary.Text }), "Tick log2")
	})
	serialized(func() { u.dataTab.log2Check.SetChecked(true) })
	waitFor(t, "the log2 advice gone after ticking log2", 10*time.Second, func() bool {
		return !strings.Contains(onUI(func() string { return u.dataTab.summary.Text }), "Tick log2")
	})
	if sym := onUI(func() string { return u.data.Symbols[slices.Index(u.data.Features, "228581_at")] }); sym != "KCNJ10" {
		t.Errorf("228581_at is %q, want KCNJ10", sym)
	}
}

// TestOpenRunFolder: a run's output folder (what steadfast run and merge write) opens
// as the saved run inside it.
func TestOpenRunFolder(t *testing.T) {
	u, _ := newTestUI(t)
	_, res := smallRun(t)
	dir := t.TempDir()
	if err := study.SaveRun(filepath.Join(dir, "result.json"), res, nil); err != nil {
		t.Fatal(err)
	}
	serialized(func() { u.result = nil; u.Open(dir) })
	if got := onUI(func() *experiment.Result { return u.result }); got == nil || len(got.Methods) != len(res.Methods) {
		t.Errorf("after opening the folder, the result is %v (error %v)", got, onUI(func() error { return u.lastErr }))
	}
}

// TestReopenedRunReadsDataAsTheRunDid: a run on log2 data with a symbol file reopens
// with those settings on the Data tab, and its data are reloaded log2-transformed.
func TestReopenedRunReadsDataAsTheRunDid(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "counts.csv")
	os.WriteFile(data, []byte("g1,g2,g3,class\n4,16,2,A\n8,32,4,A\n2,64,8,B\n16,8,2,B\n"), 0o644)
	syms := filepath.Join(dir, "symbols.tsv")
	os.WriteFile(syms, []byte("g1\tTP53\ng2\tDDR1\ng3\tTP53\n"), 0o644)
	_, res := smallRun(t)
	res.Config.DataPath = data
	res.Config.Read.SymbolsPath = syms
	res.Config.Prep = dataset.Prep{Log2: true, DropConstant: true}
	run := filepath.Join(dir, "run.json")
	if err := study.SaveRun(run, res, nil); err != nil {
		t.Fatal(err)
	}
	u, _ := newTestUI(t)
	serialized(func() { u.OpenRun(run) })
	waitFor(t, "the run's data", 5*time.Second, func() bool {
		return onUI(func() bool { return u.data != nil && u.data.Name == "counts.csv" })
	})
	if got := onUI(func() []any { return []any{u.dataTab.log2Check.Checked, u.dataTab.symbolsEntry.Text} }); got[0] != true || got[1] != syms {
		t.Errorf("Data tab after reopening: log2 %v, symbols %q", got[0], got[1])
	}
	// log2 of the first value, 4, is 2 (the run's preprocessing, not the raw value)
	if v := onUI(func() float64 { return u.data.X.At(0, 0) }); v != 2 {
		t.Errorf("first value %v, want log2(4) = 2", v)
	}
	if s := onUI(func() []string { return u.data.Symbols }); len(s) != 3 || s[0] != "TP53" {
		t.Errorf("symbols %v", s)
	}
}

// Help > About names the version and the BLAS in use (fastblas.Name: the kernels, a
// library or gonum's), and its description is one paragraph that the dialog wraps (hard
// line breaks in it had left single words on lines of their own).
func TestAboutSaysWhichBLAS(t *testing.T) {
	u, w := newTestUI(t)
	serialized(u.showAbout)
	top := onUI(func() fyne.CanvasObject { return w.Canvas().Overlays().Top() })
	if top == nil {
		t.Fatal("no About dialog")
	}
	var texts []string
	walk(top, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok {
			texts = append(texts, l.Text)
		}
	})
	all := strings.Join(texts, "\n")
	if !strings.Contains(all, "matrix products: "+fastblas.Name()) || !strings.Contains(all, experiment.Version) {
		t.Errorf("About says %q; want the version %s and %q", all, experiment.Version, fastblas.Name())
	}
	for _, para := range strings.Split(all, "\n\n") {
		if strings.HasPrefix(para, "Ranks features") && strings.Contains(para, "\n") {
			t.Errorf("the description has hard line breaks: %q", para)
		}
	}
}

// TestWindowNeverWritesOverWhatItRead: Save run, a figure's export (its CSV), a report's
// table CSV and Export of a table refuse a file the window read (the data file, the
// saved run opened, the validation's cohort) and leave it as it was; Fyne's own save
// dialog, no longer used, empties the file chosen before the program sees its name.
func TestWindowNeverWritesOverWhatItRead(t *testing.T) {
	u, _ := newTestUI(t)
	dir := t.TempDir()
	_, res := smallRun(t)
	data := filepath.Join(dir, "stab.csv") // named as the stability figure's CSV
	b := "g1,g2,g3,class\n1,2,3,A\n2,1,3,B\n3,2,1,A\n2,3,1,B\n1,3,2,A\n3,1,2,B\n"
	os.WriteFile(data, []byte(b), 0o644)
	serialized(func() { u.LoadFile(data, dataset.Options{}) })
	waitFor(t, "the data", 10*time.Second, func() bool { return onUI(func() bool { return u.path == data }) })
	serialized(func() { u.setResult(res) })
	saved := filepath.Join(dir, "run.json")
	if err := study.SaveRun(saved, res, nil); err != nil {
		t.Fatal(err)
	}
	serialized(func() { u.OpenRun(saved) })
	runBytes, _ := os.ReadFile(saved)
	serialized(func() {
		fig := u.currentFigure(tabStability)
		if err := u.exportFormats(fig, dir, "stab", map[string]bool{"png": true}, "8", "3", "in", "72"); err == nil || !strings.Contains(err.Error(), "data file") {
			t.Errorf("a figure whose CSV is the data file: %v", err)
		}
		if _, err := os.Stat(filepath.Join(dir, "stab.png")); err == nil {
			t.Error("the figure was written beside a refused CSV")
		}
		for _, name := range []string{"stab.csv", "stab"} {
			if _, err := u.savePath(dir, name, []string{".csv", ".tsv"}); err == nil {
				t.Errorf("Export table as %s: not refused", name)
			}
		}
		if _, err := u.savePath(dir, "run.json", nil); err == nil || !strings.Contains(err.Error(), "saved run") {
			t.Errorf("Save run over the run opened: %v", err)
		}
		if p, err := u.savePath(dir, "run2", []string{".json"}); err != nil || p != filepath.Join(dir, "run2.json") {
			t.Errorf("a new name: %q, %v", p, err)
		}
		tables := []plots.Figure{{Name: "stab"}}
		if err := u.checkWrite(reportFiles([]string{filepath.Join(dir, "report.html")}, dir, tables)...); err == nil {
			t.Error("a report whose table CSV is the data file: not refused")
		}
		u.sigView.cohortReads = []study.Input{{What: "cohort's data file", Path: saved}}
		if err := u.checkWrite(saved); err == nil || !strings.Contains(err.Error(), "cohort") && !strings.Contains(err.Error(), "saved run") {
			t.Errorf("the cohort: %v", err)
		}
	})
	if got, _ := os.ReadFile(data); string(got) != b {
		t.Errorf("the data file changed: %q", got)
	}
	if got, _ := os.ReadFile(saved); string(got) != string(runBytes) {
		t.Error("the saved run changed")
	}
}

// Changing the preprocessing prepares the data on a background goroutine (edgeR's
// normalisation of a large count table takes seconds and would freeze the window): the
// status line says so at once, a run asked for meanwhile is refused with the reason,
// and the prepared data arrive afterwards.
func TestPreparationRunsInTheBackground(t *testing.T) {
	u, _ := newTestUI(t)
	before := onUI(func() *dataset.Dataset { return u.data })
	serialized(func() { // the preparation cannot hand its result back while this holds the UI
		// (not log2: the built-in example has negative values, which log2 now refuses)
		u.dataTab.constCheck.SetChecked(!u.dataTab.constCheck.Checked)
		if !u.preparing() || !strings.HasPrefix(u.progress.Status.Text, "Preparing ") {
			t.Fatalf("preparing %v, status %q", u.preparing(), u.progress.Status.Text)
		}
		u.Run()
		if u.cancel != nil {
			t.Error("a run started on data still being prepared")
		}
		if !strings.Contains(u.progress.Status.Text, "still being prepared") {
			t.Errorf("status %q", u.progress.Status.Text)
		}
	})
	waitFor(t, "the prepared data", 10*time.Second, func() bool { return onUI(func() bool { return !u.preparing() }) })
	if st := onUI(func() string { return u.progress.Status.Text }); !strings.HasPrefix(st, "Prepared ") || onUI(func() *dataset.Dataset { return u.data }) == before {
		t.Errorf("after preparing: status %q, data replaced %v", st, onUI(func() *dataset.Dataset { return u.data }) != before)
	}
}

// The Data tab lists constant features that were dropped once, in one order (it listed
// them twice, in the file's order and sorted, so the same genes read as two sets).
func TestSummaryListsDroppedConstantsOnce(t *testing.T) {
	u, _ := newTestUI(t)
	ds, err := dataset.ReadDelimited("c.csv", []byte("g9,g1,g5,class\n1,7,2,A\n2,7,3,B\n3,7,1,A\n4,7,5,B\n"), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	serialized(func() {
		if !u.setData(ds, "", dataset.Options{}) {
			t.Fatal("data refused")
		}
	})
	summary := onUI(func() string { return u.dataTab.summary.Text })
	if !strings.Contains(summary, "Constant features: 1, dropped (g1)") || strings.Contains(summary, "Dropped:") {
		t.Errorf("summary:\n%s", summary)
	}
}
