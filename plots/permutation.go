package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"steadfast/compute/study"
	"steadfast/internal/text"
)

// PermutationFigure draws a permutation test: the histogram of the permuted studies'
// statistics (bins of 0.02; the statistic, the mean of the resamples' held-out AUCs or
// Harrell's C as perm.Measure says, named on the axis), the observed one as a vertical
// line, and in the title p and the smallest p the number of permutations allows,
// 1/(N+1), short enough for a 16 cm figure. Its table is each permutation's statistic,
// then the observed one and p.
func PermutationFigure(data string, perm *study.Permutations) Figure {
	n := len(perm.AUCs)
	what := "the chosen method refit"
	if perm.Choice {
		what = "every method refit, the advice's choice made again"
	}
	name, axis := perm.MeasureName(), "cross-validated AUC, the mean of the resamples' held-out AUCs"
	if perm.Measure == study.MeasureC {
		axis = "cross-validated Harrell's C, the mean of the resamples' held-out C"
	}
	title := fmt.Sprintf("%s: permutation test (%s; %s): p = %.3g, the smallest possible %.3g",
		data, text.Count(n, "permutation"), what, perm.P, 1/float64(n+1))
	f := Figure{Name: "signature-permutations", Title: title}
	f.Table = [][]string{{"permutation", perm.Column()}}
	for i, a := range perm.AUCs {
		f.Table = append(f.Table, []string{fmt.Sprint(i + 1), fmtNum(a)})
	}
	f.Table = append(f.Table, []string{"observed", fmtNum(perm.Observed)}, []string{"p", fmtNum(perm.P)})
	f.Build = func() (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = title
		p.X.Label.Text = axis
		p.Y.Label.Text = "permuted studies"
		lo, hi := perm.Observed, perm.Observed
		for _, a := range perm.AUCs {
			lo, hi = math.Min(lo, a), math.Max(hi, a)
		}
		lo, hi = math.Floor(lo/0.02)*0.02, math.Ceil(hi/0.02+1e-9)*0.02
		bins := max(int(math.Round((hi-lo)/0.02)), 1)
		v := make(plotter.Values, n)
		copy(v, perm.AUCs)
		h, err := plotter.NewHist(v, bins)
		if err != nil {
			return nil, err
		}
		h.FillColor, h.LineStyle.Color = color.Gray{0xb0}, color.Gray{0x60}
		p.Add(h)
		top := 0.0
		for _, b := range h.Bins {
			top = math.Max(top, b.Weight)
		}
		obs, err := plotter.NewLine(plotter.XYs{{X: perm.Observed, Y: 0}, {X: perm.Observed, Y: math.Max(top, 1)}})
		if err != nil {
			return nil, err
		}
		obs.Color, obs.Width = palette[0], vg.Points(2)
		p.Add(obs)
		p.Legend.Add(fmt.Sprintf("permuted studies' %s (%d)", name, n), h)
		truth := "labels"
		if perm.Measure == study.MeasureC {
			truth = "outcome"
		}
		p.Legend.Add(fmt.Sprintf("observed %s %.3f (the same cut study on the true %s)", name, perm.Observed, truth), obs)
		p.X.Min, p.X.Max = math.Min(lo, perm.Observed-0.02), math.Max(hi, perm.Observed+0.02)
		return p, nil
	}
	return f
}
