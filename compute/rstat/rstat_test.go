package rstat

import (
	"math"
	"math/rand/v2"
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

// Log2 equals R's log2 (glibc 2.36) bit for bit on values R printed with 17 digits
// (Rscript -e 'cat(sprintf("%.17g", log2(c(0.1, 3, 1e-300, 2^-1074, 0.7071, 1.4142, 123456789.123, 5.5e-5/1.7e-4))))');
// on powers of two it is exact.
func TestLog2EqualsR(t *testing.T) {
	a, b := 5.5e-5, 1.7e-4 // divided as doubles, as R does (a Go constant expression is exact)
	for _, c := range []struct{ x, want float64 }{
		{0.1, -3.3219280948873622}, {3, 1.5849625007211561}, {1e-300, -996.57842846620872},
		{math.SmallestNonzeroFloat64, -1074}, {0.7071, -0.50001383557812584}, {1.4142, 0.49998616442187416},
		{123456789.123, 26.879430934297829}, {a / b, -1.6280312226130422},
	} {
		if got := Log2(c.x); got != c.want {
			t.Errorf("Log2(%v) = %.17g, R %.17g", c.x, got, c.want)
		}
	}
	for e := -1074; e < 1024; e += 7 {
		if got := Log2(math.Ldexp(1, e)); got != float64(e) {
			t.Errorf("Log2(2^%d) = %v", e, got)
		}
	}
}

// Log2's table and short series agree with the whole series 2 atanh((m-1)/(m+1)) (no
// table, the slower road) on 200,000 doubles spread over 600 binades and near 1: both
// carry about 32 digits, so they round alike.
func TestLog2TableEqualsSeries(t *testing.T) {
	slow := func(x float64) float64 {
		m, e := math.Frexp(x)
		if m < math.Sqrt2/2 {
			m, e = 2*m, e-1
		}
		r := ddAdd(dd{float64(e), 0}, ddMul(atanh2(ddDiv(dd{m - 1, 0}, twoSum(m, 1))), invLn2))
		return r.hi + r.lo
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 200_000 {
		x := math.Ldexp(0.5+r.Float64(), r.IntN(600)-300)
		if i%4 == 0 {
			x = 1 + (r.Float64()-0.5)*1e-6
		}
		if a, b := Log2(x), slow(x); a != b {
			t.Fatalf("Log2(%.17g) = %.17g by the table, %.17g by the series", x, a, b)
		}
	}
}

// The special functions against values from R 4.2.2: trigamma(2.5) =
// 0.49035775610023491, psigamma(2.5, 2) = -0.23620405164172742,
// limma::trigammaInverse(0.49035775610023491) = 2.5.
func TestPolygamma(t *testing.T) {
	if d := math.Abs(Trigamma(2.5) - 0.49035775610023491); d > 1e-15 {
		t.Errorf("Trigamma(2.5) off by %g", d)
	}
	if d := math.Abs(Tetragamma(2.5) + 0.23620405164172742); d > 1e-15 {
		t.Errorf("psigamma(2.5, 2) off by %g", d)
	}
	if d := math.Abs(TrigammaInverse(0.49035775610023491) - 2.5); d > 1e-8 {
		t.Errorf("trigammaInverse off by %g", d)
	}
}

// Log2's short road (a float64 tail, checked against its slack) gives what the whole
// series gives on two million doubles: ratios of counts to library sizes as TMM takes
// them, values spread over 600 binades and values near the table's points and near 1;
// the long road is taken in under 1% of them.
func TestLog2ShortEqualsLong(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	long := 0
	for i := range 2_000_000 {
		var x float64
		switch i % 4 {
		case 0:
			x = float64(1+r.IntN(5000)) / float64(1_000_000+r.IntN(90_000_000))
		case 1:
			x = math.Ldexp(0.5+r.Float64(), r.IntN(600)-300)
		case 2:
			x = float64(90+r.IntN(93))/128 + (r.Float64()-0.5)*1e-9
		default:
			x = 1 + (r.Float64()-0.5)*1e-9
		}
		m, e := math.Frexp(x)
		if m < math.Sqrt2/2 {
			m, e = 2*m, e-1
		}
		if m == 1 {
			continue
		}
		k := int(math.Round(m * 128))
		c := float64(k) / 128
		s := ddDiv(dd{m - c, 0}, twoSum(m, c))
		want := log2Long(e, k, s)
		got, ok := log2Short(e, k, s)
		if !ok {
			long++
			continue
		}
		if got != want {
			t.Fatalf("log2(%.17g): short road %.17g, long road %.17g", x, got, want)
		}
	}
	if long > 20_000 {
		t.Errorf("the long road was taken %d times in 2,000,000", long)
	}
	t.Logf("long road: %d of 2,000,000", long)
}

// MeanSS by hand: 1, 2, 6 have mean 3 and squared deviations 4 + 1 + 9 = 14 (R:
// mean(c(1, 2, 6)) = 3, var(c(1, 2, 6)) * 2 = 14).
func TestMeanSS(t *testing.T) {
	if m, ss := MeanSS([]float64{1, 2, 6}); math.Abs(m-3) > 1e-15 || math.Abs(ss-14) > 1e-13 {
		t.Errorf("MeanSS = %g, %g; want 3, 14", m, ss)
	}
}
