package survival

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// ScoreTest holds the univariate Cox score test of each gene (column) at beta = 0
// with Efron's ties: summary(coxph(Surv(time, event) ~ x[, j]))$sctest. With R_t the
// samples at risk at event time t (n_t of them), D_t its d_t events, f_l = l / d_t
// and sums S1 = sum_{R_t} x, S2 = sum_{R_t} x^2, E1 = sum_{D_t} x, E2 = sum_{D_t} x^2:
//
//	U = sum_t [ E1 - sum_{l<d_t} (S1 - f_l E1) / (n_t - l) ]
//	I = sum_t sum_{l<d_t} [ (S2 - f_l E2) / (n_t - l) - ((S1 - f_l E1) / (n_t - l))^2 ]
//	Chisq = U^2 / I,  Z = U / sqrt(I),  P = 2 Phi(-|Z|)
//
// Z > 0 means higher values go with earlier events (a hazard ratio above 1). A gene
// constant over the samples has U = I = 0 and is given Chisq = Z = 0, P = 1 (coxph
// gives its coefficient NA).
type ScoreTest struct {
	U, Info, Z, Chisq, P []float64
}

// ScoreTests computes the score test of every column of x (n samples x p genes)
// against o. With rows non-nil only those samples (rows of x, indices into o) are
// used, in any order and possibly repeated (a bootstrap sample), so that a resample
// needs no copy of x.
//
// The samples are sorted by time once and the risk sets walked once from the last
// time, adding each (centred) row into running sums for all genes together; the
// terms linear in x are folded into two weighted row sums.
func ScoreTests(o Outcome, x *mat.Dense, rows []int) (*ScoreTest, error) {
	sub, xrow, err := subsetRows(o, x, rows)
	if err != nil {
		return nil, err
	}
	_, p := x.Dims()
	s := sortOutcome(sub)
	m := s.n
	// per-sample weights of the linear terms: w_i for U, v_i for the S2/E2 part of I
	g := s.groups()
	a := make([]float64, g)
	b := make([]float64, g)
	c0 := make([]float64, g)
	c1 := make([]float64, g)
	c2 := make([]float64, g)
	for j := 0; j < g; j++ {
		d := s.d[j]
		nr := float64(m - s.start[j])
		for l := 0; l < d; l++ {
			f := float64(l) / float64(d)
			r := 1 / (nr - float64(l))
			a[j] += r
			b[j] += f * r
			c0[j] += r * r
			c1[j] += f * r * r
			c2[j] += f * f * r * r
		}
	}
	w := make([]float64, m) // by sorted position
	v := make([]float64, m)
	cum := 0.0
	for j := 0; j < g; j++ {
		cum += a[j]
		for q := s.start[j]; q < s.start[j+1]; q++ {
			w[q], v[q] = -cum, cum
			if sub.Event[s.idx[q]] {
				w[q] += 1 + b[j]
				v[q] -= b[j]
			}
		}
	}
	// column means and constant columns
	mean := make([]float64, p)
	first := xrow(0)
	varies := make([]bool, p)
	for i := 0; i < m; i++ {
		r := xrow(i)
		for k, xv := range r {
			mean[k] += xv
			if xv != first[k] {
				varies[k] = true
			}
		}
	}
	for k := range mean {
		mean[k] /= float64(m)
	}
	for k, xv := range first {
		if math.IsNaN(xv) || math.IsInf(xv, 0) || math.IsNaN(mean[k]) || math.IsInf(mean[k], 0) {
			return nil, fmt.Errorf("cox score test: gene %d (column %d) has a missing or infinite value", k, k+1)
		}
	}
	u := make([]float64, p)
	lin := make([]float64, p)
	quad := make([]float64, p)
	s1 := make([]float64, p)
	e1 := make([]float64, p)
	xc := make([]float64, p)
	for j := g - 1; j >= 0; j-- {
		d := s.d[j]
		if d > 1 {
			clear(e1)
		}
		for q := s.start[j]; q < s.start[j+1]; q++ {
			r := xrow(s.idx[q])
			wq, vq := w[q], v[q]
			xc := xc[:len(r)]
			for k, xv := range r {
				c := xv - mean[k]
				xc[k] = c
				s1[k] += c
				u[k] += wq * c
				lin[k] += vq * c * c
			}
			if d > 1 && sub.Event[s.idx[q]] {
				for k, c := range xc {
					e1[k] += c
				}
			}
		}
		switch {
		case d == 1: // f_0 = 0: only S1 enters
			cc := c0[j]
			for k, sv := range s1 {
				quad[k] += cc * sv * sv
			}
		case d > 1:
			cc0, cc1, cc2 := c0[j], 2*c1[j], c2[j]
			for k, sv := range s1 {
				ev := e1[k]
				quad[k] += cc0*sv*sv - cc1*sv*ev + cc2*ev*ev
			}
		}
	}
	st := &ScoreTest{U: u, Info: lin, Z: make([]float64, p), Chisq: make([]float64, p), P: make([]float64, p)}
	for k := range u {
		info := lin[k] - quad[k]
		if !varies[k] || !(info > 0) {
			st.U[k], st.Info[k], st.Z[k], st.Chisq[k], st.P[k] = 0, 0, 0, 0, 1
			continue
		}
		st.Info[k] = info
		z := u[k] / math.Sqrt(info)
		st.Z[k] = z
		st.Chisq[k] = u[k] * u[k] / info
		st.P[k] = normTwoSided(z)
	}
	return st, nil
}

// subsetRows checks o and x for ScoreTests and UnivariateCox and returns the outcome
// of the samples used with a function giving row i of that subset.
func subsetRows(o Outcome, x *mat.Dense, rows []int) (Outcome, func(int) []float64, error) {
	if err := o.Check(); err != nil {
		return Outcome{}, nil, err
	}
	n, _ := x.Dims()
	if n != len(o.Time) {
		return Outcome{}, nil, fmt.Errorf("cox: %d rows of expression for %d samples", n, len(o.Time))
	}
	if rows == nil {
		return o, x.RawRowView, nil
	}
	for _, i := range rows {
		if i < 0 || i >= n {
			return Outcome{}, nil, fmt.Errorf("cox: row %d out of range (%d samples)", i, n)
		}
	}
	sub := o.Subset(rows)
	if err := sub.Check(); err != nil {
		return Outcome{}, nil, err
	}
	return sub, func(i int) []float64 { return x.RawRowView(rows[i]) }, nil
}
