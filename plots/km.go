package plots

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"steadfast/compute/survival"
	"steadfast/internal/text"
)

// KMCurve is one group of a Kaplan-Meier figure: its name (in the legend and the
// numbers at risk), its estimate, and whether its 95% confidence band is drawn.
type KMCurve struct {
	Name string
	Fit  *survival.KaplanMeier
	Band bool
}

// kmHeader is the header of a Kaplan-Meier figure's table.
var kmHeader = []string{"section", "group", "time", "n_risk", "n_event", "n_censor", "survival", "lower95", "upper95", "chisq", "df", "p"}

// KaplanMeierFigure draws the Kaplan-Meier curves of groups: each a right-continuous
// step function from (0, 1), its censored times marked by short vertical ticks, the
// shaded 95% log confidence band of a curve with Band set (of a lone curve always);
// under the time axis, the numbers at risk (still followed) at each labelled time, a
// row per group in its colour. The legend gives each group's samples and events, then
// lr's log-rank test (when lr is not nil) and note (when not ""). unit names the time
// ("years"). The figure is named "signature-km" (rename it for a cohort).
//
// Its table has one header, kmHeader, and rows of three sections: "km", a curve's
// estimate at each of its times (survfit's rows: n_risk, n_event, n_censor at that
// time; survival and its interval after it); "at_risk", a group's n_risk at each
// labelled time, as drawn; "logrank", the test's chisq, df and p.
func KaplanMeierFigure(title string, groups []KMCurve, unit string, lr *survival.LogRank, note string) Figure {
	end := 0.0
	for _, g := range groups {
		if g.Fit != nil && len(g.Fit.Time) > 0 {
			end = math.Max(end, g.Fit.Time[len(g.Fit.Time)-1])
		}
	}
	ticks := timeTicks(end)
	end = math.Max(end, ticks[len(ticks)-1].Value)
	at := make([]float64, len(ticks))
	for i, tk := range ticks {
		at[i] = tk.Value
	}
	counts := make([][]int, len(groups))
	for g, c := range groups {
		if c.Fit != nil {
			counts[g] = c.Fit.AtRisk(at)
		}
	}
	// no MinHeight: the panel fits the numbers at risk under the curves in the size asked
	f := Figure{Name: "signature-km", Title: title}
	f.Table = kmTable(groups, ticks, counts, lr)
	f.Build = func() (*plot.Plot, error) {
		if len(groups) == 0 {
			return nil, errors.New("Kaplan-Meier figure: no groups to draw")
		}
		inner := innerPlot()
		inner.X.Label.Text = timeLabel(unit)
		inner.Y.Label.Text = "survival probability"
		style(inner, 0, 1)
		inner.X.Min, inner.X.Max = 0, end
		inner.X.Tick.Marker = plot.ConstantTicks(ticks)
		panel := &kmPanel{inner: inner, ticks: ticks, counts: counts}
		frame := framePlot(title, panel)
		var l layers
		var bandKey color.Color
		for g, c := range groups {
			if c.Fit == nil {
				return nil, fmt.Errorf("Kaplan-Meier figure: group %q has no estimate", c.Name)
			}
			col := palette[g%len(palette)]
			if c.Band || len(groups) == 1 {
				x, lo, hi := kmBand(c.Fit)
				if err := l.band(x, lo, hi, col, 0, 1); err != nil {
					return nil, err
				}
				if bandKey == nil {
					bandKey = tint(col, 0.18)
				}
			}
			line, err := plotter.NewLine(kmSteps(c.Fit))
			if err != nil {
				return nil, err
			}
			line.Color, line.Width = col, vg.Points(1.5)
			l.curves = append(l.curves, line, censorMarks{xy: kmCensored(c.Fit), colour: col})
			events := 0
			for _, d := range c.Fit.NEvent {
				events += d
			}
			frame.Legend.Add(fmt.Sprintf("%s (n = %d, %s)", c.Name, c.Fit.N, text.Count(events, "event")), line)
			panel.names = append(panel.names, c.Name)
			panel.colours = append(panel.colours, col)
		}
		l.addTo(inner)
		frame.Legend.Add("censored", censorMarks{colour: color.Black})
		if bandKey != nil {
			frame.Legend.Add("pointwise 95% confidence band", swatch{bandKey})
		}
		if lr != nil {
			frame.Legend.Add(logRankText(lr), noKey{})
		}
		if note != "" {
			frame.Legend.Add(note, noKey{})
		}
		return frame, nil
	}
	return f
}

// logRankText is the log-rank test for the legend: "log-rank p = 0.0012 (χ² = 10.5,
// 1 df)".
func logRankText(lr *survival.LogRank) string {
	if lr.DF < 1 {
		return "log-rank test: none (fewer than two groups with expected events)"
	}
	return fmt.Sprintf("log-rank %s (χ^{2} = %.2f, %d df)", formatP(lr.P), lr.Chisq, lr.DF)
}

// kmTable is a Kaplan-Meier figure's table (see KaplanMeierFigure).
func kmTable(groups []KMCurve, ticks []plot.Tick, counts [][]int, lr *survival.LogRank) [][]string {
	t := [][]string{kmHeader}
	row := func(cells ...string) { t = append(t, append(cells, make([]string, len(kmHeader)-len(cells))...)) }
	for _, g := range groups {
		if g.Fit == nil {
			continue
		}
		k := g.Fit
		for j, tm := range k.Time {
			row("km", g.Name, fmtNum(tm), strconv.Itoa(k.NRisk[j]), strconv.Itoa(k.NEvent[j]), strconv.Itoa(k.NCensor[j]),
				fmtNum(k.Surv[j]), fmtNum(k.Lower[j]), fmtNum(k.Upper[j]))
		}
	}
	for g, c := range counts {
		for i, n := range c {
			row("at_risk", groups[g].Name, ticks[i].Label, strconv.Itoa(n))
		}
	}
	if lr != nil {
		row("logrank", "", "", "", "", "", "", "", "", fmtNum(lr.Chisq), strconv.Itoa(lr.DF), fmtNum(lr.P))
	}
	return t
}

// kmSteps is km's curve as a right-continuous step function: from (0, 1), across to
// each time the estimate drops at and down to its new value, then across to the last
// time followed.
func kmSteps(km *survival.KaplanMeier) plotter.XYs {
	xy := plotter.XYs{{X: 0, Y: 1}}
	s := 1.0
	for j, t := range km.Time {
		if km.Surv[j] != s {
			if xy[len(xy)-1].X != t {
				xy = append(xy, plotter.XY{X: t, Y: s})
			}
			xy = append(xy, plotter.XY{X: t, Y: km.Surv[j]})
			s = km.Surv[j]
		}
	}
	if n := len(km.Time); n > 0 && km.Time[n-1] > xy[len(xy)-1].X {
		xy = append(xy, plotter.XY{X: km.Time[n-1], Y: s})
	}
	return xy
}

// kmBand is km's 95% interval as steps, as kmSteps draws the curve (1 to 1 before the
// first time), to the time the estimate reaches 0 (where survfit's interval ends).
func kmBand(km *survival.KaplanMeier) (x, lo, hi []float64) {
	x, lo, hi = []float64{0}, []float64{1}, []float64{1}
	for j, t := range km.Time {
		l, h := lo[len(lo)-1], hi[len(hi)-1]
		x, lo, hi = append(x, t), append(lo, l), append(hi, h)
		if math.IsNaN(km.Lower[j]) || math.IsNaN(km.Upper[j]) {
			return x, lo, hi
		}
		x, lo, hi = append(x, t), append(lo, km.Lower[j]), append(hi, km.Upper[j])
	}
	return x, lo, hi
}

// kmCensored are the points of km's curve where samples were censored.
func kmCensored(km *survival.KaplanMeier) plotter.XYs {
	var xy plotter.XYs
	for j, t := range km.Time {
		if km.NCensor[j] > 0 {
			xy = append(xy, plotter.XY{X: t, Y: km.Surv[j]})
		}
	}
	return xy
}

// censorMarks draws a short vertical tick at each of its points, of a fixed size
// whatever the figure's.
type censorMarks struct {
	xy     plotter.XYs
	colour color.Color
}

// censorTick is half a censoring mark's height.
const censorTick = vg.Length(3)

func (m censorMarks) style() draw.LineStyle {
	return draw.LineStyle{Color: m.colour, Width: vg.Points(1)}
}

// Plot implements plot.Plotter.
func (m censorMarks) Plot(c draw.Canvas, p *plot.Plot) {
	fx, fy := p.Transforms(&c)
	for _, pt := range m.xy {
		x, y := fx(pt.X), fy(pt.Y)
		c.StrokeLine2(m.style(), x, y-censorTick, x, y+censorTick)
	}
}

// Thumbnail implements plot.Thumbnailer: one mark.
func (m censorMarks) Thumbnail(c *draw.Canvas) {
	x, y := (c.Min.X+c.Max.X)/2, (c.Min.Y+c.Max.Y)/2
	c.StrokeLine2(m.style(), x, y-censorTick, x, y+censorTick)
}

// The numbers at risk are set at riskSize points, smaller (down to riskMinSize) when
// a column's numbers would touch the next column's; the table is riskGap under the
// axis's label, its names at least nameGap before the first column.
const (
	riskSize    = vg.Length(9)
	riskMinSize = vg.Length(6)
	riskGap     = vg.Length(4)
	nameGap     = vg.Length(6)
)

// kmPanel draws a Kaplan-Meier plot with its numbers at risk under its x axis, a row
// per group, the counts centred on the labelled times.
type kmPanel struct {
	inner   *plot.Plot
	ticks   []plot.Tick
	counts  [][]int
	names   []string
	colours []color.Color
}

// kmLayout is where a kmPanel draws: its plot's canvas, the data area in it, the
// table's font size and row height, and the groups' names as they fit.
type kmLayout struct {
	sub, data draw.Canvas
	size, row vg.Length
	names     []string
	fits      bool
}

// layout places the plot above the table at font size: room at the left for the
// groups' names (at most 30% of the width; longer ones are cut with an ellipsis, whole
// in the legend) and at the right for the last column; fits tells whether columns
// stay apart.
func (k *kmPanel) layout(c draw.Canvas, size vg.Length) kmLayout {
	lay := kmLayout{size: size, row: 1.3 * size, fits: true}
	sty := textStyle(size, color.Black)
	table := riskGap + lay.row*vg.Length(len(k.names)+1)
	fitYLabel(k.inner, c.Max.Y-c.Min.Y-table)
	namesW := sty.Width("Number at risk")
	for _, n := range k.names {
		n = fitText(sty, n, 0.3*(c.Max.X-c.Min.X))
		lay.names = append(lay.names, n)
		namesW = max(namesW, sty.Width(n))
	}
	widths := make([]vg.Length, len(k.ticks))
	for i, tk := range k.ticks {
		widths[i] = k.inner.X.Tick.Label.Width(tk.Label)
		for _, cs := range k.counts {
			widths[i] = max(widths[i], sty.Width(strconv.Itoa(cs[i])))
		}
	}
	var left, right vg.Length
	last := len(k.ticks) - 1
	for range 4 {
		lay.sub = draw.Crop(c, left, -right, table, 0)
		lay.data = k.inner.DataCanvas(lay.sub)
		fx, _ := k.inner.Transforms(&lay.data)
		needL := c.Min.X + namesW + nameGap - (fx(k.ticks[0].Value) - widths[0]/2)
		needR := fx(k.ticks[last].Value) + widths[last]/2 - c.Max.X
		if needL <= 0.01 && needR <= 0.01 {
			break
		}
		left, right = left+max(needL, 0), right+max(needR, 0)
	}
	fx, _ := k.inner.Transforms(&lay.data)
	for i := 1; i < len(k.ticks); i++ {
		if fx(k.ticks[i].Value)-fx(k.ticks[i-1].Value) < (widths[i]+widths[i-1])/2+vg.Points(2) {
			lay.fits = false
		}
	}
	return lay
}

// Plot implements plot.Plotter: the plot, then the table under it.
func (k *kmPanel) Plot(c draw.Canvas, _ *plot.Plot) {
	var lay kmLayout
	for size := riskSize; ; size -= 0.5 {
		if lay = k.layout(c, size); lay.fits || size <= riskMinSize {
			break
		}
	}
	k.inner.Draw(lay.sub)
	fx, _ := k.inner.Transforms(&lay.data)
	top := lay.sub.Min.Y - riskGap
	c.FillText(textStyle(lay.size, color.Black), vg.Point{X: c.Min.X, Y: top - lay.row/2}, "Number at risk")
	for g, name := range lay.names {
		y := top - lay.row*(vg.Length(g)+1.5)
		sty := textStyle(lay.size, k.colours[g])
		c.FillText(sty, vg.Point{X: c.Min.X, Y: y}, name)
		sty.XAlign = draw.XCenter
		for i, tk := range k.ticks {
			c.FillText(sty, vg.Point{X: fx(tk.Value), Y: y}, strconv.Itoa(k.counts[g][i]))
		}
	}
}
