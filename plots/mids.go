package plots

import (
	"fmt"
	"image/color"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// MIDSSizes draws, against the correlation threshold epsilon, the size of the minimal
// independent dominating set and of the degree-greedy maximal independent set (Shu, Ma
// and Latecki 2013, who pick epsilon in 0.5..0.8), out of p features.
func MIDSSizes(data string, p int, eps []float64, mids, greedy, edges []int) Figure {
	f := Figure{Name: "mids-size-vs-epsilon", Title: fmt.Sprintf("%s: MIDS size vs correlation threshold (%d features)", data, p)}
	f.Table = [][]string{{"epsilon", "edges", "MIDS", "greedy independent set"}}
	for i, e := range eps {
		f.Table = append(f.Table, []string{strconv.FormatFloat(e, 'g', 4, 64), strconv.Itoa(edges[i]), strconv.Itoa(mids[i]), strconv.Itoa(greedy[i])})
		f.Points = append(f.Points,
			Point{e, float64(mids[i]), fmt.Sprintf("|r| > %g: MIDS %d features (%d edges)", e, mids[i], edges[i])},
			Point{e, float64(greedy[i]), fmt.Sprintf("|r| > %g: greedy set %d features", e, greedy[i])})
	}
	f.Build = func() (*plot.Plot, error) {
		pl := plot.New()
		pl.Title.Text = f.Title
		pl.X.Label.Text = "epsilon: an edge joins features with |Pearson r| > epsilon"
		pl.Y.Label.Text = "features kept"
		var ticks []plot.Tick
		for _, e := range eps {
			ticks = append(ticks, plot.Tick{Value: e, Label: strconv.FormatFloat(e, 'g', 3, 64)})
		}
		pl.X.Tick.Marker = plot.ConstantTicks(ticks)
		pl.Add(plotter.NewGrid())
		xys := func(series []int) plotter.XYs {
			var xy plotter.XYs
			for i, e := range eps {
				xy = append(xy, plotter.XY{X: e, Y: float64(series[i])})
			}
			return xy
		}
		l, sc, err := plotter.NewLinePoints(xys(mids))
		if err != nil {
			return nil, err
		}
		sc.Radius = vg.Points(2.5)
		gl, err := plotter.NewLine(xys(greedy))
		if err != nil {
			return nil, err
		}
		gl.Color = color.Gray{Y: 120}
		gl.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		pl.Add(l, sc, gl)
		pl.Legend.Add("MIDS", l, sc)
		pl.Legend.Add("greedy maximal independent set", gl)
		pl.Legend.Top, pl.Legend.Left = true, true
		pl.Y.Min = 0
		return pl, nil
	}
	return f
}
