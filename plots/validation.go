package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

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
		p := plot.New()
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
			leg := fmt.Sprintf("cross-validated (%s): AUC %.3f (%.3f-%.3f)", text.Count(cv.Repetitions, "repetition"), cv.MeanAUC, cv.MinAUC, cv.MaxAUC)
			if len(m.Classes) > 2 {
				leg = fmt.Sprintf("cross-validated (%s vs rest drawn): mean AUC %.3f", m.Classes[0], cv.MeanAUC)
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
	return fmt.Sprintf("%s: the locked signature on an independent cohort (%s%s)", v.Cohort, scaling, pos)
}

// ValidationFigures are a validation's figures: its ROC curve (when the cohort has
// samples of two classes the model knows) and the signature genes found across the
// samples predicted, with their classes (the model's name where the class matched or
// was mapped, else the cohort's).
func ValidationFigures(v *signature.Validation) []Figure {
	var figs []Figure
	scaling := "the model's scaling"
	if v.Options.Standardize {
		scaling = "standardised within the cohort"
	}
	if mt := v.Metrics; mt != nil && (mt.Curve != nil || mt.Curves != nil) {
		figs = append(figs, ValidationROC(v, validationTitle(v, scaling)))
	}
	if len(v.Samples) >= 2 && len(v.Values) >= 2 {
		classes, labels := validationClasses(v)
		heat := SignatureHeatmap(fmt.Sprintf("%s: the %d signature genes found, across the cohort's samples", v.Cohort, len(v.Values)),
			v.GeneLabels, v.Samples, classes, labels, v.Values)
		heat.Name = "validation-heatmap"
		figs = append(figs, heat)
	}
	return figs
}

// validationClasses are the classes the heatmap's bar shows and each sample's: the
// model's name where the cohort's class matched or was mapped, else the cohort's own,
// or "no class"; in order of first appearance.
func validationClasses(v *signature.Validation) (classes []string, labels []int) {
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
