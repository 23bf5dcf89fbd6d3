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

	"steadfast/compute/experiment"
	"steadfast/compute/method"
	"steadfast/compute/stability"
)

// Measure is a stability measure drawn against k.
type Measure struct {
	Key, Label string
	Value      func(experiment.StabilityPoint) float64
	Random     func(k, p float64) float64
	// Band, when set, is an interval drawn around each curve.
	Band func(experiment.StabilityPoint) (lo, hi float64)
	// Catalogue marks the measures of stability.SetMeasures (in StabilityPoint.Measures),
	// written as CSV by steadfast run and drawn in the window on request; Min and Max
	// are their range.
	Catalogue bool
	Min, Max  float64
}

// Measures drawn by StabilityVsK. Random is the expected value for two independent
// random k-subsets of p features (nil when there is no closed form): they share k^2/p
// features on average, so Dice = k/p and Tanimoto ~ (k^2/p)/(2k - k^2/p) = k/(2p - k).
var Measures = []Measure{
	{Key: "simid", Label: "Sim_{ID} (Dice)", Value: func(s experiment.StabilityPoint) float64 { return s.SimID },
		Random: func(k, p float64) float64 { return k / p }},
	{Key: "ss", Label: "Kalousis S_{S} (Tanimoto)", Value: func(s experiment.StabilityPoint) float64 { return s.SS },
		Random: func(k, p float64) float64 { return k / (2*p - k) }},
	{Key: "simidm", Label: "Sim_{ID}^{M} (matched groups)", Value: func(s experiment.StabilityPoint) float64 { return s.SimIDM }},
	{Key: "simvm", Label: "Sim_{V}^{M} (matched centres, |r|)", Value: func(s experiment.StabilityPoint) float64 { return s.SimVM }},
	{Key: "nogueira", Label: "Nogueira Φ (95% CI)", Value: func(s experiment.StabilityPoint) float64 { return s.Phi },
		Random: func(k, p float64) float64 { return 0 },
		Band:   func(s experiment.StabilityPoint) (float64, float64) { return s.PhiLow, s.PhiHigh }},
}

// The catalogue's measures follow the five above (Nogueira's is the one above, with its
// interval). The chance-corrected ones expect 0 of random selections.
func init() {
	for _, sm := range stability.SetMeasures {
		if sm.Name == "nogueira" {
			continue
		}
		m := catalogueMeasure(sm.Name, sm.Label, sm.Min, sm.Max)
		if sm.Min < 0 {
			m.Random = func(k, p float64) float64 { return 0 }
		}
		Measures = append(Measures, m)
	}
	sech := catalogueMeasure("sechidis", "Sechidis (similarity-adjusted, k ≤ 50)", -1, 1)
	sech.Random = func(k, p float64) float64 { return 0 }
	Measures = append(Measures, sech)
	for _, am := range stability.AdjustedMeasures {
		m := catalogueMeasure(am.Name, am.Label+" (similarity-adjusted, k ≤ 50)", -1, 1)
		if am.Corrected {
			m.Random = func(k, p float64) float64 { return 0 }
		} else {
			m.Min = 0
		}
		Measures = append(Measures, m)
	}
}

// catalogueMeasure draws the catalogue value name, NaN where a point lacks it (k above
// 50 for the adjusted measures, or a run saved before the catalogue was computed).
func catalogueMeasure(name, label string, lo, hi float64) Measure {
	return Measure{Key: name, Label: label, Catalogue: true, Min: lo, Max: hi,
		Value: func(s experiment.StabilityPoint) float64 {
			if v, ok := s.Measures[name]; ok {
				return v
			}
			return math.NaN()
		}}
}

// matched says whether a measure is a matching measure, computed for k <=
// experiment.MaxMatchedK only.
func (m Measure) matched() bool { return m.Key == "simidm" || m.Key == "simvm" }

func f4(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) }
func f2(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// SWText formats Kalousis's S_W, "n/a" where the method's scores are not weights.
func SWText(sw *float64, format func(float64) string) string {
	if sw == nil {
		return "n/a"
	}
	return format(*sw)
}

// protocolName is the protocol's name, for figures the stability mode does not apply to.
func protocolName(res *experiment.Result) string {
	return experiment.ProtocolText(res.Config) + leakNote(res)
}

// protocolLabel is the protocol's name and the stability mode (reference or pairwise).
func protocolLabel(res *experiment.Result) string {
	return fmt.Sprintf("%s, %s%s", experiment.ProtocolText(res.Config), res.Config.Mode, leakNote(res))
}

// leakNote warns, in every title drawn from a result, that a method ran with a part
// fitted on all samples (the MIDS paper setting, DRAGS's groups from all samples), which
// saw the test samples.
func leakNote(res *experiment.Result) string {
	for _, m := range res.Methods {
		switch {
		case method.PaperMIDS(m.Spec):
			return "; MIDS paper setting: MIDS fitted on all samples, test folds leak"
		case method.GroupsFromAll(m.Spec):
			return "; DRAGS groups found on all samples' expression, test folds leak"
		}
	}
	return ""
}

// style adds the grid and fits the y axis to [bottom, top] (the legend goes below the
// plot: see drawFigure).
func style(p *plot.Plot, bottom, top float64) {
	p.Add(plotter.NewGrid())
	p.Y.Min = bottom
	p.Y.Max = top
	var ticks []plot.Tick
	step := 0.1
	if top-bottom > 0.5 {
		step = 0.2
	}
	for i := int(math.Ceil(bottom/(step/2) - 1e-9)); float64(i)*step/2 <= top+1e-9; i++ {
		v := float64(i) * step / 2
		t := plot.Tick{Value: v}
		if int(math.Round(v/(step/2)))%2 == 0 {
			t.Label = strconv.FormatFloat(v, 'f', 1, 64)
		}
		ticks = append(ticks, t)
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
}

// StabilityVsK draws one curve per method of the measure against k; S_W and S_R of each
// method are given in its legend entry.
func StabilityVsK(res *experiment.Result, m Measure) Figure {
	f := Figure{Name: "stability-" + m.Key, Title: fmt.Sprintf("Stability vs k: %s (%s)", m.Label, protocolLabel(res))}
	f.Table = [][]string{{"method", "k", "measure", "mode", "value", "S_W", "S_R"}}
	if m.Band != nil {
		f.Table[0] = append(f.Table[0], "95% CI low", "95% CI high")
	}
	if m.Key == "nogueira" {
		f.Table[0] = append(f.Table[0], "variance") // of the estimate, as Nogueira's test uses it
	}
	bottom, top := 0.0, 1.0
	for _, mr := range res.Methods {
		for _, s := range mr.Stability {
			if m.matched() && s.K > experiment.MaxMatchedK {
				continue
			}
			v := m.Value(s)
			if math.IsNaN(v) {
				continue // a run saved before the catalogue was computed
			}
			top = math.Max(top, math.Ceil(v*10)/10)
			bottom = math.Min(bottom, math.Floor(v*10)/10)
			mode := string(res.Config.Mode)
			if m.Key == "nogueira" {
				mode = "all resamples" // Phi is over every resample's selection, not pairs
			}
			row := []string{mr.Label, strconv.Itoa(s.K), m.Key, mode, f4(v), SWText(mr.SW, f4), f4(mr.SR)}
			if m.Band != nil {
				lo, hi := m.Band(s)
				row = append(row, f4(lo), f4(hi))
				bottom = math.Min(bottom, math.Floor(lo*10)/10)
			}
			if m.Key == "nogueira" {
				row = append(row, strconv.FormatFloat(s.PhiVar, 'g', 6, 64))
			}
			f.Table = append(f.Table, row)
			f.Points = append(f.Points, Point{float64(s.K), v, fmt.Sprintf("%s, k = %d: %s = %.3f", mr.Label, s.K, m.Key, v)})
		}
	}
	p := float64(len(res.Data.Features))
	var random plotter.XYs
	if m.Random != nil && len(res.Methods) > 0 {
		for _, s := range res.Methods[0].Stability {
			v := m.Random(float64(s.K), p)
			random = append(random, plotter.XY{X: float64(s.K), Y: v})
			f.Table = append(f.Table, []string{"random selection", strconv.Itoa(s.K), m.Key, "expected", f4(v), "", ""})
		}
	}
	if len(f.Table) == 1 {
		f.Build = func() (*plot.Plot, error) {
			return nil, fmt.Errorf("this run was saved before Steadfast computed the %s measure: run it again to see it", m.Label)
		}
		return f
	}
	build := func(only int) (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = f.Title
		if only >= 0 {
			p.Title.Text = res.Methods[only].Label
		}
		p.X.Label.Text = "number of selected features k"
		p.Y.Label.Text = m.Label
		lowest := math.Max(bottom, -1)
		if m.Catalogue {
			lowest = math.Max(bottom, m.Min)
		}
		style(p, lowest, top)
		var ly layers
		names := methodNames(res)
		for i, mr := range res.Methods {
			if only >= 0 && i != only {
				continue
			}
			var xy plotter.XYs
			var ks, los, his []float64
			for _, s := range mr.Stability {
				if m.matched() && s.K > experiment.MaxMatchedK {
					continue
				}
				if math.IsNaN(m.Value(s)) {
					continue
				}
				xy = append(xy, plotter.XY{X: float64(s.K), Y: m.Value(s)})
				if m.Band != nil {
					lo, hi := m.Band(s)
					ks, los, his = append(ks, float64(s.K)), append(los, lo), append(his, hi)
				}
			}
			if len(xy) == 0 {
				continue
			}
			if len(ks) > 1 {
				c, _, _ := methodStyle(names, i)
				if err := ly.band(ks, los, his, c, lowest, 1); err != nil {
					return nil, err
				}
			}
			l, sc, err := ly.curve(xy, names, i, vg.Points(2))
			if err != nil {
				return nil, err
			}
			// Kalousis's S_W and S_R in plain words (the glossary names them)
			entry := fmt.Sprintf("%s (score agreement %s, rank agreement %.2f)", mr.Label, SWText(mr.SW, f2), mr.SR)
			if only >= 0 { // the panel's title names the method
				entry = fmt.Sprintf("score agreement %s, rank agreement %.2f", SWText(mr.SW, f2), mr.SR)
			}
			p.Legend.Add(entry, l, sc)
		}
		ly.addTo(p)
		if err := fewGroupsMarks(p, res, only, lowest, top); err != nil {
			return nil, err
		}
		if len(random) > 1 {
			l, err := plotter.NewLine(random)
			if err != nil {
				return nil, err
			}
			l.Color = color.Gray{140}
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			p.Add(l)
			p.Legend.Add("random selection", l)
		}
		return p, nil
	}
	f.Build = func() (*plot.Plot, error) { return build(-1) }
	f.Panel, f.Panels = build, len(res.Methods)
	return f
}

// AccuracyVsK draws test accuracy of one classifier against k per method, with a band of
// plus and minus one standard deviation over the resamples.
func AccuracyVsK(res *experiment.Result, classifier string) Figure {
	perf := res.Data.Performance()
	f := Figure{Name: "accuracy-" + classifier, Title: fmt.Sprintf("%s %s vs k (%s)", experiment.ClassifierLabel(classifier), perf, protocolName(res))}
	f.Table = [][]string{{"method", "classifier", "k", "mean", "sd", "normalised AUC of the curve"}}
	for _, mr := range res.Methods {
		auc := ""
		if v, ok := mr.AUC[classifier]; ok {
			auc = f4(v)
		}
		for _, a := range mr.Accuracy[classifier] {
			f.Table = append(f.Table, []string{mr.Label, classifier, strconv.Itoa(a.K), f4(a.Mean), f4(a.SD), auc})
			f.Points = append(f.Points, Point{float64(a.K), a.Mean, fmt.Sprintf("%s, k = %d: %.3f ± %.3f", mr.Label, a.K, a.Mean, a.SD)})
		}
	}
	f.Table = withUno(res, f.Table)
	build := func(only int) (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = f.Title
		if only >= 0 {
			p.Title.Text = res.Methods[only].Label
		}
		p.X.Label.Text = "number of selected features k"
		p.Y.Label.Text = "test " + perf + " (mean ± sd)"
		lo := 1.0
		for _, mr := range res.Methods {
			for _, a := range mr.Accuracy[classifier] {
				lo = math.Min(lo, a.Mean-a.SD)
			}
		}
		lowest := math.Max(0, math.Floor(lo*10)/10)
		style(p, lowest, 1)
		var ly layers
		names := methodNames(res)
		for i, mr := range res.Methods {
			pts := mr.Accuracy[classifier]
			if len(pts) == 0 || only >= 0 && i != only {
				continue
			}
			var xy plotter.XYs
			ks, los, his := make([]float64, len(pts)), make([]float64, len(pts)), make([]float64, len(pts))
			for j, a := range pts {
				xy = append(xy, plotter.XY{X: float64(a.K), Y: a.Mean})
				ks[j], los[j], his[j] = float64(a.K), a.Mean-a.SD, a.Mean+a.SD
			}
			if len(pts) > 1 {
				c, _, _ := methodStyle(names, i)
				if err := ly.band(ks, los, his, c, lowest, 1); err != nil {
					return nil, err
				}
			}
			l, sc, err := ly.curve(xy, names, i, vg.Points(2))
			if err != nil {
				return nil, err
			}
			label := mr.Label
			if auc, ok := mr.AUC[classifier]; ok {
				// the curve's area over the k range: its average height, not a ROC AUC
				label = fmt.Sprintf("%s (%s averaged over k %.3f)", mr.Label, perf, auc)
				if only >= 0 { // the panel's title names the method
					label = fmt.Sprintf("%s averaged over k %.3f", perf, auc)
				}
			}
			p.Legend.Add(label, l, sc)
		}
		ly.addTo(p)
		if err := fewGroupsMarks(p, res, only, p.Y.Min, p.Y.Max); err != nil {
			return nil, err
		}
		if res.Data.Survival != nil && lowest < 0.5 { // C of a risk score that ranks at random
			chance, err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: 0.5}, {X: p.X.Max, Y: 0.5}})
			if err != nil {
				return nil, err
			}
			chance.Color, chance.Dashes = color.Gray{0x80}, []vg.Length{vg.Points(3), vg.Points(3)}
			p.Add(chance)
			p.Legend.Add("C = 0.5: no better than chance", chance)
		}
		return p, nil
	}
	f.Build = func() (*plot.Plot, error) { return build(-1) }
	f.Panel, f.Panels = build, len(res.Methods)
	return f
}

// fewGroupsMarks draws, for each group method (only, when it is 0 or more) that found
// fewer groups than some k, a dotted vertical line in its colour where its selections
// start to be filled with single features, with a legend entry saying so.
func fewGroupsMarks(p *plot.Plot, res *experiment.Result, only int, bottom, top float64) error {
	names := methodNames(res)
	for i, mr := range res.Methods {
		if mr.FewestGroups == nil || (only >= 0 && i != only) {
			continue
		}
		x := float64(*mr.FewestGroups) + 0.5
		l, err := plotter.NewLine(plotter.XYs{{X: x, Y: bottom}, {X: x, Y: top}})
		if err != nil {
			return err
		}
		l.Color, _, _ = methodStyle(names, i)
		l.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s: fewer groups than k beyond %d (filled by F)", mr.Label, *mr.FewestGroups), l)
	}
	return nil
}

// maxGridColumns is the most features the grid draws, names readable at 16 cm.
const maxGridColumns = 60

// SelectionOrder returns the features ever in a resample's top k of method, most often
// first (ties by name, so the order does not depend on the columns' order), and how
// often each was.
func SelectionOrder(res *experiment.Result, method, k int) ([]int, map[int]int) {
	count := map[int]int{}
	for _, r := range res.Methods[method].Runs {
		for _, j := range r.Order[:min(k, len(r.Order))] {
			count[j]++
		}
	}
	feats := make([]int, 0, len(count))
	for j := range count {
		feats = append(feats, j)
	}
	names := res.Data.Features
	sort.Slice(feats, func(a, b int) bool {
		if count[feats[a]] != count[feats[b]] {
			return count[feats[a]] > count[feats[b]]
		}
		return names[feats[a]] < names[feats[b]]
	})
	return feats, count
}

// SelectionGrid is the Kalousis selection-frequency grid of one method at k: one column
// per feature ever in a resample's top k (most often selected first), one row per
// resample, a mark where the feature was selected.
func SelectionGrid(res *experiment.Result, method, k int) Figure {
	mr := res.Methods[method]
	f := Figure{Name: "selection-grid-" + safeName(mr.Label), Title: fmt.Sprintf("%s: features in the top %d of each resample (%s)", mr.Label, k, protocolName(res))}
	all, count := SelectionOrder(res, method, k)
	feats := all[:min(len(all), maxGridColumns)]
	col := map[int]int{}
	for c, j := range feats {
		col[j] = c
	}
	f.Table = [][]string{{"resample", "feature", "column", "selected"}}
	var xy plotter.XYs
	for ri, r := range mr.Runs {
		for _, j := range r.Order[:min(k, len(r.Order))] {
			if _, shown := col[j]; !shown {
				continue
			}
			name := res.Data.Features[j]
			xy = append(xy, plotter.XY{X: float64(col[j] + 1), Y: float64(ri + 1)})
			f.Table = append(f.Table, []string{r.Label, name, strconv.Itoa(col[j] + 1), "1"})
			f.Points = append(f.Points, Point{float64(col[j] + 1), float64(ri + 1), fmt.Sprintf("%s in %s (selected in %d of %d)", name, r.Label, count[j], len(mr.Runs))})
		}
	}
	f.Build = func() (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = f.Title
		p.X.Label.Text = fmt.Sprintf("features ever selected (%d), most frequent first", len(all))
		if len(all) > len(feats) {
			p.X.Label.Text = fmt.Sprintf("the %d most frequent of the %d features ever selected (all in the table)", len(feats), len(all))
		}
		p.Y.Label.Text = "resample"
		p.X.Min, p.X.Max = 0, float64(len(feats)+1)
		p.Y.Min, p.Y.Max = 0, float64(len(mr.Runs)+1)
		if len(feats) > 30 {
			p.X.Tick.Label.Font.Size = vg.Points(6)
		}
		{
			var ticks []plot.Tick
			for c, j := range feats {
				ticks = append(ticks, plot.Tick{Value: float64(c + 1), Label: res.Data.Label(j)})
			}
			p.X.Tick.Marker = plot.ConstantTicks(ticks)
			p.X.Tick.Label.Rotation = 1.5708
			p.X.Tick.Label.XAlign = draw.XRight
			p.X.Tick.Label.YAlign = draw.YCenter
		}
		if len(xy) == 0 {
			return p, nil
		}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		sc.Shape = draw.BoxGlyph{}
		sc.Radius = vg.Points(max(0.6, min(3, 150/float64(max(len(feats), len(mr.Runs))))))
		sc.Color = color.RGBA{30, 60, 150, 255}
		p.Add(sc)
		return p, nil
	}
	return f
}

// TopTable is the table of features most often selected by one method.
func TopTable(res *experiment.Result, method int) Figure {
	mr := res.Methods[method]
	f := Figure{Name: "top-features-" + safeName(mr.Label), Title: mr.Label + ": top features"}
	f.Table = [][]string{{"feature", fmt.Sprintf("frequency in top %d", res.Config.GridK), "mean rank", "rank on all samples", "score on all samples"}}
	sym := res.Data.Symbols != nil
	probes := map[string]int{} // probes of each gene in this table
	if sym {
		f.Table[0] = append(f.Table[0], "gene symbol", "probes of the gene in this table")
		for _, t := range mr.Top {
			if s := res.Data.Symbols[t.Feature]; s != "" {
				probes[s]++
			}
		}
	}
	for _, t := range mr.Top {
		row := []string{t.Name, f4(t.Frequency), strconv.FormatFloat(t.MeanRank, 'f', 1, 64), strconv.Itoa(t.RefRank), strconv.FormatFloat(t.Score, 'g', 6, 64)}
		if sym {
			s := res.Data.Symbols[t.Feature]
			row = append(row, s, "")
			if probes[s] > 1 {
				row[len(row)-1] = strconv.Itoa(probes[s])
			}
		}
		f.Table = append(f.Table, row)
	}
	return f
}

// StabilityTestTable is Nogueira's test between every two methods at the grid's k
// (stability-tests.csv): their Phi, the two-sided p-value and the more stable.
func StabilityTestTable(res *experiment.Result) Figure {
	f := Figure{Name: "stability-tests", Title: fmt.Sprintf("Which method is more stable: Nogueira's test at k = %d", res.Config.GridK)}
	f.Table = [][]string{{"method A", "method B", "k", "Phi A", "Phi B", "p (two-sided)", "more stable"}}
	for _, c := range experiment.StabilityComparisons(res) {
		f.Table = append(f.Table, []string{c.A, c.B, strconv.Itoa(c.K), f4(c.PhiA), f4(c.PhiB), strconv.FormatFloat(c.P, 'g', 6, 64), c.MoreStable()})
	}
	return f
}

// All returns every chart of a result: stability for each measure, accuracy for each
// classifier, and a selection grid per method.
func All(res *experiment.Result) []Figure {
	var out []Figure
	groups := false
	for _, m := range res.Methods {
		groups = groups || len(m.Reference.Groups) > 0
	}
	for _, m := range Measures {
		if m.Catalogue || m.matched() && !groups {
			continue // the catalogue is in CatalogueTables; the matching measures compare groups
		}
		out = append(out, StabilityVsK(res, m))
	}
	for _, c := range res.Config.Classifiers {
		out = append(out, AccuracyVsK(res, c))
	}
	for i := range res.Methods {
		out = append(out, SelectionGrid(res, i, res.Config.GridK))
	}
	return out
}

// CatalogueTables are the numbers of every catalogue measure against k, without charts
// (stability-<name>.csv, stabm's name): the window draws any of them on request.
func CatalogueTables(res *experiment.Result) []Figure {
	var out []Figure
	for _, m := range Measures {
		if m.Catalogue {
			f := StabilityVsK(res, m)
			f.Build = nil
			out = append(out, f)
		}
	}
	return out
}
