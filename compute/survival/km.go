package survival

import (
	"math"
	"sort"

	"steadfast/compute/rstat"
)

// KaplanMeier is the Kaplan-Meier estimate of the survival function, as the object of
// survival::survfit(Surv(time, event) ~ 1) (conf.type "log", conf.int 0.95): one
// row per distinct time, censored-only times included. With n_j at risk (time >= t_j)
// and d_j events at t_j:
//
//	S(t) = prod_{t_j <= t} (n_j - d_j) / n_j
//	StdErr(t) = sqrt( sum_{t_j <= t} d_j / (n_j (n_j - d_j)) )   (Greenwood, se of log S)
//	Lower, Upper = S exp(-+ z_0.975 StdErr), Upper at most 1
//
// StdErr is +Inf, and Lower and Upper NaN (R's NA), once S is 0.
type KaplanMeier struct {
	N                      int
	Time                   []float64
	NRisk, NEvent, NCensor []int
	Surv, StdErr           []float64
	Lower, Upper           []float64
}

// KM estimates the survival function of o.
func KM(o Outcome) (*KaplanMeier, error) {
	if err := o.check(false); err != nil {
		return nil, err
	}
	s := sortOutcome(o)
	return kmSorted(&s), nil
}

func kmSorted(s *sorted) *KaplanMeier {
	g := s.groups()
	km := &KaplanMeier{N: s.n, Time: append([]float64(nil), s.t...),
		NRisk: make([]int, g), NEvent: make([]int, g), NCensor: make([]int, g),
		Surv: make([]float64, g), StdErr: make([]float64, g), Lower: make([]float64, g), Upper: make([]float64, g)}
	surv, v := 1.0, 0.0
	for j := 0; j < g; j++ {
		n := s.n - s.start[j]
		d := s.d[j]
		km.NRisk[j], km.NEvent[j] = n, d
		km.NCensor[j] = s.start[j+1] - s.start[j] - d
		if d > 0 {
			nf, df := float64(n), float64(d)
			surv *= (nf - df) / nf
			v += df / (nf * (nf - df))
		}
		km.Surv[j] = surv
		km.StdErr[j] = math.Sqrt(v)
		km.Lower[j], km.Upper[j] = logCI(surv, km.StdErr[j])
	}
	return km
}

// logCI is survfit's conf.type "log" interval of a survival s whose log has standard
// error se: s exp(-+ z se), the upper end at most 1; NaN for s = 0.
func logCI(s, se float64) (lo, hi float64) {
	if s == 0 {
		return math.NaN(), math.NaN()
	}
	lo = math.Exp(math.Log(s) - rstat.Z95*se)
	hi = math.Min(math.Exp(math.Log(s)+rstat.Z95*se), 1)
	return lo, hi
}

// row is the index of the last time <= t, -1 before the first.
func (km *KaplanMeier) row(t float64) int {
	return sort.Search(len(km.Time), func(j int) bool { return km.Time[j] > t }) - 1
}

// At is the estimated survival at time t: the step function, right-continuous, 1
// before the first time, and its last value after the last.
func (km *KaplanMeier) At(t float64) float64 {
	if j := km.row(t); j >= 0 {
		return km.Surv[j]
	}
	return 1
}

// KMPoint is the Kaplan-Meier estimate at one time, as a row of summary(fit, times =
// t, extend = TRUE): NRisk is the number with time >= Time, NEvent the events up to
// Time (summary gives those since the previous time asked: this is their running
// total), StdErr the standard error of Surv itself (Greenwood's, Surv times that of
// log S), Lower and Upper its 95% interval.
type KMPoint struct {
	Time                       float64
	NRisk, NEvent              int
	Surv, StdErr, Lower, Upper float64
}

// Summary is the estimate at each of times (in any order), for the numbers at risk
// under a Kaplan-Meier plot or the observed survival at a horizon. Before the first
// time the survival is 1 with a zero standard error; after the last, the last value
// with no one at risk.
func (km *KaplanMeier) Summary(times []float64) []KMPoint {
	out := make([]KMPoint, len(times))
	cum := make([]int, len(km.Time)+1)
	for j, d := range km.NEvent {
		cum[j+1] = cum[j] + d
	}
	for k, t := range times {
		p := KMPoint{Time: t, Surv: 1, Lower: 1, Upper: 1}
		// at risk: the first row with time >= t
		f := sort.SearchFloat64s(km.Time, t)
		if f < len(km.Time) {
			p.NRisk = km.NRisk[f]
		}
		if j := km.row(t); j >= 0 {
			p.NEvent = cum[j+1]
			p.Surv = km.Surv[j]
			p.StdErr = km.StdErr[j] * km.Surv[j]
			p.Lower, p.Upper = km.Lower[j], km.Upper[j]
			if km.Surv[j] == 0 {
				p.StdErr = math.NaN()
			}
		}
		out[k] = p
	}
	return out
}

// AtRisk is the number of samples still followed (time >= t) at each of times: the
// "numbers at risk" row under a Kaplan-Meier plot.
func (km *KaplanMeier) AtRisk(times []float64) []int {
	out := make([]int, len(times))
	for k, t := range times {
		if f := sort.SearchFloat64s(km.Time, t); f < len(km.Time) {
			out[k] = km.NRisk[f]
		}
	}
	return out
}

// Median is the median survival time with its 95% interval as print(survfit) gives
// them: the first time at which the curve (for the interval, its upper and lower
// confidence curves) is below 1/2 + sqrt(machine epsilon); when the curve is 1/2 there
// (within that tolerance) and drops later, the midpoint of that time and the time of
// the next drop. NaN (R's NA) when the curve never gets there.
func (km *KaplanMeier) Median() (median, lower, upper float64) {
	return minmin(km.Surv, km.Time), minmin(km.Lower, km.Time), minmin(km.Upper, km.Time)
}

// minmin is print.survfit's helper of that name.
func minmin(y, x []float64) float64 {
	const tol = 1.4901161193847656e-08
	first := -1
	for j, v := range y {
		if !math.IsNaN(v) && v < 0.5+tol {
			first = j
			break
		}
	}
	if first < 0 {
		return math.NaN()
	}
	if math.Abs(y[first]-0.5) < tol {
		for j := first + 1; j < len(y); j++ {
			if !math.IsNaN(y[j]) && y[j] < y[first] {
				return (x[first] + x[j]) / 2
			}
		}
	}
	return x[first]
}
