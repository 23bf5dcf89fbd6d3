package plots

import (
	"context"
	"fmt"
	"image/color"
	"io"
	"strings"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"steadfast/compute/experiment"
	"steadfast/compute/study"
)

// A4 portrait, and the page margin.
var (
	a4W, a4H = 21 * vg.Centimeter, 29.7 * vg.Centimeter
	margin   = 2 * vg.Centimeter
)

// pdfPage writes text and figures down A4 pages, starting a new page when one is full.
type pdfPage struct {
	c   *pdfCanvas
	y   vg.Length       // the top of the next line
	ctx context.Context // the figures and tables stop when it is cancelled
}

func newPDFPage() *pdfPage {
	return &pdfPage{c: newPDFCanvas(a4W, a4H), y: a4H - margin, ctx: context.Background()}
}

// room starts a new page unless h fits above the bottom margin.
func (p *pdfPage) room(h vg.Length) {
	if p.y-h < margin {
		p.c.NextPage()
		p.y = a4H - margin
	}
}

// text writes s in the face of the given size and weight, wrapped to the page width.
func (p *pdfPage) text(s string, size vg.Length, bold bool) {
	f := font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
	if bold {
		f.Weight = xfont.WeightBold
	}
	face := font.DefaultCache.Lookup(f, size)
	p.c.SetColor(nil)
	for _, para := range strings.Split(s, "\n") {
		for _, line := range wrap(para, face, a4W-2*margin) {
			p.room(size * 1.4)
			p.y -= size * 1.4
			p.c.FillString(face, vg.Point{X: margin, Y: p.y}, line)
		}
	}
	p.y -= size * 0.6
}

// wrap breaks s into lines no wider than width in face, at spaces; a word wider than
// width alone is cut between characters. It measures each word once and a long word's
// characters one by one, so its time is linear in len(s).
func wrap(s string, face font.Face, width vg.Length) []string {
	var lines []string
	line, lineW := "", vg.Length(0)
	space := face.Width(" ")
	for _, w := range strings.Fields(s) {
		ww := face.Width(w)
		if line != "" && lineW+space+ww <= width {
			line, lineW = line+" "+w, lineW+space+ww
			continue
		}
		if line != "" {
			lines = append(lines, line)
		}
		line, lineW = w, ww
		if ww <= width {
			continue
		}
		var head []string
		head, line, lineW = cutWord(w, face, width)
		lines = append(lines, head...)
	}
	return append(lines, line)
}

// cutWord cuts w, wider than width, between characters into lines of at most width
// (at least a character each), summing the characters' advances; it returns the full
// lines and the last, with its width.
func cutWord(w string, face font.Face, width vg.Length) (full []string, last string, lastW vg.Length) {
	start := 0
	var sum vg.Length
	for i, r := range w {
		cw := face.Width(string(r))
		if i > start && sum+cw > width {
			full = append(full, w[start:i])
			start, sum = i, 0
		}
		sum += cw
	}
	return full, w[start:], sum
}

// figure draws f at the page width and 10 cm high, 16 cm when split in panels.
func (p *pdfPage) figure(f Figure) error {
	if err := p.ctx.Err(); err != nil {
		return err
	}
	h := 10 * vg.Centimeter
	if f.Split {
		h = 16 * vg.Centimeter
	}
	h = max(h, min(f.MinHeight, a4H-2*margin))
	p.room(h)
	ps, err := f.charts()
	if err != nil {
		return err
	}
	c := draw.New(p.c)
	area := draw.Crop(c, margin, -margin, p.y-h, -(a4H - p.y))
	drawCharts(f.Title, ps, area)
	p.y -= h + 0.5*vg.Centimeter
	return nil
}

// ReportPDF writes the report of Report as an A4 PDF: the data, the methods paragraph
// with its references, every figure, the top features of each method and the
// configuration's main settings.
func ReportPDF(w io.Writer, res *experiment.Result) error {
	return ReportPDFWith(context.Background(), w, res, nil)
}

// ReportPDFWith is ReportPDF with a Signature section for sig (none when nil): its
// methods paragraph, its ROC and heatmap figures and its genes. It stops with ctx's
// error when ctx is cancelled.
func ReportPDFWith(ctx context.Context, w io.Writer, res *experiment.Result, sig *study.Signature) error {
	p, err := runPDF(ctx, res)
	if err != nil {
		return err
	}
	if sig != nil {
		if err := p.signature(res, sig); err != nil {
			return err
		}
	}
	_, err = p.c.WriteTo(w)
	return err
}

// runPDF is a report's PDF pages of the run itself: the data, the methods paragraph
// with its references, Nogueira's tests, every figure and the top features.
func runPDF(ctx context.Context, res *experiment.Result) (*pdfPage, error) {
	return runPDFWith(ctx, res, nil)
}

// runPDFWith is runPDF whose methods paragraph says how the added value av was
// assessed, when av is not nil.
func runPDFWith(ctx context.Context, res *experiment.Result, av *study.AddedValue) (*pdfPage, error) {
	p := newPDFPage()
	p.ctx = ctx
	p.text("Steadfast report: "+res.Data.Name, 16, true)
	name := res.Data.Name
	if src := geoSource(res.Data); src != "" {
		name += " (" + strings.TrimSuffix(src, "; ") + ")"
	}
	p.text(fmt.Sprintf("Steadfast %s, seed %d. %s: %d samples, %d features; %s.", res.Version, res.Config.Seed,
		name, res.Data.Samples, len(res.Data.Features), outcomeWords(res.Data)), 10, false)
	para, refs := MethodsParagraphWith(res, av)
	p.text("Methods", 12, true)
	p.text(para, 10, false)
	p.text(strings.Join(refs, "\n"), 8.5, false)
	if tests := experiment.StabilityTests(res); tests != "" {
		p.text("Which method is more stable: Nogueira's test", 12, true)
		p.text(tests, 10, false)
	}
	p.text("Figures", 12, true)
	for _, f := range All(res) {
		if err := p.figure(f); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
	}
	for i := range res.Methods {
		p.table(tableOf(TopTable(res, i), 20), 8.5)
	}
	return p, ctx.Err()
}

// signature writes the Signature section: its paragraph, its ROC and heatmap figures
// and its first 30 genes.
func (p *pdfPage) signature(res *experiment.Result, sig *study.Signature) error {
	p.text("Signature", 12, true)
	p.text(SignatureParagraph(res, sig), 10, false)
	for _, f := range reportSignatureFigures(res, sig) {
		if err := p.figure(f); err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
	}
	p.table(tableOf(Figure{Name: "signature", Title: "Signature genes", Table: geneDisplay(sig)}, reportGenes), 7.5)
	p.table(tableOf(confusionFigure(sig), reportGenes), 9)
	if h, rows := sig.OperatingDisplay(); h != nil {
		p.table(tableOf(Figure{Name: "metrics", Title: "Operating points (cross-validated; the positive class " + sig.Classes[sig.Positive] + ", at the study's prevalence)", Table: append([][]string{h}, rows...)}, 10), 8)
	}
	if sig.Nested != nil {
		p.table(nestedCountTable(sig.Nested.Choices, sig.Nested.InnerFolds), 8)
	}
	p.table(tableOf(fullModelFigure(sig), 200), 7.5)
	p.text(sig.HowToApply(), 10, false)
	p.table(tableOf(tripodFigure(res, sig), 20), 8)
	if e := sig.Enrichment; e != nil {
		p.text("What the genes mean", 12, true)
		p.text(e.Says(), 10, false)
		if err := p.figure(EnrichmentFigure(res.Data.Name, e)); err != nil {
			return err
		}
		p.table(tableOf(enrichmentTable(e), 20), 7.5)
		if e.Camera != nil {
			p.text(e.CameraSays(), 10, false)
			p.table(tableOf(cameraFigure(e), 20), 7.5)
		}
	}
	if v := sig.Validation; v != nil {
		p.text("Validation", 12, true)
		p.text(ValidationParagraph(v), 10, false)
		for _, f := range ValidationFigures(v) {
			if err := p.figure(f); err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
		}
		if c := cohortConfusionFigure(v); c.Table != nil {
			p.table(tableOf(c, 10), 9)
		}
		p.table(tableOf(Figure{Name: "cohort-predictions", Title: "Predictions on the cohort (the files' digests: in the paragraph above)", Table: study.PredictionDisplay(v)}, reportGenes), 7.5)
	}
	return p.ctx.Err()
}

// table writes t under its title as a table with aligned columns at size: each column
// as wide as its widest cell, the font made smaller (to 7 points) until the table
// fits the page, then the cells wrapped within their share of the width; the header
// on a grey band, a rule under every row; where its rows left out are.
func (p *pdfPage) table(t reportTable, size vg.Length) {
	p.text(t.Title, 12, true)
	if len(t.Header) == 0 {
		return
	}
	width, pad := a4W-2*margin, vg.Points(4)
	face, widths := tableFit(t, size, width, pad)
	line := face.Font.Size * 1.3
	rows := append([][]string{t.Header}, t.Rows...)
	for r, row := range rows {
		cells := make([][]string, len(widths))
		lines := 1
		for c := range widths {
			if c < len(row) {
				cells[c] = wrap(row[c], face, widths[c]-pad)
			}
			lines = max(lines, len(cells[c]))
		}
		h := vg.Length(lines)*line + pad/2
		p.room(h)
		if r == 0 {
			p.c.SetColor(color.Gray{0xe8})
			p.c.Fill(rect(margin, p.y-h, width, h))
		}
		p.c.SetColor(nil)
		x := margin
		for c, ls := range cells {
			for i, l := range ls {
				p.c.FillString(face, vg.Point{X: x + pad/2, Y: p.y - vg.Length(i+1)*line + line*0.25}, l)
			}
			x += widths[c]
		}
		p.y -= h
		p.c.SetColor(color.Gray{0xb0})
		p.c.SetLineWidth(vg.Points(0.4))
		var rule vg.Path
		rule.Move(vg.Point{X: margin, Y: p.y})
		rule.Line(vg.Point{X: margin + width, Y: p.y})
		p.c.Stroke(rule)
	}
	p.c.SetColor(nil)
	p.y -= size * 0.6
	if t.More > 0 {
		p.text(fmt.Sprintf("%s in %s, beside this report.", t.MoreRows(), t.CSV), size, false)
	}
}

// tableFit is the face and the column widths of t: each column as wide as its widest
// cell plus pad, the face shrunk from size toward 7 points until they fit width; else
// at 7 points each column gets its longest word (the least it can wrap to) plus
// the share (width - sum of those) / (sum of widest - sum of those) of what it lacks
// of its widest cell, as HTML tables lay out, so words are not cut but cells wrap (a
// word wider than half the width counts as half the width: it is cut anyway).
func tableFit(t reportTable, size, width, pad vg.Length) (font.Face, []vg.Length) {
	rows := append([][]string{t.Header}, t.Rows...)
	var face font.Face
	var widest []vg.Length
	for sz := size; ; sz -= 0.5 {
		face = font.DefaultCache.Lookup(font.Font{Typeface: "Liberation", Variant: "Sans", Size: sz}, sz)
		widest = make([]vg.Length, len(t.Header))
		var total vg.Length
		for c := range widest {
			for _, r := range rows {
				if c < len(r) {
					widest[c] = max(widest[c], face.Width(r[c])+pad)
				}
			}
			total += widest[c]
		}
		if total <= width {
			return face, widest
		}
		if sz <= 7 {
			break
		}
	}
	least := make([]vg.Length, len(widest))
	var sumLeast, sumWidest vg.Length
	for c := range least {
		for _, r := range rows {
			if c < len(r) {
				for _, w := range strings.Fields(r[c]) {
					least[c] = max(least[c], face.Width(w)+pad)
				}
			}
		}
		if len(least) > 1 { // a word of half the width or more is cut anyway
			least[c] = min(least[c], width/2)
		}
		sumLeast += least[c]
		sumWidest += widest[c]
	}
	widths := make([]vg.Length, len(widest))
	for c := range widths {
		if sumLeast >= width { // words too long even alone: shared in proportion, wrap cuts them
			widths[c] = least[c] * width / sumLeast
			continue
		}
		widths[c] = least[c] + (widest[c]-least[c])*(width-sumLeast)/(sumWidest-sumLeast)
	}
	return face, widths
}

// rect is the path of the rectangle at (x, y) of size w x h.
func rect(x, y, w, h vg.Length) vg.Path {
	var p vg.Path
	p.Move(vg.Point{X: x, Y: y})
	p.Line(vg.Point{X: x + w, Y: y})
	p.Line(vg.Point{X: x + w, Y: y + h})
	p.Line(vg.Point{X: x, Y: y + h})
	p.Close()
	return p
}
