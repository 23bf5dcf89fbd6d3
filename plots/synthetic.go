package plots

import (
	"fmt"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"steadfast/compute/experiment"
)

// SyntheticMeasures are the panels of the sample-size study (MIDS 2013 Fig. 2 columns).
var SyntheticMeasures = []struct{ Key, Label string }{
	{"precision", "precision (share of the top k in relevant groups)"},
	{"simid", "Sim_ID stability of the top k"},
	{"accuracy", "linear SVM accuracy on the independent test set"},
}

// SampleSize draws one measure of the synthetic study against the training size, one
// curve per method.
func SampleSize(res *experiment.SyntheticResult, measure int) Figure {
	m := SyntheticMeasures[measure]
	s := res.Study
	f := Figure{Name: "sample-size-" + m.Key + "-" + s.Preset.Name,
		Title: fmt.Sprintf("%s, top %d: %s vs training size", s.Preset.Name, s.K, m.Key)}
	values := [][][]float64{res.Precision, res.SimID, res.Accuracy}[measure]
	f.Table = [][]string{{"method", "training samples", m.Key}}
	for mi, label := range res.Labels {
		for si, n := range s.Sizes {
			v := values[mi][si]
			f.Table = append(f.Table, []string{label, strconv.Itoa(n), f4(v)})
			f.Points = append(f.Points, Point{float64(n), v, fmt.Sprintf("%s, n = %d: %s %.3f", label, n, m.Key, v)})
		}
	}
	f.Build = func() (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = f.Title
		p.X.Label.Text = "training samples n (10 x 10-fold CV on them)"
		p.Y.Label.Text = m.Label
		style(p, 0, 1)
		var ticks []plot.Tick
		for _, n := range s.Sizes {
			ticks = append(ticks, plot.Tick{Value: float64(n), Label: strconv.Itoa(n)})
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		var ly layers
		names := make([]string, len(res.Labels))
		for mi := range names {
			if mi < len(s.Methods) {
				names[mi] = s.Methods[mi].Name
			}
		}
		for mi, label := range res.Labels {
			var xy plotter.XYs
			for si, n := range s.Sizes {
				xy = append(xy, plotter.XY{X: float64(n), Y: values[mi][si]})
			}
			l, sc, err := ly.curve(xy, names, mi, vg.Points(2.5))
			if err != nil {
				return nil, err
			}
			p.Legend.Add(label, l, sc)
		}
		ly.addTo(p)
		return p, nil
	}
	return f
}
