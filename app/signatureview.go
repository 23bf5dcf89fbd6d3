package app

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/plots"
	"steadfast/widgets"
)

// signatureView is the Signature tab: a run's signature (a method's genes at k with a
// classifier locked on all samples), its genes with their statistics, its
// cross-validated ROC curves, heatmap and genes by class, Save model and the
// permutation test.
type signatureView struct {
	u          *UI
	content    fyne.CanvasObject
	method     *widget.Select
	k          *widget.Select
	classifier *widget.Select
	positive   *widget.Select
	frequent   *widget.Check
	build      *widget.Button
	perms      *widget.Entry
	permBtn    *widget.Button
	show       *widget.Select // which figure the chart shows
	metrics    *widget.Label  // the headline, a line or two
	more       *widget.Label  // the rest of the metrics, folded under moreBtn
	moreBtn    *widget.Button // More / Less
	table      *widgets.StringTable
	chart      *widgets.Chart
	fold       *fyne.Container    // the method, k, classifier and positive class, hidden after a build
	choiceBtn  *widget.Button     // shows or hides fold
	stale      *widget.Label      // says when the signature shown is not of the choice shown
	nestBtn    *widget.Button     // the nested estimate of a method and k the user gave
	views      *container.AppTabs // Figure, Table and Meaning
	meaning    *meaningView
	sig        *study.Signature
	figs       []plots.Figure
	figure     plots.Figure       // on screen, for export
	classifs   []string           // select index -> classifier name
	result     *experiment.Result // the run sig was built from
	// the validation on another cohort: its form, figures and tables
	form        *cohortForm
	valFigs     []plots.Figure
	cohortTable *widgets.StringTable
	confusion   *widgets.StringTable // the cross-validated confusion matrix
	operating   *widgets.StringTable // the operating points (two classes)
	probs       *widgets.StringTable // each sample's probability (two classes)
	matchTable  *widgets.StringTable
	// cohortConfusion is the cohort's own confusion matrix
	cohortConfusion *widgets.StringTable
	// choices counts the nested estimate's inner choices (nested-choice-counts.csv)
	choices     *widgets.StringTable
	tables      *widget.Select // which table shows: tableShows
	tableStack  []fyne.CanvasObject
	cohortReads []study.Input // the validation's cohort files: nothing is saved over them
	// needSig are the buttons that act on a built signature: disabled until one is
	needSig []*widget.Button
	// saved is the signature a reopened run kept: Build signature with its choice
	// restores its nested estimate and permutation test
	saved *study.SignatureRecord
	// modelOnly is set while an opened model file is shown: its choice is read-only
	// and Build signature waits for a run
	modelOnly bool
}

// setSaved preselects the choice of the signature a reopened run kept, and says so.
func (v *signatureView) setSaved(r *study.SignatureRecord) {
	v.saved = r
	if r == nil || r.Choice.Method < 0 || r.Choice.Method >= len(v.method.Options) {
		return
	}
	v.method.SetSelected(v.method.Options[r.Choice.Method])
	v.k.SetSelected(strconv.Itoa(r.Choice.K))
	if i := slices.Index(v.classifs, r.Choice.Classifier); i >= 0 {
		v.classifier.SetSelected(v.classifier.Options[i])
	}
	v.frequent.SetChecked(r.Choice.Frequent)
	if r.Positive != "" {
		v.positive.SetSelected(r.Positive)
	}
	kept := "its choice"
	if r.Perm != nil {
		kept += fmt.Sprintf(", its permutation test (p = %.3g)", r.Perm.P)
	}
	if r.Nested != nil {
		kept += " and its nested estimate"
	}
	v.setMetrics("This run was saved with a signature: "+kept+". Press Build signature to rebuild it from the data; what took long is restored, not recomputed.", "")
}

// tableShows are the tables the tab can show: the signature's genes, and after a
// validation the cohort's predictions and how each gene was matched; with a nested
// estimate its inner choices.
var tableShows = []string{"signature genes", "confusion matrix", "operating points", "sample probabilities", "cohort predictions", "cohort genes matched", "cohort confusion matrix", "inner choices of the nested AUC"}

// cohortShow is how the figure choice names a validation figure.
func cohortShow(f plots.Figure) string {
	switch {
	case strings.Contains(f.Name, "heatmap"):
		return "cohort heatmap"
	case strings.Contains(f.Name, "shift"):
		return "cohort against training"
	}
	return "cohort ROC"
}

// signatureShows name the signature's figures (plots.SignatureFigures, then the
// permutation test's) in the figure choice, by their file names.
var signatureShows = map[string]string{"signature-roc": "ROC curves", "signature-heatmap": "heatmap", "signature-genes": "genes by class",
	"signature-calibration": "calibration", "signature-permutations": "permutation test"}

// signatureShow names figure i of figs in the figure choice: by signatureShows, and a
// page of genes by class by its genes when there are more (plots.GenesPerPage a page).
func signatureShow(name string, i int, figs []plots.Figure) string {
	if !strings.HasPrefix(name, "signature-genes") {
		return signatureShows[name]
	}
	first := i
	for first > 0 && strings.HasPrefix(figs[first-1].Name, "signature-genes") {
		first--
	}
	total := 0
	for _, f := range figs[first:] {
		if strings.HasPrefix(f.Name, "signature-genes") {
			total += f.Panels
		}
	}
	if total <= plots.GenesPerPage {
		return signatureShows["signature-genes"]
	}
	from := (i-first)*plots.GenesPerPage + 1
	return fmt.Sprintf("genes %d-%d by class", from, from+figs[i].Panels-1)
}

func newSignatureView(u *UI) *signatureView {
	v := &signatureView{u: u, table: widgets.NewStringTable(), confusion: widgets.NewStringTable(), operating: widgets.NewStringTable(), probs: widgets.NewStringTable(), cohortTable: widgets.NewStringTable(), matchTable: widgets.NewStringTable(), cohortConfusion: widgets.NewStringTable(), choices: widgets.NewStringTable(), metrics: widget.NewLabel("After a run: choose a method, k and classifier (the Errors tab's advice is preselected) and press Build signature."),
		chart: u.newChart("The signature's cross-validated ROC curves, heatmap and genes by class appear here.")}
	v.metrics.Wrapping = fyne.TextWrapWord
	v.more = widget.NewLabel("")
	v.more.Wrapping = fyne.TextWrapWord
	v.more.Hide()
	v.moreBtn = widget.NewButton("More", v.toggleMore)
	v.moreBtn.Importance = widget.LowImportance
	v.moreBtn.Hide()
	v.method = widget.NewSelect(nil, nil)
	v.k = widget.NewSelect(nil, nil)
	v.classifier = widget.NewSelect(nil, nil)
	v.positive = widget.NewSelect(nil, nil)
	v.frequent = widget.NewCheck("the k most frequent genes", nil)
	v.build = widget.NewButtonWithIcon("Build signature", theme.MediaPlayIcon(), v.compute)
	v.build.Importance = widget.HighImportance
	v.perms = widget.NewEntry()
	v.perms.SetText("100")
	v.permBtn = widget.NewButton("Permutation test...", v.permute)
	v.show = widget.NewSelect([]string{signatureShows["signature-roc"]}, func(string) { v.draw() })
	v.show.SetSelectedIndex(0)
	save := widget.NewButtonWithIcon("Save model...", theme.DocumentSaveIcon(), v.saveModel)
	validate := widget.NewButtonWithIcon("Validate...", theme.FolderOpenIcon(), v.showValidate)
	details := widget.NewButton("Details...", v.showDetails)
	report := widget.NewButtonWithIcon("Report...", theme.DocumentIcon(), u.ShowReport)
	v.nestBtn = widget.NewButton("Nested estimate...", v.askNested)
	v.nestBtn.Hide()
	v.needSig = []*widget.Button{save, validate, details, report, v.permBtn}
	v.enable(false)
	for _, s := range []*widget.Select{v.method, v.k, v.classifier, v.positive} {
		s.OnChanged = func(string) { v.markStale() }
	}
	v.frequent.OnChanged = func(bool) { v.markStale() }
	// rows short enough for a laptop's result pane (about 850 points at 1366 x 768)
	choice := container.NewVBox(
		container.NewHBox(widget.NewLabel("Method"), v.method, widget.NewLabel("k"), v.k, widget.NewLabel("classifier"), v.classifier),
		container.NewHBox(widget.NewLabel("positive class"), v.positive, v.frequent, v.build))
	// the choice hides once a signature is built, so the figure and the table get the
	// pane; the Choice button shows it again, and the actions stay in view
	v.fold = choice
	v.choiceBtn = widget.NewButtonWithIcon("Choice", theme.MenuDropDownIcon(), func() { v.showChoice(!v.fold.Visible()) })
	choice.Objects[0].(*fyne.Container).Add(u.explainTerms("The Signature tab's terms", signatureTerms))
	actions := container.NewHScroll(container.NewHBox(v.choiceBtn, save, validate, report, widget.NewLabel("permutations"),
		container.NewGridWrap(fyne.NewSize(64, 36), v.perms), v.permBtn))
	v.stale = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.stale.Importance = widget.WarningImportance
	v.stale.Wrapping = fyne.TextWrapWord
	v.stale.Hide()
	// each table's buttons scroll sideways rather than widen the pane beyond a laptop's
	v.tableStack = []fyne.CanvasObject{
		container.NewBorder(container.NewHScroll(u.tableActions(v.table, 0, "signature")), nil, nil, nil, v.table.Table),
		container.NewBorder(container.NewHScroll(u.tableActions(v.confusion, -1, "signature-confusion")), nil, nil, nil, v.confusion.Table),
		container.NewBorder(container.NewHScroll(u.tableActions(v.operating, -1, "signature-operating")), nil, nil, nil, v.operating.Table),
		container.NewBorder(container.NewHScroll(u.tableActions(v.probs, 0, "signature-probabilities")), nil, nil, nil, v.probs.Table),
		container.NewBorder(container.NewHScroll(u.tableActions(v.cohortTable, -1, "cohort-predictions")), nil, nil, nil, v.cohortTable.Table),
		container.NewBorder(container.NewHScroll(u.tableActions(v.matchTable, 0, "cohort-genes")), nil, nil, nil, v.matchTable.Table),
		container.NewBorder(container.NewHScroll(u.tableActions(v.cohortConfusion, -1, "cohort-confusion")), nil, nil, nil, v.cohortConfusion.Table),
		container.NewBorder(container.NewHScroll(u.tableActions(v.choices, -1, "nested-choice-counts")), nil, nil, nil, v.choices.Table)}
	v.tables = widget.NewSelect(tableShows[:2], func(string) { v.showTable() })
	v.tables.SetSelectedIndex(0)
	tables := container.NewBorder(container.NewHBox(widget.NewLabel("table"), container.NewGridWrap(fyne.NewSize(230, v.tables.MinSize().Height), v.tables)), nil, nil, nil, container.NewStack(v.tableStack...))
	v.showTable()
	enlarge := widget.NewButtonWithIcon("Own window", theme.ViewFullScreenIcon(), func() { u.openFigureWindow(v.figure) })
	figure := container.NewBorder(container.NewHBox(widget.NewLabel("show"), container.NewGridWrap(fyne.NewSize(230, v.show.MinSize().Height), v.show), enlarge), nil, nil, nil, v.chart)
	// a figure and a table each get the whole pane, side by side when the user wants both
	v.meaning = newMeaningView(u)
	v.views = container.NewAppTabs(container.NewTabItem("Figure", figure), container.NewTabItem("Table", tables), container.NewTabItem("Meaning", v.meaning.content))
	head := container.NewBorder(nil, nil, nil, container.NewVBox(v.nestBtn, container.NewHBox(details, v.moreBtn)), v.metrics) // the offer beside the warning
	v.content = container.NewBorder(container.NewVBox(v.fold, actions, v.stale, head, v.more), nil, nil, nil, v.views)
	return v
}

// showChoice shows (or hides) the method, k, classifier and positive class.
func (v *signatureView) showChoice(on bool) {
	if on {
		v.fold.Show()
		v.choiceBtn.SetIcon(theme.MenuDropDownIcon())
	} else {
		v.fold.Hide()
		v.choiceBtn.SetIcon(theme.MenuExpandIcon())
	}
}

// enable enables (or disables) the buttons that act on a built signature.
func (v *signatureView) enable(on bool) {
	for _, b := range v.needSig {
		if on {
			b.Enable()
		} else {
			b.Disable()
		}
	}
}

// setResult offers res's methods, accuracy ks, classifiers and classes, the advice
// preselected and said with its reason.
func (v *signatureView) setResult(res *experiment.Result) {
	v.sig, v.figs, v.figure, v.valFigs, v.saved = nil, nil, plots.Figure{}, nil, nil
	v.modelOnly = false
	v.stale.Hide()
	v.nestBtn.Hide()
	for _, w := range []fyne.Disableable{v.method, v.k, v.classifier, v.positive, v.frequent, v.build} {
		w.Enable()
	}
	v.meaning.clear()
	v.enable(false)
	v.cohortTable.SetRows([]string{"sample"}, nil, 100)
	v.matchTable.SetRows([]string{"gene"}, nil, 100)
	v.showOptions()
	v.chart.SetRender(nil)
	v.table.SetRows([]string{"gene"}, nil, 100)
	for _, t := range []*widgets.StringTable{v.confusion, v.operating, v.probs} {
		t.SetRows(nil, nil)
	}
	v.showChoice(true)
	var methods, ks, cls []string
	for _, m := range res.Methods {
		methods = append(methods, m.Label)
	}
	for _, k := range res.Config.AccuracyKs() {
		ks = append(ks, strconv.Itoa(k))
	}
	v.classifs = res.Config.Classifiers
	for _, c := range v.classifs {
		cls = append(cls, experiment.ClassifierLabel(c))
	}
	v.method.Options, v.k.Options, v.classifier.Options = methods, ks, cls
	v.positive.Options = nil
	if len(res.Data.Classes) == 2 {
		v.positive.Options = slices.Clone(res.Data.Classes)
		p, _ := signature.DefaultPositive(res.Data.Classes)
		v.positive.Selected = res.Data.Classes[p]
	}
	if len(cls) > 0 {
		v.classifier.Selected = cls[0]
		if m, k, ok := signature.Advice(res, v.classifs[0]); ok {
			v.method.Selected, v.k.Selected = methods[m], strconv.Itoa(k)
		}
	}
	for _, s := range []*widget.Select{v.method, v.k, v.classifier, v.positive} {
		s.Refresh()
	}
	intro := "Press Build signature: the genes, the classifier locked on all samples, and how well the procedure predicts (from the study's own resamples)."
	if len(v.classifs) > 0 {
		if why := signature.AdviceReason(res, v.classifs[0]); why != "" {
			intro = "Preselected, the advice the Errors tab gives for " + cls[0] + ": " + why + " " + intro
		}
	}
	v.setMetrics(intro, "")
}

// of is the signature built on screen when it is of the run res, else nil.
func (v *signatureView) of(res *experiment.Result) *study.Signature {
	if v.sig == nil || v.result != res || v.sig.CV == nil {
		return nil
	}
	return v.sig
}

// choice is the form's signature choice.
func (v *signatureView) choice() (signature.Choice, error) {
	k, err := strconv.Atoi(v.k.Selected)
	if err != nil || v.method.SelectedIndex() < 0 || v.classifier.SelectedIndex() < 0 {
		return signature.Choice{}, fmt.Errorf("choose a method, a k and a classifier first")
	}
	return signature.Choice{Method: v.method.SelectedIndex(), K: k, Classifier: v.classifs[v.classifier.SelectedIndex()], Frequent: v.frequent.Checked}, nil
}

// compute builds the signature in the background from the run and the data open.
func (v *signatureView) compute() {
	res, ds := v.u.result, v.u.data
	if res == nil {
		v.u.showError(fmt.Errorf("no run yet: press Run first"))
		return
	}
	c, err := v.choice()
	if err != nil {
		v.u.showError(err)
		return
	}
	positive, saved := v.positive.Selected, v.saved
	if p, _ := signature.DefaultPositive(res.Data.Classes); p >= 0 && positive == res.Data.Classes[p] {
		positive = "" // the rule's choice, said as such
	}
	v.u.startTask("Signature", func(ctx context.Context, report func(experiment.Progress)) (func(), error) {
		report(experiment.Progress{Total: 1, Stage: "signature"})
		sig, err := study.BuildSignature(ctx, res, ds, c, positive)
		if err != nil {
			return nil, err
		}
		if sig.Restore(saved) {
			val, err := sig.Revalidate(ctx, saved)
			if err != nil && ctx.Err() != nil {
				return nil, err
			}
			var valFigs []plots.Figure
			if val != nil {
				valFigs = plots.ValidationFigures(val)
			}
			return func() {
				v.result = res
				v.setSignature(sig, plots.SignatureFigures(res, sig))
				if val != nil {
					v.cohortReads = []study.Input{{What: "cohort's data file", Path: sig.Cohort.Path}, {What: "cohort's annotation file", Path: sig.Cohort.Options.Read.SymbolsPath}}
					v.setValidation(val, valFigs)
				}
				if err != nil {
					v.u.showError(err)
				}
			}, nil
		}
		if sig.Advised {
			if err := sig.Nest(ctx, res, ds, func(done, total int) {
				report(experiment.Progress{Done: done, Total: total, Stage: "nested estimate (the advice's choice made again in each training set)"})
			}); err != nil && ctx.Err() != nil {
				return nil, err
			}
		}
		figs := plots.SignatureFigures(res, sig)
		return func() { v.result = res; v.setSignature(sig, figs) }, nil
	})
}

// setSignature shows sig: its genes, its metrics and the figure chosen.
func (v *signatureView) setSignature(sig *study.Signature, figs []plots.Figure) {
	v.sig, v.figs, v.valFigs = sig, figs, nil
	v.meaning.clear()
	v.enable(true)
	v.showChoice(false)
	v.nestBtn.Hide()
	if sig.CV != nil && v.offerNested(sig) {
		v.nestBtn.Show()
	}
	if sig.CV == nil { // an opened model: nothing to permute
		v.permBtn.Disable()
	}
	v.showOptions()
	head, rows := sig.GeneDisplay()
	v.table.SetRows(head, rows, 110, 80, 70, 70, 80, 70, 80, 80, 70, 70, 200)
	ch, cr := sig.ConfusionDisplay()
	v.confusion.SetRows(ch, cr, 140, 90)
	oh, or := sig.OperatingDisplay()
	v.operating.SetRows(oh, or, 200, 100, 150, 150, 150, 150, 220)
	ph, pr := sig.ProbabilityDisplay()
	v.probs.SetRows(ph, pr, 140, 90, 120)
	v.choices.SetRows(nil, nil)
	if sig.Nested != nil {
		nh, nr := study.NestedCountDisplay(sig.Nested.Choices)
		v.choices.SetRows(nh, nr, 260, 60, 260, 70)
	}
	v.showMetrics()
	v.markStale()
	v.draw()
}

// showOptions offers the figures and tables there are: the signature's, and a
// validation's after one.
func (v *signatureView) showOptions() {
	var shows []string
	for i, f := range v.figs {
		shows = append(shows, signatureShow(f.Name, i, v.figs))
	}
	tables := tableShows[:2]
	if v.sig != nil && v.sig.Op != nil {
		tables = tableShows[:4]
	}
	for _, f := range v.valFigs {
		shows = append(shows, cohortShow(f))
	}
	if v.sig != nil && v.sig.Validation != nil {
		tables = append(slices.Clone(tables), tableShows[4:7]...)
	}
	if v.sig != nil && v.sig.Nested != nil {
		tables = append(slices.Clone(tables), tableShows[7])
	}
	v.show.Options, v.tables.Options = shows, tables
	if v.show.SelectedIndex() < 0 {
		v.show.SetSelectedIndex(0)
	}
	if v.tables.SelectedIndex() < 0 {
		v.tables.SetSelectedIndex(0)
	}
	v.show.Refresh()
	v.tables.Refresh()
}

// showTable shows the table chosen.
func (v *signatureView) showTable() {
	chosen := slices.Index(tableShows, v.tables.Selected)
	for i, t := range v.tableStack {
		if i == chosen {
			t.Show()
			t.Refresh() // a table filled while hidden shows its rows at once
		} else {
			t.Hide()
		}
	}
}

// draw shows the figure chosen.
func (v *signatureView) draw() {
	i := v.show.SelectedIndex()
	all := append(slices.Clone(v.figs), v.valFigs...)
	if v.sig == nil || i < 0 || i >= len(all) {
		return
	}
	v.figure = all[i]
	v.chart.SetMinSize(widgets.DefaultChartMin)
	if v.sig.CV == nil && strings.Contains(v.figure.Name, "heatmap") { // a cohort's: a row a gene found
		v.chart.SetMinSize(heatMinSize(len(v.sig.Genes)))
	}
	if strings.Contains(v.figure.Name, "heatmap") { // a row a gene
		v.chart.SetMinSize(heatMinSize(len(v.sig.Genes)))
	}
	v.chart.SetRender(renderer(v.figure))
}

// permute asks, with its estimated cost, then runs the permutation test.
func (v *signatureView) permute() {
	if v.sig == nil {
		v.u.showError(fmt.Errorf("build the signature first (Build signature)"))
		return
	}
	v.u.askPermutations(v.perms, v.u.result, v.sig.Choice, v.sig.Advised, "labels", "", v.runPermutations)
}

// runPermutations runs the permutation test of n permutations as a task.
func (v *signatureView) runPermutations(n int) {
	res, ds, sig := v.u.result, v.u.data, v.sig
	v.u.startTask("Permutation test", func(ctx context.Context, report func(experiment.Progress)) (func(), error) {
		return v.permutations(ctx, res, ds, sig, n, report)
	})
}

// permutations runs the test of sig (of res on ds) on the task's goroutine and returns
// what shows it.
func (v *signatureView) permutations(ctx context.Context, res *experiment.Result, ds *dataset.Dataset, sig *study.Signature, n int, report func(experiment.Progress)) (func(), error) {
	perm, err := study.Permute(ctx, res, ds, sig, n, res.Config.Seed, func(done, total int) {
		report(experiment.Progress{Done: done, Total: total, Stage: "permuted studies (the first on the true labels)"})
	})
	if err != nil {
		return nil, err
	}
	return func() {
		if v.sig == sig {
			sig.Perm = perm
			v.figs = append(slices.DeleteFunc(v.figs, func(f plots.Figure) bool { return f.Name == "signature-permutations" }), plots.PermutationFigure(res.Data.Name, perm))
			v.showOptions()
			v.show.SetSelected("permutation test")
			v.showMetrics()
		}
	}, nil
}
