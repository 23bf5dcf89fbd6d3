package plots

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/internal/text"
)

// svgOf renders f as an SVG document at o's size (a side left 0: the default 16 x 10
// cm, the height at least the figure's own minimum).
func svgOf(f Figure, o ExportOptions) (template.HTML, error) {
	if o.Width <= 0 {
		o.Width = 16 * vg.Centimeter
	}
	if o.Height <= 0 {
		o.Height = max(10*vg.Centimeter, min(f.MinHeight, MaxFigureHeight))
	}
	p, err := f.Build()
	if err != nil {
		return "", err
	}
	cv := vgsvg.NewWith(vgsvg.UseWH(o.Width, o.Height)) // the browser's sans-serif: fonts embedded in every figure would make megabytes
	drawFigure(p, draw.New(cv))
	var buf bytes.Buffer
	if _, err := cv.WriteTo(&buf); err != nil {
		return "", err
	}
	s := buf.String()
	if i := strings.Index(s, "<svg"); i > 0 {
		s = s[i:] // inline: no XML prologue
	}
	return template.HTML(s), nil
}

type reportFigure struct {
	Title string
	SVG   template.HTML
}

type reportTable struct {
	Title  string
	Header []string
	Rows   [][]string
	More   int
	CSV    string // the file holding every row, beside the report
}

// MoreRows says how many rows the report leaves out: "1 more row", "5 more rows".
func (t reportTable) MoreRows() string { return text.Count(t.More, "more row") }

// Report writes a self-contained HTML report of res: the data, the configuration, every
// figure (inline SVG) and table, the software version and seed, and a methods paragraph
// with its references.
func Report(w io.Writer, res *experiment.Result, o ExportOptions) error {
	return ReportWith(context.Background(), w, res, nil, o)
}

// ReportWith is Report with a Signature section for sig (none when nil): its methods
// paragraph, its measures, its ROC and heatmap figures and its genes. It stops with
// ctx's error when ctx is cancelled.
func ReportWith(ctx context.Context, w io.Writer, res *experiment.Result, sig *study.Signature, o ExportOptions) error {
	data, err := runFields(ctx, res, o)
	if err != nil {
		return err
	}
	svgOf := func(f Figure, o ExportOptions) (template.HTML, error) { return ctxSVG(ctx, f, o) }
	var sigFigs []reportFigure
	var sigTable, confTable, opTable, nestTable, fullTable, tripodTable reportTable
	howTo := ""
	sigPara := ""
	if sig != nil {
		for _, f := range reportSignatureFigures(res, sig) {
			svg, err := svgOf(f, o)
			if err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
			sigFigs = append(sigFigs, reportFigure{PlainText(f.Title), svg})
		}
		sigTable = tableOf(Figure{Name: "signature", Title: "Signature genes", Table: geneDisplay(sig)}, reportGenes)
		confTable = tableOf(confusionFigure(sig), reportGenes)
		if h, rows := sig.OperatingDisplay(); h != nil {
			opTable = tableOf(Figure{Name: "metrics", Title: "Operating points (cross-validated; the positive class " + sig.Classes[sig.Positive] + ", at the study's prevalence)", Table: append([][]string{h}, rows...)}, 10)
		}
		if sig.Nested != nil {
			nestTable = nestedCountTable(sig.Nested.Choices, sig.Nested.InnerFolds)
		}
		sigPara = SignatureParagraph(res, sig)
		fullTable, tripodTable = tableOf(fullModelFigure(sig), 200), tableOf(tripodFigure(res, sig), 20)
		howTo = sig.HowToApply()
	}
	var enrFigs []reportFigure
	var enrTable, camTable reportTable
	enrPara := ""
	if sig != nil && sig.Enrichment != nil {
		f := EnrichmentFigure(res.Data.Name, sig.Enrichment)
		svg, err := svgOf(f, o)
		if err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
		enrFigs = append(enrFigs, reportFigure{PlainText(f.Title), svg})
		enrTable = tableOf(enrichmentTable(sig.Enrichment), 20)
		enrPara = sig.Enrichment.Says()
		if sig.Enrichment.Camera != nil {
			enrPara += " " + sig.Enrichment.CameraSays()
			camTable = tableOf(cameraFigure(sig.Enrichment), 20)
		}
	}
	var valFigs []reportFigure
	var valTable, valConf reportTable
	valPara := ""
	if sig != nil && sig.Validation != nil {
		v := sig.Validation
		for _, f := range ValidationFigures(v) {
			svg, err := svgOf(f, o)
			if err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
			valFigs = append(valFigs, reportFigure{PlainText(f.Title), svg})
		}
		valPara = ValidationParagraph(v)
		valTable = tableOf(Figure{Name: "cohort-predictions", Title: "Predictions on the cohort (the files' digests: in the paragraph above)", Table: study.PredictionDisplay(v)}, reportGenes)
		valConf = tableOf(cohortConfusionFigure(v), 10)
	}
	for k, v := range map[string]any{
		"Sig": sig != nil, "SigParagraph": sigPara, "SigFigures": sigFigs, "SigTable": sigTable, "ConfTable": confTable, "OpTable": opTable, "NestTable": nestTable, "Enr": enrPara != "", "EnrParagraph": enrPara, "EnrFigures": enrFigs, "EnrTable": enrTable, "FullTable": fullTable, "HowTo": howTo, "TripodTable": tripodTable,
		"Val": valPara != "", "ValParagraph": valPara, "ValFigures": valFigs, "ValTable": valTable, "ValConf": valConf, "CamTable": camTable,
	} {
		data[k] = v
	}
	return reportTemplate.Execute(w, data)
}

// ctxSVG is svgOf unless ctx is cancelled.
func ctxSVG(ctx context.Context, f Figure, o ExportOptions) (template.HTML, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return svgOf(f, o)
}

// runFields are the report template's fields of the run itself: its figures, tables,
// methods paragraph with references, configuration and outcome.
func runFields(ctx context.Context, res *experiment.Result, o ExportOptions) (map[string]any, error) {
	var figs []reportFigure
	for _, f := range All(res) {
		svg, err := ctxSVG(ctx, f, o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		figs = append(figs, reportFigure{PlainText(f.Title), svg})
	}
	var tables []reportTable
	for _, f := range ReportTables(res) {
		max := 30
		if strings.HasPrefix(f.Name, "error-table") {
			max = 100
		}
		tables = append(tables, tableOf(f, max))
	}
	para, refs := MethodsParagraph(res)
	cfg, _ := json.MarshalIndent(res.Config, "", "  ")
	return map[string]any{
		"Res": res, "Figures": figs, "Tables": tables, "Paragraph": para, "Refs": refs, "LeftOut": leftOutSummary(res),
		"Config": string(cfg), "Outcome": outcomeWords(res.Data), "Features": len(res.Data.Features),
		"Written": time.Now().Format("2006-01-02 15:04"),
	}, nil
}

// outcomeWords says a study's outcome: "classes tumor (40), normal (22)", or "a
// survival outcome (time "time", event "event"): 105 events, 76 censored".
func outcomeWords(d experiment.DataInfo) string {
	if sv := d.Survival; sv != nil {
		return fmt.Sprintf("a survival outcome (time %q, event %q): %s, %d censored", sv.TimeName, sv.EventName, text.Count(sv.Events(), "event"), len(sv.Event)-sv.Events())
	}
	var classes []string
	for i, c := range d.Classes {
		classes = append(classes, fmt.Sprintf("%s (%d)", c, d.ClassCounts[i]))
	}
	return "classes " + strings.Join(classes, ", ")
}

// ReportTables are the tables the report shows cut short: every method's top features
// and, with two or more methods, each classifier's error table. Whoever writes the
// report writes their CSVs (f.Name + ".csv") beside it, which the report names.
func ReportTables(res *experiment.Result) []Figure {
	var out []Figure
	for i := range res.Methods {
		out = append(out, TopTable(res, i))
	}
	if len(res.Methods) > 1 {
		for _, cl := range res.Config.Classifiers {
			out = append(out, ErrorTable(res, cl))
		}
	}
	if t := StabilityTestTable(res); len(t.Table) > 1 {
		out = append(out, t)
	}
	return out
}

func tableOf(f Figure, max int) reportTable {
	t := reportTable{Title: PlainText(f.Title), CSV: f.Name + ".csv"}
	if len(f.Table) == 0 {
		return t
	}
	t.Header, t.Rows = f.Table[0], f.Table[1:]
	if len(t.Rows) > max {
		t.More, t.Rows = len(t.Rows)-max, t.Rows[:max]
	}
	return t
}

var reportTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Steadfast report: {{.Res.Data.Name}}</title>
<style>
body{font-family:"Liberation Sans",Arial,Helvetica,sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:.85em;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}
th{background:#f2f2f2}figure{margin:1.5em 0}figcaption{font-size:.9em;color:#444}
pre{background:#f7f7f7;padding:.8em;font-size:.8em;overflow-x:auto}.para{background:#f5f9ff;padding:.8em;border-left:3px solid #0072B2}
svg{max-width:100%;height:auto}
</style></head><body>
<h1>Steadfast report: {{.Res.Data.Name}}</h1>
<p>Steadfast {{.Res.Version}}, run in {{printf "%.0f" .Res.Seconds}} s; report written {{.Written}}. Seed {{.Res.Config.Seed}}.</p>
<h2>Data</h2>
<p>{{.Res.Data.Name}}{{if .Res.Data.Accession}} (GEO {{.Res.Data.Accession}}{{if .Res.Data.Platform}}, platform {{.Res.Data.Platform}}{{end}}){{end}}: {{.Res.Data.Samples}} samples, {{.Features}} features after preprocessing; {{.Outcome}}.{{if .Res.Data.Dropped}} {{len .Res.Data.Dropped}} features were dropped (constant or incomplete).{{end}}{{if .LeftOut}} Left out or ranked last, each named with why in left-out.csv: {{.LeftOut}}.{{end}}</p>
<h2>Methods paragraph</h2>
<p class="para">{{.Paragraph}}</p>
<ol style="font-size:.9em">{{range .Refs}}<li style="list-style:none">{{.}}</li>{{end}}</ol>
<h2>Figures</h2>
{{range .Figures}}<figure>{{.SVG}}<figcaption>{{.Title}}</figcaption></figure>
{{end}}
<h2>Tables</h2>
{{range .Tables}}{{template "table" .}}
{{end}}
{{if .Sig}}<h2>Signature</h2>
<p class="para">{{.SigParagraph}}</p>
{{range .SigFigures}}<figure>{{.SVG}}<figcaption>{{.Title}}</figcaption></figure>
{{end}}{{template "table" .SigTable}}{{if .ConfTable.Header}}{{template "table" .ConfTable}}{{end}}{{if .OpTable.Header}}{{template "table" .OpTable}}{{end}}{{if .NestTable.Header}}{{template "table" .NestTable}}{{end}}{{if .AddedTable.Header}}<p class="para">{{.AddedParagraph}}</p>{{template "table" .AddedTable}}{{end}}
{{template "table" .FullTable}}<p>{{.HowTo}}</p>
{{template "table" .TripodTable}}
{{end}}{{if .Enr}}<h2>What the genes mean</h2>
<p class="para">{{.EnrParagraph}}</p>
{{range .EnrFigures}}<figure>{{.SVG}}<figcaption>{{.Title}}</figcaption></figure>
{{end}}{{template "table" .EnrTable}}{{if .CamTable.Header}}{{template "table" .CamTable}}{{end}}
{{end}}{{if .Val}}<h2>Validation</h2>
<p class="para">{{.ValParagraph}}</p>
{{range .ValFigures}}<figure>{{.SVG}}<figcaption>{{.Title}}</figcaption></figure>
{{end}}{{if .ValConf.Header}}{{template "table" .ValConf}}{{end}}{{template "table" .ValTable}}
{{end}}<h2>Configuration</h2>
<pre>{{.Config}}</pre>
</body></html>
{{define "table"}}<h3>{{.Title}}</h3>
<table><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>{{if .More}}<p>{{.MoreRows}} in {{.CSV}}, beside this report.</p>{{end}}{{end}}`))

// geneDisplay is the signature's gene table as people read it, header first (the CSV
// beside the report keeps every digit).
func geneDisplay(sig *study.Signature) [][]string {
	head, rows := sig.GeneDisplay()
	return append([][]string{head}, rows...)
}

// reportSignatureFigures are the signature's figures a report shows: all of them (the
// ROC curves with the operating points, the heatmap, the genes by class, the
// calibration and, after a permutation test, its null distribution).
func reportSignatureFigures(res *experiment.Result, sig *study.Signature) []Figure {
	return SignatureFigures(res, sig)
}

// enrichmentTable is the enrichment's terms as people read them, for the report (all in
// enrichment.csv).
func enrichmentTable(e *study.Enrichment) Figure {
	rows := [][]string{{"term", "name", "selected / in universe", "q (BH)", "stability", "genes"}}
	for _, t := range e.Terms {
		rows = append(rows, []string{t.Set.ID, t.Set.Name, fmt.Sprintf("%d / %d", t.X, t.M), text.PValue(t.Q), text.Sig3(t.Stability), strings.Join(t.Genes, ", ")})
	}
	return Figure{Name: "enrichment", Title: "Gene-set terms, most significant first", Table: rows}
}

// fullModelFigure is the locked model in full (TRIPOD 15a) as a table.
func fullModelFigure(sig *study.Signature) Figure {
	h, rows := sig.FullModel()
	shown := make([][]string, len(rows))
	for i, r := range rows {
		shown[i] = make([]string, len(r))
		for j, c := range r {
			shown[i][j] = c
			if v, err := strconv.ParseFloat(c, 64); err == nil && j > 0 {
				shown[i][j] = strconv.FormatFloat(v, 'g', 6, 64)
			}
		}
	}
	return Figure{Name: "signature-full-model", Title: "Full model: every coefficient and the intercept (TRIPOD 15a), to 6 significant digits; model.json keeps every digit", Table: append([][]string{h}, shown...)}
}

// reportGenes is the most signature genes (and cohort predictions) a report's table
// lists, in HTML and PDF alike; the CSV beside it has them all.
const reportGenes = 50

// cameraFigure is camera's sets as people read them (camera.csv keeps every digit).
func cameraFigure(e *study.Enrichment) Figure {
	t := study.CameraTable(e.Camera, e.CameraPositive)
	rows := [][]string{{"term", "ontology", "name", "genes", "direction in " + e.CameraPositive, "p", "FDR"}}
	for _, r := range t[1:] {
		p, _ := strconv.ParseFloat(r[5], 64)
		q, _ := strconv.ParseFloat(r[6], 64)
		rows = append(rows, []string{r[0], r[1], r[2], r[3], r[4], text.PValue(p), text.PValue(q)})
	}
	return Figure{Name: "camera", Title: "Camera over the whole ranking: the sets most significant first", Table: rows}
}

// cohortConfusionFigure is a validation's own confusion matrix.
func cohortConfusionFigure(v *signature.Validation) Figure {
	return Figure{Name: "cohort-confusion", Title: "Confusion matrix on the cohort (its samples of a class the model knows, at the classifier's own rule)", Table: study.CohortConfusion(v)}
}

// tripodFigure is the TRIPOD checklist table: where the report answers each item.
func tripodFigure(res *experiment.Result, sig *study.Signature) Figure {
	return Figure{Name: "tripod", Title: "TRIPOD checklist: where this report answers the items of model development and internal validation", Table: sig.TRIPOD(res)}
}

// confusionFigure is the signature's cross-validated confusion matrix as a table.
func confusionFigure(sig *study.Signature) Figure {
	head, rows := sig.ConfusionDisplay()
	return Figure{Name: "signature-confusion", Title: sig.ConfusionCaption(), Table: append([][]string{head}, rows...)}
}
