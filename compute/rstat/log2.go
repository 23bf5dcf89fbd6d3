package rstat

import "math"

// Log2 is log2(x) rounded to the nearest double, as the C library R uses computes it
// (glibc's log2 is correctly rounded but in rare hard cases); Go's math.Log2 can be a
// unit in the last place off, which moves ties among thousands of log-ratios (edgeR's
// TMM trims by their ranks). With x = m 2^e, m in [sqrt(1/2), sqrt(2)) and c = m
// rounded to 1/128: ln m = ln c + 2 atanh(s), s = (m - c)/(m + c), |s| < 1/360, the
// series s + s^3/3 + ... and ln c (a table) in double-double arithmetic (about 32
// digits); then divided by ln 2 and e added before the one rounding.
func Log2(x float64) float64 {
	switch {
	case math.IsNaN(x) || x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	case math.IsInf(x, 1):
		return x
	}
	m, e := math.Frexp(x) // x = m 2^e, m in [0.5, 1)
	if m < math.Sqrt2/2 {
		m, e = 2*m, e-1
	}
	if m == 1 {
		return float64(e)
	}
	k := int(math.Round(m * 128))
	c := float64(k) / 128
	s := ddDiv(dd{m - c, 0}, twoSum(m, c)) // m - c is exact
	if y, ok := log2Short(e, k, s); ok {
		return y
	}
	return log2Long(e, k, s)
}

// log2Short is e + ln(m)/ln 2 with 2 atanh(s) = 2s + 2s^3 (1/3 + s^2/5 + s^4/7 + s^6/9),
// the cubic tail in float64 from s.hi alone. Its error, under 10^-20 of the result
// (the tail is under s^2/3 < 3e-6 of 2s, and 2s under 2.6 ln m), is a tenth of the
// slack allowed, 10^-19 of the result; ok is false when the result plus or minus that
// slack rounds to two doubles (about one value in 500), where only log2Long can tell.
func log2Short(e, k int, s dd) (float64, bool) {
	s2 := s.hi * s.hi
	tail := 2 * s.hi * s2 * (1.0/3 + s2*(1.0/5+s2*(1.0/7+s2/9)))
	ln := ddAdd(lnTable[k-lnTableFirst], ddAdd(dd{2 * s.hi, 2 * s.lo}, dd{tail, 0}))
	r := ddAdd(dd{float64(e), 0}, ddMul(ln, invLn2))
	slack := 1e-19 * math.Abs(r.hi)
	y := r.hi + (r.lo + slack)
	return y, y == r.hi+(r.lo-slack)
}

// log2Long is e + ln(m)/ln 2 with the whole series for 2 atanh(s), to about 32 digits.
func log2Long(e, k int, s dd) float64 {
	ln := ddAdd(lnTable[k-lnTableFirst], atanh2(s))
	r := ddAdd(dd{float64(e), 0}, ddMul(ln, invLn2))
	return r.hi + r.lo
}

// lnTableFirst is the first k of lnTable: ln(k/128) for k/128 from sqrt(1/2) to sqrt(2).
const lnTableFirst = 90

var lnTable = func() []dd {
	var t []dd
	for k := lnTableFirst; k <= 182; k++ {
		c := float64(k) / 128
		t = append(t, atanh2(ddDiv(dd{c - 1, 0}, twoSum(c, 1))))
	}
	return t
}()

// atanh2 is 2 atanh(s) = ln((1 + s)/(1 - s)) = 2 (s + s^3/3 + s^5/5 + ...) for |s| < 0.18.
func atanh2(s dd) dd {
	s2 := ddMul(s, s)
	sum, term := s, s
	for k := 3.0; k < 200; k += 2 {
		term = ddMul(term, s2)
		t := ddDivF(term, k)
		sum = ddAdd(sum, t)
		if math.Abs(t.hi) <= 1e-36*math.Abs(sum.hi) {
			break
		}
	}
	return dd{2 * sum.hi, 2 * sum.lo}
}

// dd is an unevaluated sum hi + lo with |lo| <= ulp(hi)/2.
type dd struct{ hi, lo float64 }

// invLn2 is 1/ln 2 to double-double precision.
var invLn2 = dd{1.4426950408889634, 2.0355273740931033e-17}

func twoSum(a, b float64) dd {
	s := a + b
	bb := s - a
	return dd{s, (a - (s - bb)) + (b - bb)}
}

func quickTwoSum(a, b float64) dd {
	s := a + b
	return dd{s, b - (s - a)}
}

func ddAdd(a, b dd) dd {
	s := twoSum(a.hi, b.hi)
	t := twoSum(a.lo, b.lo)
	s.lo += t.hi
	s = quickTwoSum(s.hi, s.lo)
	s.lo += t.lo
	return quickTwoSum(s.hi, s.lo)
}

func ddMul(a, b dd) dd {
	p := a.hi * b.hi
	e := math.FMA(a.hi, b.hi, -p)
	e += a.hi*b.lo + a.lo*b.hi
	return quickTwoSum(p, e)
}

func ddDivF(a dd, b float64) dd { return ddDiv(a, dd{b, 0}) }

func ddDiv(a, b dd) dd {
	q1 := a.hi / b.hi
	r := ddAdd(a, ddMul(dd{-q1, 0}, b))
	q2 := r.hi / b.hi
	r = ddAdd(r, ddMul(dd{-q2, 0}, b))
	q3 := r.hi / b.hi
	q := quickTwoSum(q1, q2)
	return ddAdd(q, dd{q3, 0})
}
