package rstat

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// SqueezeVar is limma's squeezeVar(var, df) without a covariate: the prior (s0^2, d0)
// fitted to the variances by fitFDist's moments of log variances, and the posterior
// variances (d s^2 + d0 s0^2) / (d + d0); d0 is +Inf (the posterior s0^2) when the
// log variances vary no more than chance.
func SqueezeVar(v []float64, df float64) (post []float64, d0, s20 float64) {
	n := float64(len(v))
	x := make([]float64, len(v))
	for i, a := range v {
		x[i] = math.Max(a, 0)
	}
	med := Median(x)
	if med == 0 {
		med = 1
	}
	emean := 0.0
	e := make([]float64, len(x))
	for i, a := range x {
		a = math.Max(a, 1e-5*med)
		x[i] = a
		e[i] = math.Log(a) - mathext.Digamma(df/2) + math.Log(df/2)
		emean += e[i] / n
	}
	evar := 0.0
	for _, a := range e {
		evar += (a - emean) * (a - emean) / (n - 1)
	}
	evar -= Trigamma(df / 2)
	if evar > 0 {
		d0 = 2 * TrigammaInverse(evar)
		s20 = math.Exp(emean + mathext.Digamma(d0/2) - math.Log(d0/2))
	} else {
		d0 = math.Inf(1)
		for _, a := range x {
			s20 += a / n
		}
	}
	post = make([]float64, len(v))
	for i, a := range v {
		if math.IsInf(d0, 1) {
			post[i] = s20
		} else {
			post[i] = (df*a + d0*s20) / (df + d0)
		}
	}
	return post, d0, s20
}

// TrigammaInverse is limma's: y with Trigamma(y) = x, by Newton's method from 0.5 + 1/x.
func TrigammaInverse(x float64) float64 {
	switch {
	case x > 1e7:
		return 1 / math.Sqrt(x)
	case x < 1e-6:
		return 1 / x
	}
	y := 0.5 + 1/x
	for iter := 0; iter < 50; iter++ {
		tri := Trigamma(y)
		dif := tri * (1 - tri/x) / Tetragamma(y)
		y += dif
		if -dif/y < 1e-8 {
			break
		}
	}
	return y
}

// Trigamma is psi'(x) for x > 0: the recurrence psi'(x) = psi'(x+1) + 1/x^2 up to x >= 20,
// then the asymptotic series 1/x + 1/(2x^2) + sum B_2k / x^(2k+1).
func Trigamma(x float64) float64 {
	s := 0.0
	for x < 20 {
		s += 1 / (x * x)
		x++
	}
	x2 := 1 / (x * x)
	return s + 1/x + x2/2 + (1.0/6-x2*(1.0/30-x2*(1.0/42-x2*(1.0/30-x2*5.0/66))))/(x*x*x)
}

// Tetragamma is psi”(x) for x > 0: psi”(x) = psi”(x+1) - 2/x^3 up to x >= 20, then
// -1/x^2 - 1/x^3 - sum (2k+1) B_2k / x^(2k+2).
func Tetragamma(x float64) float64 {
	s := 0.0
	for x < 20 {
		s -= 2 / (x * x * x)
		x++
	}
	x2 := 1 / (x * x)
	return s - x2 - x2/x - x2*x2*(0.5-x2*(1.0/6-x2*(1.0/6-x2*(3.0/10-x2*5.0/6))))
}
