package app

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/internal/text"
	"steadfast/plots"
)

// cohortForm is the Validate dialog's fields.
type cohortForm struct {
	path, class, symbols, mapping *widget.Entry
	platform                      *widget.Entry
	time, event                   *widget.Entry // a survival model's cohort: its outcome's columns
	survival                      bool          // the model is a survival signature's: time and event, not a class
	harmonize                     *widget.Select
	accept, log2                  *widget.Check
}

// options reads the form: the cohort's reading options, the extra log2 and how the
// model is applied.
func (f *cohortForm) options() (string, study.CohortOptions, error) {
	path := strings.TrimSpace(f.path.Text)
	if path == "" {
		return "", study.CohortOptions{}, fmt.Errorf("give the cohort's data file")
	}
	read := dataset.Options{SymbolsPath: strings.TrimSpace(f.symbols.Text), Platform: strings.TrimSpace(f.platform.Text)}
	m := map[string]string{}
	if f.survival { // as predict --time --event: both named, or both found by their names
		read.Outcome = dataset.Outcome{Time: strings.TrimSpace(f.time.Text), Event: strings.TrimSpace(f.event.Text)}
		if err := read.Outcome.Check(); err != nil {
			return "", study.CohortOptions{}, err
		}
		return path, study.CohortOptions{Read: read, Log2: f.log2.Checked,
			Apply: signature.ApplyOptions{Harmonize: f.harmonize.Selected, AcceptMissing: f.accept.Checked}}, nil
	}
	read.ClassName = strings.TrimSpace(f.class.Text)
	for _, pair := range strings.Split(f.mapping.Text, ",") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		from, to, ok := strings.Cut(pair, "=")
		if !ok || strings.TrimSpace(from) == "" || strings.TrimSpace(to) == "" {
			return "", study.CohortOptions{}, fmt.Errorf("class map %q: write COHORT CLASS=MODEL CLASS, pairs separated by commas (tumour=tumor, healthy=normal)", strings.TrimSpace(pair))
		}
		m[strings.TrimSpace(from)] = strings.TrimSpace(to)
	}
	return path, study.CohortOptions{
		Read:  read,
		Log2:  f.log2.Checked,
		Apply: signature.ApplyOptions{Harmonize: f.harmonize.Selected, AcceptMissing: f.accept.Checked, Map: m},
	}, nil
}

// showValidate asks for an independent cohort and how to apply the signature's model
// to it, then validates in the background.
func (v *signatureView) showValidate() {
	if v.sig == nil {
		v.u.showError(fmt.Errorf("build the signature first (Build signature); its locked model is what is validated"))
		return
	}
	v.u.askCohort(&v.form, v.sig.Model, v.validate)
}

// askCohort asks, in the form *fp (made on first use and kept, so the fields are
// remembered), for a cohort and how to apply model to it, then calls ok.
func (u *UI) askCohort(fp **cohortForm, model *signature.Model, ok func(path string, o study.CohortOptions)) {
	f := *fp
	if f == nil {
		f = &cohortForm{path: widget.NewEntry(), class: widget.NewEntry(), symbols: widget.NewEntry(), mapping: widget.NewEntry(), platform: widget.NewEntry(),
			time: widget.NewEntry(), event: widget.NewEntry(),
			harmonize: widget.NewSelect(signature.Harmonizations, nil),
			accept:    widget.NewCheck("predict although some signature genes are missing (said in the results)", nil),
			log2:      widget.NewCheck("log2 the cohort first (the model's data were logged before reading, the cohort's are not)", nil)}
		f.path.SetPlaceHolder("the second cohort's file (CSV/TSV, GCT, XLSX, ARFF, GEO series matrix) or a GEO accession")
		f.platform.SetPlaceHolder("for a GEO series on several platforms: GPL96, ...")
		f.class.SetPlaceHolder("detected (a column or row named class, a GEO characteristic); none: predictions only")
		f.symbols.SetPlaceHolder("optional: the cohort platform's annotation, to match genes by symbol")
		f.mapping.SetPlaceHolder("optional: tumour=tumor, healthy=normal")
		f.time.SetPlaceHolder("found by name (time, OS.time, DFS_months); none: risk scores only")
		f.event.SetPlaceHolder("found by name (event, status, OS); 1 event, 0 censored")
		f.harmonize.SetSelected("none")
		*fp = f
	}
	note := fmt.Sprintf("The locked model (%d genes, %s) is applied as trained: the cohort's values %s, scaled with the training means and sds unless harmonised (below). Genes are matched by id, else by gene symbol, else by current symbol.",
		len(model.Genes), experiment.ClassifierLabel(model.Classifier), prepText(model.Prep))
	f.survival = model.Cox != nil
	outcome := []*widget.FormItem{widget.NewFormItem("Class", f.class), widget.NewFormItem("Class map", f.mapping)}
	if f.survival {
		note = strings.Replace(note, "is applied as trained", "scores each patient's risk as trained", 1) + " The cohort's follow-up time and event (1 event, 0 censored) judge the scores: Harrell's C, Kaplan-Meier risk groups."
		outcome = []*widget.FormItem{widget.NewFormItem("Time", f.time), widget.NewFormItem("Event", f.event)}
	}
	label := widget.NewLabel(note)
	label.Wrapping = fyne.TextWrapWord
	form := widget.NewForm(
		widget.NewFormItem("Cohort", container.NewBorder(nil, nil, nil, u.browseButton(f.path, dataExtensions), f.path)),
		widget.NewFormItem("GEO platform", f.platform))
	for _, it := range outcome {
		form.AppendItem(it)
	}
	form.AppendItem(widget.NewFormItem("Gene symbols", container.NewBorder(nil, nil, nil, u.browseButton(f.symbols, dataExtensions), f.symbols)))
	form.AppendItem(widget.NewFormItem("Harmonisation", container.NewBorder(nil, nil, nil, u.explain("harmonisation"), f.harmonize)))
	content := container.NewVBox(container.NewBorder(nil, nil, nil, u.explain("independent cohort"), label), form, f.accept, f.log2)
	u.showConfirm("Validate on another cohort", "Validate", content, fyne.NewSize(720, 480), f.path, func() {
		path, o, err := f.options()
		if err != nil {
			u.showError(err)
			return
		}
		ok(path, o)
	})
}

// prepText says how the model preprocesses values.
func prepText(p dataset.Prep) string {
	switch {
	case p.LogCPM:
		return "turned into log-CPM"
	case p.Log2:
		return "log2-transformed"
	}
	return "taken as they are (not logged)"
}

// validate applies the signature's model to the cohort at path in the background and
// shows the result.
func (v *signatureView) validate(path string, o study.CohortOptions) {
	sig := v.sig
	v.u.startTask("Validation", func(ctx context.Context, report func(experiment.Progress)) (func(), error) {
		report(experiment.Progress{Total: 1, Stage: "validation"})
		val, err := study.Validate(ctx, sig.Model, path, o)
		var missing *signature.MissingGenesError
		if errors.As(err, &missing) {
			return func() { v.offerAnyway(missing, path, o) }, nil
		}
		if err != nil {
			return nil, err
		}
		if len(val.Samples) == 0 {
			return nil, fmt.Errorf("%s: no sample could be predicted (each lacks a value of a signature gene)", val.Cohort)
		}
		figs := plots.ValidationFigures(val)
		return func() {
			if v.sig != sig {
				return // another signature since
			}
			sig.Validation, sig.Cohort = val, &study.CohortRecord{Path: path, Options: o, SHA256: val.SHA256}
			v.cohortReads = []study.Input{{What: "cohort's data file", Path: path}, {What: "cohort's annotation file", Path: o.Read.SymbolsPath}}
			v.setValidation(val, figs)
		}, nil
	})
}

// offerAnyway says which signature genes the cohort lacks and offers to predict with
// the others.
func (v *signatureView) offerAnyway(e *signature.MissingGenesError, path string, o study.CohortOptions) {
	l := widget.NewLabel(e.Said + "." + e.Advice + "\n\nPredict with the genes found? The results will say which were missing.")
	l.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomConfirm("Signature genes missing", "Predict anyway", "Cancel", container.NewVScroll(l), func(ok bool) {
		if ok {
			o.Apply.AcceptMissing = true
			if v.form != nil {
				v.form.accept.SetChecked(true)
			}
			v.validate(path, o)
		}
	}, v.u.win)
	d.Resize(fyne.NewSize(640, 320))
	d.Show()
}

// setValidation shows a validation: its predictions and gene matching in the cohort
// tables, its metrics and notes, its figures in the figure choice.
func (v *signatureView) setValidation(val *signature.Validation, figs []plots.Figure) {
	v.valFigs = figs
	t := study.PredictionDisplay(val)
	v.cohortTable.SetRows(t[0], t[1:], 110, 90, 110, 100, 140)
	m := study.MatchTable(val)
	v.matchTable.SetRows(m[0], m[1:], 110, 80, 80, 220)
	if c := study.CohortConfusion(val); c != nil {
		v.cohortConfusion.SetRows(c[0], c[1:], 140, 90)
	} else {
		v.cohortConfusion.SetRows([]string{"the cohort has no sample of a class the model knows"}, nil)
	}
	v.showOptions()
	v.tables.SetSelected(tableShows[4])
	if len(figs) > 0 {
		v.show.SetSelected(cohortShow(figs[0]))
	}
	v.showMetrics()
}

// validationHeadline is a validation's result in a short sentence for the headline:
// the cohort's AUC with its interval, or its accuracy, or that it has no classes.
func validationHeadline(val *signature.Validation) string {
	mt := val.Metrics
	switch {
	case mt == nil:
		return fmt.Sprintf(" Cohort %s: %s predicted (no classes to judge them).", val.Cohort, text.Count(len(val.Samples), "sample"))
	case val.Positive() >= 0 && !math.IsNaN(mt.AUC.AUC):
		return fmt.Sprintf(" Cohort %s (%d with a class): AUC %.3f (95%% CI %.3f-%.3f).", val.Cohort, mt.N, mt.AUC.AUC, mt.AUC.Low, mt.AUC.High)
	}
	return fmt.Sprintf(" Cohort %s (%d with a class): accuracy %.3f.", val.Cohort, mt.N, mt.Accuracy)
}

// validationText says what a validation found, for the metrics label.
func validationText(val *signature.Validation) string {
	m := val.Model
	s := fmt.Sprintf(" Cohort %s: %d of %s found (%s); %s predicted", val.Cohort, val.Found(), text.Count(len(m.Genes), "signature gene"), matchCounts(val), text.Count(len(val.Samples), "sample"))
	if h := val.Options.Harmonize; h != "" && h != "none" {
		s += ", harmonised (" + h + ")"
	}
	mt := val.Metrics
	if mt == nil {
		return s + "; no sample has a class the model knows: predictions only." + notesText(val)
	}
	s += fmt.Sprintf("; on the %d with a class the model knows: %s", mt.N, val.Measures())
	return s + "." + notesText(val)
}

// matchCounts is "8 by id, 2 by symbol, 1 missing".
func matchCounts(val *signature.Validation) string {
	n := map[string]int{}
	for _, mt := range val.Matches {
		n[mt.By]++
	}
	var parts []string
	for _, by := range []string{"id", "symbol", "alias"} {
		if n[by] > 0 {
			parts = append(parts, fmt.Sprintf("%d by %s", n[by], by))
		}
	}
	if n[""] > 0 {
		parts = append(parts, fmt.Sprintf("%d missing", n[""]))
	}
	return strings.Join(parts, ", ")
}

// notesText is the validation's notes, one sentence each.
func notesText(val *signature.Validation) string {
	var s string
	for _, n := range val.Notes {
		s += " Note: " + strings.TrimSuffix(n, ".") + "."
	}
	return s
}
