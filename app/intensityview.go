package app

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/plots"
	"steadfast/widgets"
)

// intensityForm is the Data tab's part for intensities with missing values
// (proteomics, metabolomics): how missing values are imputed and the values normalised
// inside every training set, the valid-value filter, Pareto scaling, a MaxQuant file's
// intensities and a design table; and the figure of each sample's missing share and
// distribution before and after.
type intensityForm struct {
	impute    *widget.Select
	normalize *widget.Select
	minValid  *widget.Entry
	validWhat *widget.Label // what minValid is a share of: a class's samples, or the events' or the censored's
	pareto    *widget.Check
	intensity *widget.Select // a MaxQuant file's: auto, LFQ, Intensity, iBAQ
	design    *widget.Entry
	chart     *widgets.Chart
	chartBox  *fyne.Container
	leftOut   *widget.Button
	lastOut   []dataset.LeftOut
	name      string
}

// imputeLabels and normLabels are the choices as the form offers them, in the order of
// imputeValues and normValues.
var (
	imputeLabels = []string{"auto: minprob for MaxQuant, else knn", "minprob: down-shifted normal (Perseus)", "knn: 10 nearest neighbours (impute.knn)", "halfmin: half the least value", "none"}
	imputeValues = []string{"", "minprob", "knn", "halfmin", "none"} // "": dataset.DefaultImpute
	normLabels   = []string{"none", "median centring", "quantile (preprocessCore)", "sample sum (metabolomics)"}
	normValues   = []string{"none", "median", "quantile", "sum"}
	intensities  = []string{"auto (LFQ when present)", "LFQ intensity", "Intensity", "iBAQ"}
	intensityOf  = []string{"", dataset.IntensityLFQ, dataset.IntensityRaw, dataset.IntensityBAQ}
)

func newIntensityForm(u *UI, changed func()) *intensityForm {
	f := &intensityForm{}
	f.impute = widget.NewSelect(imputeLabels, func(string) { changed() })
	f.impute.SetSelectedIndex(0)
	f.normalize = widget.NewSelect(normLabels, func(string) { changed() })
	f.normalize.SetSelectedIndex(0)
	f.minValid = widget.NewEntry()
	f.minValid.SetPlaceHolder("0.7")
	f.minValid.OnSubmitted = func(string) { changed() }
	f.validWhat = widget.NewLabel(validShare(false))
	f.pareto = widget.NewCheck("Pareto scaling in place of z-scores (metabolomics)", nil)
	f.intensity = widget.NewSelect(intensities, nil)
	f.intensity.SetSelectedIndex(0)
	f.design = widget.NewEntry()
	f.design.SetPlaceHolder("optional design table")
	f.chart = u.newChart("")
	room := canvas.NewRectangle(color.Transparent)
	room.SetMinSize(fyne.NewSize(0, 320))
	f.chartBox = container.NewStack(room, f.chart)
	f.chartBox.Hide()
	f.leftOut = widget.NewButtonWithIcon("Save left-out list...", theme.DocumentSaveIcon(), func() {
		u.saveAs("left-out.csv", []string{".csv"}, func(path string) error {
			return plots.WriteCSV(path, dataset.LeftOutTable(f.lastOut))
		})
	})
	f.leftOut.Hide()
	return f
}

// readItems are the reading form's rows of intensities.
func (f *intensityForm) readItems(u *UI) []*widget.FormItem {
	return []*widget.FormItem{
		widget.NewFormItem("Design table", container.NewBorder(nil, nil, nil, container.NewHBox(u.browseButton(f.design, dataExtensions), u.explain("design table")), f.design)),
		widget.NewFormItem("MaxQuant intensity", f.intensity),
	}
}

// prepBox is the preprocessing card's part of intensities.
func (f *intensityForm) prepBox(u *UI) fyne.CanvasObject {
	form := widget.NewForm(
		widget.NewFormItem("Missing values", container.NewBorder(nil, nil, nil, u.explain("missing values"), f.impute)),
		widget.NewFormItem("Normalisation", container.NewBorder(nil, nil, nil, u.explain("normalisation"), f.normalize)),
		widget.NewFormItem("Valid values", container.NewBorder(nil, nil, nil, container.NewHBox(f.validWhat, u.explain("valid values")), f.minValid)),
	)
	return container.NewVBox(form, f.pareto)
}

// read puts the form's design and intensity into o.
func (f *intensityForm) read(o *dataset.Options) {
	o.DesignPath = strings.TrimSpace(f.design.Text)
	o.Intensity = intensityOf[max(f.intensity.SelectedIndex(), 0)]
}

// adopt shows the design and intensity a file was read with.
func (f *intensityForm) adopt(o dataset.Options) {
	f.design.SetText(o.DesignPath)
	for i, v := range intensityOf {
		if v == o.Intensity {
			f.intensity.SetSelectedIndex(i)
		}
	}
}

// prep puts the form's choices into p (a share not understood leaves the default).
func (f *intensityForm) prep(p *dataset.Prep) {
	p.Impute = imputeValues[max(f.impute.SelectedIndex(), 0)]
	p.Normalize = normValues[max(f.normalize.SelectedIndex(), 0)]
	if v, err := strconv.ParseFloat(strings.TrimSpace(f.minValid.Text), 64); err == nil && v > 0 && v <= 1 {
		p.MinValid = v
	}
	if f.pareto.Checked {
		p.Scaling = "pareto"
	}
}

// check refuses a valid-value share that is not one.
func (f *intensityForm) check() error {
	if t := strings.TrimSpace(f.minValid.Text); t != "" {
		if v, err := strconv.ParseFloat(t, 64); err != nil || !(v > 0 && v <= 1) {
			return fmt.Errorf("valid values: %q is not a share in (0, 1] (0.7 keeps a protein measured in 70%% of the samples of one class)", t)
		}
	}
	return nil
}

// set shows a configuration's choices (without callbacks).
func (f *intensityForm) set(cfg experiment.Config) {
	pick := func(s *widget.Select, values []string, v, def string) {
		if v == "" {
			v = def
		}
		for i, x := range values {
			if x == v {
				s.Selected = s.Options[i]
				s.Refresh()
			}
		}
	}
	pick(f.impute, imputeValues, cfg.Prep.Impute, "")
	pick(f.normalize, normValues, cfg.Prep.Normalize, "none")
	f.minValid.SetText("")
	if cfg.Prep.MinValid > 0 {
		f.minValid.SetText(strconv.FormatFloat(cfg.Prep.MinValid, 'g', -1, 64))
	}
	f.pareto.Checked = cfg.Prep.Scaling == "pareto"
	f.pareto.Refresh()
	f.adopt(cfg.Read)
}

// show draws the samples' figure and offers the left-out list when the data have
// missing values or were preprocessed as intensities; else hides them.
func (f *intensityForm) show(raw, data *dataset.Dataset, logged bool) {
	f.lastOut, f.name = data.LeftOut, raw.Name
	f.validWhat.SetText(validShare(raw.Survival != nil))
	if len(data.LeftOut) > 0 {
		f.leftOut.SetText(fmt.Sprintf("Save left-out list (%d)...", len(data.LeftOut)))
		f.leftOut.Show()
	} else {
		f.leftOut.Hide()
	}
	if data.Raw == nil && dataset.Summarize(raw).MissingCells == 0 {
		f.chartBox.Hide()
		return
	}
	f.chart.SetRender(renderer(plots.SamplesFigure(raw, data, logged)))
	f.chartBox.Show()
}

// validShare says what the valid-value filter's share is of: the samples of a class, or
// with a survival outcome the events' or the censored follow-ups'.
func validShare(survival bool) string {
	if survival {
		return "share of the events or of the censored (Enter applies)"
	}
	return "share of a class (Enter applies)"
}
