package plots

import (
	"fmt"
	"image/color"
	"sort"
	"strconv"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// KChooser draws, for each K, the box plot of every feature's mean correlation to its K
// nearest features (DRAGS 2008 Fig. 1), to choose the DGF bandwidth's K.
func KChooser(data string, ks []int, values [][]float64) Figure {
	f := Figure{Name: "k-chooser", Title: fmt.Sprintf("%s: mean correlation of each feature to its K nearest features", data)}
	f.Table = [][]string{{"K", "min", "q1", "median", "q3", "max", "mean"}}
	for i, k := range ks {
		v := append([]float64(nil), values[i]...)
		sort.Float64s(v)
		q := func(p float64) float64 { return stat.Quantile(p, stat.Empirical, v, nil) }
		f.Table = append(f.Table, []string{strconv.Itoa(k), f4(v[0]), f4(q(0.25)), f4(q(0.5)), f4(q(0.75)), f4(v[len(v)-1]), f4(stat.Mean(v, nil))})
		f.Points = append(f.Points, Point{float64(i), q(0.5), fmt.Sprintf("K = %d: median r %.3f, quartiles %.3f-%.3f", k, q(0.5), q(0.25), q(0.75))})
	}
	f.Build = func() (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = f.Title
		p.X.Label.Text = "K (nearest features)"
		p.Y.Label.Text = "mean Pearson correlation to the K nearest"
		p.Add(plotter.NewGrid())
		var names []string
		for i, k := range ks {
			b, err := plotter.NewBoxPlot(vg.Points(14), float64(i), plotter.Values(values[i]))
			if err != nil {
				return nil, err
			}
			b.GlyphStyle.Radius = vg.Points(0.8)
			p.Add(b)
			names = append(names, strconv.Itoa(k))
		}
		p.NominalX(names...)
		p.X.Min, p.X.Max = -0.6, float64(len(ks))-0.4
		return p, nil
	}
	return f
}

// heatGrid is a matrix as a heat-map grid: row r at y = r, column c at x = c.
type heatGrid [][]float64

func (g heatGrid) Dims() (c, r int)   { return len(g[0]), len(g) }
func (g heatGrid) Z(c, r int) float64 { return g[r][c] }
func (g heatGrid) X(c int) float64    { return float64(c) }
func (g heatGrid) Y(r int) float64    { return float64(r) }

// blueRedHeatMap draws g on p in Moreland's blue-red scale from lo to hi (values outside
// drawn as its ends by the caller), and adds a colour key of the values key, each
// labelled by label.
func blueRedHeatMap(p *plot.Plot, g heatGrid, lo, hi float64, key []float64, label func(float64) string) error {
	pal := moreland.SmoothBlueRed()
	pal.SetMin(lo)
	pal.SetMax(hi)
	h := plotter.NewHeatMap(g, pal.Palette(64))
	h.Min, h.Max = lo, hi
	p.Add(h)
	for _, v := range key {
		c, err := pal.At(v)
		if err != nil {
			return err
		}
		p.Legend.Add(label(v), swatch{c})
	}
	return nil
}

// GroupCorrelation draws the Pearson correlations between a group's members.
func GroupCorrelation(title string, names []string, profiles [][]float64) Figure {
	m := len(profiles)
	r := make(heatGrid, m)
	f := Figure{Name: "group-correlation", Title: title}
	f.Table = [][]string{append([]string{"feature"}, names...)}
	for i := range r {
		r[i] = make([]float64, m)
		row := []string{names[i]}
		for j := range r[i] {
			r[i][j] = stat.Correlation(profiles[i], profiles[j], nil)
			row = append(row, f4(r[i][j]))
			f.Points = append(f.Points, Point{float64(j), float64(i), fmt.Sprintf("%s ~ %s: r = %.3f", names[i], names[j], r[i][j])})
		}
		f.Table = append(f.Table, row)
	}
	f.Build = func() (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = title
		if err := blueRedHeatMap(p, r, -1, 1, []float64{-1, -0.5, 0, 0.5, 1}, func(v float64) string { return fmt.Sprintf("r = %+.1f", v) }); err != nil {
			return nil, err
		}
		if m <= 40 {
			var ticks []plot.Tick
			for i, n := range names {
				ticks = append(ticks, plot.Tick{Value: float64(i), Label: n})
			}
			p.X.Tick.Marker = plot.ConstantTicks(ticks)
			p.Y.Tick.Marker = plot.ConstantTicks(ticks)
			p.X.Tick.Label.Rotation = 1.5708
			p.X.Tick.Label.XAlign = draw.XRight
			p.X.Tick.Label.YAlign = draw.YCenter
		}
		p.X.Label.Text = fmt.Sprintf("%d members", m)
		return p, nil
	}
	return f
}

// GroupByClass draws, per class, the box plot of the group's mean value (over its
// members) in each sample of the class.
func GroupByClass(title string, classes []string, labels []int, profiles [][]float64) Figure {
	n := len(labels)
	mean := make([]float64, n)
	for _, pr := range profiles {
		for i, v := range pr {
			mean[i] += v / float64(len(profiles))
		}
	}
	byClass := make([]plotter.Values, len(classes))
	f := Figure{Name: "group-by-class", Title: title}
	f.Table = [][]string{{"sample", "class", "group mean"}}
	for i, l := range labels {
		byClass[l] = append(byClass[l], mean[i])
		f.Table = append(f.Table, []string{strconv.Itoa(i + 1), classes[l], f4(mean[i])})
	}
	for c, v := range byClass {
		if len(v) > 0 {
			f.Points = append(f.Points, Point{float64(c), stat.Mean(v, nil), fmt.Sprintf("%s: mean %.3f over %d samples", classes[c], stat.Mean(v, nil), len(v))})
		}
	}
	f.Build = func() (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = title
		p.Y.Label.Text = "group mean (z-scored members)"
		p.Add(plotter.NewGrid())
		for c, v := range byClass {
			if len(v) == 0 {
				continue
			}
			b, err := plotter.NewBoxPlot(vg.Points(30), float64(c), v)
			if err != nil {
				return nil, err
			}
			p.Add(b)
		}
		p.NominalX(classes...)
		p.X.Min, p.X.Max = -0.6, float64(len(classes))-0.4
		return p, nil
	}
	return f
}

// swatch is a legend entry's filled square of one colour: the heat map's colour key.
type swatch struct{ c color.Color }

// Thumbnail implements plot.Thumbnailer.
func (s swatch) Thumbnail(c *draw.Canvas) {
	if _, _, _, a := s.c.RGBA(); a == 0 { // nothing to draw (an SVG writes a transparent fill as an invalid colour)
		return
	}
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y}}
	c.FillPolygon(s.c, c.ClipPolygonXY(pts))
}
