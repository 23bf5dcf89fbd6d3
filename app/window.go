// Package app is Steadfast's window and its headless commands: it wires the user's
// actions to compute jobs and shows their results.
package app

import (
	"context"
	"errors"
	"fmt"
	"image"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"steadfast/assets"
	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/study"
	"steadfast/internal/text"
	"steadfast/plots"
	"steadfast/widgets"
)

// RunWindow opens the main window with file (a data file, a saved run or a run's
// output folder; without one, the built-in example) and returns when the window closes.
// screen is the work area of the primary monitor in screen coordinates (zero when
// unknown): the window opens at the size the user left it, no larger than that.
func RunWindow(file string, screen fyne.Size) {
	a := fyneapp.NewWithID("org.steadfast.app")
	a.SetIcon(assets.Icon)
	w := a.NewWindow("Steadfast")
	ui := NewUI(a, w)
	w.SetContent(ui.Content())
	w.SetMainMenu(ui.mainMenu())
	w.SetOnDropped(ui.onDrop)
	ui.fitScreen(screen)                                                            // at scale 1 before the window exists,
	a.Lifecycle().SetOnStarted(func() { fyne.Do(func() { ui.fitScreen(screen) }) }) // then at its scale
	if file != "" {
		ui.Open(file)
	}
	w.ShowAndRun()
}

// split is f with one panel per method when the check is ticked.
func split(c *widget.Check, f plots.Figure) plots.Figure {
	if c.Checked {
		return plots.PerMethod(f)
	}
	return f
}

// wheelScroll scrolls content, with the mouse wheel working over its fields: a panel
// narrower than its form scrolls sideways, so the split beside it can move.
func wheelScroll(content fyne.CanvasObject) *container.Scroll {
	s := container.NewScroll(content)
	widgets.RelayWheel(content, s)
	return s
}

// scrollTabs puts each tab's content in a scroll container: in a window too small
// for a tab's charts at their readable size the tab scrolls rather than squashes them,
// and no tab holds the window larger than the screen.
func scrollTabs(items []*container.TabItem) []*container.TabItem {
	for _, it := range items {
		it.Content = container.NewScroll(it.Content)
	}
	return items
}

// UI is the state and the widgets of the main window. Its methods run on the UI goroutine.
type UI struct {
	app fyne.App
	win fyne.Window
	// do hands work from a background goroutine to the UI goroutine: fyne.Do, or in
	// tests a lock shared with the test's reads (Fyne's test driver runs fyne.Do inline).
	do func(func())

	raw     *dataset.Dataset // as read, before preprocessing
	data    *dataset.Dataset // preprocessed, what a run uses
	path    string           // "" for the built-in example
	runPath string           // the saved run opened last, if any
	readOpt dataset.Options
	dropped []string
	result  *experiment.Result

	cancel context.CancelFunc
	task   string // what the running task is, for the question on quitting: "A run"
	runID  int
	loads  int // data loads started; a load finishing after a newer one is dropped
	preps  int // preparations started; one finishing after a newer one is dropped
	// stopPrep stops the preparation running in the background (log-CPM of a large
	// count table takes seconds), nil when none is: Run waits for it
	stopPrep context.CancelFunc
	// lastErr is the last error shown in a dialog
	lastErr error
	// lastTable is the table whose row was selected last: Ctrl+C copies that row
	lastTable *widgets.StringTable
	// unsaved is set when a run or a tool finishes and cleared when the run is saved
	unsaved bool

	dataTab *dataView
	results *resultsView

	methods  *methodPanel
	protocol *protocolPanel
	groups   *groupsView
	kchooser *kChooserView
	wrapper  *wrapperView
	mids     *midsView
	samples  *sampleSizeView
	sigView  *signatureView

	tabs     *container.AppTabs
	left     *container.AppTabs // Data, Methods, Protocol
	toolTabs *container.AppTabs // inside the Tools tab
	stale    *widget.Label      // says when the results shown are of other data than those open
	right    *fyne.Container    // the stale mark above the result tabs

	progress *widgets.Progress
	runBtn   *widget.Button
	content  fyne.CanvasObject
}

// NewUI builds the window's widgets and opens the built-in example.
func NewUI(a fyne.App, w fyne.Window) *UI {
	u := &UI{app: a, win: w, do: fyne.Do}
	u.build()
	u.setData(study.Example(), "", dataset.Options{})
	return u
}

// Content is the window's root object.
func (u *UI) Content() fyne.CanvasObject { return u.content }

func (u *UI) build() {
	u.dataTab = newDataView(u)

	u.methods = newMethodPanel()
	u.protocol = newProtocolPanel(u.explain)

	u.protocol.onChange = u.checkFit
	left := container.NewAppTabs(
		container.NewTabItemWithIcon("Data", theme.FileIcon(), wheelScroll(u.dataTab.content)),
		container.NewTabItemWithIcon("Methods", theme.ListIcon(), wheelScroll(u.methods.content)),
		container.NewTabItemWithIcon("Protocol", theme.SettingsIcon(), wheelScroll(u.protocol.content)),
	)

	u.left = left
	u.results = newResultsView(u)

	u.groups = newGroupsView(u)
	u.kchooser = newKChooserView(u)
	u.wrapper = newWrapperView(u)
	u.mids = newMIDSView(u)
	u.samples = newSampleSizeView(u)
	u.sigView = newSignatureView(u)
	u.toolTabs = container.NewAppTabs(scrollTabs([]*container.TabItem{
		container.NewTabItem("K chooser", u.kchooser.content),
		container.NewTabItem("Wrapper", u.wrapper.content),
		container.NewTabItem("MIDS", u.mids.content),
		container.NewTabItem("Sample size", u.samples.content),
	})...)
	u.tabs = container.NewAppTabs(append(scrollTabs(append(u.results.tabs,
		container.NewTabItem("Signature", u.sigView.content),
		container.NewTabItem("Groups", u.groups.content))),
		container.NewTabItem("Tools", u.toolTabs))...,
	)

	u.progress = widgets.NewProgress(u.Cancel)
	u.runBtn = widget.NewButtonWithIcon("Run", theme.MediaPlayIcon(), u.Run)
	u.runBtn.Importance = widget.HighImportance
	toolbar := container.NewHBox(
		u.runBtn,
		widget.NewButtonWithIcon("Export figure...", theme.DocumentSaveIcon(), u.ShowExport),
		widget.NewButtonWithIcon("Save run...", theme.DocumentSaveIcon(), u.ShowSaveRun),
		widget.NewButtonWithIcon("Open run...", theme.FolderOpenIcon(), u.ShowOpenRun),
		widget.NewButtonWithIcon("Report...", theme.DocumentIcon(), u.ShowReport),
	)
	u.stale = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	u.stale.Importance = widget.WarningImportance
	u.stale.Wrapping = fyne.TextWrapWord
	u.stale.Hide()
	u.right = container.NewBorder(u.stale, nil, nil, nil, u.tabs)
	split := container.NewHSplit(left, u.right)
	split.Offset = 0.36
	u.content = container.NewBorder(toolbar, u.progress.Content, nil, nil, split)
	u.addShortcuts()
	u.win.SetCloseIntercept(u.Quit)
}

// addShortcuts binds the window's keys: Ctrl+O open, R run, E export, S save, Q quit,
// Shift+Ctrl+C copy the tab's genes, Ctrl+C the selected table row.
func (u *UI) addShortcuts() {
	u.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { u.ShowOpen() })
	u.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyR, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { u.Run() })
	u.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyE, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { u.ShowExport() })
	u.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyS, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { u.ShowSaveRun() })
	u.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { u.Quit() })
	u.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyC, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}, func(fyne.Shortcut) { u.copyTabGenes() })
	u.win.Canvas().AddShortcut(&fyne.ShortcutCopy{}, func(fyne.Shortcut) {
		if u.lastTable != nil {
			u.copySelectedRow(u.lastTable)
		}
	})
}

// Quit closes the window, first asking when a run or a tool is going or a finished
// run has not been saved.
func (u *UI) Quit() {
	closeNow := func() {
		if u.cancel != nil {
			u.cancel()
		}
		u.rememberSize()
		u.win.Close()
	}
	title, msg := u.quitQuestion()
	if msg == "" {
		closeNow()
		return
	}
	dialog.ShowConfirm(title, msg, func(ok bool) {
		if ok {
			closeNow()
		}
	}, u.win)
}

// quitQuestion is what to ask before quitting, "" when nothing would be lost.
func (u *UI) quitQuestion() (title, msg string) {
	unsaved := ""
	if u.unsaved {
		unsaved = "\nThe last run's results are not saved either (Save run... keeps them in one file)."
	}
	if u.cancel != nil {
		return u.task + " going", fmt.Sprintf("%s is %.0f%% done: stop it and quit?%s", u.task, 100*u.progress.Bar.Value, unsaved)
	}
	if u.unsaved {
		return "Unsaved results", "The last run's results are not saved. Close Steadfast and lose them?\n(Save run... keeps them in one file.)"
	}
	return "", ""
}

// LoadFile reads path in the background; on success it replaces the data, on failure
// it shows the reason and keeps the data the user had. The Data tab then shows the
// options o it was read with, and a file other than the one open gets the
// preprocessing its values call for (log2 for unlogged intensities).
func (u *UI) LoadFile(path string, o dataset.Options) { u.loadFile(path, o, true) }

// loadFile is LoadFile; advise false keeps the preprocessing on the form (a reopened
// run's).
func (u *UI) loadFile(path string, o dataset.Options, advise bool) {
	if study.IsAccession(path) {
		u.loadGEO(path, o, advise)
		return
	}
	// the progress bar and Cancel belong to runs; a load only writes the status line
	u.progress.Status.SetText("Reading " + filepath.Base(path) + "...")
	u.loads++
	gen := u.loads
	go func() {
		ds, err := dataset.ReadFile(path, o)
		u.do(func() {
			if gen != u.loads {
				return // the user opened other data meanwhile: this load is stale
			}
			if err != nil {
				u.progress.Status.SetText("Could not read " + filepath.Base(path) + "; the previous data are kept.")
				u.showError(err)
				return
			}
			u.useLoaded(ds, path, o, advise)
		})
	}()
}

// useLoaded makes ds, read from path with o, the data (the previous kept when it cannot
// be used), with the preprocessing advised for it when advise is set; the data are
// prepared in the background.
func (u *UI) useLoaded(ds *dataset.Dataset, path string, o dataset.Options, advise bool) {
	restore := u.dataTab.snapshot(u.readOpt)
	if advise && path != u.path {
		u.dataTab.advise(ds)
	}
	u.dataTab.adopt(o)
	u.prepare(ds, func(data *dataset.Dataset, dropped []string, err error) {
		if err != nil {
			u.showError(err)
			restore()
			u.progress.Status.SetText("Could not use " + filepath.Base(path) + "; the previous data are kept.")
			return
		}
		u.usePrepared(ds, data, dropped, path, o)
	})
}

// usePrepared makes ds, read from path with o and prepared as data, the data, and says
// so on the status line.
func (u *UI) usePrepared(ds, data *dataset.Dataset, dropped []string, path string, o dataset.Options) {
	previous := u.path
	u.adopt(ds, data, dropped, path, o)
	st := fmt.Sprintf("Read %s.", ds.Name)
	if path != previous {
		if undone := u.protocol.undoFoldsFix(); undone != "" {
			u.checkFit()
			st += " " + undone
		}
	}
	if u.protocol.fit.Visible() {
		st += " The protocol does not suit these data: the Protocol tab offers a fix."
	}
	u.progress.Status.SetText(st)
	u.remember(path)
	log.Printf("loaded %s", path)
}

// setData makes ds the current data, prepared at once (the built-in example: small),
// and shows its summary; data that preprocessing leaves empty are refused (false) and
// the previous data kept.
func (u *UI) setData(ds *dataset.Dataset, path string, o dataset.Options) bool {
	data, dropped, err := study.Prepare(ds, u.dataTab.prep())
	if err != nil {
		u.showError(err)
		return false
	}
	u.preps++ // a preparation still running is stale now
	u.endPreparation()
	u.adopt(ds, data, dropped, path, o)
	return true
}

// adopt makes ds (read from path with o, data once prepared) the current data and
// shows its summary.
func (u *UI) adopt(ds, data *dataset.Dataset, dropped []string, path string, o dataset.Options) {
	u.loads++ // a load still running is stale now
	u.raw, u.path, u.readOpt = ds, path, o
	u.data, u.dropped = data, dropped
	u.dataTab.setClassChoices(ds.ClassChoices)
	u.showSummary()
	u.markStale()
	u.checkFit()
}

// prepare preprocesses raw as the Data tab says on a background goroutine (edgeR's
// normalisation of a 60,000-gene table takes seconds), saying so on the status line,
// and then calls done on the UI goroutine, unless another preparation has begun since.
func (u *UI) prepare(raw *dataset.Dataset, done func(data *dataset.Dataset, dropped []string, err error)) {
	u.preps++
	gen, prep := u.preps, u.dataTab.prep()
	u.endPreparation() // its result would be dropped: stop its work too
	ctx, stop := context.WithCancel(context.Background())
	u.stopPrep = stop
	u.progress.Status.SetText("Preparing " + raw.Name + " (" + prepSteps(prep) + ")...")
	go func() {
		data, dropped, err := study.PrepareContext(ctx, raw, prep)
		u.do(func() {
			if gen != u.preps {
				return
			}
			u.endPreparation()
			done(data, dropped, err)
		})
	}()
}

// preparing reports whether data are being prepared in the background.
func (u *UI) preparing() bool { return u.stopPrep != nil }

// endPreparation stops the preparation running, if any.
func (u *UI) endPreparation() {
	if u.stopPrep != nil {
		u.stopPrep()
		u.stopPrep = nil
	}
}

// prepSteps says what prep does, for the status line.
func prepSteps(p dataset.Prep) string {
	var steps []string
	switch {
	case p.LogCPM && p.TMM:
		steps = append(steps, "TMM and log-CPM")
	case p.LogCPM:
		steps = append(steps, "log-CPM")
	case p.Log2:
		steps = append(steps, "log2")
	}
	if p.DropConstant {
		steps = append(steps, "constant features dropped")
	}
	if p.DropMissing {
		steps = append(steps, "incomplete features dropped")
	}
	if len(steps) == 0 {
		return "as read"
	}
	return strings.Join(steps, ", ")
}

// checkFit shows on the Protocol tab, before Run, when the data are too small for the
// protocol, naming the smallest class, with the fixes in one click.
func (u *UI) checkFit() {
	if u.data == nil || u.protocol == nil {
		return
	}
	cfg := experiment.DefaultConfig()
	if err := u.protocol.fill(&cfg); err != nil {
		u.protocol.showFit("", 0, false) // the field's own error is shown at Run
		return
	}
	problem, most := study.Fit(cfg, u.data)
	if st := u.progress.Status.Text; problem == "" { // the status said it did not: say it does now
		switch {
		case strings.Contains(st, "The protocol does not suit these data"):
			u.progress.Status.SetText(strings.TrimSpace(st[:strings.Index(st, "The protocol does not suit")]) + " The protocol now suits the data.")
		case strings.HasPrefix(st, "Not started:") && strings.Contains(st, "Protocol tab offers a fix"):
			u.progress.Status.SetText("The protocol now suits the data: press Run.")
		}
	}
	drags := cfg
	drags.Protocol, drags.Folds, drags.InnerFolds = experiment.DRAGS2008, 0, 0
	dragsProblem, _ := study.Fit(drags, u.data)
	u.protocol.showFit(problem, most, dragsProblem == "" && cfg.Protocol != experiment.DRAGS2008)
}

// markStale shows, above the results, when they are of other data than those open.
func (u *UI) markStale() {
	defer u.right.Refresh() // lay the tabs out again: a hidden mark leaves no gap
	if u.result == nil || sameData(u.result.Data, u.data) {
		u.stale.Hide()
		return
	}
	u.groups.clear()
	u.stale.SetText(fmt.Sprintf("The results shown are of %s (%d samples, %d features), not of the data now open (%s). Run again to analyse these; the Groups tab shows no heat map meanwhile.",
		u.result.Data.Name, u.result.Data.Samples, len(u.result.Data.Features), u.data.Name))
	u.stale.Show()
}

// sameData reports whether the data d are those a run described by info used.
func sameData(info experiment.DataInfo, d *dataset.Dataset) bool {
	n, _ := d.Dims()
	return info.Name == d.Name && info.Samples == n && slices.Equal(info.Features, d.Features)
}

// applyPrep preprocesses the data read again (the options changed); options that leave
// no feature are refused and the previous data kept.
func (u *UI) applyPrep() {
	if u.raw == nil {
		return
	}
	raw := u.raw
	u.prepare(raw, func(data *dataset.Dataset, dropped []string, err error) {
		if raw != u.raw {
			return // other data were opened meanwhile
		}
		if err != nil {
			u.showError(err)
			u.progress.Status.SetText("The data are kept as they were prepared before.")
			return
		}
		u.data, u.dropped = data, dropped
		u.showSummary()
		u.checkFit()
		u.progress.Status.SetText("Prepared " + raw.Name + " (" + prepSteps(u.dataTab.prep()) + ").")
	})
}

// showSummary shows what the user should know of the data.
func (u *UI) showSummary() {
	u.dataTab.show(u.raw, u.data, u.dropped)
	u.win.SetTitle("Steadfast")
}

// Config gathers the settings of the forms.
func (u *UI) Config() (experiment.Config, error) {
	cfg := experiment.DefaultConfig()
	cfg.DataPath, cfg.Read = u.path, u.readOpt
	if u.raw != nil {
		cfg.Source = u.raw.Source
	}
	err := u.dataTab.fill(&cfg)
	if err != nil {
		return cfg, err
	}
	if cfg.Methods, err = u.methods.specs(); err != nil {
		return cfg, err
	}
	if err = u.protocol.fill(&cfg); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// Run starts a study with the forms' settings in the background.
func (u *UI) Run() {
	if u.cancel != nil {
		return // one run at a time; the button is disabled meanwhile
	}
	cfg, err := u.Config()
	if err != nil {
		u.showError(err)
		return
	}
	if problem, _ := study.Fit(cfg, u.data); problem != "" {
		u.left.SelectIndex(leftProtocol)
		u.checkFit()
		u.progress.Status.SetText("Not started: " + problem + " The Protocol tab offers a fix.")
		return
	}
	if cfg, err = study.Plan(cfg, u.data); err != nil {
		u.showError(err)
		return
	}
	ds := u.data
	if est, lines, err := experiment.Estimate(cfg, ds); err == nil && est > longRun {
		msg := fmt.Sprintf("This study will take about %s on a two-core laptop:\n%s\n(the other methods add little). "+
			"Progress and the time left are shown as it runs, and Cancel stops it within a second.\nStart it now?",
			text.Duration(est), strings.Join(lines, "\n"))
		dialog.ShowConfirm("A long run", msg, func(ok bool) {
			if ok {
				u.startRun(cfg, ds)
			}
		}, u.win)
		return
	}
	u.startRun(cfg, ds)
}

// longRun is the estimated study time above which Run asks before it starts.
const longRun = 2 * time.Minute

// startRun runs the study cfg on ds in the background.
func (u *UI) startRun(cfg experiment.Config, ds *dataset.Dataset) {
	log.Printf("run started: %s on %s", cfg.Protocol, ds.Name)
	u.startTask("Run", func(ctx context.Context, report func(experiment.Progress)) (func(), error) {
		res, err := study.Run(ctx, cfg, ds, report)
		if err != nil {
			return nil, err
		}
		log.Printf("run finished in %.1f s", res.Seconds)
		return func() { u.setResult(res) }, nil
	})
}

// taskName names a task in a sentence: "A run", "The K chooser".
func taskName(what string) string {
	if n, ok := map[string]string{"Run": "A run", "MIDS": "The MIDS computation", "Wrapper": "The wrapper",
		"Sample-size study": "The sample-size study"}[what]; ok {
		return n
	}
	return "The " + what
}

// taskWork is background work started from the window. It may call report from any
// goroutine, and returns what to do on the UI goroutine when it succeeds, or when it is
// cancelled with part of its results to show (apply and context.Canceled).
type taskWork func(ctx context.Context, report func(experiment.Progress)) (apply func(), err error)

// startTask runs work in the background behind the progress bar and its Cancel button.
// One task runs at a time: Run and the tools' Compute buttons are disabled meanwhile.
// A task that fails or is cancelled changes nothing on screen.
func (u *UI) startTask(what string, work taskWork) {
	if u.cancel != nil {
		return
	}
	if u.preparing() {
		u.progress.Status.SetText("The data are still being prepared: start " + strings.ToLower(what[:1]) + what[1:] + " again when the status line says they are ready.")
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	u.cancel, u.task = cancel, taskName(what)
	u.runID++
	id := u.runID
	u.setBusy(true)
	u.progress.Start(what)
	th := study.NewThrottle(func(pr experiment.Progress) {
		u.do(func() {
			if id == u.runID && u.cancel != nil {
				u.progress.Update(pr.Done, pr.Total, pr.Stage, pr.Fraction, pr.Left)
			}
		})
	}, 100*time.Millisecond)
	go func() {
		apply, err := work(ctx, th.Report)
		u.do(func() { u.finishTask(id, what, apply, err) })
	}()
}

func (u *UI) finishTask(id int, what string, apply func(), err error) {
	if id != u.runID {
		return // a newer task has started
	}
	u.cancel = nil
	u.setBusy(false)
	switch {
	case errors.Is(err, context.Canceled) && apply != nil:
		apply()
		u.unsaved = u.result != nil
		u.progress.Finish(what+" cancelled; what it finished before is shown.", false)
		log.Printf("%s cancelled, partial results shown", what)
	case errors.Is(err, context.Canceled):
		u.progress.Finish(what+" cancelled; the previous results are kept.", false)
		log.Printf("%s cancelled", what)
	case err != nil:
		u.progress.Finish(what+" failed; the previous results are kept.", false)
		u.showError(err)
	default:
		apply()
		u.unsaved = u.result != nil // a run, or tool results saved with it
		u.progress.Finish(fmt.Sprintf("%s finished in %s.", what, text.Duration(u.progress.Elapsed())), true)
	}
}

// setBusy disables the buttons that start tasks while one runs.
func (u *UI) setBusy(busy bool) {
	for _, b := range []*widget.Button{u.runBtn, u.kchooser.button, u.wrapper.button, u.mids.button, u.samples.button, u.sigView.build, u.sigView.permBtn} {
		if busy {
			b.Disable()
		} else {
			b.Enable()
		}
	}
}

// Cancel stops the running study; its partial results are dropped.
func (u *UI) Cancel() {
	if u.cancel != nil {
		u.cancel()
		u.progress.Status.SetText("Cancelling...")
	}
}

// Result is the result shown now.
func (u *UI) Result() *experiment.Result { return u.result }

func (u *UI) setResult(res *experiment.Result) {
	u.result = res
	defer u.markStale()
	u.results.setResult(res)
	u.groups.setResult(res)
	u.sigView.setResult(res)
	u.showResults()
}

// showResults redraws the result tabs from u.result and their selectors.
func (u *UI) showResults() {
	if u.result != nil && u.results != nil {
		u.results.show(u.result)
	}
}

// The left tabs, in order.
const (
	leftData = iota
	leftMethods
	leftProtocol
)

// The result tabs, in order; the tools are tabs inside the Tools tab.
const (
	tabStability = iota
	tabAccuracy
	tabGrid
	tabTop
	tabErrors
	tabSignature
	tabGroups
	tabTools
)

// The tool tabs, numbered on from tabTools.
const (
	tabKChooser = tabTools + iota
	tabWrapper
	tabMIDS
	tabSampleSize
)

// selectedTab is the result or tool tab on screen (see the tab constants).
func (u *UI) selectedTab() int {
	if i := u.tabs.SelectedIndex(); i != tabTools {
		return i
	}
	return tabKChooser + u.toolTabs.SelectedIndex()
}

// showTab brings result or tool tab id to the front.
func (u *UI) showTab(id int) {
	if id < tabTools {
		u.tabs.SelectIndex(id)
		return
	}
	u.tabs.SelectIndex(tabTools)
	u.toolTabs.SelectIndex(id - tabKChooser)
}

// currentFigure is the figure shown on result tab i (see the tab constants); the zero
// Figure when the tab shows nothing yet.
func (u *UI) currentFigure(tab int) plots.Figure {
	switch tab {
	case tabGroups:
		return u.groups.shown
	case tabSignature:
		return u.sigView.figure
	case tabKChooser:
		return u.kchooser.figure
	case tabWrapper:
		return u.wrapper.figure
	case tabMIDS:
		return u.mids.figure
	case tabSampleSize:
		return u.samples.figure
	}
	if u.result == nil {
		return plots.Figure{}
	}
	return u.results.figure(u.result, tab)
}

// renderer adapts a figure to the chart widget.
func renderer(f plots.Figure) widgets.RenderFunc {
	return func(w, h int) (image.Image, []image.Point, []string, error) {
		r, err := plots.Render(f, w, h, 96)
		if err != nil {
			return nil, nil, nil, err
		}
		labels := make([]string, len(f.Points))
		for i, p := range f.Points {
			labels[i] = p.Label
		}
		return r.Image, r.Pixels, labels, nil
	}
}

// openFigureWindow shows f in a window of its own, redrawn at whatever size the user
// gives it (the figure as it was when opened).
func (u *UI) openFigureWindow(f plots.Figure) {
	if f.Build == nil {
		u.showError(fmt.Errorf("no figure shown here yet"))
		return
	}
	w := u.app.NewWindow(plots.PlainText(f.Title))
	c := u.newChart("")
	c.SetRender(renderer(f))
	w.SetContent(c)
	w.Resize(fyne.NewSize(1000, 720))
	w.Show()
}

// newChart returns a chart whose finished renders reach the UI through u.do and
// whose errors are shown in a dialog.
func (u *UI) newChart(placeholder string) *widgets.Chart {
	c := widgets.NewChart(placeholder)
	c.Do = func(f func()) { u.do(f) }
	c.OnError = u.showError
	return c
}

// showError shows err in a dialog (and keeps it as the last error shown).
func (u *UI) showError(err error) {
	u.lastErr = err
	log.Printf("error: %v", err)
	d := dialog.NewError(err, u.win)
	d.Show()
}

// exportDir is where figures go unless the user chooses otherwise.
func exportDir() string {
	if d, err := os.UserHomeDir(); err == nil {
		return filepath.Join(d, "Steadfast")
	}
	return "Steadfast"
}
