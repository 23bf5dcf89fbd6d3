package app

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/plots"
	"steadfast/widgets"
)

// resultsView is the run's result tabs: stability and accuracy curves, the selection
// grid, the top features and the error table, each with its selectors. The result
// itself belongs to the UI; a changed selector redraws through u.showResults.
type resultsView struct {
	stabChart   *widgets.Chart
	stabMeasure *widget.Select
	stabSplit   *widget.Check
	numbers     *widget.Label // whole-ranking stability, notes and Nogueira's tests
	accChart    *widgets.Chart
	accClass    *widget.Select
	accSplit    *widget.Check
	gridChart   *widgets.Chart
	gridMethod  *widget.Select
	gridK       *widget.Entry
	gridTable   *widgets.StringTable
	topMethod   *widget.Select
	topTable    *widgets.StringTable
	errClass    *widget.Select
	errTable    *widgets.StringTable
	tabs        []*container.TabItem // in the order of tabStability .. tabErrors
	advice      *widget.Label        // the advice for the classifier chosen, which the Signature tab preselects
}

// newResultsView builds the result tabs, their charts reporting errors through u.
func newResultsView(u *UI) *resultsView {
	redraw := func(string) { u.showResults() }
	r := &resultsView{numbers: widget.NewLabel(""), gridK: widget.NewEntry(),
		gridTable: widgets.NewStringTable(), topTable: widgets.NewStringTable(), errTable: widgets.NewStringTable()}
	r.stabChart = u.newChart(stabWaits)
	r.accChart = u.newChart(accWaits)
	r.gridChart = u.newChart(gridWaits)
	var measures []string
	for _, m := range plots.Measures {
		measures = append(measures, plots.PlainText(m.Label))
	}
	r.stabMeasure = widget.NewSelect(measures, redraw)
	r.stabMeasure.SetSelectedIndex(0)
	r.numbers.Wrapping = fyne.TextWrapWord
	r.accClass = widget.NewSelect(nil, redraw)
	// one panel per method keeps overlapping bands readable; shown and exported so
	r.stabSplit = widget.NewCheck("one panel per method", func(bool) { u.showResults() })
	r.accSplit = widget.NewCheck("one panel per method", func(bool) { u.showResults() })
	r.gridMethod = widget.NewSelect(nil, redraw)
	r.gridK.SetText("10")
	r.gridK.OnSubmitted = redraw
	r.topMethod = widget.NewSelect(nil, redraw)
	r.errClass = widget.NewSelect(nil, redraw)
	errNote := widget.NewLabel("After a run: each method's test error and S_S stability at k = 10, 20, ..., 50 (Kalousis et al. Table 3). With two or more methods, \"top group\" marks the method of least error and those McNemar's test (p >= 0.05) does not separate from it; among them, prefer the most stable.")
	errNote.Wrapping = fyne.TextWrapWord
	r.advice = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	r.advice.Wrapping = fyne.TextWrapWord
	gridSplit := container.NewHSplit(r.gridChart, r.gridTable.Table)
	gridSplit.Offset = 0.72
	r.tabs = []*container.TabItem{
		container.NewTabItem("Stability", container.NewBorder(
			container.NewHBox(widget.NewLabel("Measure"), r.stabMeasure, u.explainMeasure(r.stabMeasure), r.stabSplit), r.numbers, nil, nil, r.stabChart)),
		container.NewTabItem("Accuracy", container.NewBorder(
			container.NewHBox(widget.NewLabel("Classifier"), r.accClass, r.accSplit), nil, nil, nil, r.accChart)),
		container.NewTabItem("Selection grid", container.NewBorder(
			container.NewHBox(widget.NewLabel("Method"), r.gridMethod, widget.NewLabel("top k"), r.gridK, u.explain("selection frequency"), u.tableActions(r.gridTable, 0, "selection-frequency")), nil, nil, nil, gridSplit)),
		container.NewTabItem("Top features", container.NewBorder(
			container.NewHBox(widget.NewLabel("Method"), r.topMethod, u.tableActions(r.topTable, 0, "top-features")), nil, nil, nil, r.topTable.Table)),
		container.NewTabItem("Errors", container.NewBorder(
			container.NewVBox(container.NewHBox(widget.NewLabel("Classifier"), r.errClass, u.tableActions(r.errTable, -1, "errors"),
				widget.NewLabel("top group"), u.explain("top group"), widget.NewLabel("S_S"), u.explain("S_S")), errNote, r.advice), nil, nil, nil, r.errTable.Table)),
	}
	return r
}

// setResult offers res's methods and classifiers in the selectors, keeping a choice
// that still exists, and its grid k.
func (r *resultsView) setResult(res *experiment.Result) {
	r.running(false)
	var methods []string
	for _, m := range res.Methods {
		methods = append(methods, m.Label)
	}
	var classes []string
	for _, c := range res.Config.Classifiers {
		classes = append(classes, experiment.ClassifierLabel(c))
	}
	for _, s := range []*widget.Select{r.gridMethod, r.topMethod} {
		s.Options = methods
		if s.SelectedIndex() < 0 || s.SelectedIndex() >= len(methods) {
			s.Selected = methods[0]
		}
		s.Refresh()
	}
	for _, s := range []*widget.Select{r.accClass, r.errClass} {
		s.Options = classes
		if s.SelectedIndex() < 0 && len(classes) > 0 {
			s.Selected = classes[0]
		}
		s.Refresh()
	}
	r.gridK.SetText(strconv.Itoa(res.Config.GridK))
}

// show draws res on every result tab as the selectors ask.
func (r *resultsView) show(res *experiment.Result) {
	r.stabChart.SetRender(renderer(r.figure(res, tabStability)))
	r.numbers.SetText(stabilityText(res))
	if f := r.figure(res, tabAccuracy); f.Build != nil {
		r.accChart.SetRender(renderer(f))
	} else {
		r.accChart.SetRender(nil)
	}
	r.gridChart.SetRender(renderer(r.figure(res, tabGrid)))
	mi := max(r.gridMethod.SelectedIndex(), 0)
	var rows [][]string
	feats, count := plots.SelectionOrder(res, mi, r.gridKValue(res))
	sym := res.Data.Symbols != nil
	for _, j := range feats {
		row := []string{res.Data.Features[j], fmt.Sprintf("%d/%d", count[j], len(res.Methods[mi].Runs))}
		if sym {
			row = append(row, res.Data.Symbols[j])
		}
		rows = append(rows, row)
	}
	if sym {
		r.gridTable.SetRows([]string{"feature", "selected", symbolColumn}, rows, 140, 80, 110)
	} else {
		r.gridTable.SetRows([]string{"feature", "selected"}, rows, 140, 80)
	}
	top := r.figure(res, tabTop)
	r.topTable.SetRows(top.Table[0], top.Table[1:], 160, 140, 90, 140, 140)
	r.advice.SetText(r.adviceText(res))
	if et := r.figure(res, tabErrors); len(et.Table) > 0 {
		widths := []float32{50}
		for range res.Methods {
			widths = append(widths, 150, 100)
			if len(res.Methods) > 1 {
				widths = append(widths, 160)
			}
		}
		r.errTable.SetRows(et.Table[0], et.Table[1:], widths...)
	} else {
		r.errTable.SetRows(nil, nil)
	}
}

// stabilityText is the line under the stability chart: each method's whole-ranking
// stability with its notes and warnings, then Nogueira's tests.
func stabilityText(res *experiment.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %d samples. Whole-ranking stability (%s): ", res.Data.Name, res.Data.Samples, res.Config.Mode)
	for i, m := range res.Methods {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s score agreement (S_W) %s, rank agreement (S_R) %.3f", m.Label, plots.SWText(m.SW, func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }), m.SR)
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
	return b.String()
}

// gridKValue is the grid's k from its field, or the run's when the field holds none.
func (r *resultsView) gridKValue(res *experiment.Result) int {
	k, err := strconv.Atoi(strings.TrimSpace(r.gridK.Text))
	if err != nil || k < 1 {
		return res.Config.GridK
	}
	return k
}

// figure is the figure of res on result tab (tabStability .. tabErrors, tabTop) as
// the selectors ask; the zero Figure when the tab has nothing to show.
func (r *resultsView) figure(res *experiment.Result, tab int) plots.Figure {
	switch tab {
	case tabStability:
		return split(r.stabSplit, plots.StabilityVsK(res, plots.Measures[max(r.stabMeasure.SelectedIndex(), 0)]))
	case tabAccuracy:
		ci := r.accClass.SelectedIndex()
		if ci < 0 || ci >= len(res.Config.Classifiers) {
			return plots.Figure{}
		}
		return split(r.accSplit, plots.AccuracyVsK(res, res.Config.Classifiers[ci]))
	case tabGrid:
		return plots.SelectionGrid(res, max(r.gridMethod.SelectedIndex(), 0), r.gridKValue(res))
	case tabErrors:
		ci := r.errClass.SelectedIndex()
		if ci < 0 || ci >= len(res.Config.Classifiers) {
			return plots.Figure{}
		}
		return plots.ErrorTable(res, res.Config.Classifiers[ci])
	}
	return plots.TopTable(res, max(r.topMethod.SelectedIndex(), 0))
}

// adviceText is the Errors tab's advice for the classifier chosen: the method and k the
// Signature tab preselects, with why; "" when there is none.
func (r *resultsView) adviceText(res *experiment.Result) string {
	ci := r.errClass.SelectedIndex()
	if ci < 0 || ci >= len(res.Config.Classifiers) {
		return ""
	}
	why := signature.AdviceReason(res, res.Config.Classifiers[ci])
	if why == "" {
		return ""
	}
	return "Advice (the Signature tab preselects it): " + why
}

// What the result charts say before a run, and during one (running).
const (
	stabWaits = "Press Run to see how stable each method's selection is."
	accWaits  = "Accuracy appears after a run."
	gridWaits = "The selection-frequency grid appears after a run."
	runWaits  = "Running: the %s appears when the run finishes (progress and the time left are below)."
)

// running says on the result charts, while nothing is drawn on them, that a run is
// under way (on), or what to do before one (off: the run failed or was cancelled).
func (r *resultsView) running(on bool) {
	if !on {
		r.stabChart.SetPlaceholder(stabWaits)
		r.accChart.SetPlaceholder(accWaits)
		r.gridChart.SetPlaceholder(gridWaits)
		return
	}
	r.stabChart.SetPlaceholder(fmt.Sprintf(runWaits, "stability of each method's selection"))
	r.accChart.SetPlaceholder(fmt.Sprintf(runWaits, "accuracy"))
	r.gridChart.SetPlaceholder(fmt.Sprintf(runWaits, "selection-frequency grid"))
}
