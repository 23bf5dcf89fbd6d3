package survival

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// UniCox holds a univariate Cox model per gene, each as coxph(Surv(time, event) ~
// x[, j], ties = "efron") fitted to convergence (coxph's Newton-Raphson with step
// halving, |1 - l_old / l_new| <= 1e-9, at most 20 steps): its coefficient (log hazard
// ratio per unit), SE = 1 / sqrt(information at the fit), Wald Z = Coef / SE with P =
// 2 Phi(-|Z|), the log partial likelihoods at 0 and at the fit (LRT = 2 (LogLik -
// LogLik0)) and the score test of ScoreTests. A constant gene has NaN coefficient
// (coxph's NA). Infinite is coxph's "coefficient may be infinite" warning.
type UniCox struct {
	Coef, SE, Z, P  []float64
	LogLik, LogLik0 []float64
	Score           *ScoreTest
	Iter            []int
	Converged       []bool
	Infinite        []bool
}

// UnivariateCox fits a Cox model of o on each column of x (n samples x p genes), all
// genes together: each Newton step is one walk down the risk sets computing, for
// every gene still iterating, the Efron log likelihood, score and information. rows
// selects samples as in ScoreTests.
func UnivariateCox(o Outcome, x *mat.Dense, rows []int) (*UniCox, error) {
	const maxIter, eps = 20, 1e-9
	st, err := ScoreTests(o, x, rows)
	if err != nil {
		return nil, err
	}
	sub, xrow, _ := subsetRows(o, x, rows)
	_, p := x.Dims()
	s := sortOutcome(sub)
	m := s.n
	ev := make([]bool, m)
	for q, i := range s.idx {
		ev[q] = sub.Event[i]
	}
	// l(0) = -sum_t sum_l log(n_t - l), the same for every gene
	ll0 := 0.0
	for g := range s.t {
		for l := 0; l < s.d[g]; l++ {
			ll0 -= math.Log(float64(m - s.start[g] - l))
		}
	}
	res := &UniCox{Coef: make([]float64, p), SE: make([]float64, p), Z: make([]float64, p), P: make([]float64, p),
		LogLik: make([]float64, p), LogLik0: make([]float64, p), Score: st,
		Iter: make([]int, p), Converged: make([]bool, p), Infinite: make([]bool, p)}
	mean := make([]float64, p)
	for i := 0; i < m; i++ {
		for k, v := range xrow(i) {
			mean[k] += v
		}
	}
	for k := range mean {
		mean[k] /= float64(m)
	}
	var active []int
	for k := 0; k < p; k++ {
		res.LogLik0[k] = ll0
		if st.Info[k] > 0 {
			active = append(active, k)
		} else {
			res.Coef[k], res.SE[k], res.Z[k], res.P[k] = math.NaN(), math.NaN(), math.NaN(), math.NaN()
			res.LogLik[k], res.Converged[k] = ll0, true
		}
	}
	// state per gene (indexed by gene)
	beta := make([]float64, p)
	newbeta := make([]float64, p)
	best := make([]float64, p)
	halving := make([]int, p)
	for _, k := range active {
		best[k] = ll0
		newbeta[k] = st.U[k] / st.Info[k]
	}
	var z []float64 // centred active columns, sorted rows, m x len(active)
	pack := func() {
		a := len(active)
		z = make([]float64, m*a)
		for q, i := range s.idx {
			r := xrow(i)
			zq := z[q*a : q*a+a]
			for c, k := range active {
				zq[c] = r[k] - mean[k]
			}
		}
	}
	pack()
	b := make([]float64, 0, p)
	for iter := 1; iter <= maxIter && len(active) > 0; iter++ {
		b = b[:len(active)]
		for c, k := range active {
			b[c] = newbeta[k]
		}
		ll, u, info := uniEval(z, len(active), &s, ev, b)
		next := make([]int, 0, len(active))
		for c, k := range active {
			finite := !math.IsNaN(ll[c]) && !math.IsInf(ll[c], 0) && !math.IsNaN(u[c]) && !math.IsInf(u[c], 0) && !math.IsNaN(info[c]) && !math.IsInf(info[c], 0)
			res.Iter[k] = iter
			switch {
			case finite && math.Abs(1-best[k]/ll[c]) <= eps:
				res.Converged[k] = true
				res.finish(k, newbeta[k], ll[c], u[c], info[c], eps)
			case !finite || ll[c] < best[k]:
				halving[k]++
				h := float64(halving[k])
				newbeta[k] = (newbeta[k] + h*beta[k]) / (h + 1)
				next = append(next, k)
			default:
				halving[k] = 0
				best[k] = ll[c]
				step := 0.0
				if info[c] > 0 {
					step = u[c] / info[c]
				}
				beta[k] = newbeta[k]
				newbeta[k] += step
				next = append(next, k)
			}
		}
		if len(next) < len(active) && len(next) > 0 {
			z = repack(z, m, active, next) // drop the genes done
		}
		active = next
	}
	if len(active) > 0 { // out of iterations: report the last good point
		pack()
		b = b[:len(active)]
		for c, k := range active {
			b[c] = beta[k]
		}
		ll, u, info := uniEval(z, len(active), &s, ev, b)
		for c, k := range active {
			res.finish(k, beta[k], ll[c], u[c], info[c], eps)
		}
	}
	return res, nil
}

// repack keeps in z (m rows of the columns of genes old) only the columns of genes
// keep (a subsequence of old).
func repack(z []float64, m int, old, keep []int) []float64 {
	width := len(old)
	pos := make([]int, 0, len(keep))
	c := 0
	for _, k := range keep {
		for old[c] != k {
			c++
		}
		pos = append(pos, c)
	}
	a := len(keep)
	out := make([]float64, m*a)
	for q := 0; q < m; q++ {
		src := z[q*width : q*width+width]
		dst := out[q*a : q*a+a]
		for c, pc := range pos {
			dst[c] = src[pc]
		}
	}
	return out
}

func (r *UniCox) finish(k int, b, ll, u, info, eps float64) {
	r.Coef[k] = b
	r.LogLik[k] = ll
	v := math.NaN()
	if info > 0 {
		v = 1 / info
	}
	r.SE[k] = math.Sqrt(v)
	r.Z[k] = b / r.SE[k]
	r.P[k] = normTwoSided(r.Z[k])
	inf := math.Abs(u * v)
	r.Infinite[k] = r.Converged[k] && (math.IsNaN(u) || math.IsInf(u, 0) || (inf > eps && inf > math.Sqrt(eps)*math.Abs(b)))
}

// uniEval returns, for each of the a genes in z (m x a, sorted rows), the Efron log
// partial likelihood, score and information at coefficient b.
func uniEval(z []float64, a int, s *sorted, ev []bool, b []float64) (ll, u, info []float64) {
	ll = make([]float64, a)
	u = make([]float64, a)
	info = make([]float64, a)
	s0 := make([]float64, a)
	s1 := make([]float64, a)
	s2 := make([]float64, a)
	e0 := make([]float64, a)
	e1 := make([]float64, a)
	e2 := make([]float64, a)
	for g := s.groups() - 1; g >= 0; g-- {
		d := s.d[g]
		if d > 1 {
			clear(e0)
			clear(e1)
			clear(e2)
		}
		for q := s.start[g]; q < s.start[g+1]; q++ {
			zq := z[q*a : q*a+a]
			for c, x := range zq {
				r := math.Exp(b[c] * x)
				s0[c] += r
				rx := r * x
				s1[c] += rx
				s2[c] += rx * x
			}
			if ev[q] {
				for c, x := range zq {
					ll[c] += b[c] * x
					u[c] += x
				}
				if d > 1 {
					for c, x := range zq {
						r := math.Exp(b[c] * x)
						e0[c] += r
						e1[c] += r * x
						e2[c] += r * x * x
					}
				}
			}
		}
		switch {
		case d == 1:
			for c := range ll {
				m := s1[c] / s0[c]
				ll[c] -= math.Log(s0[c])
				u[c] -= m
				info[c] += s2[c]/s0[c] - m*m
			}
		case d > 1:
			for l := 0; l < d; l++ {
				f := float64(l) / float64(d)
				for c := range ll {
					a0 := s0[c] - f*e0[c]
					m := (s1[c] - f*e1[c]) / a0
					ll[c] -= math.Log(a0)
					u[c] -= m
					info[c] += (s2[c]-f*e2[c])/a0 - m*m
				}
			}
		}
	}
	return ll, u, info
}
