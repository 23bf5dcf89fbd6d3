package plots

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"steadfast/compute/rstat"
	"steadfast/compute/signature"
)

// calibrationBins is the number of groups of the calibration plot (deciles of the
// predicted probability, fewer for few samples: at least 5 samples a group).
const calibrationBins = 10

// CalibrationFigure draws the calibration of the cross-validated probabilities of the
// positive class pos (op.Probs, labels the samples' classes, positive its index): the
// samples in groups of equal size by predicted probability, each group's observed
// share of pos against its mean prediction with the share's 95% Wilson interval; the
// logistic calibration curve logit(observed) = intercept + slope logit(predicted) of
// op.Calibration; the diagonal of perfect calibration. The legend gives the Brier
// score, intercept and slope. Its table is the groups.
func CalibrationFigure(data, pos string, op *signature.Operating, labels []int, positive int) Figure {
	title := fmt.Sprintf("%s: calibration of the cross-validated probability of %s", data, pos)
	f := Figure{Name: "signature-calibration", Title: title}
	groups := calibrationGroups(op.Probs, labels, positive)
	f.Table = [][]string{{"group", "samples", "mean_predicted", "observed", "observed_low95", "observed_high95"}}
	for i, g := range groups {
		f.Table = append(f.Table, []string{strconv.Itoa(i + 1), strconv.Itoa(g.n), fmtNum(g.pred), fmtNum(g.obs), fmtNum(g.lo), fmtNum(g.hi)})
	}
	cal := op.Calibration
	how := " (cross-fitted Platt scaling)"
	if op.Direct {
		how = " (the classifier's own, out of fold)"
	}
	f.Build = func() (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = title
		p.X.Label.Text = "predicted probability of " + pos + how
		p.Y.Label.Text = "observed share of " + pos
		style(p, 0, 1)
		p.X.Min, p.X.Max = 0, 1
		diag, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
		if err != nil {
			return nil, err
		}
		diag.Color, diag.Dashes = color.Gray{0x80}, []vg.Length{vg.Points(3), vg.Points(3)}
		p.Add(diag)
		if !math.IsNaN(cal.Slope) {
			var xy plotter.XYs
			for x := 0.01; x < 0.995; x += 0.01 {
				xy = append(xy, plotter.XY{X: x, Y: 1 / (1 + math.Exp(-(cal.Intercept + cal.Slope*math.Log(x/(1-x)))))})
			}
			curve, err := plotter.NewLine(xy)
			if err != nil {
				return nil, err
			}
			curve.Color, curve.Width = palette[0], vg.Points(1.5)
			p.Add(curve)
			p.Legend.Add(fmt.Sprintf("logistic calibration: intercept %.3f, slope %.3f", cal.Intercept, cal.Slope), curve)
		}
		pts := make(plotter.XYs, len(groups))
		for i, g := range groups {
			pts[i] = plotter.XY{X: g.pred, Y: g.obs}
			bar, err := plotter.NewLine(plotter.XYs{{X: g.pred, Y: g.lo}, {X: g.pred, Y: g.hi}})
			if err != nil {
				return nil, err
			}
			bar.Color = color.Black
			p.Add(bar)
		}
		if len(pts) > 0 {
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, err
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
			p.Add(sc)
			p.Legend.Add(fmt.Sprintf("groups of samples by prediction (observed share, 95%% Wilson CI); Brier %.3f", cal.Brier), sc)
		}
		p.Legend.Add("perfect calibration", diag)
		p.Legend.Top, p.Legend.Left = false, false
		return p, nil
	}
	return f
}

// calGroup is one group of the calibration plot.
type calGroup struct {
	n                 int
	pred, obs, lo, hi float64
}

// calibrationGroups sorts the samples with a probability by it and cuts them into
// groups of equal size (the first ones one larger), at most calibrationBins, at least 5
// samples each when there are 10 or more.
func calibrationGroups(probs []float64, labels []int, positive int) []calGroup {
	var idx []int
	for i, p := range probs {
		if !math.IsNaN(p) {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return probs[idx[a]] < probs[idx[b]] })
	nb := min(calibrationBins, max(len(idx)/5, 1))
	if len(idx) == 0 {
		return nil
	}
	var out []calGroup
	start := 0
	for b := 0; b < nb; b++ {
		size := len(idx) / nb
		if b < len(idx)%nb {
			size++
		}
		g := calGroup{n: size}
		hits := 0
		for _, i := range idx[start : start+size] {
			g.pred += probs[i] / float64(size)
			if labels[i] == positive {
				hits++
			}
		}
		g.obs = float64(hits) / float64(size)
		g.lo, g.hi = rstat.Wilson(g.obs, float64(size), rstat.Z95)
		out = append(out, g)
		start += size
	}
	return out
}
