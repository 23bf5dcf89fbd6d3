package app

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"gonum.org/v1/plot/vg"

	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/plots"
	"steadfast/widgets"
)

// survivalView is the Signature tab of a survival study: a method's genes at k with the
// Cox model locked on all samples, its cross-validated C, risk groups, hazard ratios,
// time-dependent AUC and calibration, and Save signature.
type survivalView struct {
	u        *UI
	content  fyne.CanvasObject
	method   *widget.Select
	k        *widget.Select
	groups   *widget.Select
	horizons *widget.Entry
	unit     *widget.Entry
	covs     *widget.CheckGroup // the covariates of the added value
	covNote  *widget.Label      // what covs offers, or that the data have none
	covOther *widget.Entry      // other columns as covariates, by name
	build    *widget.Button
	save     *widget.Button
	validate *widget.Button
	report   *widget.Button
	form     *cohortForm // the Validate dialog's fields, kept
	cohort   *widgets.StringTable
	val      *signature.Validation // the last cohort's
	valFigs  []plots.Figure
	metrics  *widget.Label
	more     *widget.Label  // the rest of the measures, under moreBtn
	moreBtn  *widget.Button // More / Less
	show     *widget.Select
	chart    *widgets.Chart
	tables   *widget.Select
	genes    *widgets.StringTable
	measures *widgets.StringTable
	preds    *widgets.StringTable
	added    *widgets.StringTable // added_value.csv
	choices  *widgets.StringTable // nested-choice-counts.csv
	stack    []fyne.CanvasObject
	fold     *widget.Accordion
	stale    *widget.Label  // says when the signature shown is not of the form's choice
	nestBtn  *widget.Button // the nested C of a method and k the user gave
	built    string         // the form (formKey) the signature shown was built from
	sig      *study.SurvivalSignature
	result   *experiment.Result // the run sig was built from
	figs     []plots.Figure
	figure   plots.Figure // on screen, for export

	// the permutation test of C (survperm.go): how many, and the button that runs it
	perms   *widget.Entry
	permBtn *widget.Button
	// saved is the signature a reopened run kept (survperm.go setSaved)
	saved *study.SignatureRecord
}

// survivalShows name the survival signature's figures in the figure choice.
var survivalShows = map[string]string{"signature-km": "Kaplan-Meier (cross-validated groups)", "signature-forest": "hazard ratios",
	"signature-survival-calibration": "calibration", "signature-heatmap": "heatmap", "signature-forest-covariates": "hazard ratios with clinical covariates",
	"signature-permutations": "permutation test"}

// survivalTerms are the glossary entries the tab's "?" explains.
var survivalTerms = []string{"survival outcome", "censored", "Cox model", "Harrell's C", "hazard ratio", "risk group", "time-dependent AUC", "horizon", "added value",
	"nested estimate", "permutation test"}

func newSurvivalView(u *UI) *survivalView {
	v := &survivalView{u: u, genes: widgets.NewStringTable(), measures: widgets.NewStringTable(), preds: widgets.NewStringTable(), cohort: widgets.NewStringTable(), added: widgets.NewStringTable(), choices: widgets.NewStringTable(),
		metrics: widget.NewLabel("After a survival run: choose a method and k (the Errors tab's advice is preselected) and press Build signature."),
		chart:   u.newChart("The signature's Kaplan-Meier curves, hazard ratios, calibration and heatmap appear here.")}
	v.metrics.Wrapping = fyne.TextWrapWord
	v.more = widget.NewLabel("")
	v.more.Wrapping = fyne.TextWrapWord
	v.more.Hide()
	v.moreBtn = widget.NewButton("More", func() {
		if v.more.Visible() {
			v.more.Hide()
			v.moreBtn.SetText("More")
		} else {
			v.more.Show()
			v.moreBtn.SetText("Less")
		}
	})
	v.moreBtn.Importance = widget.LowImportance
	v.moreBtn.Hide()
	v.method, v.k = widget.NewSelect(nil, nil), widget.NewSelect(nil, nil)
	v.groups = widget.NewSelect([]string{"median (two groups)", "tertiles (three groups)"}, nil)
	v.groups.SetSelectedIndex(0)
	v.horizons = widget.NewEntry()
	v.horizons.SetPlaceHolder("median follow-up")
	v.unit = widget.NewEntry()
	v.unit.SetPlaceHolder("e.g. years")
	v.covs = widget.NewCheckGroup(nil, nil)
	v.covs.Horizontal = true
	v.covNote = widget.NewLabel("")
	v.covNote.Wrapping = fyne.TextWrapWord // a long note wraps rather than widening the pane
	v.covOther = widget.NewEntry()
	v.covOther.SetPlaceHolder("other columns, e.g. IPI")
	v.build = widget.NewButtonWithIcon("Build signature", theme.MediaPlayIcon(), v.compute)
	v.build.Importance = widget.HighImportance
	v.save = widget.NewButtonWithIcon("Save signature...", theme.DocumentSaveIcon(), v.saveFolder)
	v.save.Disable()
	v.validate = widget.NewButtonWithIcon("Validate...", theme.FolderOpenIcon(), v.askValidate)
	v.validate.Disable()
	v.report = widget.NewButtonWithIcon("Report...", theme.DocumentIcon(), u.ShowReport)
	v.report.Disable()
	v.nestBtn = widget.NewButton("Nested C...", v.askNested)
	v.nestBtn.Hide()
	v.stale = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.stale.Importance = widget.WarningImportance
	v.stale.Wrapping = fyne.TextWrapWord
	v.stale.Hide()
	for _, s := range []*widget.Select{v.method, v.k, v.groups} {
		s.OnChanged = func(string) { v.markStale() }
	}
	v.horizons.OnChanged = func(string) { v.markStale() }
	v.show = widget.NewSelect(nil, func(string) { v.draw() })
	choice := container.NewVBox(
		container.NewHBox(widget.NewLabel("Method"), v.method, widget.NewLabel("k"), v.k, widget.NewLabel("risk groups"), v.groups),
		container.NewHBox(widget.NewLabel("horizons"), container.NewGridWrap(fyne.NewSize(150, 36), v.horizons),
			widget.NewLabel("time unit"), container.NewGridWrap(fyne.NewSize(110, 36), v.unit), v.build),
		container.NewBorder(nil, nil, container.NewHBox(widget.NewLabel("added value over"), v.covs, container.NewGridWrap(fyne.NewSize(180, 36), v.covOther)), nil, v.covNote))
	// the choice folds away after a build; the actions stay in view
	v.fold = widget.NewAccordion(widget.NewAccordionItem("Method, k, risk groups, horizons and covariates", choice))
	v.fold.Open(0)
	actions := container.NewHScroll(container.NewHBox(v.save, v.validate, v.report, v.permRow(), u.explainTerms("The survival signature's terms", survivalTerms)))
	v.stack = []fyne.CanvasObject{
		container.NewBorder(container.NewHScroll(u.tableActions(v.genes, 1, "signature")), nil, nil, nil, v.genes.Table),
		container.NewBorder(container.NewHScroll(u.tableActions(v.measures, -1, "signature-metrics")), nil, nil, nil, v.measures.Table),
		container.NewBorder(container.NewHScroll(u.tableActions(v.preds, -1, "signature-predictions")), nil, nil, nil, v.preds.Table),
		container.NewBorder(container.NewHScroll(u.tableActions(v.cohort, -1, "cohort-predictions")), nil, nil, nil, v.cohort.Table),
		container.NewBorder(container.NewHScroll(u.tableActions(v.added, -1, "added_value")), nil, nil, nil, v.added.Table),
		container.NewBorder(container.NewHScroll(u.tableActions(v.choices, -1, "nested-choice-counts")), nil, nil, nil, v.choices.Table)}
	v.tables = widget.NewSelect([]string{"signature genes", "measures", "sample risk scores", "cohort risk scores", "added value over covariates", "inner choices of the nested C"}, func(string) { v.showTable() })
	v.tables.SetSelectedIndex(0)
	tables := container.NewBorder(container.NewHBox(widget.NewLabel("table"), v.tables), nil, nil, nil, container.NewStack(v.stack...))
	enlarge := widget.NewButtonWithIcon("Own window", theme.ViewFullScreenIcon(), func() { u.openFigureWindow(v.figure) })
	figure := container.NewBorder(container.NewHBox(widget.NewLabel("show"), container.NewGridWrap(fyne.NewSize(280, v.show.MinSize().Height), v.show), enlarge), nil, nil, nil, v.chart)
	views := container.NewAppTabs(container.NewTabItem("Figure", figure), container.NewTabItem("Table", tables))
	head := container.NewBorder(nil, nil, nil, container.NewVBox(v.nestBtn, v.moreBtn), v.metrics) // the offer beside the warning
	v.content = container.NewBorder(container.NewVBox(v.fold, actions, v.stale, head, v.more), nil, nil, nil, views)
	return v
}

// setResult offers res's methods and ks, the advice preselected and said.
func (v *survivalView) setResult(res *experiment.Result) {
	v.sig, v.figs, v.figure, v.val, v.valFigs, v.saved = nil, nil, plots.Figure{}, nil, nil, nil
	v.save.Disable()
	v.validate.Disable()
	v.report.Disable()
	v.permBtn.Disable()
	v.nestBtn.Hide()
	v.stale.Hide()
	v.chart.SetRender(nil)
	v.show.Options, v.show.Selected = nil, "" // no figure named from the last signature
	v.show.Refresh()
	v.fold.Open(0)
	var methods, ks []string
	for _, m := range res.Methods {
		methods = append(methods, m.Label)
	}
	for _, k := range res.Config.AccuracyKs() {
		ks = append(ks, strconv.Itoa(k))
	}
	v.method.Options, v.k.Options = methods, ks
	intro := "Press Build signature: the genes, the Cox model locked on all samples, and how well the procedure predicts (from the study's own resamples)."
	if m, k, ok := signature.Advice(res, "cox"); ok {
		v.method.Selected, v.k.Selected = methods[m], strconv.Itoa(k)
		intro = "Preselected, the advice the Errors tab gives for the Cox model: " + signature.AdviceReason(res, "cox") + " " + intro
	}
	v.method.Refresh()
	v.k.Refresh()
	v.setCovariates()
	v.metrics.SetText(intro)
	v.more.SetText("")
	v.more.Hide()
	v.moreBtn.Hide()
	for _, t := range []*widgets.StringTable{v.genes, v.measures, v.preds, v.cohort, v.added, v.choices} {
		t.SetRows(nil, nil)
	}
}

// of is the survival signature on screen and its cohort's validation, when it was
// built from the run res; nil otherwise.
func (v *survivalView) of(res *experiment.Result) (*study.SurvivalSignature, *signature.Validation) {
	if v.sig == nil || v.result != res {
		return nil, nil
	}
	return v.sig, v.val
}

// options reads the form: the choice and the survival options.
func (v *survivalView) options() (signature.Choice, study.SurvivalOptions, error) {
	k, err := strconv.Atoi(v.k.Selected)
	if err != nil || v.method.SelectedIndex() < 0 {
		return signature.Choice{}, study.SurvivalOptions{}, fmt.Errorf("choose a method and a k first")
	}
	c := signature.Choice{Method: v.method.SelectedIndex(), K: k, Classifier: "cox", Cut: signature.CutRule{Kind: "median"}}
	if v.groups.SelectedIndex() == 1 {
		c.Cut.Kind = "tertiles"
	}
	o := study.SurvivalOptions{Unit: strings.TrimSpace(v.unit.Text)}
	for _, part := range strings.Split(v.horizons.Text, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		h, err := strconv.ParseFloat(part, 64)
		if err != nil || !(h > 0) {
			return c, o, fmt.Errorf("horizons: %q is not a list of positive times (e.g. 2, 5), in the data's unit", v.horizons.Text)
		}
		o.Horizons = append(o.Horizons, h)
	}
	return c, o, nil
}

// compute builds the survival signature in the background.
func (v *survivalView) compute() {
	res, ds := v.u.result, v.u.data
	if res == nil || res.Data.Survival == nil {
		v.u.showError(fmt.Errorf("no survival run yet: press Run first"))
		return
	}
	c, o, err := v.options()
	if err != nil {
		v.u.showError(err)
		return
	}
	key := v.formKey()
	covs := slices.Clone(v.covs.Selected)
	for _, name := range strings.Split(v.covOther.Text, ",") {
		if name = strings.TrimSpace(name); name != "" && !slices.Contains(covs, name) {
			covs = append(covs, name)
		}
	}
	saved := v.saved
	v.u.startTask("Signature", func(ctx context.Context, report func(experiment.Progress)) (func(), error) {
		report(experiment.Progress{Total: 1, Stage: "survival signature: the locked Cox model and every resample's refitted"})
		sig, err := study.BuildSurvivalSignature(ctx, res, ds, c, o)
		if err != nil {
			return nil, err
		}
		if err := nestSurvival(ctx, res, ds, sig, saved, report); err != nil {
			return nil, err
		}
		figs := plots.SurvivalSignatureFigures(res, sig)
		var avErr error
		if len(covs) > 0 {
			report(experiment.Progress{Total: 1, Stage: "added value: Cox models of the covariates with and without the risk score"})
			if av, err := sig.AddedValue(ds, covs); err != nil {
				avErr = fmt.Errorf("the signature is built, but its added value over %s could not be measured: %w", strings.Join(covs, ", "), err)
			} else {
				figs = append(figs, plots.AddedValueForest(res.Data.Name, av))
			}
		}
		return func() {
			v.result, v.built = res, key
			v.setSignature(sig, figs)
			if avErr != nil {
				v.u.showError(avErr)
			}
		}, nil
	})
}

// setSignature shows sig: its headline, figures and tables.
func (v *survivalView) setSignature(sig *study.SurvivalSignature, figs []plots.Figure) {
	v.sig, v.figs, v.val, v.valFigs = sig, figs, nil, nil
	v.save.Enable()
	v.validate.Enable()
	v.report.Enable()
	v.permBtn.Enable()
	v.cohort.SetRows(nil, nil)
	v.fold.Close(0)
	v.nestBtn.Hide()
	given := ""
	if v.offerNested(sig) {
		v.nestBtn.Show()
		given = " Nested C... gives the nested estimate."
	}
	all := sig.Performance()
	head, rest, _ := strings.Cut(all, ". ")
	v.metrics.SetText(fmt.Sprintf("%d genes. %s.%s%s", len(sig.Genes), head, given, permHead(sig)))
	v.more.SetText(rest)
	v.moreBtn.Show()
	var names []string
	for _, f := range figs {
		names = append(names, survivalShows[f.Name])
	}
	v.show.Options = names
	v.show.SetSelectedIndex(0)
	gh, g := sig.GeneDisplay()
	v.genes.SetRows(gh, g, 50, 120, 90, 150, 170, 160, 100, 90)
	mh, m := sig.MeasuresDisplay(true)
	v.measures.SetRows(mh, m, 420, 90, 140, 300)
	v.choices.SetRows(nil, nil)
	if n := sig.Nested; n != nil {
		ch, c := study.NestedCountDisplay(n.Choices)
		v.choices.SetRows(ch, c, 260, 60, 260, 70)
	}
	p := sig.PredictionTable()
	v.preds.SetRows(p[0], p[1:], 120, 70, 60, 100, 110, 110)
	v.added.SetRows(nil, nil)
	if av := sig.Added; av != nil {
		a := av.Table()
		v.added.SetRows(a[0], a[1:], 170, 300, 80, 80, 80, 80, 300)
		v.more.SetText(v.more.Text + "\n\n" + av.Sentence() + " " + strings.Join(av.Notes, "; "))
		v.metrics.SetText(v.metrics.Text + " Added value " + av.Headline() + ".")
	}
	v.markStale()
	v.draw()
}

// draw shows the figure chosen.
func (v *survivalView) draw() {
	i := v.show.SelectedIndex()
	all := append(slices.Clone(v.figs), v.valFigs...)
	if v.sig == nil || i < 0 || i >= len(all) {
		return
	}
	v.figure = all[i]
	v.chart.SetMinSize(widgets.DefaultChartMin)
	if v.figure.Name == "signature-forest-covariates" {
		v.chart.SetMinSize(fyne.NewSize(widgets.DefaultChartMin.Width, max(widgets.DefaultChartMin.Height, float32(v.figure.MinHeight/vg.Inch*96))))
	} else if strings.Contains(v.figure.Name, "heatmap") || strings.Contains(v.figure.Name, "forest") { // a row a gene
		v.chart.SetMinSize(heatMinSize(len(v.sig.Genes)))
	}
	v.chart.SetRender(renderer(v.figure))
}

// showTable shows the table chosen.
func (v *survivalView) showTable() {
	for i, o := range v.stack {
		if i == v.tables.SelectedIndex() {
			o.Show()
		} else {
			o.Hide()
		}
	}
}

// saveFolder writes the signature's files and figures into a folder the user names.
func (v *survivalView) saveFolder() {
	if v.sig == nil {
		v.u.showError(fmt.Errorf("build the signature first (Build signature)"))
		return
	}
	v.u.saveAs("signature", nil, v.writeFolder)
}

// writeFolder writes the signature's files (model.json, the tables) and every figure in
// every format into the folder path, replacing it only when all is written and only
// when Steadfast wrote it.
func (v *survivalView) writeFolder(path string) error {
	files, err := v.sig.Files()
	if err != nil {
		return err
	}
	if v.sig.Added != nil {
		maps.Copy(files, v.sig.Added.Files())
	}
	dest := study.Output{Dir: path, Reads: v.u.reads(), Beside: "signature"}
	size, _ := plots.NewExportOptions(16, 12, "cm", 300)
	written, err := plots.WriteFolder(context.Background(), dest, files, v.figs, size, nil)
	if err != nil {
		return err
	}
	v.u.progress.Status.SetText(fmt.Sprintf("Saved the signature to %s (%d files).", path, len(written)))
	return nil
}

// setCovariates offers the data's clinical covariates for the added value, all
// chosen; without any it says how to have some.
func (v *survivalView) setCovariates() {
	var names []string
	if ds := v.u.data; ds != nil {
		names = ds.CovariateNames()
	}
	v.covs.Options = names
	v.covs.Selected = slices.Clone(names)
	v.covs.Refresh()
	v.covOther.SetText("")
	if len(names) == 0 {
		v.covNote.SetText("no column named like a clinical covariate (age, grade, stage, size, nodes, ER...): name others at the left")
	} else {
		v.covNote.SetText("(Cox models with and without the risk score; none: skipped)")
	}
}

// askValidate asks for a cohort with its own times and events, then applies the
// locked model to it in the background.
func (v *survivalView) askValidate() {
	if v.sig == nil {
		v.u.showError(fmt.Errorf("build the signature first (Build signature); its locked model is what is validated"))
		return
	}
	v.u.askCohort(&v.form, v.sig.Model, v.runValidate)
}

// runValidate applies the locked model to the cohort at path.
func (v *survivalView) runValidate(path string, o study.CohortOptions) {
	sig := v.sig
	v.u.startTask("Validation", func(ctx context.Context, report func(experiment.Progress)) (func(), error) {
		report(experiment.Progress{Total: 1, Stage: "the locked Cox model on the cohort"})
		val, err := study.Validate(ctx, sig.Model, path, o)
		if err != nil {
			return nil, err
		}
		figs := plots.ValidationFigures(val)
		return func() {
			if v.sig != sig {
				return // another signature was built meanwhile
			}
			v.setValidation(val, figs)
		}, nil
	})
}

// setValidation shows a cohort's measures, risk scores and figures beside the
// signature's.
func (v *survivalView) setValidation(val *signature.Validation, figs []plots.Figure) {
	v.val, v.valFigs = val, figs
	text := val.SurvivalText(v.sig.Opts.Unit)
	if text == "" {
		text = fmt.Sprintf("%s: %d samples scored; the cohort has no survival outcome (or no event), so risk scores only.", val.Cohort, len(val.Samples))
	} else {
		text = val.Cohort + ": " + text
	}
	v.more.SetText(v.more.Text + "\n\nValidation. " + text + " " + strings.Join(val.Notes, "; "))
	v.metrics.SetText(v.metrics.Text + " " + firstSentence(text))
	names := slices.Clone(v.show.Options[:len(v.figs)])
	for _, f := range figs {
		names = append(names, cohortShowName(f.Name))
	}
	v.show.Options = names
	v.show.SetSelectedIndex(len(v.figs))
	rows := study.SurvivalPredictionTable(val)
	v.cohort.SetRows(rows[0], rows[1:], 140, 70, 60, 100, 110)
}

// cohortShowName names a cohort figure in the figure choice.
func cohortShowName(name string) string {
	switch {
	case strings.Contains(name, "km"):
		return "cohort Kaplan-Meier"
	case strings.Contains(name, "calibration"):
		return "cohort calibration"
	case strings.Contains(name, "heatmap"):
		return "cohort heatmap"
	case strings.Contains(name, "shift"):
		return "cohort against training"
	}
	return name
}

// firstSentence is s up to its first ". ".
func firstSentence(s string) string {
	head, _, _ := strings.Cut(s, "; ")
	return strings.TrimSuffix(head, ".") + "."
}
