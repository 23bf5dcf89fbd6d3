package signature

import (
	"fmt"
	"math"

	"steadfast/compute/experiment"
)

// Platt is Platt's sigmoid from a decision value f to the probability of the positive
// class: P = 1 / (1 + exp(A f + B)).
type Platt struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

// Prob is the probability of the positive class at decision value f.
func (p Platt) Prob(f float64) float64 { return sigmoid(-(p.A*f + p.B)) }

// RuleScore is the score of either class of two at which the model's own rule changes
// its call: 0 for a linear SVM (w'z + b = 0; the two classes' scores are -d and d), a
// vote share of 1/2 for k-NN, k-TSP and a random forest, a probability of 1/2 for
// logistic regression.
func (m *Model) RuleScore() float64 {
	if experiment.DirectProbability(m.Classifier) {
		return 0.5
	}
	if m.W != nil {
		return 0
	}
	return 0.5
}

func sigmoid(t float64) float64 {
	if t >= 0 {
		return 1 / (1 + math.Exp(-t))
	}
	e := math.Exp(t)
	return e / (1 + e)
}

// FitPlatt fits Platt's sigmoid to decision values f of samples of class pos by
// maximum likelihood with Platt's smoothed targets, (N+ + 1)/(N+ + 2) for a positive and
// 1/(N- + 2) for a negative (Platt 1999; scikit-learn's CalibratedClassifierCV(method=
// "sigmoid")), by Newton's method with backtracking (Lin, Lin and Weng 2007) to a
// gradient below 1e-12. ok is false without both classes.
func FitPlatt(f []float64, pos []bool) (p Platt, ok bool) {
	np, nn := count(pos)
	if np == 0 || nn == 0 {
		return Platt{}, false
	}
	hi, lo := (float64(np)+1)/(float64(np)+2), 1/(float64(nn)+2)
	t := make([]float64, len(f))
	for i := range t {
		t[i] = lo
		if pos[i] {
			t[i] = hi
		}
	}
	// negative log likelihood of targets t under P_i = 1/(1+exp(A f_i + B))
	nll := func(a, b float64) float64 {
		s := 0.0
		for i, x := range f {
			z := a*x + b // log((1-P)/P)
			s += t[i]*z + math.Log1p(math.Exp(-math.Abs(z))) + math.Max(-z, 0)
		}
		return s
	}
	a, b := 0.0, math.Log((float64(nn)+1)/(float64(np)+1))
	cur := nll(a, b)
	for iter := 0; iter < 100; iter++ {
		var g1, g2, h11, h22, h21 float64
		for i, x := range f {
			pr := sigmoid(-(a*x + b)) // P_i
			d1 := t[i] - pr           // d nll / d z
			d2 := pr * (1 - pr)
			g1, g2 = g1+x*d1, g2+d1
			h11, h22, h21 = h11+x*x*d2, h22+d2, h21+x*d2
		}
		if math.Abs(g1) < 1e-12 && math.Abs(g2) < 1e-12 {
			break
		}
		h11, h22 = h11+1e-12, h22+1e-12
		det := h11*h22 - h21*h21
		da, db := -(h22*g1-h21*g2)/det, -(-h21*g1+h11*g2)/det
		step := 1.0
		for ; step >= 1e-10; step /= 2 {
			v := nll(a+step*da, b+step*db)
			if v < cur+1e-4*step*(g1*da+g2*db) || step == 1 && v <= cur+1e-13*math.Abs(cur) {
				// (the second: a full step near the optimum, its gain below rounding)
				a, b, cur = a+step*da, b+step*db, v
				break
			}
		}
		if step < 1e-10 {
			break
		}
	}
	return Platt{A: a, B: b}, true
}

// Calibration is how well probabilities p agree with outcomes, as R's rms val.prob:
// Brier = mean (p_i - y_i)^2, and Intercept and Slope of the logistic regression of y
// on logit(p) (0 and 1 when calibrated). NaN without both outcomes or for a degenerate
// fit.
type Calibration struct {
	Brier, Intercept, Slope float64
	N                       int
}

// Says gives the intercept and slope in words, or why they cannot be computed.
func (c Calibration) Says() string {
	if math.IsNaN(c.Slope) {
		return "calibration intercept and slope not computable (the probabilities separate the classes perfectly, or one class is absent)"
	}
	return fmt.Sprintf("calibration intercept %.3f and slope %.3f", c.Intercept, c.Slope)
}

// Calibrate computes the Calibration of probabilities p against outcomes pos.
func Calibrate(p []float64, pos []bool) Calibration {
	nan := math.NaN()
	c := Calibration{Brier: nan, Intercept: nan, Slope: nan, N: len(p)}
	np, nn := count(pos)
	if len(p) == 0 {
		return c
	}
	c.Brier = 0
	x := make([]float64, len(p))
	for i, v := range p {
		y := 0.0
		if pos[i] {
			y = 1
		}
		c.Brier += (v - y) * (v - y) / float64(len(p))
		v = math.Min(math.Max(v, 1e-15), 1-1e-15)
		x[i] = math.Log(v / (1 - v))
	}
	if np == 0 || nn == 0 {
		return c
	}
	c.Intercept, c.Slope = logistic(x, pos)
	return c
}

// logistic fits P(pos) = 1/(1+exp(-(b0 + b1 x))) by Newton-Raphson (iteratively
// reweighted least squares) to a change below 1e-12: R's glm(y ~ x, binomial). NaN
// when it does not converge (separation).
func logistic(x []float64, pos []bool) (b0, b1 float64) {
	for iter := 0; iter < 100; iter++ {
		var g0, g1, h00, h01, h11 float64
		for i, v := range x {
			pr := sigmoid(b0 + b1*v)
			y := 0.0
			if pos[i] {
				y = 1
			}
			w := pr * (1 - pr)
			g0, g1 = g0+(y-pr), g1+(y-pr)*v
			h00, h01, h11 = h00+w, h01+w*v, h11+w*v*v
		}
		det := h00*h11 - h01*h01
		if det <= 0 || math.IsNaN(det) {
			break
		}
		d0, d1 := (h11*g0-h01*g1)/det, (-h01*g0+h00*g1)/det
		b0, b1 = b0+d0, b1+d1
		if math.Abs(d0) < 1e-12*(1+math.Abs(b0)) && math.Abs(d1) < 1e-12*(1+math.Abs(b1)) {
			return b0, b1
		}
	}
	return math.NaN(), math.NaN()
}
