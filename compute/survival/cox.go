package survival

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"steadfast/compute/rstat"
)

// CoxOptions tune a Cox fit. The zero value is coxph's default.
type CoxOptions struct {
	// Ridge is lambda >= 0: the fit maximises l(beta) - lambda/2 sum_j beta_j^2,
	// as coxph(Surv(t, e) ~ ridge(x1, ..., theta = lambda, scale = FALSE)).
	Ridge float64
	// MaxIter is the most Newton-Raphson steps (coxph's iter.max, 20 when 0).
	MaxIter int
	// Eps is the convergence criterion on the relative change in the (penalised) log
	// partial likelihood (coxph's eps, 1e-9 when 0).
	Eps float64
}

// CoxFit is a Cox proportional hazards model fitted with Efron's ties, as
// survival::coxph(Surv(time, event) ~ x, ties = "efron"). With x centred by its
// column means m, eta_i = (x_i - m)' beta, R_t the samples with time >= t, D_t the d_t
// events at t and, for l = 0 .. d_t - 1, A_l = sum_{R_t} e^eta - l/d_t sum_{D_t} e^eta
// (and likewise with x e^eta, x x' e^eta), the log partial likelihood is
//
//	l(beta) = sum_t [ sum_{D_t} eta_i - sum_l log A_l ]
//
// fitted by Newton-Raphson from beta = 0 with coxph's step halving, until
// |1 - l_old / l_new| <= Eps. Var is the inverse of the information at the fit (with a
// ridge, of the penalised information: H + lambda I), SE its diagonal's root, Z =
// Coef / SE, P = 2 Phi(-|Z|), HR = exp(Coef) with exp(Coef -+ z_0.975 SE).
type CoxFit struct {
	Coef, SE, Z, P    []float64
	HR, HRLow, HRHigh []float64
	Var               *mat.SymDense
	Means             []float64 // the column means of x
	LogLik0, LogLik   float64   // l(0) and l(beta) (without the penalty)
	Penalty           float64   // lambda/2 sum beta^2 at the fit
	Ridge             float64   // lambda
	LRT, LRTDF, LRTP  float64   // 2 (l(beta) - l(0)) on LRTDF degrees of freedom, its p
	Score, ScoreP     float64   // the score (log-rank) test at beta = 0 on k df, its p
	LinearPredictor   []float64 // (x_i - Means)' Coef, centred as coxph's
	Iter              int       // Newton-Raphson steps taken
	// Converged is false when MaxIter steps were not enough (coxph: "Ran out of
	// iterations and did not converge"); the fit is then the last good point.
	Converged bool
	// Infinite marks coefficients coxph warns about ("Loglik converged before
	// variable j; coefficient may be infinite"): |U' Var|_j > Eps and > sqrt(Eps) |Coef_j|
	// at the fit, U the score; a sign of separation. Never set with a ridge.
	Infinite []bool

	// the baseline cumulative hazard (Efron) at each distinct event time, for eta = 0
	eventTimes, cumHaz []float64
}

// ErrSingular is returned (wrapped) when a covariate is a linear combination of others.
var ErrSingular = errors.New("the covariates are collinear (coxph gives NA for one of them): drop one, or add a ridge penalty")

// Cox fits a Cox model of o on the columns of x (n samples x k covariates).
// DF of the likelihood-ratio test is k without a ridge, and with one coxph's
// effective degrees of freedom trace(H (H + lambda I)^-1), H the unpenalised
// information at the fit (R's print rounds it to 2 decimals before the p-value).
func Cox(o Outcome, x mat.Matrix, opt CoxOptions) (*CoxFit, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	n, k := x.Dims()
	if n != len(o.Time) {
		return nil, fmt.Errorf("cox: %d rows of covariates for %d samples", n, len(o.Time))
	}
	if k == 0 {
		return nil, errors.New("cox: no covariates")
	}
	if opt.Ridge < 0 || math.IsNaN(opt.Ridge) {
		return nil, fmt.Errorf("cox: the ridge penalty must be 0 or more, not %v", opt.Ridge)
	}
	if opt.MaxIter <= 0 {
		opt.MaxIter = 20
	}
	if opt.Eps <= 0 {
		opt.Eps = 1e-9
	}
	s := sortOutcome(o)
	means := make([]float64, k)
	for j := 0; j < k; j++ {
		for i := 0; i < n; i++ {
			v := x.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("cox: sample %d (row %d) has a missing or infinite value in covariate %d", i, i+1, j+1)
			}
			means[j] += v
		}
		means[j] /= float64(n)
	}
	// z: centred covariates in sorted order
	z := make([]float64, n*k)
	ev := make([]bool, n)
	for p, i := range s.idx {
		for j := 0; j < k; j++ {
			z[p*k+j] = x.At(i, j) - means[j]
		}
		ev[p] = o.Event[i]
	}
	c := coxData{s: &s, z: z, ev: ev, k: k, lambda: opt.Ridge}
	fit, err := c.newton(opt)
	if err != nil {
		return nil, err
	}
	fit.Means = means
	fit.LinearPredictor = make([]float64, n)
	for i := 0; i < n; i++ {
		e := 0.0
		for j := 0; j < k; j++ {
			e += (x.At(i, j) - means[j]) * fit.Coef[j]
		}
		fit.LinearPredictor[i] = e
	}
	return fit, nil
}

// coxData is a Cox problem in sorted order: centred covariates z (row p is the p-th
// sample by time), events ev, k covariates, ridge lambda.
type coxData struct {
	s      *sorted
	z      []float64
	ev     []bool
	k      int
	lambda float64
}

// eval returns the penalised log partial likelihood at beta, and fills u with its
// gradient and imat (k x k, row-major, full) with minus its Hessian.
func (c *coxData) eval(beta, u, imat []float64) float64 {
	k := c.k
	for i := range u {
		u[i] = 0
	}
	for i := range imat {
		imat[i] = 0
	}
	s0 := 0.0
	s1 := make([]float64, k)
	s2 := make([]float64, k*k) // lower triangle used
	e1 := make([]float64, k)
	e2 := make([]float64, k*k)
	a1 := make([]float64, k)
	ll := 0.0
	for g := c.s.groups() - 1; g >= 0; g-- {
		e0 := 0.0
		for j := range e1 {
			e1[j] = 0
		}
		d := c.s.d[g]
		if d > 0 {
			for j := range e2 {
				e2[j] = 0
			}
		}
		for p := c.s.start[g]; p < c.s.start[g+1]; p++ {
			zp := c.z[p*k : p*k+k]
			eta := 0.0
			for j, b := range beta {
				eta += b * zp[j]
			}
			r := math.Exp(eta)
			s0 += r
			for a := 0; a < k; a++ {
				ra := r * zp[a]
				s1[a] += ra
				row := s2[a*k : a*k+a+1]
				for b := range row {
					row[b] += ra * zp[b]
				}
			}
			if c.ev[p] {
				ll += eta
				e0 += r
				for a := 0; a < k; a++ {
					u[a] += zp[a]
					ra := r * zp[a]
					e1[a] += ra
					row := e2[a*k : a*k+a+1]
					for b := range row {
						row[b] += ra * zp[b]
					}
				}
			}
		}
		if d == 0 {
			continue
		}
		for l := 0; l < d; l++ {
			f := float64(l) / float64(d)
			a0 := s0 - f*e0
			ll -= math.Log(a0)
			for a := 0; a < k; a++ {
				a1[a] = (s1[a] - f*e1[a]) / a0
				u[a] -= a1[a]
			}
			for a := 0; a < k; a++ {
				for b := 0; b <= a; b++ {
					imat[a*k+b] += (s2[a*k+b]-f*e2[a*k+b])/a0 - a1[a]*a1[b]
				}
			}
		}
	}
	for a := 0; a < k; a++ {
		for b := 0; b < a; b++ {
			imat[b*k+a] = imat[a*k+b]
		}
	}
	if c.lambda > 0 {
		for a := 0; a < k; a++ {
			ll -= c.lambda / 2 * beta[a] * beta[a]
			u[a] -= c.lambda * beta[a]
			imat[a*k+a] += c.lambda
		}
	}
	return ll
}

func finiteAll(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// newton is coxfit6's iteration: a Newton step from the best point so far; a step
// that lowers the likelihood (or overflows) is pulled back toward it, by 1/2, then
// 2/3, 3/4 ... of the way.
func (c *coxData) newton(opt CoxOptions) (*CoxFit, error) {
	k := c.k
	beta := make([]float64, k)
	newbeta := make([]float64, k)
	u := make([]float64, k)
	imat := make([]float64, k*k)
	a := make([]float64, k)
	fit := &CoxFit{Ridge: c.lambda}

	ll0 := c.eval(beta, u, imat)
	fit.LogLik0 = ll0
	copy(a, u)
	if rank := cholesky2(imat, k, cholTol); rank < k && c.lambda == 0 {
		return nil, fmt.Errorf("cox: %w", ErrSingular)
	}
	chsolve2(imat, k, a)
	for j := range a {
		fit.Score += u[j] * a[j]
	}
	fit.ScoreP = distuv.ChiSquared{K: float64(k)}.Survival(fit.Score)
	best := ll0
	for j := range a {
		newbeta[j] = beta[j] + a[j]
	}
	halving := 0
	var newlk float64
	for fit.Iter = 1; fit.Iter <= opt.MaxIter; fit.Iter++ {
		newlk = c.eval(newbeta, u, imat)
		rank := cholesky2(imat, k, cholTol)
		notfinite := !finiteAll(u) || !finiteAll(imat) || math.IsNaN(newlk) || math.IsInf(newlk, 0)
		if !notfinite && math.Abs(1-best/newlk) <= opt.Eps {
			if rank < k {
				return nil, fmt.Errorf("cox: %w", ErrSingular)
			}
			copy(beta, newbeta)
			fit.Converged = true
			break
		}
		if notfinite || newlk < best {
			halving++
			for j := range newbeta {
				newbeta[j] = (newbeta[j] + float64(halving)*beta[j]) / float64(halving+1)
			}
			continue
		}
		halving = 0
		best = newlk
		chsolve2(imat, k, u)
		for j := range newbeta {
			beta[j] = newbeta[j]
			newbeta[j] += u[j]
		}
	}
	if !fit.Converged {
		fit.Iter = opt.MaxIter
		newlk = c.eval(beta, u, imat)
		if rank := cholesky2(imat, k, cholTol); rank < k {
			return nil, fmt.Errorf("cox: %w", ErrSingular)
		}
	}
	chinv2(imat, k)
	fit.Coef = beta
	fit.Var = mat.NewSymDense(k, imat)
	fit.Penalty = 0
	for _, b := range beta {
		fit.Penalty += c.lambda / 2 * b * b
	}
	fit.LogLik = newlk + fit.Penalty
	fit.Infinite = make([]bool, k)
	if c.lambda == 0 && fit.Converged {
		for j := 0; j < k; j++ {
			inf := 0.0
			for i := 0; i < k; i++ {
				inf += u[i] * imat[i*k+j]
			}
			inf = math.Abs(inf)
			fit.Infinite[j] = math.IsNaN(u[j]) || math.IsInf(u[j], 0) || (inf > opt.Eps && inf > math.Sqrt(opt.Eps)*math.Abs(beta[j]))
		}
	}
	fit.LRT = 2 * (fit.LogLik - fit.LogLik0)
	fit.LRTDF = float64(k)
	if c.lambda > 0 {
		// trace(H V) with H = (H + lambda I) - lambda I: k - lambda trace(V)
		fit.LRTDF = float64(k)
		for j := 0; j < k; j++ {
			fit.LRTDF -= c.lambda * imat[j*k+j]
		}
	}
	fit.LRTP = distuv.ChiSquared{K: fit.LRTDF}.Survival(fit.LRT)
	fit.SE = make([]float64, k)
	fit.Z = make([]float64, k)
	fit.P = make([]float64, k)
	fit.HR = make([]float64, k)
	fit.HRLow = make([]float64, k)
	fit.HRHigh = make([]float64, k)
	for j := 0; j < k; j++ {
		fit.SE[j] = math.Sqrt(imat[j*k+j])
		fit.Z[j] = beta[j] / fit.SE[j]
		fit.P[j] = normTwoSided(fit.Z[j])
		fit.HR[j] = math.Exp(beta[j])
		fit.HRLow[j] = math.Exp(beta[j] - rstat.Z95*fit.SE[j])
		fit.HRHigh[j] = math.Exp(beta[j] + rstat.Z95*fit.SE[j])
	}
	fit.eventTimes, fit.cumHaz = c.baseline(beta)
	return fit, nil
}

// normTwoSided is 2 Phi(-|z|).
func normTwoSided(z float64) float64 { return math.Erfc(math.Abs(z) / math.Sqrt2) }

// baseline is survfit.coxph's cumulative hazard for eta = 0 with Efron's ties (ctype
// 2): at an event time with d events, risk sum S0 over those at risk and E0 over the
// events, the increment is sum_{l=0}^{d-1} 1 / (S0 - l/d E0).
func (c *coxData) baseline(beta []float64) (times, cum []float64) {
	k := c.k
	g := c.s.groups()
	inc := make([]float64, g)
	s0 := 0.0
	for gi := g - 1; gi >= 0; gi-- {
		e0 := 0.0
		for p := c.s.start[gi]; p < c.s.start[gi+1]; p++ {
			eta := 0.0
			for j, b := range beta {
				eta += b * c.z[p*k+j]
			}
			r := math.Exp(eta)
			s0 += r
			if c.ev[p] {
				e0 += r
			}
		}
		d := c.s.d[gi]
		for l := 0; l < d; l++ {
			inc[gi] += 1 / (s0 - float64(l)/float64(d)*e0)
		}
	}
	h := 0.0
	for gi := 0; gi < g; gi++ {
		if c.s.d[gi] == 0 {
			continue
		}
		h += inc[gi]
		times = append(times, c.s.t[gi])
		cum = append(cum, h)
	}
	return times, cum
}

// BaselineHazard is the baseline cumulative hazard H0 at each distinct event time, for
// a sample at the covariate means (eta = 0), as survfit(fit, newdata = means) with
// Efron's estimator (survfit.coxph's default for a fit with Efron's ties).
func (f *CoxFit) BaselineHazard() (times, cumHaz []float64) {
	return append([]float64(nil), f.eventTimes...), append([]float64(nil), f.cumHaz...)
}

// CumHazAt is H0(t), the step function: 0 before the first event time.
func (f *CoxFit) CumHazAt(t float64) float64 {
	j := sort.Search(len(f.eventTimes), func(j int) bool { return f.eventTimes[j] > t }) - 1
	if j < 0 {
		return 0
	}
	return f.cumHaz[j]
}

// LinearPredictorOf is the risk score of new samples (rows of x, the model's
// covariates in its order): (x_i - Means)' Coef, on the scale of LinearPredictor.
func (f *CoxFit) LinearPredictorOf(x mat.Matrix) ([]float64, error) {
	n, k := x.Dims()
	if k != len(f.Coef) {
		return nil, fmt.Errorf("cox: %d covariates given to a model of %d", k, len(f.Coef))
	}
	out := make([]float64, n)
	for i := range out {
		for j, b := range f.Coef {
			out[i] += (x.At(i, j) - f.Means[j]) * b
		}
	}
	return out, nil
}

// Survival is each row's predicted probability to be event-free at time t,
// exp(-H0(t) exp((x - Means)' Coef)), as summary(survfit(fit, newdata = x), times = t).
func (f *CoxFit) Survival(x mat.Matrix, t float64) ([]float64, error) {
	lp, err := f.LinearPredictorOf(x)
	if err != nil {
		return nil, err
	}
	h := f.CumHazAt(t)
	for i, eta := range lp {
		lp[i] = math.Exp(-h * math.Exp(eta))
	}
	return lp, nil
}

// Unreliable reports whether coefficient j is no estimate: coxph warns that it may
// be infinite (a sign of separation), or the fit ran out of iterations.
func (f *CoxFit) Unreliable(j int) bool {
	return !f.Converged || j < len(f.Infinite) && f.Infinite[j]
}

// InfiniteNote says that the Cox coefficient of name may be infinite, as coxph warns,
// and what that means for its hazard ratio.
func InfiniteNote(name string) string {
	return fmt.Sprintf("the Cox coefficient of %s may be infinite (R's coxph warns \"coefficient may be infinite\"): %s separates the events, so its hazard ratio and 95%% CI are not estimates", name, name)
}

// Warnings are coxph's warnings about the fit, in its words: "Ran out of iterations
// and did not converge", or "Loglik converged before variable 2,5; coefficient may
// be infinite." (variables numbered from 1). None for a clean fit.
func (f *CoxFit) Warnings() []string {
	if !f.Converged {
		return []string{"Ran out of iterations and did not converge"}
	}
	var vars []string
	for j, inf := range f.Infinite {
		if inf {
			vars = append(vars, strconv.Itoa(j+1))
		}
	}
	if len(vars) == 0 {
		return nil
	}
	return []string{"Loglik converged before variable " + strings.Join(vars, ",") + "; coefficient may be infinite."}
}
