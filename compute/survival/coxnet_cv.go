package survival

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/parallel"
)

// CoxNetCV is cv.glmnet's cross-validation of a Cox path with the folds given
// (type.measure = "deviance", grouped = TRUE, alignment = "lambda"): each fold's path is
// fitted to the other folds with its own automatic lambdas (CoxNet's Lambda when
// given), its coefficients taken at the whole set's lambdas by glmnet's interpolation
// (CoxNetPath.Coef); the fold's deviance at a lambda is Verweij and van Houwelingen's
// (1993) cross-validated partial likelihood, dev_all(beta) - dev_others(beta), dev the
// Breslow deviance 2 (log L_saturated - log L(beta)) of those samples, divided by the
// fold's events.
type CoxNetCV struct {
	Path *CoxNetPath // the fit to all the samples; its lambdas are the CV's
	// CVM is the mean of the folds' deviances weighted by their events, CVSD its
	// standard error sqrt(weighted mean of (dev - CVM)^2 / (K - 1)), per lambda.
	CVM, CVSD []float64
	// Min is the index of lambda.min, the largest lambda of least CVM; OneSE of
	// lambda.1se, the largest lambda whose CVM is at most CVM + CVSD at Min.
	Min, OneSE int
	// Unconverged counts the folds' paths that ended before glmnet's rules end them (on
	// the pass cap or a numerical error; see CoxNetPath.Note).
	Unconverged int
}

// CV cross-validates o's path: folds[i] in 0..K-1 is sample i's fold (K >= 3, every
// fold with an event). The folds' fits visit the features in the whole set's order.
func (o CoxNet) CV(ctx context.Context, time []float64, event []bool, x *mat.Dense, folds []int) (*CoxNetCV, error) {
	if err := coxnetCheck(time, event, x, o); err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	if len(folds) != n {
		return nil, fmt.Errorf("%d fold numbers for %d samples", len(folds), n)
	}
	K := 0
	for _, f := range folds {
		if f < 0 {
			return nil, fmt.Errorf("fold number %d: folds are numbered from 0", f)
		}
		K = max(K, f+1)
	}
	if K < 3 {
		return nil, fmt.Errorf("%d folds: cross-validation needs 3 at least (cv.glmnet's rule)", K)
	}
	events := make([]float64, K)
	size := make([]int, K)
	for i, f := range folds {
		size[f]++
		if event[i] {
			events[f]++
		}
	}
	for k := range events {
		if events[k] == 0 {
			return nil, fmt.Errorf("fold %d of %d holds %d samples and no event: each fold's partial-likelihood deviance needs one (stratify the folds by event)", k+1, K, size[k])
		}
	}
	s, err := newCoxnetSolver(x, time, event, nil, o, o.order, o.Tie)
	if err != nil {
		return nil, err
	}
	path, err := s.walk(ctx, o)
	if err != nil {
		return nil, err
	}
	fo := o
	fo.order = s.order
	cols := coxnetColumns(x)
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	full, err := newCoxnetDeviance(cols, time, event, all)
	if err != nil {
		return nil, err
	}
	L := len(path.Lambda)
	raw := make([][]float64, K)
	noted := make([]bool, K)
	err = parallel.For(ctx, o.Workers, K, func(k int) error {
		var rows []int
		for i, f := range folds {
			if f != k {
				rows = append(rows, i)
			}
		}
		fs, err := newCoxnetSolver(x, time, event, rows, fo, fo.order, nil)
		if err != nil {
			return fmt.Errorf("fold %d: %w", k+1, err)
		}
		fp, err := fs.walk(ctx, fo)
		if err != nil {
			return fmt.Errorf("fold %d: %w", k+1, err)
		}
		noted[k] = fp.Note != ""
		others, err := newCoxnetDeviance(cols, time, event, rows)
		if err != nil {
			return fmt.Errorf("fold %d: %w", k+1, err)
		}
		raw[k] = make([]float64, L)
		eta := make([]float64, n)
		for l, lam := range path.Lambda {
			b := fp.Coef(lam)
			raw[k][l] = (full.deviance(b, eta) - others.deviance(b, eta)) / events[k]
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	cv := &CoxNetCV{Path: path, CVM: make([]float64, L), CVSD: make([]float64, L)}
	for _, b := range noted {
		if b {
			cv.Unconverged++
		}
	}
	sw := 0.0
	for _, w := range events {
		sw += w
	}
	for l := range cv.CVM {
		m := 0.0
		for k, w := range events {
			m += raw[k][l] * w
		}
		m /= sw
		v := 0.0
		for k, w := range events {
			v += (raw[k][l] - m) * (raw[k][l] - m) * w
		}
		cv.CVM[l], cv.CVSD[l] = m, math.Sqrt(v/sw/float64(K-1))
	}
	for l, m := range cv.CVM {
		if m < cv.CVM[cv.Min] {
			cv.Min = l
		}
	}
	semin := cv.CVM[cv.Min] + cv.CVSD[cv.Min]
	for l, m := range cv.CVM {
		if m <= semin {
			cv.OneSE = l
			break
		}
	}
	return cv, nil
}

// coxnetColumns copies x's columns into contiguous slices.
func coxnetColumns(x *mat.Dense) [][]float64 {
	n, p := x.Dims()
	raw := x.RawMatrix()
	back := make([]float64, n*p)
	cols := make([][]float64, p)
	for j := range cols {
		cols[j] = back[j*n : (j+1)*n : (j+1)*n]
	}
	for i := 0; i < n; i++ {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+p] {
			cols[j][i] = v
		}
	}
	return cols
}

// coxnetDeviance is glmnet's coxnet.deviance on a set of samples: 2 (log L_sat - log
// L(beta)), the Breslow log partial likelihood with weights 1, log L_sat = -sum_k d_k
// log d_k; the linear predictor is taken on the columns centred over the set (as glmnet's
// loglike; it changes nothing but rounding). Safe for concurrent use.
type coxnetDeviance struct {
	cols [][]float64
	risk coxnetRisk
	mean []float64 // column means over the set
	sat  float64
}

func newCoxnetDeviance(cols [][]float64, time []float64, event []bool, rows []int) (*coxnetDeviance, error) {
	r, err := newCoxnetRisk(time, event, rows)
	if err != nil {
		return nil, err
	}
	d := &coxnetDeviance{cols: cols, risk: r, mean: make([]float64, len(cols))}
	for j, c := range cols {
		m := 0.0
		for _, i := range rows {
			m += c[i]
		}
		d.mean[j] = m / float64(len(rows))
	}
	for _, k := range r.dead {
		d.sat -= k * math.Log(k)
	}
	return d, nil
}

// deviance is the deviance at beta; eta is scratch of the set's size at least.
func (d *coxnetDeviance) deviance(beta, eta []float64) float64 {
	eta = eta[:len(d.risk.order)]
	clear(eta)
	for j, b := range beta {
		if b == 0 {
			continue
		}
		c, m := d.cols[j], d.mean[j]
		for pos, i := range d.risk.order {
			eta[pos] += b * (c[i] - m)
		}
	}
	ll := 0.0
	h := 0.0
	st := d.risk.start
	fmax := math.Log(math.MaxFloat64 * 0.1)
	for k := len(d.risk.dead) - 1; k >= 0; k-- {
		for pos := st[k+1] - 1; pos >= st[k]; pos-- {
			f := eta[pos]
			h += math.Exp(math.Copysign(math.Min(math.Abs(f), fmax), f))
			if d.risk.event[pos] {
				ll += f
			}
		}
		ll -= d.risk.dead[k] * math.Log(h)
	}
	return 2 * (d.sat - ll)
}
