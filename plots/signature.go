package plots

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/internal/text"
)

// SignatureROC draws the cross-validated ROC curves of est: every repetition's curve
// in grey, their vertical average (the mean true-positive rate at each false-positive
// rate, a curve's rate at x being its highest with FPR <= x) in colour with the band of
// their range, the chance diagonal, and in the legend, each named, the AUC with the
// resamples' 95% interval (signature.CVInterval) and the range of the repetitions'
// pooled AUCs. The legend leads with the headline h (study.Signature.Headline) when
// given; when it is another estimate than the curves', the curves' AUC is called
// optimistic. With op (two classes) the classifier's own operating point and Youden's
// are marked with their sensitivity and specificity intervals as bars. Its table is
// every repetition's points, then the mean and the band on the grid, then the marks.
func SignatureROC(est *signature.Estimate, op *signature.Operating, h *signature.Headline, title string) Figure {
	// a square plot with its legend of up to seven lines below it: 13 cm keeps the
	// square at about 8 cm in a report's or a 16 cm export's width
	f := Figure{Name: "signature-roc", Title: title, MinHeight: 13 * vg.Centimeter}
	f.Table = [][]string{{"repetition", "threshold", "fpr", "tpr"}}
	for r, curve := range est.Curves {
		for _, p := range curve {
			f.Table = append(f.Table, []string{strconv.Itoa(est.Repeats[r] + 1), fmtNum(p.Threshold), fmtNum(p.FPR), fmtNum(p.TPR)})
		}
	}
	x, mean, lo, hi := signature.VerticalAverage(est.Curves)
	for i := range x {
		for _, row := range [][2]any{{"mean", mean[i]}, {"band low", lo[i]}, {"band high", hi[i]}} {
			f.Table = append(f.Table, []string{row[0].(string), "", fmtNum(x[i]), fmtNum(row[1].(float64))})
		}
	}
	if op != nil {
		for _, m := range []struct {
			name string
			c    signature.Coords
		}{{"classifier's rule", op.Own}, {"Youden's threshold", op.Youden}} {
			f.Table = append(f.Table, []string{m.name, fmtNum(m.c.Threshold), fmtNum(1 - m.c.Spec.Est), fmtNum(m.c.Sens.Est)})
		}
	}
	f.Build = func() (*plot.Plot, error) {
		p := square(plot.New()) // equal scales on both rates
		p.Title.Text = title
		p.X.Label.Text = "false-positive rate (1 - specificity)"
		p.Y.Label.Text = "true-positive rate (sensitivity)"
		style(p, 0, 1)
		p.X.Min, p.X.Max = 0, 1
		var l layers
		c := palette[0]
		if err := l.band(x, lo, hi, c, 0, 1); err != nil {
			return nil, err
		}
		for _, curve := range est.Curves {
			xy := make(plotter.XYs, len(curve))
			for i, pt := range curve {
				xy[i] = plotter.XY{X: pt.FPR, Y: pt.TPR}
			}
			line, err := plotter.NewLine(xy)
			if err != nil {
				return nil, err
			}
			line.Color, line.Width = color.Gray{0xa0}, vg.Points(0.5)
			l.edges = append(l.edges, line)
		}
		mxy := make(plotter.XYs, len(x))
		for i := range x {
			mxy[i] = plotter.XY{X: x[i], Y: mean[i]}
		}
		ml, err := plotter.NewLine(mxy)
		if err != nil {
			return nil, err
		}
		ml.Color, ml.Width = c, vg.Points(2)
		l.curves = append(l.curves, ml)
		diag, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
		diag.Color, diag.Dashes = color.Gray{0x80}, []vg.Length{vg.Points(3), vg.Points(3)}
		l.addTo(p)
		p.Add(diag)
		if h != nil {
			p.Legend.Add(capitalize(h.Text()), swatch{color.Transparent})
		}
		leg := fmt.Sprintf("mean curve, %s", text.Count(len(est.AUCs), "repetition"))
		if iv := est.Interval; !math.IsNaN(iv.Low) && (h == nil || h.Estimate == signature.HeadlineNested) { // the headline says it otherwise
			leg += fmt.Sprintf(": AUC %.3f (%.3f-%.3f)", iv.Mean, iv.Low, iv.High)
			if h != nil {
				leg += ", optimistic"
			}
		}
		p.Legend.Add(leg, ml)
		p.Legend.Add(fmt.Sprintf("range of the repetitions: pooled AUC %.3f-%.3f", est.MinAUC, est.MaxAUC), swatch{tint(c, 0.18)})
		rep := "each repetition"
		if len(est.Curves) > 0 {
			grey, _ := plotter.NewLine(plotter.XYs{{}, {X: 1, Y: 1}})
			grey.Color, grey.Width = color.Gray{0xa0}, vg.Points(0.5)
			p.Legend.Add(rep, grey)
		}
		p.Legend.Add("chance", diag)
		if op != nil {
			if err := markPoint(p, op.Own, "classifier's rule", draw.CircleGlyph{}, color.Black); err != nil {
				return nil, err
			}
			if err := markPoint(p, op.Youden, "Youden (optimistic)", draw.TriangleGlyph{}, palette[1]); err != nil {
				return nil, err
			}
		}
		return p, nil
	}
	return f
}

// markPoint marks the operating point c on a ROC plot with bars spanning its
// specificity's (across) and sensitivity's (up) 95% intervals, and its legend entry.
func markPoint(p *plot.Plot, c signature.Coords, name string, g draw.GlyphDrawer, col color.Color) error {
	x, y := 1-c.Spec.Est, c.Sens.Est
	if math.IsNaN(x) || math.IsNaN(y) {
		return nil
	}
	for _, seg := range []plotter.XYs{{{X: 1 - c.Spec.High, Y: y}, {X: 1 - c.Spec.Low, Y: y}}, {{X: x, Y: c.Sens.Low}, {X: x, Y: c.Sens.High}}} {
		if math.IsNaN(seg[0].X + seg[0].Y + seg[1].X + seg[1].Y) {
			continue
		}
		bar, err := plotter.NewLine(seg)
		if err != nil {
			return err
		}
		bar.Color, bar.Width = col, vg.Points(1)
		p.Add(bar)
	}
	sc, err := plotter.NewScatter(plotter.XYs{{X: x, Y: y}})
	if err != nil {
		return err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(4), Shape: g}
	p.Add(sc)
	p.Legend.Add(fmt.Sprintf("%s: sensitivity %.3f, specificity %.3f", name, c.Sens.Est, c.Spec.Est), sc)
	return nil
}

// classColor is class c's colour in a class bar: Okabe and Ito's without their blue
// and vermillion, which a blue-red colour scale beside it would be read as.
func classColor(c int) color.Color {
	cs := []color.Color{palette[2], palette[3], palette[4], palette[6], color.Gray{0x99}, palette[5]}
	return cs[c%len(cs)]
}

// colourBar draws the continuous blue-red scale from lo to hi as a vertical bar between
// x0 and x1 spanning y0 to y1 in the plot's units, labelled at its ends and middle.
func colourBar(p *plot.Plot, x0, x1, y0, y1, lo, hi float64) error {
	pal := moreland.SmoothBlueRed()
	pal.SetMin(lo)
	pal.SetMax(hi)
	const steps = 64
	for i := 0; i < steps; i++ {
		a, b := y0+(y1-y0)*float64(i)/steps, y0+(y1-y0)*float64(i+1)/steps
		c, err := pal.At(lo + (hi-lo)*(float64(i)+0.5)/steps)
		if err != nil {
			return err
		}
		box, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: a}, {X: x1, Y: a}, {X: x1, Y: b}, {X: x0, Y: b}})
		if err != nil {
			return err
		}
		box.Color, box.LineStyle.Width = c, 0
		p.Add(box)
	}
	labels, err := plotter.NewLabels(plotter.XYLabels{
		XYs:    []plotter.XY{{X: x1, Y: y0}, {X: x1, Y: (y0 + y1) / 2}, {X: x1, Y: y1}},
		Labels: []string{fmt.Sprintf(" z %+.0f", lo), " 0", fmt.Sprintf(" z %+.0f", hi)},
	})
	if err != nil {
		return err
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].YAlign = draw.YCenter
		labels.TextStyle[i].Font.Size = vg.Points(8)
	}
	p.Add(labels)
	return nil
}

func fmtNum(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// SignatureHeatmap draws the signature genes (rows, labelled genes) across the samples
// (columns, with their classes): each gene z-scored over the samples, genes and samples
// ordered by average-linkage clustering on 1 - Pearson r (signature.AverageLinkage,
// SciPy's leaf order) with their dendrograms, a colour bar of the classes above the
// samples and a colour scale. values[g][i] is gene g's value in sample i. The table is
// the z-scores in the drawn order.
func SignatureHeatmap(title string, genes, samples, classes []string, labels []int, values [][]float64) Figure {
	z := make([][]float64, len(values))
	for g, v := range values {
		z[g] = zscore(v)
	}
	cols := make([][]float64, len(samples))
	for i := range cols {
		for g := range z {
			cols[i] = append(cols[i], z[g][i])
		}
	}
	gm, sm := signature.AverageLinkage(z), signature.AverageLinkage(cols)
	gOrder, sOrder := signature.LeafOrder(gm), signature.LeafOrder(sm)
	if len(genes) == 1 {
		gOrder = []int{0}
	}
	f := Figure{Name: "signature-heatmap", Title: title}
	head := []string{"gene"}
	for _, i := range sOrder {
		head = append(head, samples[i]+" ("+classes[labels[i]]+")")
	}
	f.Table = [][]string{head}
	grid := make(heatGrid, len(gOrder))
	for r, g := range gOrder {
		row := []string{genes[g]}
		grid[r] = make([]float64, len(sOrder))
		for c, i := range sOrder {
			grid[r][c] = math.Max(-3, math.Min(3, z[g][i])) // the scale's ends hold what lies beyond
			row = append(row, fmtNum(z[g][i]))
			f.Points = append(f.Points, Point{float64(c), float64(r), fmt.Sprintf("%s in %s (%s): z = %.2f", genes[g], samples[i], classes[labels[i]], z[g][i])})
		}
		f.Table = append(f.Table, row)
	}
	ng, ns := float64(len(gOrder)), float64(len(sOrder))
	// room for a gene's name a row (rows of 7 points, the dendrogram above them at 0.18
	// of theirs) beside the title, the samples' names, the axis label and the legend
	f.MinHeight = vg.Points(7*(1.18*ng+1.2) + 150)
	f.Build = func() (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = title
		for c, name := range classes { // the class bar's key; the colour scale is a bar of its own
			p.Legend.Add(name, swatch{classColor(c)})
		}
		if err := blueRedHeatMap(p, grid, -3, 3, nil, nil); err != nil {
			return nil, err
		}
		if err := colourBar(p, ns+0.3, ns+1.3, 0, math.Max(ng-1, 1), -3, 3); err != nil {
			return nil, err
		}
		// the class bar above the samples, then the dendrograms beyond the heat map
		for c, i := range sOrder {
			box, err := plotter.NewPolygon(plotter.XYs{{X: float64(c) - 0.5, Y: ng - 0.3}, {X: float64(c) + 0.5, Y: ng - 0.3}, {X: float64(c) + 0.5, Y: ng + 0.5}, {X: float64(c) - 0.5, Y: ng + 0.5}})
			if err != nil {
				return nil, err
			}
			box.Color = classColor(labels[i])
			box.LineStyle.Width = 0
			p.Add(box)
		}
		if err := dendrogram(p, sm, sOrder, func(leaf, height float64) plotter.XY {
			return plotter.XY{X: leaf, Y: ng + 0.7 + height*0.18*ng}
		}); err != nil {
			return nil, err
		}
		if err := dendrogram(p, gm, gOrder, func(leaf, height float64) plotter.XY {
			return plotter.XY{X: -0.8 - height*0.12*ns, Y: leaf}
		}); err != nil {
			return nil, err
		}
		var ticks []plot.Tick
		for r, g := range gOrder {
			ticks = append(ticks, plot.Tick{Value: float64(r), Label: genes[g]})
		}
		p.Y.Tick.Marker = plot.ConstantTicks(ticks)
		p.X.Tick.Marker = plot.ConstantTicks(nil)
		named := rowAxes{y: true, yWhat: "genes"}
		if ns <= 120 { // the samples named under their columns, when they fit
			var st []plot.Tick
			for c, i := range sOrder {
				st = append(st, plot.Tick{Value: float64(c), Label: samples[i]})
			}
			p.X.Tick.Marker = plot.ConstantTicks(st)
			p.X.Tick.Label.Rotation = math.Pi / 2
			p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
			named.x = true
		}
		p.X.Label.Text = fmt.Sprintf("%d samples, ordered by clustering; colour: the gene's z-score over the samples", len(sOrder))
		// the dendrograms' heights are drawn as shares of their tallest merge (dendrogram):
		// the axes reach the top merges, which had hung outside them
		p.Y.Min, p.Y.Max = -0.5, ng+0.7+0.18*ng
		p.X.Min, p.X.Max = -0.8-0.12*ns, ns+1.3+0.1*ns
		p.X.LineStyle.Width, p.Y.LineStyle.Width = 0, 0 // no axis line through the labels
		p.X.Tick.LineStyle.Width, p.Y.Tick.LineStyle.Width = 0, 0
		rowLabels(p, named)
		return p, nil
	}
	return f
}

// zscore is v less its mean over its n-1 standard deviation (0 for a constant v).
func zscore(v []float64) []float64 {
	m, s := 0.0, 0.0
	for _, x := range v {
		m += x / float64(len(v))
	}
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	s = math.Sqrt(s / float64(max(len(v)-1, 1)))
	out := make([]float64, len(v))
	for i, x := range v {
		if s > 0 {
			out[i] = (x - m) / s
		}
	}
	return out
}

func maxHeight(merges []signature.Merge) float64 {
	h := 1e-9
	for _, m := range merges {
		h = math.Max(h, m.Dist)
	}
	return h
}

// dendrogram draws the tree of merges, leaves at their places in order, a join at
// height dist/maxHeight; at maps (leaf position, height in [0, 1]) to the plot.
func dendrogram(p *plot.Plot, merges []signature.Merge, order []int, at func(leaf, height float64) plotter.XY) error {
	n := len(merges) + 1
	if len(merges) == 0 {
		return nil
	}
	top := maxHeight(merges)
	pos := make([]float64, 2*n-1)
	hgt := make([]float64, 2*n-1)
	for i, leaf := range order {
		pos[leaf] = float64(i)
	}
	for s, m := range merges {
		id := n + s
		pos[id] = (pos[m.A] + pos[m.B]) / 2
		hgt[id] = m.Dist / top
		line, err := plotter.NewLine(plotter.XYs{at(pos[m.A], hgt[m.A]), at(pos[m.A], hgt[id]), at(pos[m.B], hgt[id]), at(pos[m.B], hgt[m.B])})
		if err != nil {
			return err
		}
		line.Color, line.Width = color.Gray{0x40}, vg.Points(0.6)
		p.Add(line)
	}
	return nil
}

// GenesPerPage is the most genes one figure of SignatureGenes shows, 4 x 3 panels: at
// a laptop's figure pane (about 850 x 450 points) a panel keeps about 200 x 140
// points, room for its labels at 7 points.
const GenesPerPage = 12

// SignatureGenes draws each signature gene's values by class, a box plot with the
// samples as points (spread sideways by sample order, so none hides another), as small
// multiples: one panel a gene under the title, GenesPerPage genes a figure, the first
// named signature-genes, the next signature-genes-2 and so on. values[g][i] is gene g's
// value in sample i; unit names the values ("log2 expression"). Each table is every
// value of its genes.
func SignatureGenes(title, unit string, genes, samples, classes []string, labels []int, values [][]float64) []Figure {
	var figs []Figure
	for first := 0; first < len(genes); first += GenesPerPage {
		last := min(first+GenesPerPage, len(genes))
		name, t := "signature-genes", title
		if first > 0 {
			name = fmt.Sprintf("signature-genes-%d", first/GenesPerPage+1)
		}
		if len(genes) > GenesPerPage {
			t = fmt.Sprintf("%s (genes %d-%d of %d)", title, first+1, last, len(genes))
		}
		figs = append(figs, genesFigure(name, t, unit, genes[first:last], samples, classes, labels, values[first:last]))
	}
	return figs
}

// genesFigure is one figure of SignatureGenes: a panel for each of genes.
func genesFigure(name, title, unit string, genes, samples, classes []string, labels []int, values [][]float64) Figure {
	f := Figure{Name: name, Title: title, Panels: len(genes), Split: len(genes) > 1}
	f.Table = [][]string{{"gene", "sample", "class", "value"}}
	for g, v := range values {
		for i, x := range v {
			f.Table = append(f.Table, []string{genes[g], samples[i], classes[labels[i]], fmtNum(x)})
		}
	}
	f.Panel = func(g int) (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = genes[g]
		p.Title.TextStyle.Font.Size = vg.Points(8)
		p.Y.Label.Text = unit
		byClass := make([]plotter.Values, len(classes))
		var pts []plotter.XYs = make([]plotter.XYs, len(classes))
		seen := make([]int, len(classes))
		for i, x := range values[g] {
			l := labels[i]
			byClass[l] = append(byClass[l], x)
			off := 0.3 * (float64(seen[l]%7)/6 - 0.5)
			pts[l] = append(pts[l], plotter.XY{X: float64(l) + off, Y: x})
			seen[l]++
		}
		for c, v := range byClass {
			if len(v) == 0 {
				continue
			}
			b, err := plotter.NewBoxPlot(vg.Points(18), float64(c), v)
			if err != nil {
				return nil, err
			}
			b.GlyphStyle.Radius = 0 // the points show the outliers
			p.Add(b)
			sc, err := plotter.NewScatter(pts[c])
			if err != nil {
				return nil, err
			}
			sc.Color, sc.Radius = palette[c%len(palette)], vg.Points(1.2)
			p.Add(sc)
		}
		p.NominalX(classes...)
		p.X.Min, p.X.Max = -0.6, float64(len(classes))-0.4
		p.X.Tick.Label.Font.Size, p.Y.Tick.Label.Font.Size = vg.Points(7), vg.Points(7) // small multiples
		return p, nil
	}
	f.Build = func() (*plot.Plot, error) {
		p, err := f.Panel(0)
		if err == nil && !f.Split {
			p.Title.Text = title
		}
		return p, err
	}
	return f
}

// SignatureFigures are the figures of the signature sig of the run res: its
// cross-validated ROC curves, its heatmap and its genes by class.
func SignatureFigures(res *experiment.Result, sig *study.Signature) []Figure {
	m := res.Methods[sig.Choice.Method].Label
	pos := "one-vs-rest, class " + sig.Classes[0]
	if sig.Positive >= 0 {
		pos = sig.Classes[sig.Positive] + " positive"
	}
	roc := SignatureROC(sig.CV, sig.Op, sig.Headline(), fmt.Sprintf("%s: %s top %d, %s, cross-validated ROC (%s)", res.Data.Name, m, sig.Choice.K, experiment.ClassifierLabel(sig.Choice.Classifier), pos))
	heat := SignatureHeatmap(fmt.Sprintf("%s: the %d signature genes (%s) across the samples", res.Data.Name, len(sig.Genes), m),
		sig.GeneLabels(), sig.Samples, sig.Classes, sig.Labels, sig.Values)
	unit := "value"
	if res.Config.Prep.Log2 {
		unit = "log2 value"
	} else if res.Config.Prep.LogCPM {
		unit = "log-CPM"
	}
	genes := SignatureGenes(fmt.Sprintf("%s: the signature genes by class", res.Data.Name), unit,
		sig.GeneLabels(), sig.Samples, sig.Classes, sig.Labels, sig.Values)
	figs := append([]Figure{roc, heat}, genes...)
	if sig.Op != nil {
		figs = append(figs, CalibrationFigure(res.Data.Name, sig.Classes[sig.Positive], sig.Op, sig.Labels, sig.Positive))
	}
	if sig.Perm != nil {
		figs = append(figs, PermutationFigure(res.Data.Name, sig.Perm))
	}
	return figs
}

// capitalize is s with its first letter upper case.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
