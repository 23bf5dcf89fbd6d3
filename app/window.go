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
	"strconv"
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
func RunWindow(file string) {
	a := fyneapp.NewWithID("org.steadfast.app")
	a.SetIcon(assets.Icon)
	w := a.NewWindow("Steadfast")
	ui := NewUI(a, w)
	w.SetContent(ui.Content())
	w.SetMainMenu(ui.mainMenu())
	w.SetOnDropped(ui.onDrop)
	w.Resize(fyne.NewSize(1400, 880))
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

// wheelScroll scrolls content vertically, with the mouse wheel working over its fields.
func wheelScroll(content fyne.CanvasObject) *container.Scroll {
	s := container.NewVScroll(content)
	widgets.RelayWheel(content, s)
	return s
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
	readOpt dataset.Options
	dropped []string
	result  *experiment.Result

	cancel context.CancelFunc
	runID  int
	loads  int // data loads started; a load finishing after a newer one is dropped
	// lastErr is the last error shown in a dialog
	lastErr error
	// lastTable is the table whose row was selected last: Ctrl+C copies that row
	lastTable *widgets.StringTable
	// unsaved is set when a run or a tool finishes and cleared when the run is saved
	unsaved bool

	// Data tab
	summary      *widget.Label
	preview      *widgets.StringTable
	orientation  *widget.Select
	classEntry   *widget.SelectEntry // with the file's annotations to choose from (GEO, GCT 1.3)
	sheetEntry   *widget.Entry       // the workbook sheet to read, "" the first
	symbolsEntry *widget.Entry       // a probe-to-symbol annotation file, "" none
	// classChoices are the options the class field offers
	classChoices []dataset.ClassChoice
	log2Check    *widget.Check
	cpmCheck     *widget.Check
	topVar       *widget.Entry // how many of the most variable features to keep, "" all
	constCheck   *widget.Check
	missCheck    *widget.Check
	zCheck       *widget.Check

	methods  *methodPanel
	protocol *protocolPanel
	groups   *groupsView
	kchooser *kChooserView
	wrapper  *wrapperView
	mids     *midsView
	samples  *sampleSizeView

	// results
	tabs        *container.AppTabs
	toolTabs    *container.AppTabs // inside the Tools tab
	stabChart   *widgets.Chart
	stabMeasure *widget.Select
	stabSplit   *widget.Check
	accSplit    *widget.Check
	accChart    *widgets.Chart
	accClass    *widget.Select
	gridChart   *widgets.Chart
	gridMethod  *widget.Select
	gridK       *widget.Entry
	gridTable   *widgets.StringTable
	topMethod   *widget.Select
	topTable    *widgets.StringTable
	errClass    *widget.Select
	errTable    *widgets.StringTable
	numbers     *widget.Label
	stale       *widget.Label // says when the results shown are of other data than those open

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
	u.summary = widget.NewLabel("")
	u.summary.Wrapping = fyne.TextWrapWord
	u.preview = widgets.NewStringTable()
	u.orientation = widget.NewSelect([]string{"Detect", "Samples are rows", "Samples are columns"}, nil)
	u.orientation.SetSelectedIndex(0)
	u.classEntry = widget.NewSelectEntry(nil)
	u.classEntry.SetPlaceHolder("detect (class, label, type, ...)")
	reload := widget.NewButtonWithIcon("Re-read file", theme.ViewRefreshIcon(), func() {
		if u.path != "" {
			u.LoadFile(u.path, u.readOptions())
		}
	})
	prepChanged := func(bool) { u.applyPrep() }
	u.log2Check = widget.NewCheck("log2 (values below 1 raised to 1)", prepChanged)
	u.cpmCheck = widget.NewCheck("log-CPM (RNA-seq counts: log2 counts per million)", prepChanged)
	u.topVar = widget.NewEntry()
	u.topVar.SetPlaceHolder("all")
	u.constCheck = widget.NewCheck("drop constant features", prepChanged)
	u.constCheck.Checked = true
	u.missCheck = widget.NewCheck("drop features with missing values", prepChanged)
	u.zCheck = widget.NewCheck("z-score every feature (inside each training set)", nil)
	u.zCheck.Checked = true
	u.sheetEntry = widget.NewEntry()
	u.sheetEntry.SetPlaceHolder("the active sheet (Excel workbooks)")
	u.symbolsEntry = widget.NewEntry()
	u.symbolsEntry.SetPlaceHolder("none: a two-column file, a GEO platform table or .annot file")
	readForm := widget.NewForm(
		widget.NewFormItem("Orientation", u.orientation),
		widget.NewFormItem("Class column/row", u.classEntry),
		widget.NewFormItem("Sheet", u.sheetEntry),
		widget.NewFormItem("Gene symbols", container.NewBorder(nil, nil, nil, u.browseButton(u.symbolsEntry, dataExtensions), u.symbolsEntry)),
	)
	dataTab := container.NewBorder(
		container.NewVBox(
			container.NewHBox(
				widget.NewButtonWithIcon("Open data...", theme.FolderOpenIcon(), u.ShowOpen),
				widget.NewButtonWithIcon("Example", theme.HomeIcon(), u.openExample),
			),
			u.summary,
			widget.NewCard("", "Reading", container.NewVBox(readForm, reload)),
			widget.NewCard("", "Preprocessing", container.NewVBox(u.log2Check, u.cpmCheck, u.constCheck, u.missCheck, u.zCheck,
				container.NewBorder(nil, nil, widget.NewLabel("rank only the most variable (in each training set):"), nil, u.topVar))),
			widget.NewLabelWithStyle("Preview", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		), nil, nil, nil, u.preview.Table)

	u.methods = newMethodPanel()
	u.protocol = newProtocolPanel()

	left := container.NewAppTabs(
		container.NewTabItemWithIcon("Data", theme.FileIcon(), wheelScroll(dataTab)),
		container.NewTabItemWithIcon("Methods", theme.ListIcon(), wheelScroll(u.methods.content)),
		container.NewTabItemWithIcon("Protocol", theme.SettingsIcon(), wheelScroll(u.protocol.content)),
	)

	onErr := func(err error) { u.showError(err) }
	u.stabChart = u.newChart("Press Run to see how stable each method's selection is.")
	u.stabChart.OnError = onErr
	var measures []string
	for _, m := range plots.Measures {
		measures = append(measures, plots.PlainText(m.Label))
	}
	u.stabMeasure = widget.NewSelect(measures, func(string) { u.showResults() })
	u.stabMeasure.SetSelectedIndex(0)
	u.numbers = widget.NewLabel("")
	u.numbers.Wrapping = fyne.TextWrapWord

	u.accChart = u.newChart("Accuracy appears after a run.")
	u.accChart.OnError = onErr
	u.accClass = widget.NewSelect(nil, func(string) { u.showResults() })
	// one panel per method keeps overlapping bands readable; shown and exported so
	u.stabSplit = widget.NewCheck("one panel per method", func(bool) { u.showResults() })
	u.accSplit = widget.NewCheck("one panel per method", func(bool) { u.showResults() })

	u.gridChart = u.newChart("The selection-frequency grid appears after a run.")
	u.gridChart.OnError = onErr
	u.gridMethod = widget.NewSelect(nil, func(string) { u.showResults() })
	u.gridK = widget.NewEntry()
	u.gridK.SetText("10")
	u.gridK.OnSubmitted = func(string) { u.showResults() }
	u.gridTable = widgets.NewStringTable()

	u.topMethod = widget.NewSelect(nil, func(string) { u.showResults() })
	u.topTable = widgets.NewStringTable()

	u.errClass = widget.NewSelect(nil, func(string) { u.showResults() })
	u.errTable = widgets.NewStringTable()
	errNote := widget.NewLabel("After a run with two or more methods: each method's test error and S_S stability at k = 10, 20, ..., 50 (Kalousis et al. Table 3). \"top group\" marks the method of least error and those McNemar's test (p >= 0.05) does not separate from it; among them, prefer the most stable.")
	errNote.Wrapping = fyne.TextWrapWord

	u.groups = newGroupsView(u)
	u.kchooser = newKChooserView(u)
	u.wrapper = newWrapperView(u)
	u.mids = newMIDSView(u)
	u.samples = newSampleSizeView(u)
	u.toolTabs = container.NewAppTabs(
		container.NewTabItem("K chooser", u.kchooser.content),
		container.NewTabItem("Wrapper", u.wrapper.content),
		container.NewTabItem("MIDS", u.mids.content),
		container.NewTabItem("Sample size", u.samples.content),
	)
	gridSplit := container.NewHSplit(u.gridChart, u.gridTable.Table)
	gridSplit.Offset = 0.72
	u.tabs = container.NewAppTabs(
		container.NewTabItem("Stability", container.NewBorder(
			container.NewHBox(widget.NewLabel("Measure"), u.stabMeasure, u.stabSplit), u.numbers, nil, nil, u.stabChart)),
		container.NewTabItem("Accuracy", container.NewBorder(
			container.NewHBox(widget.NewLabel("Classifier"), u.accClass, u.accSplit), nil, nil, nil, u.accChart)),
		container.NewTabItem("Selection grid", container.NewBorder(
			container.NewHBox(widget.NewLabel("Method"), u.gridMethod, widget.NewLabel("top k"), u.gridK, u.tableActions(u.gridTable, 0, "selection-frequency")), nil, nil, nil, gridSplit)),
		container.NewTabItem("Top features", container.NewBorder(
			container.NewHBox(widget.NewLabel("Method"), u.topMethod, u.tableActions(u.topTable, 0, "top-features")), nil, nil, nil, u.topTable.Table)),
		container.NewTabItem("Errors", container.NewBorder(
			container.NewVBox(container.NewHBox(widget.NewLabel("Classifier"), u.errClass, u.tableActions(u.errTable, -1, "errors")), errNote), nil, nil, nil, u.errTable.Table)),
		container.NewTabItem("Groups", u.groups.content),
		container.NewTabItem("Tools", u.toolTabs),
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
	split := container.NewHSplit(left, container.NewBorder(u.stale, nil, nil, nil, u.tabs))
	split.Offset = 0.34
	u.content = container.NewBorder(toolbar, u.progress.Content, nil, nil, split)

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
	u.win.SetCloseIntercept(u.Quit)
}

// Quit closes the window, first asking when a finished run has not been saved.
func (u *UI) Quit() {
	closeNow := func() {
		if u.cancel != nil {
			u.cancel()
		}
		u.win.Close()
	}
	if !u.unsaved {
		closeNow()
		return
	}
	dialog.ShowConfirm("Unsaved results", "The last run's results are not saved. Close Steadfast and lose them?\n(Save run... keeps them in one file.)", func(ok bool) {
		if ok {
			closeNow()
		}
	}, u.win)
}

// classOptions are the class field's choices, each with the classes it gives.
func (u *UI) classOptions() []string {
	options := make([]string, len(u.classChoices))
	for i, c := range u.classChoices {
		options[i] = c.String()
	}
	return options
}

// className is the class field's text, or the key of the annotation chosen from its list.
func (u *UI) className() string {
	name := strings.TrimSpace(u.classEntry.Text)
	for _, c := range u.classChoices {
		if name == c.String() {
			return c.Key
		}
	}
	return name
}

func (u *UI) readOptions() dataset.Options {
	o := dataset.Options{ClassName: u.className(), CLSPath: u.readOpt.CLSPath,
		Sheet: strings.TrimSpace(u.sheetEntry.Text), SymbolsPath: strings.TrimSpace(u.symbolsEntry.Text)}
	switch u.orientation.SelectedIndex() {
	case 1:
		o.Orientation = dataset.SamplesAsRows
	case 2:
		o.Orientation = dataset.SamplesAsColumns
	}
	return o
}

func (u *UI) prep() dataset.Prep {
	return dataset.Prep{Log2: u.log2Check.Checked, LogCPM: u.cpmCheck.Checked, DropConstant: u.constCheck.Checked, DropMissing: u.missCheck.Checked}
}

// LoadFile reads path in the background; on success it replaces the data, on failure
// it shows the reason and keeps the data the user had.
func (u *UI) LoadFile(path string, o dataset.Options) {
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
			if !u.setData(ds, path, o) {
				u.progress.Status.SetText("Could not use " + filepath.Base(path) + "; the previous data are kept.")
				return
			}
			u.progress.Status.SetText(fmt.Sprintf("Read %s.", filepath.Base(path)))
			u.remember(path)
			log.Printf("loaded %s", path)
		})
	}()
}

// setData makes ds the current data and shows its summary; data that preprocessing
// leaves empty are refused (false) and the previous data kept.
func (u *UI) setData(ds *dataset.Dataset, path string, o dataset.Options) bool {
	data, dropped, err := study.Prepare(ds, u.prep())
	if err != nil {
		u.showError(err)
		return false
	}
	u.loads++ // a load still running is stale now
	u.raw, u.path, u.readOpt = ds, path, o
	u.data, u.dropped = data, dropped
	u.classChoices = ds.ClassChoices
	u.classEntry.SetOptions(u.classOptions())
	u.showSummary()
	u.markStale()
	return true
}

// markStale shows, above the results, when they are of other data than those open.
func (u *UI) markStale() {
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
	data, dropped, err := study.Prepare(u.raw, u.prep())
	if err != nil {
		u.showError(err)
		return
	}
	u.data, u.dropped = data, dropped
	u.showSummary()
}

// showSummary shows what the user should know of the data.
func (u *UI) showSummary() {
	s := dataset.Summarize(u.raw)
	n, p := u.data.Dims()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d samples, %d features", u.raw.Name, s.Samples, s.Features)
	if p != s.Features {
		fmt.Fprintf(&b, " (%d after preprocessing)", p)
	}
	b.WriteString("\nClasses: ")
	for i, c := range s.Classes {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d", c, s.ClassCounts[i])
	}
	if s.MissingCells > 0 {
		fmt.Fprintf(&b, "\nMissing or non-finite values: %d cells in %d features (e.g. %s). Tick \"drop features with missing values\" to analyse the rest.",
			s.MissingCells, len(s.MissingFeatures), s.MissingFeatures[0])
	} else {
		b.WriteString("\nNo missing values.")
	}
	if len(s.ConstantFeatures) > 0 {
		fmt.Fprintf(&b, "\nConstant features: %d (%s)", len(s.ConstantFeatures), listSome(s.ConstantFeatures, 5))
	}
	if len(u.dropped) > 0 {
		fmt.Fprintf(&b, "\nDropped: %d features (%s)", len(u.dropped), listSome(u.dropped, 5))
	}
	if s.Counts && !u.cpmCheck.Checked {
		b.WriteString("\nEvery value is a whole number and some are large: this looks like RNA-seq counts. Tick log-CPM to analyse them.")
	}
	if s.Unlogged && !u.log2Check.Checked && !u.cpmCheck.Checked {
		b.WriteString("\nNo value is negative and some exceed 1000: these look like unlogged intensities, where a few bright probes dominate. Tick log2 to analyse them.")
	}
	for _, note := range s.Notes {
		b.WriteString("\nNote: " + note)
	}
	if len(s.Classes) < 2 {
		b.WriteString("\nOnly one class: a stability study needs two or more.")
	}
	u.summary.SetText(b.String())
	// preview: first samples x first features
	cols := min(p, 8)
	header := []string{"sample", "class"}
	header = append(header, u.data.Features[:cols]...)
	var rows [][]string
	for i := 0; i < min(n, 12); i++ {
		row := []string{u.data.Samples[i], u.data.Classes[u.data.Labels[i]]}
		for j := 0; j < cols; j++ {
			row = append(row, strconv.FormatFloat(u.data.X.At(i, j), 'g', 5, 64))
		}
		rows = append(rows, row)
	}
	u.preview.SetRows(header, rows, 90)
	u.win.SetTitle("Steadfast")
}

func listSome(s []string, k int) string {
	if len(s) <= k {
		return strings.Join(s, ", ")
	}
	return strings.Join(s[:k], ", ") + ", ..."
}

// Config gathers the settings of the forms.
func (u *UI) Config() (experiment.Config, error) {
	cfg := experiment.DefaultConfig()
	cfg.DataPath, cfg.Read, cfg.Prep, cfg.ZScore = u.path, u.readOpt, u.prep(), u.zCheck.Checked
	if t := strings.TrimSpace(u.topVar.Text); t != "" {
		n, err := strconv.Atoi(t)
		if err != nil || n < 1 {
			return cfg, fmt.Errorf("the most variable features to keep: %q is not a positive whole number (leave it empty to keep every feature)", t)
		}
		cfg.TopVariance = n
	}
	var err error
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

// taskWork is background work started from the window. It may call report from any
// goroutine, and returns what to do on the UI goroutine when it succeeds.
type taskWork func(ctx context.Context, report func(experiment.Progress)) (apply func(), err error)

// startTask runs work in the background behind the progress bar and its Cancel button.
// One task runs at a time: Run and the tools' Compute buttons are disabled meanwhile.
// A task that fails or is cancelled changes nothing on screen.
func (u *UI) startTask(what string, work taskWork) {
	if u.cancel != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	u.cancel = cancel
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
	for _, b := range []*widget.Button{u.runBtn, u.kchooser.button, u.wrapper.button, u.mids.button, u.samples.button} {
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
	var methods []string
	for _, m := range res.Methods {
		methods = append(methods, m.Label)
	}
	var classes []string
	for _, c := range res.Config.Classifiers {
		classes = append(classes, experiment.ClassifierLabel(c))
	}
	for _, s := range []*widget.Select{u.gridMethod, u.topMethod} {
		s.Options = methods
		if s.SelectedIndex() < 0 || s.SelectedIndex() >= len(methods) {
			s.Selected = methods[0]
		}
		s.Refresh()
	}
	for _, s := range []*widget.Select{u.accClass, u.errClass} {
		s.Options = classes
		if s.SelectedIndex() < 0 && len(classes) > 0 {
			s.Selected = classes[0]
		}
		s.Refresh()
	}
	u.gridK.SetText(strconv.Itoa(res.Config.GridK))
	u.groups.setResult(res)
	u.showResults()
}

// showResults redraws the result views from u.result and the selectors.
func (u *UI) showResults() {
	res := u.result
	if res == nil || u.stabChart == nil {
		return
	}
	u.stabChart.SetRender(renderer(u.currentFigure(tabStability)))
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %d samples. Whole-ranking stability (%s): ", res.Data.Name, res.Data.Samples, res.Config.Mode)
	for i, m := range res.Methods {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s S_W = %s, S_R = %.3f", m.Label, plots.SWText(m.SW, func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }), m.SR)
		if note := m.FewGroupsNote(); note != "" {
			fmt.Fprintf(&b, " (note: %s)", note)
		}
		if m.Unconverged > 0 {
			fmt.Fprintf(&b, " (warning: %d model fits stopped at their iteration cap; the ranking may depend on solver precision; for an SVM raise Max passes)", m.Unconverged)
		}
	}
	if tests := experiment.StabilityTests(res); tests != "" {
		b.WriteString("\n" + tests)
	}
	u.numbers.SetText(b.String())
	if f := u.currentFigure(tabAccuracy); f.Build != nil {
		u.accChart.SetRender(renderer(f))
	} else {
		u.accChart.SetRender(nil)
	}
	u.gridChart.SetRender(renderer(u.currentFigure(tabGrid)))
	mi := max(u.gridMethod.SelectedIndex(), 0)
	k := u.gridKValue()
	var rows [][]string
	feats, count := plots.SelectionOrder(res, mi, k)
	for _, j := range feats {
		rows = append(rows, []string{res.Data.Features[j], fmt.Sprintf("%d/%d", count[j], len(res.Methods[mi].Runs))})
	}
	u.gridTable.SetRows([]string{"feature", "selected"}, rows, 140, 80)
	top := plots.TopTable(res, max(u.topMethod.SelectedIndex(), 0))
	u.topTable.SetRows(top.Table[0], top.Table[1:], 160, 140, 90, 140, 140)
	if et := u.currentFigure(tabErrors); len(et.Table) > 0 {
		widths := []float32{50}
		for range res.Methods {
			widths = append(widths, 150, 100, 160)
		}
		u.errTable.SetRows(et.Table[0], et.Table[1:], widths...)
	} else {
		u.errTable.SetRows(nil, nil)
	}
}

func (u *UI) gridKValue() int {
	k, err := strconv.Atoi(strings.TrimSpace(u.gridK.Text))
	if err != nil || k < 1 {
		return u.result.Config.GridK
	}
	return k
}

// The result tabs, in order; the tools are tabs inside the Tools tab.
const (
	tabStability = iota
	tabAccuracy
	tabGrid
	tabTop
	tabErrors
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
	case tabKChooser:
		return u.kchooser.figure
	case tabWrapper:
		return u.wrapper.figure
	case tabMIDS:
		return u.mids.figure
	case tabSampleSize:
		return u.samples.figure
	}
	res := u.result
	if res == nil {
		return plots.Figure{}
	}
	switch tab {
	case tabStability:
		return split(u.stabSplit, plots.StabilityVsK(res, plots.Measures[max(u.stabMeasure.SelectedIndex(), 0)]))
	case tabAccuracy:
		ci := u.accClass.SelectedIndex()
		if ci < 0 || ci >= len(res.Config.Classifiers) {
			return plots.Figure{}
		}
		return split(u.accSplit, plots.AccuracyVsK(res, res.Config.Classifiers[ci]))
	case tabGrid:
		return plots.SelectionGrid(res, max(u.gridMethod.SelectedIndex(), 0), u.gridKValue())
	case tabErrors:
		ci := u.errClass.SelectedIndex()
		if len(res.Methods) < 2 || ci < 0 || ci >= len(res.Config.Classifiers) {
			return plots.Figure{}
		}
		return plots.ErrorTable(res, res.Config.Classifiers[ci])
	}
	return plots.TopTable(res, max(u.topMethod.SelectedIndex(), 0))
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

// newChart returns a chart whose finished renders reach the UI through u.do.
func (u *UI) newChart(placeholder string) *widgets.Chart {
	c := widgets.NewChart(placeholder)
	c.Do = func(f func()) { u.do(f) }
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
