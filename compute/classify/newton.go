package classify

import (
	"context"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// newtonMaxDim is the most features for which the squared-hinge SVM is solved in the
// primal by Newton's method: each step costs about n·d²/2 + d³/6 against dual
// coordinate descent's 2·n·d a pass, and on data it cannot separate well (permuted
// labels, noise) dual coordinate descent runs to its pass limit.
const newtonMaxDim = 128

// newtonMaxIter bounds the Newton steps; the method ends in far fewer (Keerthi and
// DeCoste report under 30 on every set they tried).
const newtonMaxIter = 100

// primalNewton solves dualCD's squared-hinge problem in the primal, with z_i = (x_i, 1)
// and v = (w, b):
//
//	min_v f(v) = 1/2 v'v + sum_i C_i max(0, 1 - y_i v'z_i)^2,
//
// by the finite Newton method of Keerthi and DeCoste (2005, JMLR 6:341-361). With the
// active set A = {i : m_i > 0}, m_i = 1 - y_i v'z_i, the gradient is
// g = v - 2 sum_A C_i m_i y_i z_i and the generalised Hessian H = I + 2 sum_A C_i z_i z_i';
// each direction s = -H⁻¹g is followed by an exact line search. f is strictly convex,
// so the minimiser is unique and does not depend on the order of the samples. It stops
// when max|g| <= 1e-10·(1 + max|g(0)|) or a full step leaves A as it was (then v is
// the minimiser up to rounding).
func primalNewton(ctx context.Context, x *mat.Dense, y, weight []float64, c float64) (w []float64, b float64, iter int, converged bool, err error) {
	n, d := x.Dims()
	raw := x.RawMatrix()
	dim := d + 1
	z := func(i int) []float64 { return raw.Data[i*raw.Stride : i*raw.Stride+d] }
	ci := make([]float64, n)
	for i := range ci {
		ci[i] = c
		if weight != nil {
			ci[i] *= weight[i]
		}
	}
	v := make([]float64, dim)
	m := make([]float64, n) // margins 1 - y_i v'z_i
	for i := range m {
		m[i] = 1
	}
	g, s, h := make([]float64, dim), make([]float64, dim), mat.NewSymDense(dim, nil)
	active, next := make([]bool, n), make([]bool, n)
	gradient := func() float64 {
		copy(g, v)
		for i := range n {
			if m[i] > 0 {
				f := -2 * ci[i] * m[i] * y[i]
				floats.AddScaled(g[:d], f, z(i))
				g[d] += f
			}
		}
		return max(floats.Max(g), -floats.Min(g))
	}
	stop := 1e-10 * (1 + gradient())
	for i := range active {
		active[i] = m[i] > 0
	}
	for iter = 0; iter < newtonMaxIter; iter++ {
		if ctx.Err() != nil {
			return nil, 0, iter, false, ctx.Err()
		}
		if iter > 0 && gradient() <= stop {
			return v[:d], v[d], iter, true, nil
		}
		hessian(h, x, active, ci)
		t, ok := lapack64.Potrf(h.RawSymmetric()) // I + PSD: fails only on non-finite data
		if !ok {
			return v[:d], v[d], iter, false, nil
		}
		for a := range s {
			s[a] = -g[a]
		}
		lapack64.Potrs(t, blas64.General{Rows: dim, Cols: 1, Stride: 1, Data: s})
		step := lineSearch(v, s, m, y, ci, x)
		floats.AddScaled(v, step, s)
		same := true
		for i := range n {
			m[i] = 1 - y[i]*(floats.Dot(v[:d], z(i))+v[d])
			next[i] = m[i] > 0
			same = same && next[i] == active[i]
		}
		active, next = next, active
		if same && math.Abs(step-1) <= 1e-9 {
			return v[:d], v[d], iter + 1, true, nil
		}
	}
	return v[:d], v[d], iter, gradient() <= stop, nil
}

// hessian sets h to I + 2 sum_{i active} C_i z_i z_i', z_i = (x_i, 1).
func hessian(h *mat.SymDense, x *mat.Dense, active []bool, ci []float64) {
	n, d := x.Dims()
	dim := d + 1
	raw := h.RawSymmetric()
	for a := range dim {
		row := raw.Data[a*raw.Stride : a*raw.Stride+dim]
		clear(row)
		row[a] = 1
	}
	xr := x.RawMatrix()
	for i := range n {
		if !active[i] {
			continue
		}
		zi := xr.Data[i*xr.Stride : i*xr.Stride+d]
		f := 2 * ci[i]
		for a := range d {
			fa := f * zi[a]
			row := raw.Data[a*raw.Stride : a*raw.Stride+dim] // upper triangle, as SymDense reads it
			floats.AddScaled(row[a:d], fa, zi[a:d])
			row[d] += fa
		}
		raw.Data[d*raw.Stride+d] += f
	}
}

// lineSearch returns the t >= 0 minimising f(v + t s), f as primalNewton's, where m
// holds the margins at v. Along s the margins are m_i - t e_i, e_i = y_i s'z_i, so
// f'(t) = v's + t s's - 2 sum_{m_i - t e_i > 0} C_i (m_i - t e_i) e_i is piecewise
// linear and increasing: the search walks its breakpoints m_i/e_i in order.
func lineSearch(v, s, m, y, ci []float64, x *mat.Dense) float64 {
	n, d := x.Dims()
	xr := x.RawMatrix()
	type event struct {
		t     float64
		i     int
		enter bool
	}
	e := make([]float64, n)
	a, q := floats.Dot(v, s), floats.Dot(s, s) // f'(t) = a + t q on a segment
	var events []event
	for i := range n {
		e[i] = y[i] * (floats.Dot(s[:d], xr.Data[i*xr.Stride:i*xr.Stride+d]) + s[d])
		switch {
		case m[i] > 0: // active at 0; leaves where m_i - t e_i reaches 0
			a -= 2 * ci[i] * m[i] * e[i]
			q += 2 * ci[i] * e[i] * e[i]
			if e[i] > 0 {
				events = append(events, event{m[i] / e[i], i, false})
			}
		case e[i] < 0: // inactive at 0; enters past m_i/e_i >= 0
			events = append(events, event{m[i] / e[i], i, true})
		}
	}
	slices.SortFunc(events, func(p, r event) int {
		if p.t != r.t {
			if p.t < r.t {
				return -1
			}
			return 1
		}
		return p.i - r.i
	})
	for _, ev := range events {
		if q > 0 && -a/q <= ev.t {
			break
		}
		f := 2 * ci[ev.i]
		if ev.enter {
			a -= f * m[ev.i] * e[ev.i]
			q += f * e[ev.i] * e[ev.i]
		} else {
			a += f * m[ev.i] * e[ev.i]
			q -= f * e[ev.i] * e[ev.i]
		}
	}
	if q <= 0 || math.IsNaN(a/q) {
		return 0
	}
	return max(-a/q, 0)
}
