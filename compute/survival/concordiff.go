package survival

import (
	"fmt"
	"math"
)

// ConcordanceDiff compares two risk scores' Harrell's C on the same samples, as
// survival::concordance(fit1, fit2) with the contrast c(-1, 1) (survival 3.5): A and
// B each score's C, Cov their infinitesimal-jackknife covariance, sum_i dfb_i^A dfb_i^B
// with dfb_i a sample's influence on C (the variance being sum_i dfb_i^2), and
//
//	Diff = C_B - C_A,  SE^2 = var_A + var_B - 2 Cov,  Diff -+ z_0.975 SE,
//
// P the two-sided normal p of Diff / SE (1 when SE is 0: two scores that order every
// pair alike).
type ConcordanceDiff struct {
	A, B                     Concordance
	Cov, Diff, SE, Low, High float64
	P                        float64
}

// CompareHarrell compares the Harrell's C of the scores a and b of the samples of o.
func CompareHarrell(o Outcome, a, b []float64) (ConcordanceDiff, error) {
	ca, ia, err := concordanceInfluence(o, a, false, math.Inf(1))
	if err != nil {
		return ConcordanceDiff{}, err
	}
	cb, ib, err := concordanceInfluence(o, b, false, math.Inf(1))
	if err != nil {
		return ConcordanceDiff{}, err
	}
	if math.IsNaN(ca.C) || math.IsNaN(cb.C) {
		return ConcordanceDiff{}, fmt.Errorf("concordance: no pair of samples is comparable")
	}
	d := ConcordanceDiff{A: ca, B: cb, Diff: cb.C - ca.C}
	for i := range ia {
		d.Cov += ia[i] * ib[i]
	}
	v := ca.SE*ca.SE + cb.SE*cb.SE - 2*d.Cov
	d.SE = math.Sqrt(math.Max(v, 0))
	z := 1.959963984540054
	d.Low, d.High = d.Diff-z*d.SE, d.Diff+z*d.SE
	d.P = 1
	if d.SE > 0 {
		d.P = normTwoSided(d.Diff / d.SE)
	}
	return d, nil
}
