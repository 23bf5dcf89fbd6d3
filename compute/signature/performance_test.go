package signature

import (
	"math"
	"testing"

	"steadfast/compute/experiment"
)

// asah reads pROC's aSAH data (testdata/asah.csv, written by testdata/asah_proc.R):
// the s100b and ndka scores and whether the outcome was Poor (the positive class).
func asah(t *testing.T) (s100b, ndka []float64, poor []bool) {
	for _, r := range table(t, "asah.csv") {
		poor = append(poor, r[1] == "Poor")
		s100b, ndka = append(s100b, num(t, r[2])), append(ndka, num(t, r[3]))
	}
	return s100b, ndka, poor
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.15g, want %.15g (tolerance %g)", what, got, want, tol)
	}
}

// Youden's threshold and its coordinates equal pROC 1.18's coords(roc(outcome, s100b,
// direction = "<"), "best", best.method = "youden") on aSAH (testdata/asah_proc.R):
// threshold 0.205, sensitivity 26/41, specificity 58/72, PPV 0.65, NPV 58/73. Its
// bootstrap intervals equal pROC's ci.coords(..., boot.n = 2000, boot.stratified =
// TRUE) within Monte Carlo error (two steps of 1/41 for sensitivity, of 1/72 and so on;
// pROC's own draws are R's, not ours): pROC gave sensitivity 0.341-0.805, specificity
// 0.639-1, PPV 0.535-1, NPV 0.724-0.871.
func TestYoudenAsPROC(t *testing.T) {
	s, _, poor := asah(t)
	c := Youden(s, poor)
	near(t, "threshold", c.Threshold, 0.205, 1e-12)
	near(t, "sensitivity", c.Sens.Est, 0.634146341463415, 1e-14)
	near(t, "specificity", c.Spec.Est, 0.805555555555556, 1e-14)
	near(t, "PPV", c.PPV.Est, 0.65, 1e-14)
	near(t, "NPV", c.NPV.Est, 0.794520547945205, 1e-14)
	one := make([][]float64, len(s))
	for i, v := range s {
		one[i] = []float64{v}
	}
	b := BootYouden(one, poor, 2000, 1)
	if b.Threshold != c.Threshold || b.Sens.Est != c.Sens.Est {
		t.Errorf("the bootstrap moved the point: %+v, not %+v", b, c)
	}
	for _, w := range []struct {
		what           string
		v              Value
		low, high, tol float64
	}{
		{"sensitivity", b.Sens, 0.341463414634, 0.80487804878, 2.0 / 41},
		{"specificity", b.Spec, 0.638888888889, 1, 2.0 / 72},
		{"PPV", b.PPV, 0.53484496124, 1, 0.05},
		{"NPV", b.NPV, 0.724090038314, 0.870967741935, 0.03},
	} {
		near(t, w.what+" low", w.v.Low, w.low, w.tol)
		near(t, w.what+" high", w.v.High, w.high, w.tol)
	}
	again := BootYouden(one, poor, 2000, 1)
	if again != b {
		t.Errorf("the same seed gave %+v, then %+v", b, again)
	}
}

// Platt's sigmoid minimises scikit-learn 1.2.1's _sigmoid_calibration objective
// (testdata/asah_platt.py; its own fmin_bfgs stops at gtol 1e-5, so the reference is
// SciPy's BFGS on that objective at gtol 1e-12): s100b A = -4.59034091451212, B =
// 1.68519834895842; ndka A = -0.0160653046996258, B = 0.850112648359461. scikit-learn's
// own answer is within 1e-6.
func TestPlattAsScikitLearn(t *testing.T) {
	s, nd, poor := asah(t)
	for _, c := range []struct {
		what           string
		f              []float64
		a, b, skA, skB float64
	}{
		{"s100b", s, -4.59034091451212, 1.68519834895842, -4.59034132663617, 1.6851984531293323},
		{"ndka", nd, -0.0160653046996258, 0.850112648359461, -0.01606530420233326, 0.8501126401292547},
	} {
		p, ok := FitPlatt(c.f, poor)
		if !ok {
			t.Fatalf("%s: no fit", c.what)
		}
		near(t, c.what+" A", p.A, c.a, 1e-8*math.Max(1, math.Abs(c.a)))
		near(t, c.what+" B", p.B, c.b, 1e-8)
		near(t, c.what+" A against scikit-learn's own", p.A, c.skA, 1e-6)
		near(t, c.what+" B against scikit-learn's own", p.B, c.skB, 1e-6)
		if pr := p.Prob(0.205); pr <= 0 || pr >= 1 {
			t.Errorf("%s: P(0.205) = %g", c.what, pr)
		}
	}
	if _, ok := FitPlatt([]float64{1, 2}, []bool{true, true}); ok {
		t.Error("Platt fitted without a negative")
	}
}

// The calibration of p = plogis(-2 + 8 s100b) against aSAH's outcome equals rms 6.5.0's
// val.prob(p, y) (testdata/asah_valprob.R): Brier 0.19988446015874017, Intercept
// -0.532820214773014, Slope 0.613040122166946.
func TestCalibrationAsRMS(t *testing.T) {
	s, _, poor := asah(t)
	p := make([]float64, len(s))
	for i, v := range s {
		p[i] = 1 / (1 + math.Exp(-(-2 + 8*v)))
	}
	c := Calibrate(p, poor)
	near(t, "Brier", c.Brier, 0.19988446015874017, 1e-14)
	near(t, "intercept", c.Intercept, -0.532820214773014, 1e-9)
	near(t, "slope", c.Slope, 0.613040122166946, 1e-9)
	// probabilities from a logistic fit of the outcome on s100b are calibrated in this
	// sense by construction: intercept 0, slope 1
	b0, b1 := logistic(s, poor)
	for i, v := range s {
		p[i] = 1 / (1 + math.Exp(-(b0 + b1*v)))
	}
	c = Calibrate(p, poor)
	near(t, "a logistic fit's own intercept", c.Intercept, 0, 1e-9)
	near(t, "a logistic fit's own slope", c.Slope, 1, 1e-9)
	if c := Calibrate([]float64{0.2, 0.3}, []bool{false, false}); !math.IsNaN(c.Slope) || math.IsNaN(c.Brier) {
		t.Errorf("one outcome only: %+v", c)
	}
}

// The classifier's own rule over resamples: the pooled counts (worked by hand) and an
// interval around each that holds it, is inside [0, 1] and does not collapse at 1.
func TestOwnRuleByHand(t *testing.T) {
	// 8 samples, 4 positive (class 1); two repetitions of two folds; Pred given
	labels := []int{1, 1, 1, 1, 0, 0, 0, 0}
	pr := func(rep int, test []int, pred []int) experiment.Prediction {
		sc := make([]float64, 2*len(test))
		for i, p := range pred {
			sc[2*i+p] = 1
		}
		return experiment.Prediction{Repeat: rep, Test: test, Scores: map[string][][]float64{"svm": {sc}}, Pred: map[string][][]int{"svm": {pred}}}
	}
	preds := []experiment.Prediction{
		pr(0, []int{0, 1, 4, 5}, []int{1, 1, 0, 1}), // TP 2, TN 1, FP 1
		pr(0, []int{2, 3, 6, 7}, []int{1, 0, 0, 0}), // TP 1, FN 1, TN 2
		pr(1, []int{0, 2, 4, 6}, []int{1, 1, 0, 0}), // TP 2, TN 2
		pr(1, []int{1, 3, 5, 7}, []int{1, 1, 1, 0}), // TP 2, TN 1, FP 1
	}
	c := OwnRule(preds, "svm", 0, labels, 1)
	// TP 7, FN 1, TN 6, FP 2
	near(t, "sensitivity", c.Sens.Est, 7.0/8, 1e-15)
	near(t, "specificity", c.Spec.Est, 6.0/8, 1e-15)
	near(t, "PPV", c.PPV.Est, 7.0/9, 1e-15)
	near(t, "NPV", c.NPV.Est, 6.0/7, 1e-15)
	for _, v := range []Value{c.Sens, c.Spec, c.PPV, c.NPV} {
		if !(v.Low <= v.Est && v.Est <= v.High && v.Low >= 0 && v.High <= 1) {
			t.Errorf("interval %+v", v)
		}
	}
	all := []experiment.Prediction{pr(0, []int{0, 1, 4, 5}, []int{1, 1, 0, 0}), pr(0, []int{2, 3, 6, 7}, []int{1, 1, 0, 0})}
	if c := OwnRule(all, "svm", 0, labels, 1); c.Sens.Est != 1 || c.Sens.Low >= 1 || c.Sens.High != 1 {
		t.Errorf("perfect rule: sensitivity %+v (the interval must not collapse at 1)", c.Sens)
	}
}

// A cohort's sensitivity interval is Wilson's score interval, as R 4.2.2's
// prop.test(x, n, correct = FALSE)$conf.int: 26 of 41 0.48120701087912016-
// 0.76410168980310544, 41 of 41 0.91433242981556828-1, 0 of 7 0-0.35433043506668732.
func TestWilsonAsR(t *testing.T) {
	for _, c := range []struct {
		row      []int
		lo, high float64
	}{
		{[]int{15, 26}, 0.48120701087912016, 0.76410168980310544},
		{[]int{0, 41}, 0.91433242981556828, 1},
		{[]int{7, 0}, 0, 0.35433043506668732},
	} {
		got := wilsonOf(c.row, 1)
		near(t, "low", got[0], c.lo, 1e-12)
		near(t, "high", got[1], c.high, 1e-12)
	}
	if got := wilsonOf([]int{0, 0}, 1); !math.IsNaN(got[0]) {
		t.Errorf("no samples: %v", got)
	}
}
