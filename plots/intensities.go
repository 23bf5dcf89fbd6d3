package plots

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
)

// LeftOutTable is left-out.csv: every feature the reading and the preprocessing left
// out or ranked last, with why.
func LeftOutTable(name string, l []dataset.LeftOut) Figure {
	return Figure{Name: "left-out", Title: name + ": features left out or ranked last, with why", Table: dataset.LeftOutTable(l)}
}

// ResultLeftOut is the run's left-out list as a table, or false when nothing was left out.
func ResultLeftOut(res *experiment.Result) (Figure, bool) {
	if len(res.Data.LeftOut) == 0 {
		return Figure{}, false
	}
	return LeftOutTable(res.Data.Name, res.Data.LeftOut), true
}

// SamplesFigure is each sample's missing share and the distribution of its values
// before and after the preprocessing: raw as read (log2 of the values measured when
// logged, for the two to be comparable), data as analysed (prepared from raw, samples
// in the same order). Three panels: the share of raw's features missing in each sample,
// then a box plot a sample of its values before, and after.
func SamplesFigure(raw, data *dataset.Dataset, logged bool) Figure {
	n, p := raw.Dims()
	before := make([]plotter.Values, n)
	after := make([]plotter.Values, n)
	share := make([]float64, n)
	for i := 0; i < n; i++ {
		for _, v := range raw.X.RawRowView(i)[:p] {
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				share[i]++
			case logged:
				before[i] = append(before[i], math.Log2(math.Max(v, 1)))
			default:
				before[i] = append(before[i], v)
			}
		}
		share[i] /= float64(p)
		if i < len(data.Samples) {
			for _, v := range data.X.RawRowView(i) {
				if !math.IsNaN(v) && !math.IsInf(v, 0) {
					after[i] = append(after[i], v)
				}
			}
		}
	}
	unit := "value as read"
	if logged {
		unit = "log2 value as read"
	}
	f := Figure{Name: "samples-missing-distribution", Title: raw.Name + ": each sample's missing values and distribution before and after preprocessing", Panels: 3, Split: true}
	f.Table = [][]string{{"sample", "class", "missing share", "median before", "IQR before", "median after", "IQR after"}}
	for i := 0; i < n; i++ {
		mb, ib := medianIQR(before[i])
		ma, ia := medianIQR(after[i])
		f.Table = append(f.Table, []string{raw.Samples[i], raw.Classes[raw.Labels[i]], fmtNum(share[i]), fmtNum(mb), fmtNum(ib), fmtNum(ma), fmtNum(ia)})
	}
	names := raw.Samples
	f.Panel = func(k int) (*plot.Plot, error) {
		pl := plot.New()
		pl.X.Tick.Label.Font.Size, pl.Y.Tick.Label.Font.Size = vg.Points(6), vg.Points(7)
		pl.X.Tick.Label.Rotation = math.Pi / 2
		pl.X.Tick.Label.XAlign, pl.X.Tick.Label.YAlign = -1, -0.5
		pl.Title.TextStyle.Font.Size = vg.Points(8)
		switch k {
		case 0:
			pl.Title.Text = "share of the values missing"
			bars, err := plotter.NewBarChart(plotter.Values(share), vg.Points(6))
			if err != nil {
				return nil, err
			}
			bars.Color, bars.LineStyle.Width = palette[0], 0
			pl.Add(bars)
			pl.Y.Min = 0
		default:
			vals := before
			pl.Title.Text = "before: " + unit
			if k == 2 {
				vals, pl.Title.Text = after, "after: as analysed"
			}
			for i, v := range vals {
				if len(v) == 0 {
					continue
				}
				b, err := plotter.NewBoxPlot(vg.Points(5), float64(i), v)
				if err != nil {
					return nil, err
				}
				b.GlyphStyle.Radius = vg.Points(0.8)
				b.BoxStyle.Color = classColor(raw.Labels[i])
				pl.Add(b)
			}
		}
		pl.NominalX(names...)
		pl.X.Min, pl.X.Max = -0.7, float64(n)-0.3
		return pl, nil
	}
	f.Build = func() (*plot.Plot, error) { return f.Panel(0) }
	return f
}

// medianIQR is the median and interquartile range of v (type 7 quantiles); NaN, NaN
// for no value.
func medianIQR(v []float64) (float64, float64) {
	if len(v) == 0 {
		return math.NaN(), math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	q := func(p float64) float64 {
		h := p * float64(len(s)-1)
		lo := math.Floor(h)
		if int(lo)+1 >= len(s) {
			return s[len(s)-1]
		}
		return s[int(lo)] + (h-lo)*(s[int(lo)+1]-s[int(lo)])
	}
	return q(0.5), q(0.75) - q(0.25)
}

// intensityMethods is the methods paragraph's sentence on the intensities'
// preprocessing ("" when the run had none), citing with c.
func intensityMethods(res *experiment.Result, c *citer) string {
	if !res.Data.Intensities {
		return ""
	}
	o, _ := res.Config.Prep.ImputeOptions().Resolved()
	s := fmt.Sprintf(" Intensities were preprocessed inside every training set and frozen for its test samples%s%s: %s.", c.cite("perseus"), c.cite("dep"), o.Describe())
	if o.Impute == "knn" {
		s += " The nearest-neighbour imputation is impute's impute.knn" + c.cite("knn") + "."
	}
	if o.Normalize == "quantile" {
		s += " The quantile normalisation is preprocessCore's" + c.cite("quantile") + "."
	}
	return s
}

// leftOutSummary counts the run's left-out list by reason ("" for none).
func leftOutSummary(res *experiment.Result) string { return dataset.LeftOutSummary(res.Data.LeftOut) }
