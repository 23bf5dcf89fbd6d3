package classify

import (
	"cmp"
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// walk fits the path: o.Lambda when given, else glmnet's automatic sequence. visit
// sees each solution (e.b0, e.beta standardised; e.devRatio) with its lambda.
func (e *enet) walk(ctx context.Context, o ENet, visit func(m int, lam float64) error) error {
	if len(o.Lambda) > 0 {
		prev := 0.0
		for m, lam := range o.Lambda {
			if !(lam >= 0) || (m > 0 && lam > o.Lambda[m-1]) {
				return fmt.Errorf("the lambdas must be decreasing and not negative")
			}
			if err := e.fit(ctx, lam, prev); err != nil {
				return err
			}
			prev = lam
			e.devRatio = 1 - e.deviance()/e.dev0
			if err := visit(m, lam); err != nil {
				return err
			}
		}
		return nil
	}
	nl := o.NLambda
	if nl <= 0 {
		nl = 100
	}
	ratio := o.MinRatio
	if ratio <= 0 {
		ratio = 1e-4
		if e.n < e.p {
			ratio = 0.01
		}
	}
	alf := 1.0
	if nl > 1 {
		alf = math.Pow(math.Max(enetEps, ratio), 1/float64(nl-1))
	}
	lmax := 0.0
	for j, g := range e.ga {
		if e.x[j] != nil {
			lmax = math.Max(lmax, g)
		}
	}
	lmax /= math.Max(e.alpha, 1e-3)
	prevDev := 0.0
	lam, prev := 0.0, 0.0
	for m := 0; m < nl; m++ {
		fitAt := lam
		switch m {
		case 0:
			fitAt, lam = enetBig, lmax
		case 1:
			prev, lam = lmax, lmax*alf
			fitAt = lam
		default:
			prev, lam = lam, lam*alf
			fitAt = lam
		}
		if err := e.fit(ctx, fitAt, prev); err != nil {
			return err
		}
		e.devRatio = 1 - e.deviance()/e.dev0
		if err := visit(m, lam); err != nil {
			return err
		}
		if e.saturated {
			return nil
		}
		if m+1 >= min(enetMnlam, nl) && (e.devRatio-prevDev < enetFdev || e.devRatio > enetDevMax) {
			return nil
		}
		prevDev = e.devRatio
	}
	return nil
}

// original writes model k's intercept and coefficients on the original scale into
// beta (length p): beta_j = b_j / sd_j, b0 - sum_j beta_j mean_j.
func (e *enet) original(k int, beta []float64) float64 {
	b0 := e.b0[k]
	for j := range beta {
		beta[j] = 0
		if e.x[j] != nil {
			beta[j] = e.beta[k][j] / e.xs[j]
			b0 -= beta[j] * e.xm[j]
		}
	}
	return b0
}

// ENetPath is a fitted path on the original scale: at lambda l, model k's intercept
// A0[l][k] and coefficients Beta[l][k] (two classes: one model, class 1 against 0).
type ENetPath struct {
	Lambda   []float64
	A0       [][]float64
	Beta     [][][]float64
	DevRatio []float64
	NullDev  float64 // the null model's mean negative log-likelihood
	Passes   int     // coordinate passes over the whole path
}

// Path fits o's path to the rows of x with classes y in 0..classes-1.
func (o ENet) Path(ctx context.Context, x *mat.Dense, y []int, classes int) (*ENetPath, error) {
	e, err := newENet(x, y, classes, o.Alpha, o.Thresh, o.Raw)
	if err != nil {
		return nil, err
	}
	e.maxit = cmp.Or(o.MaxPasses, enetMaxit)
	out := &ENetPath{NullDev: e.dev0}
	err = e.walk(ctx, o, func(m int, lam float64) error {
		a0 := make([]float64, e.nc)
		beta := make([][]float64, e.nc)
		for k := range beta {
			beta[k] = make([]float64, e.p)
			a0[k] = e.original(k, beta[k])
		}
		if e.nc > 1 { // the intercepts' common shift is free: glmnet centres them
			centre(a0)
		}
		out.Lambda, out.A0, out.Beta = append(out.Lambda, lam), append(out.A0, a0), append(out.Beta, beta)
		out.DevRatio = append(out.DevRatio, e.devRatio)
		return nil
	})
	out.Passes = e.passes
	return out, err
}

// Walk fits o's path and calls visit with each lambda and the standardised
// coefficients std[model][feature] (reused between calls: copy what you keep).
func (o ENet) Walk(ctx context.Context, x *mat.Dense, y []int, classes int, visit func(lambda float64, std [][]float64) error) error {
	e, err := newENet(x, y, classes, o.Alpha, o.Thresh, o.Raw)
	if err != nil {
		return err
	}
	e.maxit = cmp.Or(o.MaxPasses, enetMaxit)
	return e.walk(ctx, o, func(m int, lam float64) error { return visit(lam, e.beta) })
}

// Entry walks o's path and returns, for each feature, the index of the first lambda at
// which its coefficient (of any class) is non-zero (-1 when it never is) and a size:
// for a feature that entered, its largest |standardised coefficient| at that lambda;
// for one that never did, its largest |x_j'(y_k - p_k)|/n at the path's last fit (how
// near it came to entering: it enters once this exceeds alpha lambda); 0 for a
// constant feature.
func (o ENet) Entry(ctx context.Context, x *mat.Dense, y []int, classes int) (step []int, size []float64, err error) {
	e, err := newENet(x, y, classes, o.Alpha, o.Thresh, o.Raw)
	if err != nil {
		return nil, nil, err
	}
	e.maxit = cmp.Or(o.MaxPasses, enetMaxit)
	step, size = make([]int, e.p), make([]float64, e.p)
	for j := range step {
		step[j] = -1
	}
	err = e.walk(ctx, o, func(m int, lam float64) error {
		for _, j := range e.active {
			if step[j] >= 0 {
				continue
			}
			for k := range e.beta {
				if b := math.Abs(e.beta[k][j]); b > 0 {
					step[j], size[j] = m, math.Max(size[j], b)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	e.gradient(true)
	for j := range step {
		if step[j] < 0 && e.x[j] != nil {
			size[j] = e.ga[j]
		}
	}
	return step, size, nil
}
