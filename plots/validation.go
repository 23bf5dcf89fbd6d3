package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"steadfast/compute/signature"
	"steadfast/internal/text"
)

// ValidationROC draws a cohort's ROC curve (two classes: the positive class's; more:
// each class's one-vs-rest curve) with its AUC and DeLong 95% interval, beside the
// signature's cross-validated curve (the vertical average of its repetitions, dashed)
// and the chance diagonal. Its table is the cohort's points, then the cross-validated
// curve's.
func ValidationROC(v *signature.Validation, title string) Figure {
	f := Figure{Name: "validation-roc", Title: title}
	f.Table = [][]string{{"curve", "threshold", "fpr", "tpr"}}
	mt, m := v.Metrics, v.Model
	type named struct {
		name  string
		curve []signature.ROCPoint
		auc   signature.AUC
	}
	var curves []named
	if p := v.Positive(); p >= 0 {
		curves = append(curves, named{"cohort", mt.Curve, mt.AUC})
	} else {
		for c, cv := range mt.Curves {
			if cv != nil {
				curves = append(curves, named{"cohort, " + m.Classes[c] + " vs rest", cv, mt.PerClass[c]})
			}
		}
	}
	for _, c := range curves {
		for _, p := range c.curve {
			f.Table = append(f.Table, []string{c.name, fmtNum(p.Threshold), fmtNum(p.FPR), fmtNum(p.TPR)})
		}
	}
	if m.CV != nil {
		for _, p := range m.CV.Curve {
			f.Table = append(f.Table, []string{"cross-validated mean", "", fmtNum(p[0]), fmtNum(p[1])})
		}
	}
	f.Build = func() (*plot.Plot, error) {
		p := square(plot.New()) // equal scales on both rates
		p.Title.Text = title
		p.X.Label.Text = "false-positive rate (1 - specificity)"
		p.Y.Label.Text = "true-positive rate (sensitivity)"
		style(p, 0, 1)
		p.X.Min, p.X.Max = 0, 1
		diag, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
		diag.Color, diag.Dashes = color.Gray{0x80}, []vg.Length{vg.Points(3), vg.Points(3)}
		p.Add(diag)
		if cv := m.CV; cv != nil && len(cv.Curve) > 0 {
			xy := make(plotter.XYs, len(cv.Curve))
			for i, pt := range cv.Curve {
				xy[i] = plotter.XY{X: pt[0], Y: pt[1]}
			}
			line, err := plotter.NewLine(xy)
			if err != nil {
				return nil, err
			}
			line.Color, line.Width, line.Dashes = color.Gray{0x50}, vg.Points(1.2), []vg.Length{vg.Points(5), vg.Points(2)}
			p.Add(line)
			leg := fmt.Sprintf("when built, cross-validated (mean curve of %s): pooled AUC %.3f (range %.3f-%.3f)", text.Count(cv.Repetitions, "repetition"), cv.MeanAUC, cv.MinAUC, cv.MaxAUC)
			if h := cv.Headline; h != nil {
				leg = "when built, cross-validated mean curve; " + h.Text()
			}
			if len(m.Classes) > 2 {
				leg = fmt.Sprintf("when built, cross-validated (%s vs rest drawn): pooled mean AUC %.3f", m.Classes[0], cv.MeanAUC)
				if h := cv.Headline; h != nil {
					leg = fmt.Sprintf("when built, cross-validated (%s vs rest drawn); %s (mean one-vs-rest)", m.Classes[0], h.Text())
				}
			}
			p.Legend.Add(leg, line)
		}
		for i, c := range curves {
			xy := make(plotter.XYs, len(c.curve))
			for k, pt := range c.curve {
				xy[k] = plotter.XY{X: pt.FPR, Y: pt.TPR}
			}
			line, err := plotter.NewLine(xy)
			if err != nil {
				return nil, err
			}
			line.Color, line.Width = palette[i%len(palette)], vg.Points(2)
			p.Add(line)
			leg := fmt.Sprintf("%s (n = %d): AUC %.3f", c.name, mt.N, c.auc.AUC)
			if !math.IsNaN(c.auc.Low) {
				leg += fmt.Sprintf(", 95%% CI %.3f-%.3f", c.auc.Low, c.auc.High)
			}
			p.Legend.Add(leg, line)
		}
		p.Legend.Add("chance", diag)
		return p, nil
	}
	return f
}

// validationTitle names the cohort, the scaling and the positive class.
func validationTitle(v *signature.Validation, scaling string) string {
	pos := ""
	if p := v.Positive(); p >= 0 {
		pos = ", " + v.Model.Classes[p] + " positive"
	}
	return fmt.Sprintf("%s: the locked signature on %s (%s%s)", v.Cohort, v.CohortKind(), scaling, pos)
}

// ValidationFigures are a validation's figures: its ROC curve (when the cohort has
// samples of two classes the model knows) and the signature genes found across the
// samples predicted, with their classes (the model's name where the class matched or
// was mapped, else the cohort's).
func ValidationFigures(v *signature.Validation) []Figure {
	var figs []Figure
	scaling := "the model's scaling"
	if h := v.Options.Harmonize; h != "" && h != "none" {
		scaling = "harmonised: " + h
	}
	if mt := v.Metrics; mt != nil && (mt.Curve != nil || mt.Curves != nil) {
		figs = append(figs, ValidationROC(v, validationTitle(v, scaling)))
	}
	figs = append(figs, cohortSurvivalFigures(v, scaling)...)
	if len(v.Samples) >= 2 && len(v.Values) >= 2 {
		figs = append(figs, validationHeatmap(v))
	}
	if v.Shift != nil {
		figs = append(figs, ShiftFigure(v))
	}
	return figs
}

// heatSamples is the most samples a heatmap shows: its clustering is quadratic in them,
// and beyond a few hundred no column can be seen.
const heatSamples = 300

// validationHeatmap is the heatmap of the signature genes found across the cohort's
// samples predicted; of a cohort of more than heatSamples, across heatSamples of them
// taken evenly spaced within each class (in the cohort's order, each class in
// proportion), as its title says: every sample is in predictions.csv.
func validationHeatmap(v *signature.Validation) Figure {
	classes, labels := validationClasses(v)
	shown := evenlyByClass(labels, len(classes), heatSamples)
	samples, lab := make([]string, len(shown)), make([]int, len(shown))
	values := make([][]float64, len(v.Values))
	for k, i := range shown {
		samples[k], lab[k] = v.Samples[i], labels[i]
		for g := range values {
			values[g] = append(values[g], v.Values[g][i])
		}
	}
	across := "across the cohort's samples"
	if len(shown) < len(v.Samples) {
		across = fmt.Sprintf("%d of %s samples (evenly within each class; all in predictions.csv)", len(shown), text.Thousands(len(v.Samples)))
	}
	heat := SignatureHeatmap(fmt.Sprintf("%s: the %d signature genes found, %s", v.Cohort, len(v.Values), across), v.GeneLabels, samples, classes, lab, values)
	heat.Name = "validation-heatmap"
	return heat
}

// evenlyByClass returns, ascending, at most max of the samples (labels[i] in 0..nc-1):
// all when they are no more, else each class's share of max (largest remainders, at
// least one a class) taken evenly spaced through its samples.
func evenlyByClass(labels []int, nc, max int) []int {
	n := len(labels)
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	if n <= max {
		return all
	}
	of := make([][]int, nc)
	for i, l := range labels {
		of[l] = append(of[l], i)
	}
	quota := make([]int, nc)
	type rem struct {
		c int
		r float64
	}
	var rems []rem
	left := max
	for c, idx := range of {
		exact := float64(max) * float64(len(idx)) / float64(n)
		quota[c] = min(len(idx), int(exact))
		if len(idx) > 0 && quota[c] == 0 {
			quota[c] = 1
		}
		left -= quota[c]
		rems = append(rems, rem{c, exact - math.Floor(exact)})
	}
	sort.SliceStable(rems, func(a, b int) bool { return rems[a].r > rems[b].r })
	for _, r := range rems {
		if left > 0 && quota[r.c] < len(of[r.c]) {
			quota[r.c]++
			left--
		}
	}
	var out []int
	for c, idx := range of {
		for k := 0; k < quota[c]; k++ {
			out = append(out, idx[k*len(idx)/quota[c]])
		}
	}
	sort.Ints(out)
	return out
}

// shiftGenes is the most genes the shift figure shows, the most shifted first.
const shiftGenes = 30

// ShiftFigure draws each signature gene's cohort values (as given, before any
// harmonisation) beside its training values, both in training SDs from the training
// mean, as box plots: the gene's shift at a glance. At most shiftGenes genes, the
// largest |SMD| first. The table is each gene's SMD, variance ratio and share outside
// the training range.
func ShiftFigure(v *signature.Validation) Figure {
	sh := v.Shift
	genes := slices.Clone(sh.Genes)
	sort.SliceStable(genes, func(a, b int) bool { return math.Abs(genes[a].SMD) > math.Abs(genes[b].SMD) })
	if len(genes) > shiftGenes {
		genes = genes[:shiftGenes]
	}
	title := fmt.Sprintf("%s against the training data: each gene in training SDs from its training mean (median |SMD| %.2f%s)", v.Cohort, sh.MedianAbsSMD, map[bool]string{true: ", off the training scale", false: ""}[sh.OffScale])
	f := Figure{Name: "validation-shift", Title: title}
	f.Table = [][]string{{"gene", "smd", "variance_ratio", "share_outside_training_range"}}
	for _, g := range genes {
		f.Table = append(f.Table, []string{g.Gene, fmtNum(g.SMD), fmtNum(g.VarRatio), fmtNum(g.Outside)})
	}
	f.Build = func() (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = title
		p.Y.Label.Text = "(value - training mean) / training SD"
		w := vg.Points(8)
		var ticks []plot.Tick
		for k, g := range genes {
			m, sd := meanSD(g.Train)
			if sd == 0 {
				sd = 1
			}
			for side, vals := range [][]float64{g.Train, g.Cohort} {
				z := make(plotter.Values, len(vals))
				for i, x := range vals {
					z[i] = (x - m) / sd
				}
				b, err := plotter.NewBoxPlot(w, float64(k)+0.2*float64(2*side-1), z)
				if err != nil {
					return nil, err
				}
				b.FillColor = color.Gray{0xcc}
				if side == 1 {
					b.FillColor = tint(palette[1], 0.6)
				}
				b.GlyphStyle.Radius = vg.Points(1.5)
				p.Add(b)
				if k == 0 {
					p.Legend.Add(map[int]string{0: "training", 1: v.Cohort + " (as given)"}[side], swatch{b.FillColor})
				}
			}
			ticks = append(ticks, plot.Tick{Value: float64(k), Label: g.Gene})
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		p.X.Tick.Label.Rotation = math.Pi / 2
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
		p.X.Min, p.X.Max = -0.7, float64(len(genes))-0.3
		p.Legend.Top = true
		return p, nil
	}
	return f
}

// meanSD is the mean and the standard deviation (n - 1) of x.
func meanSD(x []float64) (m, sd float64) {
	for _, v := range x {
		m += v / float64(len(x))
	}
	for _, v := range x {
		sd += (v - m) * (v - m)
	}
	if len(x) > 1 {
		sd = math.Sqrt(sd / float64(len(x)-1))
	}
	return m, sd
}

// validationClasses are the classes the heatmap's bar shows and each sample's: the
// model's name where the cohort's class matched or was mapped, else the cohort's own,
// or "no class"; in order of first appearance.
func validationClasses(v *signature.Validation) (classes []string, labels []int) {
	if v.Model.Cox != nil { // a survival signature's: its risk groups
		return v.Model.Cox.GroupNames(), v.Pred
	}
	index := map[string]int{}
	labels = make([]int, len(v.Given))
	for i, g := range v.Given {
		switch {
		case v.Truth[i] >= 0:
			g = v.Model.Classes[v.Truth[i]]
		case g == "":
			g = "no class"
		}
		k, ok := index[g]
		if !ok {
			k = len(classes)
			index[g] = k
			classes = append(classes, g)
		}
		labels[i] = k
	}
	return classes, labels
}
