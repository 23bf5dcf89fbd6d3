package survival

import (
	"math"
	"testing"
)

// CompareHarrell: a score against itself differs by 0 with SE 0 and p 1; against its
// negative (no tied scores, no tied times) the C are c and 1 - c, their influences
// opposite, so the covariance is -var and the SE of the change twice the C's SE. The
// match with R's concordance(fit0, fit1) is tested on real data in compute/study
// (TestAddedValueEqualsR). 1.959963984540054 is R's qnorm(0.975).
func TestCompareHarrell(t *testing.T) {
	o := Outcome{Time: []float64{5, 8, 2, 9, 4, 7, 1, 6, 3, 10}, Event: []bool{true, false, true, true, false, true, true, false, true, false}}
	s := []float64{0.3, 0.9, -0.1, 1.2, -0.5, 0.2, 0.4, -0.4, 0.8, -1.2}
	same, err := CompareHarrell(o, s, s)
	if err != nil {
		t.Fatal(err)
	}
	if same.Diff != 0 || same.SE != 0 || same.P != 1 || math.Abs(same.Cov-same.A.SE*same.A.SE) > 1e-15 {
		t.Errorf("a score against itself: %+v", same)
	}
	neg := make([]float64, len(s))
	for i, v := range s {
		neg[i] = -v
	}
	d, err := CompareHarrell(o, s, neg)
	if err != nil {
		t.Fatal(err)
	}
	c := d.A.C
	if math.Abs(d.B.C-(1-c)) > 1e-15 || math.Abs(d.Cov+d.A.SE*d.A.SE) > 1e-15 || math.Abs(d.SE-2*d.A.SE) > 1e-15 || math.Abs(d.Diff-(1-2*c)) > 1e-15 {
		t.Errorf("a score against its negative: %+v", d)
	}
	if math.Abs(d.Low-(d.Diff-1.959963984540054*d.SE)) > 1e-15 || d.SE == 0 || math.Abs(d.P-math.Erfc(math.Abs(d.Diff/d.SE)/math.Sqrt2)) > 1e-15 {
		t.Errorf("interval %v-%v, p %v", d.Low, d.High, d.P)
	}
}
