// Package classify holds the classifiers used for accuracy and by the SVM rankers:
// a linear SVM solved by dual coordinate descent, and k-nearest neighbours.
package classify

import (
	"context"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Loss is the SVM loss: the hinge max(0, 1 - y w'x) or its square.
type Loss string

const (
	Hinge        Loss = "hinge"
	SquaredHinge Loss = "squared_hinge"
)

// SVMParams configure the linear SVM. The zero value means C = 1, squared hinge,
// tolerance 1e-4 and at most 1000 passes, as scikit-learn's LinearSVC; the tolerance
// and passes are dual coordinate descent's (not used when LinearSVM.Exact applies).
type SVMParams struct {
	C       float64 `json:"C"`
	Loss    Loss    `json:"loss,omitempty"`
	Tol     float64 `json:"tol"`     // stop when max - min projected gradient <= Tol
	MaxIter int     `json:"maxIter"` // passes over the samples
}

func (p SVMParams) withDefaults() SVMParams {
	if p.C <= 0 {
		p.C = 1
	}
	if p.Loss == "" {
		p.Loss = SquaredHinge
	}
	if p.Tol <= 0 {
		p.Tol = 1e-4
	}
	if p.MaxIter <= 0 {
		p.MaxIter = 1000
	}
	return p
}

// LinearSVM is a one-vs-rest linear SVM: for two classes one model separating class 1
// from class 0, otherwise one model per class. The bias is an extra constant feature
// equal to 1 and is regularised with w, as in LIBLINEAR.
type LinearSVM struct {
	Params SVMParams
	// SampleWeight, when set, scales C per sample (C_i = C * SampleWeight[i]); a sample
	// of weight m fits as m copies of it would.
	SampleWeight []float64
	// Exact solves the squared hinge on at most newtonMaxDim features in the primal by
	// Newton's method: the minimiser itself, where dual coordinate descent stops at its
	// tolerance or pass limit (on permuted labels, at the limit). The classifiers use it;
	// the rankers keep dual CD, whose weights of identical features are identical, so
	// their ties go to the seeded rule, and whose tolerance and passes they report.
	Exact     bool
	W         [][]float64 // one weight vector per model
	B         []float64   // bias per model
	Iter      int         // most passes (Newton steps when Exact) any model took
	Converged bool        // every model met the tolerance before MaxIter
	classes   int
}

// Fit trains on the rows of x with class labels y in 0..classes-1.
// The random stream r orders the coordinate passes.
func (s *LinearSVM) Fit(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) error {
	s.Params = s.Params.withDefaults()
	s.classes = classes
	models := classes
	if classes == 2 {
		models = 1
	}
	s.W, s.B, s.Iter, s.Converged = make([][]float64, models), make([]float64, models), 0, true
	sy := make([]float64, len(y))
	for m := 0; m < models; m++ {
		pos := m
		if classes == 2 {
			pos = 1
		}
		for i, l := range y {
			sy[i] = -1
			if l == pos {
				sy[i] = 1
			}
		}
		w, b, it, ok, err := s.solve(ctx, x, sy, r)
		if err != nil {
			return err
		}
		s.W[m], s.B[m] = w, b
		s.Iter = max(s.Iter, it)
		s.Converged = s.Converged && ok
	}
	return nil
}

// solve fits one binary model with labels y in {-1, 1}: by Newton's method when Exact
// allows it, else by dual coordinate descent (on the Gram matrix when there are fewer
// samples than features).
func (s *LinearSVM) solve(ctx context.Context, x *mat.Dense, y []float64, r *rand.Rand) ([]float64, float64, int, bool, error) {
	if _, d := x.Dims(); s.Exact && s.Params.Loss == SquaredHinge && d <= newtonMaxDim {
		return primalNewton(ctx, x, y, s.SampleWeight, s.Params.C)
	}
	if n, d := x.Dims(); UseKernel(n, d) {
		return dualCDKernel(ctx, x, y, s.SampleWeight, s.Params, r)
	}
	return dualCD(ctx, x, y, s.SampleWeight, s.Params, r)
}

// dualCD solves min_w 1/2 w'w + sum_i C_i loss(y_i w'x_i), C_i = C * weight_i (weight
// nil: C_i = C), by coordinate descent on the dual (Hsieh et al. 2008, LIBLINEAR's
// solver with shrinking): alpha_i in [0, C_i] for the hinge, alpha_i >= 0 with the
// diagonal term 1/(2 C_i) for the squared hinge. It keeps w and the bias b and takes
// w'x_i + b afresh at every step (descend).
func dualCD(ctx context.Context, x *mat.Dense, y, weight []float64, p SVMParams, r *rand.Rand) (w []float64, b float64, iter int, converged bool, err error) {
	n, d := x.Dims()
	raw := x.RawMatrix()
	row := func(i int) []float64 { return raw.Data[i*raw.Stride : i*raw.Stride+d] }
	w = make([]float64, d)
	sq := make([]float64, n)
	for i := range sq {
		ri := row(i)
		sq[i] = floats.Dot(ri, ri) + 1 // + bias feature squared
	}
	iter, converged, err = descend(ctx, y, weight, p, r, sq,
		func(i int) float64 { return floats.Dot(w, row(i)) + b },
		func(i int, step float64) {
			floats.AddScaled(w, step, row(i))
			b += step
		})
	if err != nil {
		return nil, 0, iter, false, err
	}
	return w, b, iter, converged, nil
}

// descend is dual coordinate descent with shrinking on the samples' margins: sq[i] is
// x_i'x_i + 1, margin(i) the current w'x_i + b, and move(i, step) adds step x_i to w
// (and step to b) when alpha_i y_i moves by step. The passes visit the active samples
// in an order r shuffles; a pass's projected gradients' spread below p.Tol ends it, as
// LIBLINEAR's solver does.
func descend(ctx context.Context, y, weight []float64, p SVMParams, r *rand.Rand, sq []float64, margin func(i int) float64, move func(i int, step float64)) (iter int, converged bool, err error) {
	n := len(y)
	diag, upper := make([]float64, n), make([]float64, n)
	for i := range diag {
		c := p.C
		if weight != nil {
			c *= weight[i]
		}
		diag[i], upper[i] = 0, c
		if p.Loss == SquaredHinge {
			diag[i], upper[i] = 0.5/c, math.Inf(1)
		}
	}
	alpha := make([]float64, n)
	qd := make([]float64, n)
	index := make([]int, n)
	for i := range qd {
		qd[i] = diag[i] + sq[i]
		index[i] = i
	}
	active := n
	pgMaxOld, pgMinOld := math.Inf(1), math.Inf(-1)
	for iter = 0; iter < p.MaxIter; iter++ {
		if iter%8 == 0 && ctx.Err() != nil {
			return iter, false, ctx.Err()
		}
		pgMax, pgMin := math.Inf(-1), math.Inf(1)
		r.Shuffle(active, func(a, c int) { index[a], index[c] = index[c], index[a] })
		for s := 0; s < active; s++ {
			i := index[s]
			g := y[i]*margin(i) - 1 + alpha[i]*diag[i]
			pg := 0.0
			switch {
			case alpha[i] == 0:
				if g > pgMaxOld {
					active--
					index[s], index[active] = index[active], index[s]
					s--
					continue
				}
				if g < 0 {
					pg = g
				}
			case alpha[i] == upper[i]:
				if g < pgMinOld {
					active--
					index[s], index[active] = index[active], index[s]
					s--
					continue
				}
				if g > 0 {
					pg = g
				}
			default:
				pg = g
			}
			if pg > pgMax { // math.Max and Min are not inlined: a fifth of the solver's time
				pgMax = pg
			}
			if pg < pgMin {
				pgMin = pg
			}
			if pg > 1e-12 || pg < -1e-12 {
				old := alpha[i]
				alpha[i] = clamp(alpha[i]-g/qd[i], upper[i])
				move(i, (alpha[i]-old)*y[i])
			}
		}
		if pgMax-pgMin <= p.Tol {
			if active == n {
				return iter + 1, true, nil
			}
			active = n
			pgMaxOld, pgMinOld = math.Inf(1), math.Inf(-1)
			continue
		}
		pgMaxOld, pgMinOld = pgMax, pgMin
		if pgMaxOld <= 0 {
			pgMaxOld = math.Inf(1)
		}
		if pgMinOld >= 0 {
			pgMinOld = math.Inf(-1)
		}
	}
	return iter, false, nil
}

// clamp is a in [0, hi]; a is never NaN here (the data are checked finite).
func clamp(a, hi float64) float64 {
	if a < 0 {
		return 0
	}
	if a > hi {
		return hi
	}
	return a
}

// Decision returns the decision value of model m for the sample row v: w_m'v + b_m.
func (s *LinearSVM) Decision(m int, v []float64) float64 { return floats.Dot(s.W[m], v) + s.B[m] }

// NewLinearSVM is a fitted model from its weights and biases, one model per class (one
// for two classes): a locked model read back.
func NewLinearSVM(w [][]float64, b []float64, classes int) *LinearSVM {
	return &LinearSVM{W: w, B: b, classes: classes}
}

// Predict returns the class of each row of x, as PredictScores.
func (s *LinearSVM) Predict(x *mat.Dense) []int {
	pred, _ := s.PredictScores(x)
	return pred
}

// PredictScores returns the class of each row of x and its score of each class: for two
// classes the scores are (-d, d) with d = w'x + b (the SVM margin) and the class is 1
// when d > 0; otherwise each one-vs-rest model's decision value, and the class of the
// largest (the first of equals). The class always has the largest score.
func (s *LinearSVM) PredictScores(x *mat.Dense) ([]int, [][]float64) {
	n, _ := x.Dims()
	pred := make([]int, n)
	scores := make([][]float64, n)
	for i := range pred {
		v := x.RawRowView(i)
		if s.classes == 2 {
			d := s.Decision(0, v)
			scores[i] = []float64{-d, d}
			if d > 0 {
				pred[i] = 1
			}
			continue
		}
		scores[i] = make([]float64, len(s.W))
		for m := range s.W {
			scores[i][m] = s.Decision(m, v)
			if scores[i][m] > scores[i][pred[i]] {
				pred[i] = m
			}
		}
	}
	return pred, scores
}

// SquaredWeights returns sum over models of w_mj^2 for every feature j: the SVM-ONE score
// and the SVM-RFE elimination criterion.
func (s *LinearSVM) SquaredWeights() []float64 {
	out := make([]float64, len(s.W[0]))
	for _, w := range s.W {
		for j, v := range w {
			out[j] += v * v
		}
	}
	return out
}
