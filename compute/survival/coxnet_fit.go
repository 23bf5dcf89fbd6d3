package survival

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// glmnet.control()'s defaults as glmnet 4.1-6's coxnet applies them (coxnet5dpclean.m):
// it multiplies fdev by 100 and devmax by 0.99/0.999 (single-precision constants in its
// Fortran, kept here), so a Cox path ends when the deviance ratio gained less than 0.1%
// over the last 4 lambdas or exceeds 0.99.
var coxnetFdev, coxnetDevMax = func() (float64, float64) {
	fdev, devmax, a, b := 1e-5, 0.999, float64(float32(0.99)), float64(float32(0.999))
	return fdev * 100, devmax * a / b // rounded at each step, as the Fortran
}()

const (
	coxnetMnlam  = 5      // no early end before this many lambdas
	coxnetEps    = 1e-6   // the smallest lambda.min.ratio
	coxnetBig    = 9.9e35 // the first automatic lambda is fitted at this (all zero)
	coxnetMaxit  = 100000 // coordinate passes over the whole path (glmnet's maxit)
	coxnetThresh = 1e-7   // glmnet's thresh
)

// coxnetRisk is glmnet's grouping of one set of samples into risk sets: the samples in
// increasing time, events before censored samples at equal times (a sample censored at
// t is at risk at t, as survival::coxph and as glmnet intends by adding 100 machine
// epsilons to censored times), those before the first event time left out (they are
// at risk at no event).
type coxnetRisk struct {
	order []int     // sample indices in time order, from the first event on
	start []int     // start[k]: position in order of the k-th event time's first event; start[K] = len(order)
	dead  []float64 // dead[k]: the events at the k-th event time
	event []bool    // by position
}

// newCoxnetRisk groups the samples rows (all when rows is nil).
func newCoxnetRisk(time []float64, event []bool, rows []int) (coxnetRisk, error) {
	if rows == nil {
		rows = make([]int, len(time))
		for i := range rows {
			rows[i] = i
		}
	}
	idx := slices.Clone(rows)
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := cmp.Compare(time[a], time[b]); c != 0 {
			return c
		}
		if event[a] != event[b] {
			if event[a] {
				return -1
			}
			return 1
		}
		return 0
	})
	first := slices.IndexFunc(idx, func(i int) bool { return event[i] })
	if first < 0 {
		return coxnetRisk{}, fmt.Errorf("no event among the %d samples: the Cox partial likelihood needs one at least", len(idx))
	}
	if len(idx)-first <= 2 { // glmnet's jerr 30000
		return coxnetRisk{}, fmt.Errorf("only %d samples at risk at the first event time: too few for a Cox model (glmnet refuses it)", len(idx)-first)
	}
	r := coxnetRisk{order: idx[first:]}
	r.event = make([]bool, len(r.order))
	last := math.Inf(-1)
	for pos, i := range r.order {
		r.event[pos] = event[i]
		if event[i] {
			if time[i] > last || pos == 0 {
				r.start = append(r.start, pos)
				r.dead = append(r.dead, 0)
				last = time[i]
			}
			r.dead[len(r.dead)-1]++
		}
	}
	r.start = append(r.start, len(r.order))
	return r, nil
}

// coxnetSolver is one elastic-net Cox problem in glmnet's standardised form and its
// coordinate-descent state. Features are held in visiting order (see CoxNet): feature
// k is column order[k] of the caller's matrix.
type coxnetSolver struct {
	n, m, p int         // samples (weights 1/n), samples at risk (len(risk.order)), features
	order   []int       // visiting order: caller's column of each feature
	x       [][]float64 // standardised columns over risk.order; nil: constant
	xs      []float64   // columns' scales
	risk    coxnetRisk
	dq, dk  []float64 // event/n by position; events/n by event time
	alpha   float64
	cthr    float64 // Thresh NullDev / 2n (glmnet's cthr)
	r0, rr  float64 // log partial likelihood / n at 0; (l_sat - l(0)) / n = NullDev / 2n
	fmax    float64
	maxit   int

	a, as, v, ga    []float64 // coefficients, their values at the IRLS step's start, x'Wx, |gradient|
	strong, inAct   []bool
	strongList, act []int // strong set (in visiting order), features ever non-zero (in order of entry)
	f, e, w, wr, u  []float64
	wx              [][]float64 // w o x_j of the strong features, when needed
	vAt             []int       // the IRLS step at which v_j and wx_j were computed
	step, passes    int
}

// newCoxnetSolver standardises the columns of x over rows (nil: all) as glmnet does
// (population SD with weights 1/n; centred even when raw) and sets the null fit. order
// gives the visiting order; nil: by decreasing |gradient| at beta = 0, ties in increasing
// tie (nil: column index).
func newCoxnetSolver(x *mat.Dense, time []float64, event []bool, rows []int, o CoxNet, order, tie []int) (*coxnetSolver, error) {
	_, p := x.Dims()
	risk, err := newCoxnetRisk(time, event, rows)
	if err != nil {
		return nil, err
	}
	if rows == nil {
		rows = make([]int, len(time))
		for i := range rows {
			rows[i] = i
		}
	}
	n := len(rows)
	s := &coxnetSolver{n: n, m: len(risk.order), p: p, risk: risk, alpha: o.Alpha, fmax: math.Log(math.MaxFloat64 * 0.1)}
	s.maxit = cmp.Or(o.MaxPasses, coxnetMaxit)
	q := 1 / float64(n)
	raw := x.RawMatrix()
	// columns' means and scales over all rows, then the standardised values at risk
	xm, xs := make([]float64, p), make([]float64, p)
	for _, i := range rows {
		floats.AddScaled(xm, q, raw.Data[i*raw.Stride:i*raw.Stride+p])
	}
	for _, i := range rows {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+p] {
			xs[j] += q * (v - xm[j]) * (v - xm[j])
		}
	}
	constant := make([]bool, p)
	row0 := raw.Data[rows[0]*raw.Stride:]
	for j := range constant {
		constant[j] = true
	}
	for _, i := range rows[1:] {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+p] {
			if v != row0[j] {
				constant[j] = false
			}
		}
	}
	back := make([]float64, s.m*p)
	cols := make([][]float64, p)
	for j := range cols {
		xs[j] = math.Sqrt(xs[j])
		if o.Raw {
			xs[j] = 1
		}
		if !constant[j] {
			cols[j] = back[j*s.m : (j+1)*s.m : (j+1)*s.m]
		}
	}
	for pos, i := range risk.order {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+p] {
			if cols[j] != nil {
				cols[j][pos] = (v - xm[j]) / xs[j]
			}
		}
	}
	s.dq = make([]float64, s.m)
	for pos, ev := range risk.event {
		if ev {
			s.dq[pos] = q
		}
	}
	s.dk = make([]float64, len(risk.dead))
	for k, d := range risk.dead {
		s.dk[k] = d * q
	}
	s.f, s.e, s.w, s.wr = make([]float64, s.m), make([]float64, s.m), make([]float64, s.m), make([]float64, s.m)
	s.u = make([]float64, len(s.dk))
	for i := range s.e {
		s.e[i] = q
	}
	s.r0 = s.risk0()
	sat := 0.0
	for _, d := range s.dk {
		sat += d * math.Log(d)
	}
	s.rr = -(sat + s.r0)
	if err := s.outer(); err != nil {
		return nil, err
	}
	ga := make([]float64, p)
	for j, c := range cols {
		if c != nil {
			ga[j] = math.Abs(floats.Dot(s.wr, c))
		}
	}
	if order == nil {
		order = coxnetVisitOrder(ga, constant, tie)
	}
	s.order = order
	s.x, s.xs, s.ga = make([][]float64, p), make([]float64, p), make([]float64, p)
	for k, j := range order {
		s.x[k], s.xs[k], s.ga[k] = cols[j], xs[j], ga[j]
	}
	s.cthr = cmp.Or(o.Thresh, coxnetThresh) * s.rr
	s.a, s.as, s.v = make([]float64, p), make([]float64, p), make([]float64, p)
	s.strong, s.inAct = make([]bool, p), make([]bool, p)
	s.wx, s.vAt = make([][]float64, p), make([]int, p)
	return s, nil
}

// coxnetVisitOrder orders the features by decreasing score, equal scores by increasing
// tie (nil: index), constant features last.
func coxnetVisitOrder(score []float64, constant []bool, tie []int) []int {
	order := make([]int, len(score))
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if constant[a] != constant[b] {
			if constant[b] {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(score[b], score[a]); c != 0 {
			return c
		}
		if tie != nil {
			return cmp.Compare(tie[a], tie[b])
		}
		return 0
	})
	return order
}

// sums sets u[k] to the sum of e over the risk set of the k-th event time (glmnet's usk).
func (s *coxnetSolver) sums() {
	h := 0.0
	st := s.risk.start
	for k := len(s.u) - 1; k >= 0; k-- {
		for i := st[k+1] - 1; i >= st[k]; i-- {
			h += s.e[i]
		}
		s.u[k] = h
	}
}

// risk0 is glmnet's risk at the current f and e: sum_i d_i f_i / n - sum_k d_k/n log u_k.
func (s *coxnetSolver) risk0() float64 {
	s.sums()
	r := floats.Dot(s.dq, s.f)
	for k, d := range s.dk {
		r -= d * math.Log(s.u[k])
	}
	return r
}

// outer sets the diagonal of the negative Hessian w and the gradient wr of the log
// partial likelihood (over n) with respect to f, at e (glmnet's outer).
func (s *coxnetSolver) outer() error {
	s.sums()
	b, c := 0.0, 0.0
	st := s.risk.start
	for k, d := range s.dk {
		b += d / s.u[k]
		c += d / (s.u[k] * s.u[k])
		for i := st[k]; i < st[k+1]; i++ {
			s.w[i] = s.e[i] * (b - s.e[i]*c)
			if !(s.w[i] > 0) {
				return errCoxnetNumerical
			}
			s.wr[i] = s.dq[i] - s.e[i]*b
		}
	}
	return nil
}

var (
	errCoxnetNumerical = errors.New("numerical error (a non-positive weight in the quadratic approximation)")
	errCoxnetMaxit     = errors.New("no convergence within the coordinate passes allowed")
	errCoxnetPMax      = errors.New("more features would be non-zero than PMax allows")
)

// setE recomputes f from the active coefficients and e = exp(f)/n, f clipped to
// +-log(0.1 MaxFloat64) as glmnet.
func (s *coxnetSolver) setE() {
	clear(s.f)
	for _, j := range s.act {
		if s.a[j] != 0 {
			floats.AddScaled(s.f, s.a[j], s.x[j])
		}
	}
	q := 1 / float64(s.n)
	for i, v := range s.f {
		s.e[i] = q * math.Exp(math.Copysign(math.Min(math.Abs(v), s.fmax), v))
	}
}

// screen adds to the strong set the usable features whose |gradient| exceeds thr.
func (s *coxnetSolver) screen(thr float64) bool {
	added := false
	for k, c := range s.x {
		if c != nil && !s.strong[k] && s.ga[k] > thr {
			s.strong[k] = true
			s.strongList = append(s.strongList, k)
			added = true
		}
	}
	if added {
		slices.Sort(s.strongList)
	}
	return added
}

// update is one coordinate step of feature j: the new coefficient minimising the
// quadratic approximation, wr moved with it. It returns v_j (delta)^2 and false when the
// feature would join the active set beyond nx. v_j and w o x_j are computed once per
// IRLS step, when first needed: a zero coefficient whose |gradient| is at most sa stays
// zero without them, as glmnet's update leaves it.
func (s *coxnetSolver) update(j int, sa, omal float64, nx int) (float64, bool) {
	g := floats.Dot(s.wr, s.x[j])
	if s.a[j] == 0 && math.Abs(g) <= sa {
		return 0, true
	}
	if s.vAt[j] != s.step {
		if s.wx[j] == nil {
			s.wx[j] = make([]float64, s.m)
		}
		floats.MulTo(s.wx[j], s.w, s.x[j])
		s.v[j] = floats.Dot(s.wx[j], s.x[j])
		s.vAt[j] = s.step
	}
	u := s.a[j]*s.v[j] + g
	at := 0.0
	if math.Abs(u) > sa {
		at = math.Copysign(math.Abs(u)-sa, u) / (s.v[j] + omal)
	}
	if at == s.a[j] {
		return 0, true
	}
	del := at - s.a[j]
	s.a[j] = at
	floats.AddScaled(s.wr, -del, s.wx[j])
	if !s.inAct[j] {
		if len(s.act)+1 > nx {
			return 0, false
		}
		s.inAct[j] = true
		s.act = append(s.act, j)
	}
	return s.v[j] * del * del, true
}

// fit solves the problem at lambda al from the current solution (glmnet's loop for one
// lambda: IRLS steps, each minimised by coordinate descent over the strong set, then a
// KKT check of the other features), al0 being the lambda before (strong rule).
func (s *coxnetSolver) fit(ctx context.Context, al, al0 float64, nx int) error {
	sa, omal := s.alpha*al, (1-s.alpha)*al
	s.screen(s.alpha * (2*al - al0))
	for {
		if s.passes > s.maxit {
			return errCoxnetMaxit
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		for _, j := range s.act {
			s.as[j] = s.a[j]
		}
		s.step++ // new weights: v and w o x to recompute
		for {
			s.passes++
			dli := 0.0
			for _, j := range s.strongList {
				d, ok := s.update(j, sa, omal, nx)
				if !ok {
					return errCoxnetPMax
				}
				dli = math.Max(dli, d)
			}
			if dli < s.cthr {
				break
			}
			if s.passes > s.maxit {
				return errCoxnetMaxit
			}
			for {
				s.passes++
				dli = 0
				for _, j := range s.act {
					d, _ := s.update(j, sa, omal, nx)
					dli = math.Max(dli, d)
				}
				if dli < s.cthr {
					break
				}
				if s.passes > s.maxit {
					return errCoxnetMaxit
				}
			}
		}
		s.setE()
		if err := s.outer(); err != nil {
			return err
		}
		moved := false
		for _, j := range s.act {
			if d := s.a[j] - s.as[j]; s.v[j]*d*d >= s.cthr {
				moved = true
				break
			}
		}
		if moved {
			continue
		}
		for k, c := range s.x {
			if c != nil && !s.strong[k] {
				s.ga[k] = math.Abs(floats.Dot(s.wr, c))
			}
		}
		if !s.screen(sa) {
			return nil
		}
	}
}

// devRatio is glmnet's deviance ratio at the current fit (e and f current).
func (s *coxnetSolver) devRatio() float64 {
	return (s.risk0() - s.r0) / s.rr
}

// gradientAt sets f, e, w and wr at the standardised coefficients a and returns
// |x_j'wr| of every feature in visiting order (0 for a constant one).
func (s *coxnetSolver) gradientAt(a []float64) ([]float64, error) {
	copy(s.a, a)
	s.setE()
	if err := s.outer(); err != nil {
		return nil, err
	}
	g := make([]float64, s.p)
	for k, c := range s.x {
		if c != nil {
			g[k] = math.Abs(floats.Dot(s.wr, c))
		}
	}
	return g, nil
}
