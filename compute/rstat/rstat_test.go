package rstat

import (
	"math"
	"slices"
	"testing"
)

// Against R 4.2.2: quantile(c(3, 1, 4, 1, 5), 0.75) = 4; median(c(2, 9, 4, 7)) = 5.5;
// rank(c(10, 20, 10, 30)) = 1.5 3 1.5 4; prop.test(26, 41, correct = FALSE)$conf.int =
// 0.48120701087912016 0.76410168980310544.
func TestAsR(t *testing.T) {
	x := []float64{3, 1, 4, 1, 5}
	if q := Quantile(x, 0.75); q != 4 || !slices.Equal(x, []float64{3, 1, 4, 1, 5}) {
		t.Errorf("quantile %g, x now %v", q, x)
	}
	if m := Median([]float64{2, 9, 4, 7}); m != 5.5 {
		t.Errorf("median %g", m)
	}
	if !math.IsNaN(Quantile(nil, 0.5)) {
		t.Error("the quantile of nothing")
	}
	if r := Ranks([]float64{10, 20, 10, 30}); !slices.Equal(r, []float64{1.5, 3, 1.5, 4}) {
		t.Errorf("ranks %v", r)
	}
	lo, hi := Wilson(26.0/41, 41, Z95)
	if math.Abs(lo-0.48120701087912016) > 1e-12 || math.Abs(hi-0.76410168980310544) > 1e-12 {
		t.Errorf("Wilson %.17g-%.17g", lo, hi)
	}
}
