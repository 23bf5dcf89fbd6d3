package app

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/plots"
)

// ShowReport writes the run's HTML report (data, configuration, every figure and table,
// a methods paragraph with references) where the user chooses.
func (u *UI) ShowReport() {
	if u.result == nil {
		u.showError(fmt.Errorf("no results to report yet: press Run first"))
		return
	}
	res := u.result
	dir := widget.NewEntry()
	dir.SetText(u.app.Preferences().StringWithFallback("exportDir", exportDir()))
	name := widget.NewEntry()
	name.SetText("steadfast-report")
	html, pdf := widget.NewCheck("HTML (figures as SVG)", nil), widget.NewCheck("PDF (A4)", nil)
	html.Checked, pdf.Checked = true, true
	var d dialog.Dialog
	do := func() {
		folder, base := strings.TrimSpace(dir.Text), strings.TrimSpace(name.Text)
		if err := checkFileName(base); err != nil {
			u.showError(err)
			return
		}
		var paths []string
		for ext, c := range map[string]*widget.Check{".html": html, ".pdf": pdf} {
			if c.Checked {
				paths = append(paths, filepath.Join(folder, base+ext))
			}
		}
		slices.Sort(paths)
		tables := plots.ReportTables(res) // the report names their CSVs for the rows it leaves out
		sig := u.sigView.of(res)
		if sig != nil {
			h, rows := sig.FullModel()
			tables = append(tables, plots.Figure{Name: "signature", Table: sig.GeneTable()}, plots.Figure{Name: "signature-full-model", Table: append([][]string{h}, rows...)})
			if v := sig.Validation; v != nil {
				tables = append(tables, plots.Figure{Name: "cohort-predictions", Table: study.PredictionTable(v)})
			}
			if e := sig.Enrichment; e != nil {
				tables = append(tables, plots.Figure{Name: "enrichment", Table: e.Table()})
				if e.Camera != nil {
					tables = append(tables, plots.Figure{Name: "camera", Table: study.CameraTable(e.Camera, e.CameraPositive)})
				}
			}
		}
		surv, val := u.survView.of(res)
		if surv != nil {
			tables = append(tables, plots.Figure{Name: "signature", Table: surv.GeneTable()}, plots.Figure{Name: "signature-metrics", Table: surv.MetricsTable()})
			if val != nil {
				tables = append(tables, plots.Figure{Name: "cohort-predictions", Table: study.SurvivalPredictionTable(val)})
			}
		}
		if len(paths) == 0 {
			tables = nil
		}
		targets := reportFiles(paths, folder, tables)
		modelPath := ""
		if (sig != nil || surv != nil) && len(paths) > 0 { // the report names model.json and its digests: it lies beside it
			modelPath = filepath.Join(folder, "model.json")
			targets = append(targets, modelPath)
		}
		if err := u.checkWrite(targets...); err != nil {
			u.showError(err)
			return
		}
		old := existing(targets)
		write := func() {
			if err := os.MkdirAll(folder, 0o755); err != nil {
				u.showError(err)
				return
			}
			for _, path := range paths {
				if err := writeReport(path, res, sig, surv, val); err != nil {
					u.showError(err)
					return
				}
				log.Printf("wrote %s", path)
			}
			for _, f := range tables {
				if err := plots.WriteCSV(filepath.Join(folder, f.Name+".csv"), f.Table); err != nil {
					u.showError(err)
					return
				}
			}
			if modelPath != "" {
				model := surv.Model
				if sig != nil {
					model = sig.Model
				}
				b, err := model.Encode()
				if err == nil {
					err = study.WriteFile(modelPath, b)
				}
				if err != nil {
					u.showError(err)
					return
				}
			}
			u.app.Preferences().SetString("exportDir", folder)
			u.wroteTo(folder)
			u.progress.Status.SetText(fmt.Sprintf("Wrote the report to %s; open the HTML in a web browser.", folder))
			d.Hide()
		}
		slices.Sort(old)
		u.confirmReplace(folder, old, write)
	}
	dir.OnSubmitted = func(string) { do() }
	name.OnSubmitted = func(string) { do() }
	items := []*widget.FormItem{
		{Text: "Folder", Widget: dir},
		{Text: "File name", Widget: name, HintText: "without extension"},
		{Text: "Formats", Widget: container.NewHBox(html, pdf)},
	}
	d = u.showConfirm("Report: data, settings, every figure and table, methods paragraph", "Write", widget.NewForm(items...), fyne.NewSize(620, 260), dir, do)
}

// reportFiles are the files a report writes: its pages and, in folder, the CSV of each
// table.
func reportFiles(pages []string, folder string, tables []plots.Figure) []string {
	out := slices.Clone(pages)
	for _, f := range tables {
		out = append(out, filepath.Join(folder, f.Name+".csv"))
	}
	return out
}

// writeReport writes res's report to path, as PDF for a .pdf name, else as HTML with
// 16 x 10 cm figures; when sig (or a survival study's surv, with its cohort val) is
// not nil, with its Signature section.
func writeReport(path string, res *experiment.Result, sig *study.Signature, surv *study.SurvivalSignature, val *signature.Validation) error {
	w, _ := plots.Length(16, "cm")
	h, _ := plots.Length(10, "cm")
	size := plots.ExportOptions{Width: w, Height: h}
	pdf := strings.EqualFold(filepath.Ext(path), ".pdf")
	var b bytes.Buffer
	var err error
	switch {
	case surv != nil && pdf:
		err = plots.SurvivalReportPDFWith(context.Background(), &b, res, surv, val)
	case surv != nil:
		err = plots.SurvivalReportWith(context.Background(), &b, res, surv, val, size)
	case pdf:
		err = plots.ReportPDFWith(context.Background(), &b, res, sig)
	default:
		err = plots.ReportWith(context.Background(), &b, res, sig, size)
	}
	if err != nil {
		return err
	}
	return study.WriteFile(path, b.Bytes())
}
