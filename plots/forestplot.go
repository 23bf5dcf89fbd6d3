package plots

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"steadfast/compute/study"
	stext "steadfast/internal/text"
)

// HRRow is one row of a forest plot: a hazard ratio with its 95% interval and p, and
// the samples and events behind it (0: not shown).
type HRRow struct {
	Name             string
	HR, Low, High, P float64
	N, Events        int
	// Muted draws the row in grey with an open square: a reference for the row
	// under it (a covariate alone, then with the risk score).
	Muted bool
	// Infinite is the Cox fit's warning that the coefficient may be infinite
	// (coxph's; the term separates the events): the row is not drawn, its text says
	// so, and so do the legend and the table's warning column.
	Infinite bool
}

// forestReach is how far beyond the estimates (and 1) the axis reaches, as a factor:
// an interval reaching further is cut at the axis's end with an arrowhead.
const forestReach = 30

// HazardForest draws the hazard ratios of rows, top to bottom in their order: a square
// at each estimate with a line across its 95% interval, on a log scale, with a dashed
// line at 1 (no effect); the rows' names at the left (with n and events when given),
// "HR (95% CI), p" at the right. The axis spans every interval but those reaching
// beyond forestReach times the span of the estimates and 1: those are cut at the
// axis's end with an arrowhead (and the legend says so). A row whose HR is not a
// positive number says "not estimable"; one whose coefficient may be infinite says so,
// is not drawn, and the legend names it. Named "signature-forest"; its table is
// name,hr,low95,high95,p,n,events,warning (n and events empty when not given).
func HazardForest(title string, rows []HRRow) Figure {
	f := Figure{Name: "signature-forest", Title: title}
	f.Table = [][]string{{"name", "hr", "low95", "high95", "p", "n", "events", "warning"}}
	lines := 1
	for _, r := range rows {
		n, e := "", ""
		if r.N > 0 {
			n = strconv.Itoa(r.N)
		}
		if r.Events > 0 || r.N > 0 {
			e = strconv.Itoa(r.Events)
		}
		w := ""
		if r.Infinite {
			w = study.InfiniteWarning
		}
		f.Table = append(f.Table, []string{r.Name, fmtNum(r.HR), fmtNum(r.Low), fmtNum(r.High), fmtNum(r.P), n, e, w})
		lines = max(lines, strings.Count(forestName(r), "\n")+1)
	}
	// a row's name at 10 points, its lines 1.2 apart, over the axis, title and legend
	f.MinHeight = vg.Points(110 + float64(len(rows))*(12*float64(lines)+6))
	lo, hi := forestRange(rows)
	f.Build = func() (*plot.Plot, error) {
		inner := innerPlot()
		inner.X.Label.Text = "hazard ratio (log scale)"
		inner.X.Scale = plot.LogScale{}
		inner.X.Min, inner.X.Max = lo, hi
		inner.X.Tick.Marker = plot.ConstantTicks(logTicks(lo, hi))
		n := float64(len(rows))
		inner.Y.Min, inner.Y.Max = -0.6, n-0.4
		var names []plot.Tick
		for i, r := range rows {
			names = append(names, plot.Tick{Value: n - 1 - float64(i), Label: forestName(r)})
		}
		inner.Y.Tick.Marker = plot.ConstantTicks(names)
		inner.Y.Tick.Length, inner.Y.LineStyle.Width = 0, 0
		ref, err := plotter.NewLine(plotter.XYs{{X: 1, Y: inner.Y.Min}, {X: 1, Y: inner.Y.Max}})
		if err != nil {
			return nil, err
		}
		ref.Color, ref.Dashes = color.Gray{0x50}, []vg.Length{vg.Points(4), vg.Points(3)}
		marks := forestMarks{rows: rows}
		inner.Add(ref, marks)
		panel := &forestPanel{inner: inner, header: "HR (95% CI), p"}
		for i, r := range rows {
			panel.texts = append(panel.texts, hrText(r))
			panel.ys = append(panel.ys, n-1-float64(i))
		}
		frame := framePlot(title, panel)
		if marks.clipped(lo, hi) {
			frame.Legend.Add("arrowhead: the 95% interval reaches beyond the axis (its ends at the right)", noKey{})
		}
		for _, r := range rows {
			if r.Infinite {
				frame.Legend.Add(fmt.Sprintf("warning: %s: coefficient may be infinite (as R's coxph warns; it separates the events): %s (%s-%s) is no estimate, not drawn", strings.ReplaceAll(r.Name, "\n", " "), fmtHR(r.HR), fmtHR(r.Low), fmtHR(r.High)), noKey{})
			}
		}
		return frame, nil
	}
	return f
}

// forestName is a row's name as drawn: wrapped at 32 characters, with its samples
// and events on a line of their own when given.
func forestName(r HRRow) string {
	s := wrapName(r.Name, 32)
	if r.N > 0 {
		s += fmt.Sprintf("\nn = %d, %s", r.N, stext.Count(r.Events, "event"))
	}
	return s
}

// estimable reports whether v can be drawn on a log axis.
func estimable(v float64) bool { return v > 0 && !math.IsInf(v, 0) }

// drawn reports whether r's estimate is drawn: estimable, and not one the fit warned
// may be infinite.
func drawn(r HRRow) bool { return estimable(r.HR) && !r.Infinite }

// hrText is "1.85 (1.32-2.61), p = 0.0004" for the right of a row.
func hrText(r HRRow) string {
	if r.Infinite {
		return "may be infinite: no estimate"
	}
	if !estimable(r.HR) {
		return "not estimable"
	}
	s := fmtHR(r.HR)
	if !math.IsNaN(r.Low) && !math.IsNaN(r.High) {
		s += " (" + fmtHR(r.Low) + "-" + fmtHR(r.High) + ")"
	}
	if !math.IsNaN(r.P) {
		s += ", " + formatP(r.P)
	}
	return s
}

// fmtHR writes a ratio with two decimals (0.85, 2.31), fewer digits past 10 (12.3,
// 123), in two significant digits below 0.01 and with an exponent from 1000 on.
func fmtHR(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "∞"
	case v == 0:
		return "0"
	case v < 0.01:
		return strconv.FormatFloat(v, 'g', 2, 64)
	case v < 9.995:
		return strconv.FormatFloat(v, 'f', 2, 64)
	case v < 999.5:
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(v, 'e', 2, 64)
}

// forestRange is the axis of a forest plot: the estimates and 1, and the intervals'
// ends within forestReach of them (a further end sets the axis there), with a
// margin of a seventh of a decade.
func forestRange(rows []HRRow) (lo, hi float64) {
	lo, hi = 1, 1
	for _, r := range rows {
		if drawn(r) {
			lo, hi = math.Min(lo, r.HR), math.Max(hi, r.HR)
		}
	}
	reachLo, reachHi := lo/forestReach, hi*forestReach
	for _, r := range rows {
		if !drawn(r) {
			continue
		}
		if !math.IsNaN(r.Low) {
			lo = math.Min(lo, math.Max(r.Low, reachLo))
		}
		if !math.IsNaN(r.High) {
			hi = math.Max(hi, math.Min(r.High, reachHi))
		}
	}
	m := math.Pow(10, 1.0/7)
	return lo / m, hi * m
}

// logTicks are ticks between lo and hi: powers of ten (every second or third when
// there are many), or 1, 2 and 5 times them, or finer, the first of these giving
// three ticks or more.
func logTicks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for _, mults := range [][]float64{{1}, {1, 2, 5}, {1, 1.5, 2, 3, 5, 7}, {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8}} {
		ticks = ticks[:0]
		for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
			for _, m := range mults {
				v, _ := strconv.ParseFloat(strconv.FormatFloat(m*math.Pow(10, e), 'g', 3, 64), 64)
				if v >= lo && v <= hi {
					ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
				}
			}
		}
		if len(ticks) >= 3 {
			break
		}
	}
	for every := 2; len(ticks) > 9; every++ { // decades only: keep 1 and every n-th
		var thin []plot.Tick
		for _, t := range ticks {
			if d := int(math.Round(math.Log10(t.Value))); d%every == 0 {
				thin = append(thin, t)
			}
		}
		if len(thin) < 3 {
			break
		}
		ticks = thin
	}
	return ticks
}

// forestMarks draws each row's interval and square; an interval reaching beyond the
// axis ends there in an arrowhead.
type forestMarks struct{ rows []HRRow }

// clipped reports whether an interval reaches beyond [lo, hi].
func (m forestMarks) clipped(lo, hi float64) bool {
	for _, r := range m.rows {
		if drawn(r) && (r.Low < lo || r.High > hi) {
			return true
		}
	}
	return false
}

// Plot implements plot.Plotter.
func (m forestMarks) Plot(c draw.Canvas, p *plot.Plot) {
	fx, fy := p.Transforms(&c)
	n := float64(len(m.rows))
	for i, r := range m.rows {
		if !drawn(r) {
			continue
		}
		ink, shape := color.Color(color.Black), draw.GlyphDrawer(draw.BoxGlyph{})
		if r.Muted {
			ink, shape = color.Gray{0x80}, draw.SquareGlyph{}
		}
		sty := draw.LineStyle{Color: ink, Width: vg.Points(1.2)}
		y := fy(n - 1 - float64(i))
		if !math.IsNaN(r.Low) && !math.IsNaN(r.High) {
			x0, x1 := c.Min.X, c.Max.X
			if r.Low >= p.X.Min {
				x0 = fx(r.Low)
			}
			if r.High <= p.X.Max {
				x1 = fx(r.High)
			}
			c.StrokeLine2(sty, x0, y, x1, y)
			if r.Low < p.X.Min {
				arrowhead(c, ink, x0, y, -1)
			}
			if r.High > p.X.Max {
				arrowhead(c, ink, x1, y, 1)
			}
		}
		if r.Muted { // the open square over a white one, so the line does not cross it
			c.DrawGlyph(draw.GlyphStyle{Color: color.White, Radius: vg.Points(3), Shape: draw.BoxGlyph{}}, vg.Point{X: fx(r.HR), Y: y})
		}
		c.DrawGlyph(draw.GlyphStyle{Color: ink, Radius: vg.Points(3), Shape: shape}, vg.Point{X: fx(r.HR), Y: y})
	}
}

// arrowhead draws a filled arrowhead in ink with its tip at (x, y), pointing right (dir 1)
// or left (-1).
func arrowhead(c draw.Canvas, ink color.Color, x, y vg.Length, dir vg.Length) {
	l, h := vg.Points(6), vg.Points(3.5)
	c.FillPolygon(ink, []vg.Point{{X: x, Y: y}, {X: x - dir*l, Y: y + h}, {X: x - dir*l, Y: y - h}})
}

// forestPanel draws a forest plot with a column of text at its right, one line a row
// (at the rows' ys) under a header.
type forestPanel struct {
	inner  *plot.Plot
	header string
	texts  []string
	ys     []float64
}

// Plot implements plot.Plotter: the column at 9 points (smaller, to 6.5, when wider
// than 40% of the figure), the names at 10 (smaller, to 6.5, to fit their rows and a
// third of the width), the plot between them.
func (f *forestPanel) Plot(c draw.Canvas, _ *plot.Plot) {
	gap := vg.Points(6)
	width := c.Max.X - c.Min.X
	var sty text.Style
	var col vg.Length
	for size := vg.Length(9); ; size -= 0.5 {
		sty = textStyle(size, color.Black)
		col = sty.Width(f.header)
		for _, s := range f.texts {
			col = max(col, sty.Width(s))
		}
		if col <= 0.4*width || size <= 6.5 {
			break
		}
	}
	row := 1.4 * sty.Font.Size
	sub := draw.Crop(c, gap, -(col + gap), 0, -row) // a margin at the left: the widest name would touch the edge
	names := &f.inner.Y.Tick.Label
	lines := 1
	for _, t := range f.inner.Y.Tick.Marker.Ticks(f.inner.Y.Min, f.inner.Y.Max) {
		lines = max(lines, len(names.Handler.Lines(t.Label)))
	}
	for names.Font.Size = 10; names.Font.Size > 6.5; names.Font.Size -= 0.5 {
		dc := f.inner.DataCanvas(sub)
		pitch := (dc.Max.Y - dc.Min.Y) / vg.Length(f.inner.Y.Max-f.inner.Y.Min)
		if dc.Min.X-sub.Min.X <= width/3 && vg.Length(lines)*1.2*names.Font.Size <= pitch {
			break
		}
	}
	f.inner.Draw(sub)
	dc := f.inner.DataCanvas(sub)
	_, fy := f.inner.Transforms(&dc)
	x := dc.Max.X + gap
	c.FillText(sty, vg.Point{X: x, Y: sub.Max.Y + row/2}, f.header)
	for i, s := range f.texts {
		c.FillText(sty, vg.Point{X: x, Y: fy(f.ys[i])}, s)
	}
}
