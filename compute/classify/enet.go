package classify

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// glmnet.control()'s defaults (glmnet 4.1-6), which end an automatic lambda path.
const (
	enetFdev   = 1e-5  // the path stops when the deviance ratio gains less than this
	enetDevMax = 0.999 // or exceeds this
	enetMnlam  = 5     // but not before this many lambdas
	enetPmin   = 1e-9  // probabilities are kept in [pmin, 1 - pmin]
	enetEps    = 1e-6  // the smallest lambda.min.ratio
	enetBig    = 9.9e35
	enetMaxit  = 100000 // coordinate passes over the working set, over the whole path
)

// ENet is penalised logistic regression as glmnet fits it (Friedman, Hastie and
// Tibshirani 2010, J Stat Softw 33(1)): for two classes (class 1 against class 0) the
// minimum over (beta_0, beta) of
//
//	-1/n sum_i [y_i eta_i - log(1 + e^eta_i)] + lambda [(1-alpha)/2 ||beta||^2 + alpha ||beta||_1],
//
// eta_i = beta_0 + x_i'beta, the intercept unpenalised; for K > 2 classes the
// multinomial -1/n sum_i log p_{i,y_i} + lambda sum_k [(1-alpha)/2 ||beta_k||^2 +
// alpha ||beta_k||_1], p_ik = e^eta_ik / sum_l e^eta_il (glmnet's symmetric, ungrouped
// form; intercepts centred to sum 0). With Raw false (standardize = TRUE) every column
// is first scaled to unit population SD, sqrt(1/n sum (x - mean)^2), and the
// coefficients are returned on the original scale, beta_j / sd_j.
//
// Solved as glmnet does: IRLS quadratic approximations, each minimised by cyclic
// coordinate descent over the strong set (the sequential strong rule, |g_j| >
// alpha (2 lambda - lambda_prev)), the intercept updated after each pass, until no
// update changes the weighted objective by more than Thresh times the null deviance
// (max_j v_j (delta beta_j)^2, v_j = sum_i w_i q_i (1 - q_i) x_ij^2: glmnet's thresh);
// then a KKT check of every feature outside the strong set, and warm starts along the
// path. The automatic path is glmnet's: lambda_max = max_j |x_j'(y - ybar)|/n /
// max(alpha, 0.001) (over classes, for K > 2), NLambda values down to MinRatio
// lambda_max evenly on the log scale, the first solution fitted at lambda = 9.9e35
// (all zero), ending early, after 5 lambdas, when the deviance ratio 1 - dev/dev_null
// gains less than 1e-5 or exceeds 0.999, or when the fitted probabilities saturate.
type ENet struct {
	Alpha    float64   // elastic-net mixing in [0, 1]: 1 lasso, 0 ridge
	NLambda  int       // 0: 100
	MinRatio float64   // 0: 0.01 when n < p, else 1e-4 (lambda.min.ratio)
	Lambda   []float64 // when given, these (decreasing), all fitted, no early end
	Thresh   float64   // 0: 1e-7
	Raw      bool      // no standardisation (glmnet's standardize = FALSE)
	// MaxPasses caps the coordinate passes over the whole path (0: glmnet's maxit, 1e5).
	MaxPasses int
}

// enet is an elastic-net logistic problem in glmnet's standardised form and its
// solver's state.
type enet struct {
	n, p, nc   int         // samples, features, models (1 for two classes, else the classes)
	x          [][]float64 // standardised columns x[j][i]; nil for a constant column
	xm, xs     []float64   // columns' means and scales (scale 1 when Raw)
	y          [][]float64 // y[k][i] = 1 when sample i is of model k's class
	w          float64     // 1/n, glmnet's normalised weight
	alpha, thr float64
	dev0       float64 // null deviance (mean negative log-likelihood)
	b0         []float64
	beta       [][]float64 // standardised coefficients [model][feature]
	eta        [][]float64 // linear predictors [model][sample]
	strong     []bool
	active     []int // features ever updated away from 0, in order of entry
	inActive   []bool
	ga         []float64 // |gradient| of each feature (largest over the models)
	passes     int
	maxit      int
	saturated  bool // the fitted probabilities reached 0 or 1 (glmnet stops the path)
	devRatio   float64
	// scratch
	q, v, r, xv, bs []float64
	vx              [][]float64 // v o x_j of the strong features
}

// newENet standardises x (rows samples) for y in 0..classes-1.
func newENet(x *mat.Dense, y []int, classes int, alpha, thresh float64, raw bool) (*enet, error) {
	n, p := x.Dims()
	if classes < 2 {
		return nil, fmt.Errorf("logistic regression needs two classes or more, not %d", classes)
	}
	if !(alpha >= 0 && alpha <= 1) {
		return nil, fmt.Errorf("the elastic-net mixing alpha must lie in [0, 1] (0 ridge, 1 lasso), not %g", alpha)
	}
	count := make([]int, classes)
	for _, c := range y {
		if c < 0 || c >= classes {
			return nil, fmt.Errorf("class %d of %d", c, classes)
		}
		count[c]++
	}
	for c, k := range count {
		if k == 0 {
			return nil, fmt.Errorf("no training sample of class %d: logistic regression needs every class", c+1)
		}
	}
	if thresh <= 0 {
		thresh = 1e-7
	}
	e := &enet{n: n, p: p, nc: 1, w: 1 / float64(n), alpha: alpha}
	if classes > 2 {
		e.nc = classes
	}
	e.y = make([][]float64, e.nc)
	for k := range e.y {
		e.y[k] = make([]float64, n)
		for i, c := range y {
			if (e.nc == 1 && c == 1) || (e.nc > 1 && c == k) {
				e.y[k][i] = 1
			}
		}
	}
	e.x, e.xm, e.xs = make([][]float64, p), make([]float64, p), make([]float64, p)
	for j := 0; j < p; j++ {
		col := mat.Col(nil, j, x)
		m := 0.0
		for _, v := range col {
			m += v
		}
		m /= float64(n)
		ss := 0.0
		for i, v := range col {
			col[i] = v - m
			ss += col[i] * col[i]
		}
		s := math.Sqrt(ss / float64(n))
		e.xm[j], e.xs[j] = m, 1
		if !(s > 0) { // constant: glmnet's ju = 0, never enters
			e.x[j] = nil
			continue
		}
		if !raw {
			e.xs[j] = s
			for i := range col {
				col[i] /= s
			}
		}
		e.x[j] = col
	}
	e.b0 = make([]float64, e.nc)
	e.beta = make([][]float64, e.nc)
	e.eta = make([][]float64, e.nc)
	for k := range e.beta {
		e.beta[k] = make([]float64, p)
		e.eta[k] = make([]float64, n)
	}
	e.strong, e.inActive, e.ga = make([]bool, p), make([]bool, p), make([]float64, p)
	e.q, e.v, e.r = make([]float64, n), make([]float64, n), make([]float64, n)
	e.xv, e.bs, e.vx = make([]float64, p), make([]float64, p), make([][]float64, p)
	// the null model: intercepts at the class shares, its deviance and gradient
	for k := range e.b0 {
		ybar := mean(e.y[k])
		if e.nc == 1 {
			e.b0[k] = math.Log(ybar / (1 - ybar))
			e.dev0 = -(ybar*math.Log(ybar) + (1-ybar)*math.Log(1-ybar))
		} else {
			e.b0[k] = math.Log(ybar)
			e.dev0 -= ybar * math.Log(ybar)
		}
	}
	if e.nc > 1 {
		centre(e.b0)
	}
	for k := range e.eta {
		for i := range e.eta[k] {
			e.eta[k][i] = e.b0[k]
		}
	}
	e.thr = thresh * e.dev0
	e.gradient(false)
	return e, nil
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// centre subtracts the mean of v from each element.
func centre(v []float64) {
	m := mean(v)
	for i := range v {
		v[i] -= m
	}
}

// probs sets q to the probability of model k's class at the current fit: the logistic
// of eta (0 below -log(1/pmin - 1), 1 above, as glmnet), or the softmax.
func (e *enet) probs(k int) {
	if e.nc == 1 {
		fmax := math.Log(1/enetPmin - 1)
		for i, f := range e.eta[0] {
			switch {
			case f < -fmax:
				e.q[i] = 0
			case f > fmax:
				e.q[i] = 1
			default:
				e.q[i] = 1 / (1 + math.Exp(-f))
			}
		}
		return
	}
	for i := range e.q {
		m := math.Inf(-1)
		for l := range e.eta {
			m = math.Max(m, e.eta[l][i])
		}
		s := 0.0
		for l := range e.eta {
			s += math.Exp(e.eta[l][i] - m)
		}
		e.q[i] = math.Exp(e.eta[k][i]-m) / s
	}
}

// gradient sets ga[j] = max_k |x_j'(w (y_k - q_k))| for the features outside the
// strong set (all usable ones when all is set).
func (e *enet) gradient(all bool) {
	for j := range e.ga {
		if e.strong[j] && !all {
			continue
		}
		e.ga[j] = 0
	}
	for k := 0; k < e.nc; k++ {
		e.probs(k)
		for i := range e.r {
			e.r[i] = e.w * (e.y[k][i] - e.q[i])
		}
		for j, col := range e.x {
			if col == nil || (e.strong[j] && !all) {
				continue
			}
			e.ga[j] = math.Max(e.ga[j], math.Abs(dot(col, e.r)))
		}
	}
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// deviance is the mean negative log-likelihood of the current fit, probabilities kept
// in [pmin, 1 - pmin].
func (e *enet) deviance() float64 {
	d := 0.0
	clamp := func(p float64) float64 { return math.Min(math.Max(p, enetPmin), 1-enetPmin) }
	if e.nc == 1 {
		e.probs(0)
		for i, q := range e.q {
			q = clamp(q)
			d -= e.w * (e.y[0][i]*math.Log(q) + (1-e.y[0][i])*math.Log(1-q))
		}
		return d
	}
	for k := 0; k < e.nc; k++ {
		e.probs(k)
		for i, q := range e.q {
			if e.y[k][i] > 0 {
				d -= e.w * math.Log(clamp(q))
			}
		}
	}
	return d
}

// fit solves the problem at lambda lam from the current solution (warm start), prev
// the lambda before (for the strong rule). It returns an error when the coordinate
// passes over the whole path exceed glmnet's maxit.
func (e *enet) fit(ctx context.Context, lam, prev float64) error {
	l1, l2 := lam*e.alpha, lam*(1-e.alpha)
	for j, col := range e.x {
		if col != nil && !e.strong[j] && e.ga[j] > e.alpha*(2*lam-prev) {
			e.strong[j] = true
		}
	}
	for iter := 0; ; iter++ {
		if iter%8 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		moved, skipped := 0.0, 0
		for k := 0; k < e.nc; k++ {
			d, ok, err := e.irlsStep(k, l1, l2)
			if err != nil {
				return err
			}
			if !ok {
				skipped++
			}
			moved = math.Max(moved, d)
		}
		if e.nc > 1 {
			e.shift()
		}
		if skipped == e.nc {
			e.saturated = true
			return nil
		}
		if moved >= e.thr {
			continue
		}
		// converged on the strong set: KKT over the others
		e.gradient(false)
		violated := false
		for j, col := range e.x {
			if col != nil && !e.strong[j] && e.ga[j] > l1 {
				e.strong[j] = true
				violated = true
			}
		}
		if !violated {
			return nil
		}
	}
}

// shift moves each active feature's coefficients over the classes by the constant
// that minimises their penalty (the likelihood does not change: glmnet's elc), and
// centres the intercepts; the coordinate passes alone move along that flat direction
// only slowly.
func (e *enet) shift() {
	b := make([]float64, e.nc)
	for _, j := range e.active {
		for k := range b {
			b[k] = e.beta[k][j]
		}
		if c := penaltyCentre(b, e.alpha); c != 0 {
			for k := range b {
				e.beta[k][j] -= c
			}
		}
	}
	centre(e.b0)
	for k := range e.eta {
		e.refresh(k)
	}
}

// penaltyCentre is the c minimising sum_k [(1-alpha)/2 (b_k - c)^2 + alpha |b_k - c|]:
// the mean for ridge, a median for the lasso, between them otherwise.
func penaltyCentre(b []float64, alpha float64) float64 {
	K := float64(len(b))
	sum := 0.0
	for _, v := range b {
		sum += v
	}
	s := slices.Clone(b)
	slices.Sort(s)
	if alpha == 0 {
		return sum / K
	}
	if alpha == 1 {
		return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
	}
	// on the interval between the i-th and (i+1)-th smallest values the derivative is
	// (1-alpha)(K c - sum) - alpha (above - below), zero at c below
	for i := 0; i <= len(s); i++ {
		lo, hi := math.Inf(-1), math.Inf(1)
		if i > 0 {
			lo = s[i-1]
		}
		if i < len(s) {
			hi = s[i]
		}
		c := (sum + alpha*float64(len(s)-2*i)/(1-alpha)) / K
		if c >= lo && c <= hi {
			return c
		}
	}
	// else at a breakpoint, where the subgradient holds 0
	for i, v := range s {
		below, above := float64(i), float64(len(s)-1-i)
		g := (1 - alpha) * (K*v - sum)
		if g-alpha*(above-below)-alpha <= 0 && g-alpha*(above-below)+alpha >= 0 {
			return v
		}
	}
	return sum / K
}

// refresh recomputes model k's linear predictors from its coefficients.
func (e *enet) refresh(k int) {
	eta := e.eta[k]
	for i := range eta {
		eta[i] = e.b0[k]
	}
	for _, j := range e.active {
		if b := e.beta[k][j]; b != 0 {
			for i, v := range e.x[j] {
				eta[i] += b * v
			}
		}
	}
}

// irlsStep is one IRLS step of model k: the quadratic approximation at the current fit
// minimised by coordinate descent. It returns the largest weighted change (glmnet's
// convergence measure) and false when the model's weights vanished (its probabilities
// all 0 or 1: glmnet skips it).
func (e *enet) irlsStep(k int, l1, l2 float64) (float64, bool, error) {
	e.probs(k)
	xmz := 0.0
	for i, q := range e.q {
		e.v[i] = e.w * q * (1 - q)
		e.r[i] = e.w * (e.y[k][i] - q)
		xmz += e.v[i]
	}
	if xmz <= (1+enetPmin)*enetPmin*(1-enetPmin) {
		return 0, false, nil
	}
	beta := e.beta[k]
	b0 := e.b0[k]
	for j, col := range e.x {
		if e.strong[j] { // v o x_j, the residual's change per unit of beta_j, and x_j'(v o x_j)
			if e.vx[j] == nil {
				e.vx[j] = make([]float64, e.n)
			}
			floats.MulTo(e.vx[j], e.v, col)
			e.xv[j] = floats.Dot(e.vx[j], col)
		}
	}
	for _, j := range e.active {
		e.bs[j] = beta[j]
	}
	update := func(j int) float64 {
		col := e.x[j]
		old := beta[j]
		u := floats.Dot(col, e.r) + old*e.xv[j]
		nb := 0.0
		if a := math.Abs(u) - l1; a > 0 {
			nb = math.Copysign(a, u) / (e.xv[j] + l2)
		}
		if nb == old {
			return 0
		}
		if !e.inActive[j] {
			e.inActive[j] = true
			e.active = append(e.active, j)
			e.bs[j] = 0
		}
		beta[j] = nb
		d := nb - old
		floats.AddScaled(e.r, -d, e.vx[j])
		return e.xv[j] * d * d
	}
	intercept := func() float64 {
		d := 0.0
		for _, v := range e.r {
			d += v
		}
		d /= xmz
		e.b0[k] += d
		for i := range e.r {
			e.r[i] -= d * e.v[i]
		}
		return xmz * d * d
	}
	for {
		dlx := 0.0
		for j := range e.x {
			if e.strong[j] {
				dlx = math.Max(dlx, update(j))
			}
		}
		dlx = math.Max(dlx, intercept())
		e.passes++
		if dlx < e.thr {
			break
		}
		for {
			dlx = 0
			for _, j := range e.active {
				dlx = math.Max(dlx, update(j))
			}
			dlx = math.Max(dlx, intercept())
			e.passes++
			if e.passes > e.maxit {
				return 0, true, fmt.Errorf("logistic regression: no convergence in %d coordinate passes (glmnet's maxit)", e.maxit)
			}
			if dlx < e.thr {
				break
			}
		}
	}
	d0 := e.b0[k] - b0
	moved := xmz * d0 * d0
	for _, j := range e.active {
		d := beta[j] - e.bs[j]
		moved = math.Max(moved, e.xv[j]*d*d)
	}
	e.refresh(k)
	return moved, true, nil
}
