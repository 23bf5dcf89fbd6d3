package survival

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// CoxNet is the elastic-net Cox model as glmnet 4.1-6 fits it (glmnet(x, Surv(time,
// event), family = "cox"); Simon, Friedman, Hastie and Tibshirani 2011, J Stat Softw
// 39(5)): along a decreasing lambda path, the minimum over b of
//
//	-(1/n) sum_k [sum_{i in D_k} eta_i - d_k log sum_{i in R_k} e^eta_i] + lambda [alpha ||b||_1 + (1-alpha)/2 ||b||_2^2],
//
// eta = x~ b, x~ the columns centred and scaled to unit population SD (sqrt(1/n sum
// (x - mean)^2)), n all the samples, D_k the d_k events at the k-th distinct event time
// t_k, R_k the samples with time >= t_k (Breslow's ties; a sample censored at t_k is
// at risk at t_k). The coefficients are returned on the original scale, beta_j = b_j /
// sd_j; on that scale the penalty is lambda sum_j [alpha sd_j |beta_j| + (1-alpha)/2
// sd_j^2 beta_j^2].
//
// Solved as glmnet's coxnet: IRLS quadratic approximations with the diagonal of the
// Hessian, each minimised by cyclic coordinate descent over the strong set (sequential
// strong rule |g_j| > alpha (2 lambda - lambda_prev)), then over the features ever
// non-zero, until no update moves the objective by Thresh NullDev / 2n or more
// (max_j v_j (delta b_j)^2, v_j = x~_j'W x~_j); IRLS steps until no coefficient moved
// that much; then a KKT check of the others; warm starts. The automatic path: lambda_max
// = max_j |x~_j'(d - Lambda_0(t))|/n / max(alpha, 0.001) (the score at 0, d the event
// indicator, Lambda_0 Breslow's cumulative hazard), NLambda values down to MinRatio
// lambda_max evenly on the log scale (the ratio's exponent 1/(NLambda-1) in single
// precision, as glmnet's Fortran), the first fitted at 9.9e35 and reported at
// lambda_max; it ends early (not before 5 lambdas) when the deviance ratio grew by less
// than 0.1% over the last 4 lambdas or exceeds 0.99 (glmnet's fdev and devmax as its Cox
// code scales them), after a lambda with more than DFMax non-zero coefficients, or
// before one that would make more than PMax features ever non-zero.
//
// Times must be finite and not negative. A time of 0 is kept, as survival::coxph keeps it
// (glmnet refuses times <= 0; the partial likelihood depends on the times only through
// their order, and an event at 0 has every sample at risk).
//
// glmnet visits the features in column order and stops at a tolerance, so its path
// depends on the order of the columns. CoxNet visits them by decreasing |score| at
// beta = 0 (equal scores by Tie), so its results do not depend on the columns' order;
// glmnet given the columns in that order makes the same steps.
type CoxNet struct {
	Alpha     float64   // elastic-net mixing in [0, 1]: 1 lasso, 0 ridge
	NLambda   int       // 0: 100
	MinRatio  float64   // 0: 0.01 when n < p, else 1e-4 (lambda.min.ratio)
	Lambda    []float64 // when given: these, in decreasing order, all fitted, no early end
	Thresh    float64   // 0: 1e-7
	Raw       bool      // no scaling (standardize = FALSE); the columns are still centred
	DFMax     int       // 0: no limit (glmnet's dfmax)
	PMax      int       // 0: no limit (glmnet's pmax)
	MaxPasses int       // coordinate passes over the whole path; 0: glmnet's maxit, 1e5
	Tie       []int     // order of features of equal score (a permutation); nil: column index
	Workers   int       // goroutines for the folds of CV (0: GOMAXPROCS); results never depend on it

	order []int // the visiting order, when set (CV's folds take the whole set's)
}

// CoxNetPath is a fitted path.
type CoxNetPath struct {
	Lambda   []float64
	DevRatio []float64 // 1 - deviance / null deviance, per lambda
	NullDev  float64   // 2 (log L_saturated - log L(0)), glmnet's nulldev
	SD       []float64 // scale of each column (1 when Raw; 0 for a constant column)
	// Gradient is |x~_j'r|/n at the last solution, r_i = d_i - e^eta_i Lambda_0(t_i) the
	// martingale residuals: a zero coefficient stays zero while it is at most alpha
	// lambda (how near a feature is to entering).
	Gradient []float64
	Passes   int    // coordinate passes
	Note     string // why the path ended before glmnet's rules end it ("" when it did not)

	p      int
	active []int       // features ever non-zero, in order of entry
	coef   [][]float64 // coef[l][k]: original-scale coefficient of active[k] at Lambda[l]
}

// Path fits o's path to time, event and x (samples as rows).
func (o CoxNet) Path(ctx context.Context, time []float64, event []bool, x *mat.Dense) (*CoxNetPath, error) {
	if err := coxnetCheck(time, event, x, o); err != nil {
		return nil, err
	}
	s, err := newCoxnetSolver(x, time, event, nil, o, o.order, o.Tie)
	if err != nil {
		return nil, err
	}
	return s.walk(ctx, o)
}

func coxnetCheck(time []float64, event []bool, x *mat.Dense, o CoxNet) error {
	n, p := x.Dims()
	if len(time) != n || len(event) != n {
		return fmt.Errorf("%d times and %d events for %d samples", len(time), len(event), n)
	}
	for i, t := range time {
		if !(t >= 0) || math.IsInf(t, 1) {
			return fmt.Errorf("sample %d: time %v; times must be finite and not negative", i+1, t)
		}
	}
	if !(o.Alpha >= 0 && o.Alpha <= 1) {
		return fmt.Errorf("the elastic-net mixing alpha must lie in [0, 1] (0 ridge, 1 lasso), not %g", o.Alpha)
	}
	if o.Tie != nil && len(o.Tie) != p {
		return fmt.Errorf("a tie order of %d for %d features", len(o.Tie), p)
	}
	for m, l := range o.Lambda {
		if !(l >= 0) || math.IsInf(l, 1) {
			return fmt.Errorf("lambda %d is %v: lambdas must be finite and not negative", m+1, l)
		}
	}
	return nil
}

// walk fits the path: o.Lambda when given, else glmnet's automatic sequence.
func (s *coxnetSolver) walk(ctx context.Context, o CoxNet) (*CoxNetPath, error) {
	path := &CoxNetPath{p: s.p, NullDev: 2 * float64(s.n) * s.rr, SD: make([]float64, s.p)}
	for k, j := range s.order {
		if s.x[k] != nil {
			path.SD[j] = s.xs[k]
		}
	}
	nx, ne := s.p, s.p+1
	if o.PMax > 0 {
		nx = o.PMax
	}
	if o.DFMax > 0 {
		ne = o.DFMax
	}
	user := len(o.Lambda) > 0
	nlam := len(o.Lambda)
	ulam := slices.Clone(o.Lambda)
	slices.SortFunc(ulam, func(a, b float64) int { return cmp.Compare(b, a) })
	alf := 1.0
	if !user {
		nlam = cmp.Or(o.NLambda, 100)
		flmin := o.MinRatio
		if flmin <= 0 {
			flmin = 1e-4
			if s.n < s.p {
				flmin = 0.01
			}
		}
		if flmin >= 1 {
			return nil, fmt.Errorf("the smallest lambda's ratio to the largest must be below 1, not %g", flmin)
		}
		if nlam > 1 { // glmnet's exponent 1.0/(nlam-1) is single precision
			alf = math.Pow(math.Max(coxnetEps, flmin), float64(float32(1)/float32(nlam-1)))
		}
	}
	mnl := min(coxnetMnlam, nlam)
	var last []float64 // standardised coefficients of the last stored lambda
	al := 0.0
	for l := 0; l < nlam; l++ {
		al0 := al
		switch {
		case user:
			al = ulam[l]
		case l > 1:
			al *= alf
		case l == 0:
			al = coxnetBig
		default:
			al0 = 0
			for k, c := range s.x {
				if c != nil {
					al0 = math.Max(al0, s.ga[k])
				}
			}
			al0 /= math.Max(s.alpha, 1e-3)
			al = alf * al0
		}
		if err := s.fit(ctx, al, al0, nx); err != nil {
			switch {
			case errors.Is(err, errCoxnetMaxit):
				path.Note = fmt.Sprintf("no convergence at lambda %d within %d coordinate passes: the path holds the %d before it", l+1, s.maxit, l)
			case errors.Is(err, errCoxnetPMax):
				path.Note = fmt.Sprintf("more than PMax = %d features non-zero at lambda %d: the path holds the %d before it", nx, l+1, l)
			case errors.Is(err, errCoxnetNumerical):
				path.Note = fmt.Sprintf("%v at lambda %d: the path holds the %d before it", err, l+1, l)
			default:
				return nil, err
			}
			break
		}
		path.store(s, al)
		last = slices.Clone(s.a)
		path.DevRatio = append(path.DevRatio, s.devRatio())
		if l+1 < mnl || user {
			continue
		}
		me := 0
		for _, j := range s.act {
			if s.a[j] != 0 {
				me++
			}
		}
		dev := path.DevRatio
		if me > ne || (dev[l]-dev[l-mnl+1])/dev[l] < coxnetFdev || dev[l] > coxnetDevMax {
			break
		}
	}
	path.Passes = s.passes
	if len(path.Lambda) == 0 {
		return nil, fmt.Errorf("the Cox path stopped at its first lambda: %s", path.Note)
	}
	if !user && len(path.Lambda) > 2 { // glmnet's fix.lam: the first lambda reported at lambda_max
		lam := path.Lambda
		lam[0] = math.Exp(2*math.Log(lam[1]) - math.Log(lam[2]))
	}
	g, err := s.gradientAt(last)
	if err != nil {
		return nil, err
	}
	path.Gradient = make([]float64, s.p)
	for k, j := range s.order {
		path.Gradient[j] = g[k]
	}
	return path, nil
}

// store appends the solver's solution at al, on the original scale.
func (p *CoxNetPath) store(s *coxnetSolver, al float64) {
	for len(p.active) < len(s.act) {
		p.active = append(p.active, s.order[s.act[len(p.active)]])
	}
	c := make([]float64, len(s.act))
	for k, j := range s.act {
		c[k] = s.a[j] / s.xs[j]
	}
	p.coef = append(p.coef, c)
	p.Lambda = append(p.Lambda, al)
}

// Beta returns the coefficients (original scale) at Lambda[l].
func (p *CoxNetPath) Beta(l int) []float64 {
	b := make([]float64, p.p)
	for k, v := range p.coef[l] {
		b[p.active[k]] = v
	}
	return b
}

// Coef returns the coefficients at lambda s as glmnet's coef(fit, s) (exact = FALSE):
// linear in lambda between the two nearest lambdas of the path, the first or last
// solution beyond its ends.
func (p *CoxNetPath) Coef(s float64) []float64 {
	left, right, frac := coxnetInterp(p.Lambda, s)
	b := make([]float64, p.p)
	for k, v := range p.coef[left] {
		b[p.active[k]] = v * frac
	}
	for k, v := range p.coef[right] {
		b[p.active[k]] += v * (1 - frac)
	}
	return b
}

// coxnetInterp is glmnet's lambda.interp for one value s: the coefficients at s are
// frac times those at left plus 1 - frac times those at right.
func coxnetInterp(lambda []float64, s float64) (left, right int, frac float64) {
	k := len(lambda)
	if k == 1 {
		return 0, 0, 1
	}
	span := lambda[0] - lambda[k-1]
	sf := (lambda[0] - s) / span
	pos := make([]float64, k) // the lambdas as increasing fractions of the path's span
	for i, l := range lambda {
		pos[i] = (lambda[0] - l) / span
	}
	sf = math.Min(math.Max(sf, pos[0]), pos[k-1])
	i, found := slices.BinarySearch(pos, sf)
	if found {
		return i, i, 1
	}
	left, right = i-1, i
	if math.Abs(pos[left]-pos[right]) < 0x1p-52 {
		return left, right, 1
	}
	return left, right, (sf - pos[right]) / (pos[left] - pos[right])
}

// Entry returns, for each feature, the index of the first lambda at which its
// coefficient is non-zero (-1 when it never is).
func (p *CoxNetPath) Entry() []int {
	step := make([]int, p.p)
	for j := range step {
		step[j] = -1
	}
	for l, c := range p.coef {
		for k, v := range c {
			if j := p.active[k]; v != 0 && step[j] < 0 {
				step[j] = l
			}
		}
	}
	return step
}
