package plots

import (
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// framePlot is the frame of a figure that gonum/plot cannot lay out alone (a
// Kaplan-Meier plot's numbers at risk under its axis, a forest plot's estimates beside
// its rows): a plot with hidden axes, whose title and legend drawFigure places as for
// any plot, and whose one plotter, panel, draws the figure's own plot in the data area
// with the room it needs around it.
func framePlot(title string, panel plot.Plotter) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Min, ax.Max = 0, 1
		ax.Tick.Marker = plot.ConstantTicks(nil)
		ax.LineStyle.Width, ax.LineStyle.Color = 0, color.White
		ax.Padding = 0
	}
	p.Add(panel)
	return p
}

// innerPlot is a plot drawn by a panel: no background (the frame's is drawn), and
// the rich text handler on its labels, as drawFigure sets it on a figure's plot.
func innerPlot() *plot.Plot {
	p := plot.New()
	p.BackgroundColor = nil
	p.X.Label.TextStyle.Handler, p.Y.Label.TextStyle.Handler = Rich(), Rich()
	return p
}

// textStyle is rich text of size in colour c, drawn from its point rightwards and
// centred on it vertically.
func textStyle(size vg.Length, c color.Color) text.Style {
	return text.Style{Color: c, Font: font.From(plot.DefaultFont, size), Handler: Rich(), YAlign: draw.YCenter}
}

// fitText is s cut, with an ellipsis, to at most width in sty (whole when it fits).
func fitText(sty text.Style, s string, width vg.Length) string {
	if sty.Width(s) <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 1 && sty.Width(string(r)+"…") > width {
		r = r[:len(r)-1]
	}
	return strings.TrimSpace(string(r)) + "…"
}

// formatP writes a p-value as journals print it: "p = 0.0012" (two significant digits,
// more where two would round it up to 0.05), "p < 0.0001" below 1e-4.
func formatP(p float64) string {
	switch {
	case math.IsNaN(p):
		return "p not available"
	case p < 1e-4:
		return "p < 0.0001"
	}
	s := strconv.FormatFloat(p, 'g', 2, 64)
	for d := 3; p < 0.05 && d <= 17; d++ {
		if v, _ := strconv.ParseFloat(s, 64); v < 0.05 {
			break
		}
		s = strconv.FormatFloat(p, 'g', d, 64)
	}
	return "p = " + s
}

// timeTicks are the ticks of a time axis from 0 to end: multiples of 1, 2 or 5 times a
// power of ten, the smallest step giving at most 7 intervals, labelled without
// rounding noise.
func timeTicks(end float64) []plot.Tick {
	if !(end > 0) || math.IsInf(end, 0) {
		end = 1
	}
	mag := math.Pow(10, math.Floor(math.Log10(end/7)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if end/(m*mag) <= 7+1e-9 {
			step = m * mag
			break
		}
	}
	dec := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	var ticks []plot.Tick
	for i := 0; float64(i)*step <= end*(1+1e-9); i++ {
		label := strconv.FormatFloat(float64(i)*step, 'f', dec, 64)
		v, _ := strconv.ParseFloat(label, 64) // 0.6, not 3 x 0.2
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
	}
	return ticks
}

// timeLabel is a time axis's label: "time (years)", or "time" without a unit.
func timeLabel(unit string) string {
	if unit == "" {
		return "time"
	}
	return "time (" + unit + ")"
}

// atTime names a time for people: "5 years", or "time 5" without a unit.
func atTime(t float64, unit string) string {
	v := strconv.FormatFloat(t, 'g', -1, 64)
	if unit == "" {
		return "time " + v
	}
	return v + " " + unit
}

// noKey is a legend entry's empty key, for a line of text (a test's result, a note).
// A transparent swatch would do on screen, but an SVG writes its colour as garbage
// ("#-8000000000000000..."), which stops ImageMagick drawing the rest of the file.
type noKey struct{}

// Thumbnail implements plot.Thumbnailer: nothing.
func (noKey) Thumbnail(*draw.Canvas) {}
