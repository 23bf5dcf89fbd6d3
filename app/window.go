// Package app is Steadfast's window and its headless commands: it wires the user's
// actions to compute jobs and shows their results.
package app

import (
	"context"
	"fmt"
	"image"
	"log"
	"os"
	"path/filepath"
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

	// menuChosen is when a menu item was last chosen (unlessMenuClick)
	menuChosen time.Time
	exportBtn  *widget.Button

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
	// guide is the help window while it is open, guideSearch its search field
	guide       fyne.Window
	guideSearch *widget.Entry
	guidePages  *widget.List // the glossary, then the user guide's pages
	guideWin    *guideWindow // the help window's pages and search
	unsaved     bool

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
	survView *survivalView // the Signature tab of a survival study

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
	u.survView = newSurvivalView(u)
	u.survView.content.Hide()
	u.toolTabs = container.NewAppTabs(scrollTabs([]*container.TabItem{
		container.NewTabItem("K chooser", u.kchooser.content),
		container.NewTabItem("Wrapper", u.wrapper.content),
		container.NewTabItem("MIDS", u.mids.content),
		container.NewTabItem("Sample size", u.samples.content),
	})...)
	u.tabs = container.NewAppTabs(append(scrollTabs(append(u.results.tabs,
		container.NewTabItem("Signature", container.NewStack(u.sigView.content, u.survView.content)),
		container.NewTabItem("Groups", u.groups.content))),
		container.NewTabItem("Tools", u.toolTabs))...,
	)

	u.progress = widgets.NewProgress(u.Cancel)
	u.progress.Window = u.win
	u.runBtn = widget.NewButtonWithIcon("Run", theme.MediaPlayIcon(), u.unlessMenuClick(u.Run))
	u.runBtn.Importance = widget.HighImportance
	u.exportBtn = widget.NewButtonWithIcon("Export figure...", theme.DocumentSaveIcon(), u.unlessMenuClick(u.ShowExport))
	toolbar := container.NewHBox( // beneath the menus: a click choosing an item is not theirs
		u.runBtn,
		u.exportBtn,
		widget.NewButtonWithIcon("Save run...", theme.DocumentSaveIcon(), u.unlessMenuClick(u.ShowSaveRun)),
		widget.NewButtonWithIcon("Open run...", theme.FolderOpenIcon(), u.unlessMenuClick(u.ShowOpenRun)),
		widget.NewButtonWithIcon("Report...", theme.DocumentIcon(), u.unlessMenuClick(u.ShowReport)),
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

// Result is the result shown now.
func (u *UI) Result() *experiment.Result { return u.result }

func (u *UI) setResult(res *experiment.Result) {
	u.result = res
	defer u.markStale()
	u.results.setResult(res)
	u.groups.setResult(res)
	u.sigView.setResult(res)
	if res.Data.Survival != nil { // the Signature tab of a survival study
		u.sigView.content.Hide()
		u.survView.content.Show()
		u.survView.setResult(res)
	} else {
		u.survView.content.Hide()
		u.sigView.content.Show()
	}
	u.showResults()
}

// scrollToTop scrolls result tab i (a tab of u.tabs) back to its top.
func (u *UI) scrollToTop(i int) {
	if s, ok := u.tabs.Items[i].Content.(*container.Scroll); ok {
		s.ScrollToTop()
	}
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
		if u.survView.content.Visible() {
			return u.survView.figure
		}
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
