package plots

import (
	"fmt"
	"image/color"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// AUCvsNa draws the normalised AUC of the wrapper's learning curve against its largest
// subset size Na (Diaz-Diaz et al. Fig. 4), with the exhaustive baselines as flat lines.
func AUCvsNa(data string, na, auc []float64, baselines map[string]float64) Figure {
	f := Figure{Name: "wrapper-auc-vs-na", Title: fmt.Sprintf("%s: learning-curve AUC of the bootstrap wrapper vs Na", data)}
	f.Table = [][]string{{"Na (% of features)", "AUC"}}
	for i := range na {
		f.Table = append(f.Table, []string{strconv.FormatFloat(na[i], 'g', 4, 64), f4(auc[i])})
		f.Points = append(f.Points, Point{na[i], auc[i], fmt.Sprintf("Na = %g%%: AUC %.3f", na[i], auc[i])})
	}
	names := make([]string, 0, len(baselines))
	for name := range baselines {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		f.Table = append(f.Table, []string{name, f4(baselines[name])})
	}
	f.Build = func() (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = f.Title
		p.X.Label.Text = "Na, largest subset size (% of the features)"
		var ticks []plot.Tick
		for _, v := range na {
			ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 4, 64)})
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		p.Y.Label.Text = "normalised AUC of the learning curve"
		p.Add(plotter.NewGrid())
		var xy plotter.XYs
		for i := range na {
			xy = append(xy, plotter.XY{X: na[i], Y: auc[i]})
		}
		l, sc, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, err
		}
		sc.Radius = vg.Points(2)
		p.Add(l, sc)
		p.Legend.Add("bootstrap wrapper", l, sc)
		shade := uint8(90)
		for _, name := range []string{"exhaustive K = 1", "exhaustive K = 2"} {
			v, ok := baselines[name]
			if !ok || len(na) == 0 {
				continue
			}
			bl, err := plotter.NewLine(plotter.XYs{{X: na[0], Y: v}, {X: na[len(na)-1], Y: v}})
			if err != nil {
				return nil, err
			}
			bl.Color = color.Gray{Y: shade}
			bl.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			shade += 60
			p.Add(bl)
			p.Legend.Add(name, bl)
		}
		p.Legend.Top, p.Legend.Left = false, false
		p.Legend.XOffs = -vg.Points(6)
		lo, hi := 1.0, 0.0
		for _, v := range auc {
			lo, hi = min(lo, v), max(hi, v)
		}
		for _, v := range baselines {
			lo, hi = min(lo, v), max(hi, v)
		}
		pad := max(0.01, (hi-lo)*0.15)
		p.Y.Min, p.Y.Max = lo-pad, hi+pad
		return p, nil
	}
	return f
}
