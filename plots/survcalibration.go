package plots

import (
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

// SurvivalCalibration draws the calibration of a survival model at horizon (in unit)
// by risk group: each group's mean predicted survival there against its Kaplan-Meier
// survival, with that estimate's 95% interval as a vertical bar, on square axes from 0
// to 1 with the diagonal of perfect calibration. names[i] names groups[i] (its label
// when names is short). A group without samples, or without an observed survival, is
// left out of the plot but kept in the table. Named "signature-survival-calibration";
// its table is group,n,at_risk,events,predicted,observed,low95,high95.
func SurvivalCalibration(title string, groups []survival.CalibrationGroup, names []string, horizon float64, unit string) Figure {
	name := func(i int) string {
		if i < len(names) {
			return names[i]
		}
		return "group " + strconv.Itoa(groups[i].Group+1)
	}
	f := Figure{Name: "signature-survival-calibration", Title: title, MinHeight: 13 * vg.Centimeter}
	f.Table = [][]string{{"group", "n", "at_risk", "events", "predicted", "observed", "low95", "high95"}}
	for i, g := range groups {
		f.Table = append(f.Table, []string{name(i), strconv.Itoa(g.N), strconv.Itoa(g.AtRisk), strconv.Itoa(g.Events),
			fmtNum(g.Predicted), fmtNum(g.Observed), fmtNum(g.Low), fmtNum(g.High)})
		if drawable(g) {
			f.Points = append(f.Points, Point{g.Predicted, g.Observed, fmt.Sprintf("%s: predicted %.3f, observed %.3f", name(i), g.Predicted, g.Observed)})
		}
	}
	at := atTime(horizon, unit)
	f.Build = func() (*plot.Plot, error) {
		p := square(plot.New())
		p.Title.Text = title
		p.X.Label.Text = "predicted survival at " + at
		p.Y.Label.Text = "observed survival at " + at
		style(p, 0, 1)
		p.X.Min, p.X.Max = 0, 1
		p.X.Tick.Marker = p.Y.Tick.Marker
		diag, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
		if err != nil {
			return nil, err
		}
		diag.Color, diag.Dashes = color.Gray{0x80}, []vg.Length{vg.Points(3), vg.Points(3)}
		p.Add(diag)
		for i, g := range groups {
			if !drawable(g) {
				continue
			}
			col := palette[i%len(palette)]
			if !math.IsNaN(g.Low) && !math.IsNaN(g.High) {
				bar, err := plotter.NewLine(plotter.XYs{{X: g.Predicted, Y: g.Low}, {X: g.Predicted, Y: g.High}})
				if err != nil {
					return nil, err
				}
				bar.Color, bar.Width = col, vg.Points(1.2)
				p.Add(bar)
			}
			sc, err := plotter.NewScatter(plotter.XYs{{X: g.Predicted, Y: g.Observed}})
			if err != nil {
				return nil, err
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3.5), Shape: calShapes[i%len(calShapes)]}
			p.Add(sc)
			ci := ""
			if !math.IsNaN(g.Low) {
				ci = fmt.Sprintf(" (%.2f-%.2f)", g.Low, g.High)
			}
			p.Legend.Add(fmt.Sprintf("%s: predicted %.2f (mean), Kaplan-Meier %.2f%s; n = %d, %s by %s", name(i), g.Predicted, g.Observed, ci, g.N, text.Count(g.Events, "event"), at), sc)
		}
		p.Legend.Add("perfect calibration", diag)
		return p, nil
	}
	return f
}

// calShapes are the groups' markers: filled, so that a bar through one does not hide it.
var calShapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}}

// drawable reports whether g has a point to draw.
func drawable(g survival.CalibrationGroup) bool {
	return g.N > 0 && !math.IsNaN(g.Predicted) && !math.IsNaN(g.Observed)
}
