package app

import (
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/internal/text"
	"steadfast/widgets"
)

// dataView is the Data tab: the file's summary and preview, how it is read and how it
// is preprocessed. The data themselves belong to the UI.
type dataView struct {
	summary      *widget.Label
	preview      *widgets.StringTable
	previewTitle *widget.Label // says which values the preview shows
	orientation  *widget.Select
	classEntry   *widget.SelectEntry // with the file's annotations to choose from (GEO, GCT 1.3)
	outcome      *widget.Select      // "Class" or "Survival": what the study predicts
	timeEntry    *widget.Entry       // a survival outcome's time column, "" found by its name
	eventEntry   *widget.Entry       // its event column (1 event, 0 censored)
	survivalRow  *fyne.Container     // the two, shown for a survival outcome
	groupEntry   *widget.SelectEntry // the annotation grouping samples (a patient), "" none
	groupKeys    []string            // the annotations it offers
	sheetEntry   *widget.Entry       // the workbook sheet to read, "" the active one
	symbolsEntry *widget.Entry       // a probe-to-symbol annotation file, "" none
	covEntry     *widget.Entry       // columns to read as clinical covariates (--covariates), "" those named so
	classChoices []dataset.ClassChoice
	log2Check    *widget.Check
	cpmCheck     *widget.Check
	perSample    bool          // log-CPM per sample, without edgeR's TMM: a reopened run saved before it
	topVar       *widget.Entry // how many of the most variable features to keep, "" all
	constCheck   *widget.Check
	missCheck    *widget.Check
	zCheck       *widget.Check
	intens       *intensityForm // missing values, normalisation, design table
	content      fyne.CanvasObject
	// advised is what the file's values made the form tick ("log2", "log-CPM", or "")
	advised string
}

// newDataView builds the Data tab; its buttons open files through u and a changed
// preprocessing option prepares u's data again.
func newDataView(u *UI) *dataView {
	v := &dataView{summary: widget.NewLabel(""), preview: widgets.NewStringTable(),
		previewTitle: widget.NewLabelWithStyle("Preview", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})}
	v.previewTitle.Wrapping = fyne.TextWrapWord
	previewRoom := canvas.NewRectangle(color.Transparent)
	previewRoom.SetMinSize(fyne.NewSize(0, 330))
	v.summary.Wrapping = fyne.TextWrapWord
	v.orientation = widget.NewSelect([]string{"Detect", "Samples are rows", "Samples are columns"}, nil)
	v.orientation.SetSelectedIndex(0)
	v.classEntry = widget.NewSelectEntry(nil)
	v.classEntry.SetPlaceHolder("detect (class, label, type, ...)")
	v.groupEntry = widget.NewSelectEntry(nil)
	v.groupEntry.SetPlaceHolder("none, or a patient column")
	v.timeEntry, v.eventEntry = widget.NewEntry(), widget.NewEntry()
	v.timeEntry.SetPlaceHolder("time: by name")
	v.eventEntry.SetPlaceHolder("event: by name")
	v.survivalRow = container.NewGridWithColumns(2, v.timeEntry, v.eventEntry)
	v.survivalRow.Hide()
	v.outcome = widget.NewSelect([]string{outcomeClass, outcomeSurvival}, func(s string) {
		if s == outcomeSurvival {
			v.survivalRow.Show()
		} else {
			v.survivalRow.Hide()
		}
	})
	v.outcome.SetSelected(outcomeClass)
	reload := widget.NewButtonWithIcon("Re-read file", theme.ViewRefreshIcon(), func() {
		if u.path != "" {
			u.LoadFile(u.path, u.rereadOptions())
		}
	})
	prepChanged := func(bool) { u.applyPrep() }
	v.log2Check = widget.NewCheck("log2 (values below 1 raised to 1)", prepChanged)
	v.cpmCheck = widget.NewCheck("RNA-seq counts (edgeR: TMM, log-CPM)", prepChanged)
	v.topVar = widget.NewEntry()
	v.topVar.SetPlaceHolder("all")
	v.constCheck = widget.NewCheck("drop constant features", prepChanged)
	v.constCheck.Checked = true
	v.missCheck = widget.NewCheck("drop features with missing values", prepChanged)
	v.zCheck = widget.NewCheck("z-score every feature (inside each training set)", nil)
	v.zCheck.Checked = true
	v.intens = newIntensityForm(u, u.applyPrep)
	v.sheetEntry = widget.NewEntry()
	v.sheetEntry.SetPlaceHolder("the active sheet (Excel workbooks)")
	v.symbolsEntry = widget.NewEntry()
	v.symbolsEntry.SetPlaceHolder("none: a gene annotation file")
	v.covEntry = widget.NewEntry()
	v.covEntry.SetPlaceHolder("by name: age, stage")
	readForm := widget.NewForm(
		widget.NewFormItem("Orientation", v.orientation),
		widget.NewFormItem("Outcome", container.NewVBox(container.NewBorder(nil, nil, nil, u.explain("survival outcome"), v.outcome), v.survivalRow)),
		widget.NewFormItem("Class column/row", v.classEntry),
		widget.NewFormItem("Samples grouped by", container.NewBorder(nil, nil, nil, u.explain("samples grouped by"), v.groupEntry)),
		widget.NewFormItem("Sheet", v.sheetEntry),
		widget.NewFormItem("Gene symbols", container.NewBorder(nil, nil, nil, u.browseButton(v.symbolsEntry, dataExtensions), v.symbolsEntry)),
		widget.NewFormItem("Clinical covariates", container.NewBorder(nil, nil, nil, container.NewHBox(u.covariatesButton(v.covEntry), u.explain("added value")), v.covEntry)),
	)
	for _, it := range v.intens.readItems(u) {
		readForm.AppendItem(it)
	}
	v.content = container.NewBorder(
		container.NewVBox(
			container.NewHBox(
				widget.NewButtonWithIcon("Open data...", theme.FolderOpenIcon(), u.ShowOpen),
				widget.NewButtonWithIcon("GEO accession...", theme.DownloadIcon(), u.ShowOpenGEO),
				widget.NewButtonWithIcon("Example", theme.HomeIcon(), u.openExample),
			),
			v.summary,
			widget.NewCard("", "Reading", container.NewVBox(readForm, reload)),
			widget.NewCard("", "Preprocessing", container.NewVBox(v.log2Check, container.NewHBox(v.cpmCheck, u.explain("RNA-seq counts")), v.constCheck, v.missCheck,
				v.intens.prepBox(u), v.zCheck,
				container.NewBorder(nil, nil, widget.NewLabel("rank only the most variable (in each training set):"), nil, v.topVar))),
			v.intens.leftOut,
			v.intens.chartBox,
			v.previewTitle,
			// room for about eight rows: the tab scrolls, the preview does not shrink to one
			container.NewStack(previewRoom, v.preview.Table),
		), nil, nil, nil, nil)
	return v
}

// adopt shows the reading options a file was read with: the class, sheet and symbols
// fields belong to one data file, so another file's are not carried over.
func (v *dataView) adopt(o dataset.Options) {
	v.orientation.SetSelectedIndex(map[dataset.Orientation]int{dataset.SamplesAsRows: 1, dataset.SamplesAsColumns: 2}[o.Orientation])
	v.setOutcome(o.Outcome, o.Outcome.Set())
	v.classEntry.SetText(o.ClassName)
	v.groupEntry.SetText(o.GroupName)
	v.sheetEntry.SetText(o.Sheet)
	v.symbolsEntry.SetText(o.SymbolsPath)
	v.covEntry.SetText(strings.Join(o.Covariates, ", "))
	v.intens.adopt(o)
}

// advise ticks what the values of a newly opened file call for, and nothing else: log2
// for unlogged intensities, log-CPM for RNA-seq counts (the boxes are set without their
// callbacks; the data are prepared next).
func (v *dataView) advise(raw *dataset.Dataset) {
	s := dataset.Summarize(raw)
	v.advised = ""
	switch {
	case s.Counts:
		v.advised = "log-CPM"
	case s.Unlogged:
		v.advised = "log2"
	}
	for c, on := range map[*widget.Check]bool{v.log2Check: v.advised == "log2", v.cpmCheck: v.advised == "log-CPM"} {
		c.Checked = on
		c.Refresh()
	}
}

// snapshot returns what puts back the form as it is now, read with o: for a file that
// could not be used after its options were shown.
func (v *dataView) snapshot(o dataset.Options) (restore func()) {
	log2, cpm, advised := v.log2Check.Checked, v.cpmCheck.Checked, v.advised
	return func() {
		v.adopt(o)
		v.log2Check.Checked, v.cpmCheck.Checked, v.advised = log2, cpm, advised
		v.log2Check.Refresh()
		v.cpmCheck.Refresh()
	}
}

// setClassChoices offers choices (a file's annotations) in the class field.
func (v *dataView) setClassChoices(choices []dataset.ClassChoice) {
	v.classChoices = choices
	v.classEntry.SetOptions(v.classOptions())
	var keys []string
	for _, c := range choices {
		keys = append(keys, c.Key)
	}
	v.groupEntry.SetOptions(keys)
	v.groupKeys = keys
}

// classOptions are the class field's choices, each with the classes it gives.
func (v *dataView) classOptions() []string {
	options := make([]string, len(v.classChoices))
	for i, c := range v.classChoices {
		options[i] = c.String()
	}
	return options
}

// className is the class field's text, or the key of the annotation chosen from its list.
func (v *dataView) className() string {
	name := strings.TrimSpace(v.classEntry.Text)
	for _, c := range v.classChoices {
		if name == c.String() {
			return c.Key
		}
	}
	return name
}

// The Outcome field's choices.
const (
	outcomeClass    = "Class"
	outcomeSurvival = "Survival (a time and an event)"
)

// setOutcome shows the outcome o (its columns named) or, with survival false, a class.
func (v *dataView) setOutcome(o dataset.Outcome, survival bool) {
	v.timeEntry.SetText(o.Time)
	v.eventEntry.SetText(o.Event)
	if survival {
		v.outcome.SetSelected(outcomeSurvival)
	} else {
		v.outcome.SetSelected(outcomeClass)
	}
}

// showOutcome shows the outcome the data were read with: a survival outcome's columns
// as found, else a class.
func (v *dataView) showOutcome(ds *dataset.Dataset) {
	if s := ds.Survival; s != nil {
		v.setOutcome(dataset.Outcome{Time: s.TimeName, Event: s.EventName}, true)
		return
	}
	v.setOutcome(dataset.Outcome{}, false)
}

// readOptions are the reading settings of the form, with the class file clsPath.
func (v *dataView) readOptions(clsPath string) dataset.Options {
	o := dataset.Options{ClassName: v.className(), GroupName: strings.TrimSpace(v.groupEntry.Text), CLSPath: clsPath,
		Sheet: strings.TrimSpace(v.sheetEntry.Text), SymbolsPath: strings.TrimSpace(v.symbolsEntry.Text), Covariates: splitNames(v.covEntry.Text)}
	if v.outcome.Selected == outcomeSurvival {
		o.ClassName = ""
		o.Outcome = dataset.Outcome{Time: strings.TrimSpace(v.timeEntry.Text), Event: strings.TrimSpace(v.eventEntry.Text)}
	}
	switch v.orientation.SelectedIndex() {
	case 1:
		o.Orientation = dataset.SamplesAsRows
	case 2:
		o.Orientation = dataset.SamplesAsColumns
	}
	v.intens.read(&o)
	return o
}

// prep is the preprocessing the form asks for.
func (v *dataView) prep() dataset.Prep {
	p := dataset.Prep{Log2: v.log2Check.Checked, LogCPM: v.cpmCheck.Checked, TMM: v.cpmCheck.Checked && !v.perSample, DropConstant: v.constCheck.Checked, DropMissing: v.missCheck.Checked}
	if !p.LogCPM {
		v.intens.prep(&p)
		if p.DropMissing && p.Impute != "none" {
			p.Impute = "" // dropped, not imputed
		}
	}
	return p
}

// fill puts the form's preprocessing, z-scoring and variance filter into cfg.
func (v *dataView) fill(cfg *experiment.Config) error {
	if err := v.intens.check(); err != nil {
		return err
	}
	cfg.Prep, cfg.ZScore = v.prep(), v.zCheck.Checked
	if t := strings.TrimSpace(v.topVar.Text); t != "" {
		n, err := strconv.Atoi(t)
		if err != nil || n < 1 {
			return fmt.Errorf("the most variable features to keep: %q is not a positive whole number (leave it empty to keep every feature)", t)
		}
		cfg.TopVariance = n
	}
	return nil
}

// set shows a configuration's reading and preprocessing settings, so the data reloaded
// for a reopened run are read and prepared as the run's were (a run on log2 data is
// not shown beside raw values). The boxes are set without their callbacks.
func (v *dataView) set(cfg experiment.Config) {
	v.orientation.SetSelectedIndex(map[dataset.Orientation]int{dataset.SamplesAsRows: 1, dataset.SamplesAsColumns: 2}[cfg.Read.Orientation])
	v.setOutcome(cfg.Outcome, cfg.Outcome.Set())
	v.classEntry.SetText(cfg.Read.ClassName)
	v.groupEntry.SetText(cfg.Read.GroupName)
	v.sheetEntry.SetText(cfg.Read.Sheet)
	v.symbolsEntry.SetText(cfg.Read.SymbolsPath)
	v.covEntry.SetText(strings.Join(cfg.Read.Covariates, ", "))
	v.perSample = cfg.Prep.LogCPM && !cfg.Prep.TMM
	for c, on := range map[*widget.Check]bool{v.log2Check: cfg.Prep.Log2, v.cpmCheck: cfg.Prep.LogCPM,
		v.constCheck: cfg.Prep.DropConstant, v.missCheck: cfg.Prep.DropMissing, v.zCheck: cfg.ZScore} {
		c.Checked = on
		c.Refresh()
	}
	v.topVar.SetText("")
	if cfg.TopVariance > 0 {
		v.topVar.SetText(strconv.Itoa(cfg.TopVariance))
	}
	v.intens.set(cfg)
}

// show describes raw as read and data as preprocessed (dropped the features it left
// out): what the user should know of them, and a preview of the first cells.
func (v *dataView) show(raw, data *dataset.Dataset, dropped []string) {
	v.summary.SetText(v.describe(raw, data, dropped))
	v.intens.show(raw, data, v.prep().Log2)
	n, p := data.Dims()
	cols := min(p, 8)
	header := append([]string{"sample", "class"}, data.Features[:cols]...)
	sv := data.Survival
	if sv != nil { // the outcome is the follow-up, not a class
		header = append([]string{"sample", sv.TimeName, sv.EventName}, data.Features[:cols]...)
	}
	var rows [][]string
	for i := 0; i < min(n, 12); i++ {
		row := []string{data.Samples[i], data.Classes[data.Labels[i]]}
		if sv != nil {
			row = []string{data.Samples[i], strconv.FormatFloat(sv.Time[i], 'g', 5, 64), map[bool]string{true: "1 (event)", false: "0 (censored)"}[sv.Event[i]]}
		}
		for j := 0; j < cols; j++ {
			row = append(row, strconv.FormatFloat(data.X.At(i, j), 'g', 5, 64))
		}
		rows = append(rows, row)
	}
	v.preview.SetRows(header, rows, 90)
	v.previewTitle.SetText(fmt.Sprintf("Preview: the first %s and %s, %s", text.Count(min(n, 12), "sample"), text.Count(cols, "feature"), valuesShown(v.prep(), data.Raw != nil)))
}

// valuesShown says what values the preview shows, by the preprocessing p they were
// prepared with.
func valuesShown(p dataset.Prep, intensities bool) string {
	switch {
	case p.LogCPM && p.TMM:
		return "as analysed: log2 counts per million after edgeR's TMM (the counts read are in the file)"
	case p.LogCPM:
		return "as analysed: log2 counts per million (the counts read are in the file)"
	case p.Log2 && intensities:
		return "as analysed on all samples: log2, filtered, normalised and imputed (every training set fits its own)"
	case p.Log2:
		return "as analysed: log2 of the values read (values below 1 raised to 1)"
	case intensities:
		return "as analysed on all samples: filtered, normalised and imputed (every training set fits its own)"
	}
	return "as read"
}

// describe is the summary's text: sizes, classes, missing and constant values, what
// was dropped, and what to tick when the values look like counts or unlogged intensities.
func (v *dataView) describe(raw, data *dataset.Dataset, dropped []string) string {
	s := dataset.Summarize(raw)
	_, p := data.Dims()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s, %s", raw.Name, text.Count(s.Samples, "sample"), text.Count(s.Features, "feature"))
	if p != s.Features {
		fmt.Fprintf(&b, " (%d after preprocessing)", p)
	}
	if sv := raw.Survival; sv != nil {
		coding := ""
		if sv.Coding != "" {
			coding = " (" + sv.Coding + ")"
		}
		fmt.Fprintf(&b, "\nSurvival outcome: time %q, event %q%s; %s, %d censored; follow-up %s to %s (the file's unit)",
			sv.TimeName, sv.EventName, coding, text.Count(sv.Events(), "event"), len(sv.Event)-sv.Events(),
			strconv.FormatFloat(slices.Min(sv.Time), 'g', 4, 64), strconv.FormatFloat(slices.Max(sv.Time), 'g', 4, 64))
	} else {
		b.WriteString("\nClasses: ")
		for i, c := range s.Classes {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s %d", c, s.ClassCounts[i])
		}
	}
	switch {
	case s.MissingCells > 0 && data.Raw != nil:
		fmt.Fprintf(&b, "\nMissing values: %d cells in %d features (e.g. %s), kept: every training set filters, normalises and imputes its own (Missing values, Normalisation and Valid values below; the figure shows each sample's share).",
			s.MissingCells, len(s.MissingFeatures), s.MissingFeatures[0])
	case s.MissingCells > 0:
		fmt.Fprintf(&b, "\nMissing or non-finite values: %d cells in %d features (e.g. %s), dropped as asked; untick \"drop features with missing values\" to impute them inside every training set instead.",
			s.MissingCells, len(s.MissingFeatures), s.MissingFeatures[0])
	default:
		b.WriteString("\nNo missing values.")
	}
	constant, gone := slices.Sorted(slices.Values(s.ConstantFeatures)), slices.Sorted(slices.Values(dropped)) // one order, so the same genes read alike
	switch {
	case len(constant) > 0 && slices.Equal(constant, gone):
		fmt.Fprintf(&b, "\nConstant features: %d, dropped (%s)", len(constant), listSome(constant, 5))
	default:
		if len(constant) > 0 {
			fmt.Fprintf(&b, "\nConstant features: %d (%s)", len(constant), listSome(constant, 5))
		}
		if len(gone) > 0 {
			fmt.Fprintf(&b, "\nDropped: %s (%s)", text.Count(len(gone), "feature"), listSome(gone, 5))
		}
	}
	switch {
	case s.Counts && v.advised == "log-CPM" && v.cpmCheck.Checked:
		b.WriteString("\nRNA-seq counts is ticked: every value is a whole number and some are large, as read counts are. Untick it to analyse the values as they are.")
	case s.Unlogged && v.advised == "log2" && v.log2Check.Checked:
		b.WriteString("\nlog2 is ticked: no value is negative and some exceed 1000, as in unlogged intensities, where a few bright probes dominate. Untick it to analyse the values as they are.")
	}
	if s.Counts && !v.cpmCheck.Checked {
		b.WriteString("\nEvery value is a whole number and some are large: this looks like RNA-seq counts. Tick RNA-seq counts to analyse them as counts.")
	}
	if s.Unlogged && !v.log2Check.Checked && !v.cpmCheck.Checked {
		b.WriteString("\nNo value is negative and some exceed 1000: these look like unlogged intensities, where a few bright probes dominate. Tick log2 to analyse them.")
	}
	for _, note := range s.Notes {
		if s.Unlogged && strings.Contains(note, "unlogged intensities") || s.Counts && strings.Contains(note, "RNA-seq counts") {
			continue // said above, with the box to tick
		}
		if raw.Survival != nil && strings.HasPrefix(note, "survival outcome") {
			continue // the Survival outcome line says it, and the Outcome fields show the columns
		}
		b.WriteString("\nNote: " + note)
	}
	if raw.Symbols == nil {
		b.WriteString("\nNo gene symbols: what the genes mean (the Signature tab's Meaning) needs the platform's annotation, here under Gene symbols, or added to a finished run later.")
	}
	if len(data.LeftOut) > 0 {
		fmt.Fprintf(&b, "\nLeft out or ranked last (Save left-out list names each with why): %s.", dataset.LeftOutSummary(data.LeftOut))
	}
	for _, note := range data.Notes { // what the preprocessing did (edgeR's filter on counts)
		if !slices.Contains(s.Notes, note) && !strings.Contains(note, "dropped (constant or incomplete)") {
			b.WriteString("\nNote: " + note)
		}
	}
	if len(s.Classes) < 2 {
		b.WriteString("\nOnly one class: a stability study needs two or more.")
	}
	return b.String()
}

// listSome is the first k of s joined by commas, with ", ..." when there are more.
func listSome(s []string, k int) string {
	if len(s) <= k {
		return strings.Join(s, ", ")
	}
	return strings.Join(s[:k], ", ") + ", ..."
}
