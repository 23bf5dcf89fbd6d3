package stability

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// Estimate is Nogueira, Sechidis and Brown's (2018) stability of M selections of p
// features, with the variance of the estimate.
type Estimate struct {
	Phi float64 `json:"phi"`
	Var float64 `json:"var"`
}

// Nogueira estimates the stability of the selections sets (each the selected feature
// indices, distinct, in 0..p-1), M = len(sets) >= 2:
//
//	Phi = 1 - (M/(M-1)) (1/p) sum_f q_f (1 - q_f) / (kbar/p (1 - kbar/p)),
//
// q_f = share of the sets holding f, kbar = mean set size; its variance (their
// Theorem 7) is 4/M^2 sum_i (phi_i - mean phi)^2 with
//
//	phi_i = [(1/p) sum_{f in S_i} q_f - k_i kbar/p^2 + Phi/2 (2 k_i kbar/p^2 - k_i/p - kbar/p + 1)] / (kbar/p (1 - kbar/p)).
//
// Phi is 1 for identical sets and 0 in expectation for random ones. When every set is
// empty or holds every feature, the sets are identical: Phi = 1, Var = 0.
func Nogueira(sets [][]int, p int) Estimate {
	m := len(sets)
	if m < 2 || p < 1 {
		return Estimate{Phi: 1}
	}
	q := make([]float64, p) // counts, then shares; summed in index order, so deterministic
	kbar := 0.0
	for _, s := range sets {
		for _, f := range s {
			q[f]++
		}
		kbar += float64(len(s))
	}
	kbar /= float64(m)
	denom := kbar / float64(p) * (1 - kbar/float64(p))
	if denom <= 0 {
		return Estimate{Phi: 1}
	}
	spread := 0.0
	for f, c := range q {
		q[f] = c / float64(m)
		spread += q[f] * (1 - q[f])
	}
	phi := 1 - float64(m)/float64(m-1)*spread/float64(p)/denom
	pf := float64(p)
	parts := make([]float64, m)
	mean := 0.0
	for i, s := range sets {
		k := float64(len(s))
		sq := 0.0
		for _, f := range s {
			sq += q[f]
		}
		parts[i] = (sq/pf - k*kbar/(pf*pf) + phi/2*(2*k*kbar/(pf*pf)-k/pf-kbar/pf+1)) / denom
		mean += parts[i]
	}
	mean /= float64(m)
	v := 0.0
	for _, x := range parts {
		v += (x - mean) * (x - mean)
	}
	return Estimate{Phi: phi, Var: 4 / float64(m*m) * v}
}

// Interval is the approximate (1-alpha) confidence interval of the population
// stability: Phi -+ z_{1-alpha/2} sqrt(Var), cut to [-1, 1], the range of Phi.
func (e Estimate) Interval(alpha float64) (lo, hi float64) {
	z := distuv.UnitNormal.Quantile(1 - alpha/2)
	h := z * math.Sqrt(e.Var)
	return math.Max(e.Phi-h, -1), math.Min(e.Phi+h, 1)
}

// CompareNogueira tests whether two procedures' population stabilities are equal (their
// Theorem 10): T = (Phi_b - Phi_a) / sqrt(Var_a + Var_b), two-sided p = 2 (1 - Phi(|T|)).
func CompareNogueira(a, b Estimate) (t, p float64) {
	s := math.Sqrt(a.Var + b.Var)
	if s == 0 {
		if a.Phi == b.Phi {
			return 0, 1
		}
		return math.Inf(1), 0
	}
	t = (b.Phi - a.Phi) / s
	return t, 2 * (1 - distuv.UnitNormal.CDF(math.Abs(t)))
}

// NogueiraCurve is Nogueira(top-k of every order, p) for each k of ks (each at most the
// shortest order's length), computed in one pass over the prefixes: the selection
// counts c_f, sum_f c_f (M - c_f) and each set's sum of c_f grow as each k-th feature
// joins, at most M updates a feature. For the Kalousis grid up to p this is
// O(p M^2) instead of O(M sum k).
func NogueiraCurve(orders [][]int, p int, ks []int) []Estimate {
	m := len(orders)
	out := make([]Estimate, len(ks))
	if m < 2 || len(ks) == 0 {
		for i := range out {
			out[i] = Estimate{Phi: 1}
		}
		return out
	}
	byK := make([]int, len(ks)) // indices of ks, by increasing k
	for i := range byK {
		byK[i] = i
	}
	sort.SliceStable(byK, func(a, b int) bool { return ks[byK[a]] < ks[byK[b]] })
	count := make([]int, p)
	holders := make([][]int32, p) // the sets holding each feature
	setSum := make([]float64, m)  // sum over the set's features of their counts
	spread := 0.0                 // sum_f c_f (M - c_f)
	mf, pf := float64(m), float64(p)
	next := 0
	for k := 1; next < len(ks); k++ {
		for j, o := range orders {
			f := o[k-1]
			holders[f] = append(holders[f], int32(j))
			setSum[j] += float64(count[f])
			spread += mf - 2*float64(count[f]) - 1 // c(M-c) grows by M - 2c - 1
			count[f]++
			for _, i := range holders[f] {
				setSum[i]++
			}
		}
		for next < len(ks) && ks[byK[next]] == k {
			out[byK[next]] = curvePoint(setSum, spread, float64(k), mf, pf)
			next++
		}
	}
	return out
}

// curvePoint is Nogueira's estimate for M sets of equal size k (see Nogueira) from the
// sets' sums of counts and sum_f c_f (M - c_f).
func curvePoint(setSum []float64, spread, k, m, p float64) Estimate {
	denom := k / p * (1 - k/p)
	if denom <= 0 {
		return Estimate{Phi: 1}
	}
	phi := 1 - m/(m-1)*spread/(m*m)/p/denom
	mean := 0.0
	for _, s := range setSum {
		mean += s
	}
	mean /= m
	v := 0.0
	for _, s := range setSum {
		d := (s - mean) / (m * p * denom) // phi_i - mean phi: only (1/p) sum q_f differs
		v += d * d
	}
	return Estimate{Phi: phi, Var: 4 / (m * m) * v}
}
