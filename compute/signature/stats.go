// Package signature turns a study's stable selection into a biomarker signature: the
// genes' descriptive statistics, the ROC curve and its DeLong interval from the
// study's out-of-fold decision values, and the clustering orders of the signature
// heatmap. It is Fyne-free; both front ends call it through compute/study.
package signature

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// Welch is Welch's two-sample t-test of a against b: t = (mean(a) - mean(b)) / se with
// se^2 = var(a)/n_a + var(b)/n_b (n-1 variances), the Welch-Satterthwaite degrees of
// freedom df = se^4 / ((var(a)/n_a)^2/(n_a-1) + (var(b)/n_b)^2/(n_b-1)), and the
// two-sided p-value 2 P(T_df > |t|), as SciPy's ttest_ind(equal_var=False). Groups of
// fewer than two values, or two constant groups, give NaN.
func Welch(a, b []float64) (t, df, p float64) {
	ma, va := meanVar(a)
	mb, vb := meanVar(b)
	na, nb := float64(len(a)), float64(len(b))
	if na < 2 || nb < 2 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	sa, sb := va/na, vb/nb
	se2 := sa + sb
	if se2 == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	t = (ma - mb) / math.Sqrt(se2)
	df = se2 * se2 / (sa*sa/(na-1) + sb*sb/(nb-1))
	p = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(math.Abs(t))
	return t, df, p
}

// ANOVA is the one-way analysis of variance of the groups: F = (SSB/(g-1)) /
// (SSW/(n-g)) and its p-value P(F_{g-1,n-g} > F), as SciPy's f_oneway. NaN when there
// are fewer than two groups, no more values than groups, or no spread within them.
func ANOVA(groups [][]float64) (f, p float64) {
	g, n, sum := 0, 0, 0.0
	for _, x := range groups {
		if len(x) > 0 {
			g++
		}
		n += len(x)
		for _, v := range x {
			sum += v
		}
	}
	if g < 2 || n <= g {
		return math.NaN(), math.NaN()
	}
	grand := sum / float64(n)
	ssb, ssw := 0.0, 0.0
	for _, x := range groups {
		if len(x) == 0 {
			continue
		}
		m, _ := meanVar(x)
		ssb += float64(len(x)) * (m - grand) * (m - grand)
		for _, v := range x {
			ssw += (v - m) * (v - m)
		}
	}
	if ssw == 0 {
		return math.NaN(), math.NaN()
	}
	d1, d2 := float64(g-1), float64(n-g)
	f = (ssb / d1) / (ssw / d2)
	// P(F > f) = I_{d2/(d2 + d1 f)}(d2/2, d1/2), the regularised incomplete beta
	// function: exact where 1 - CDF (gonum's F.Survival) loses every digit below 1e-16
	return f, mathext.RegIncBeta(d2/2, d1/2, d2/(d2+d1*f))
}

// meanVar is the mean and the n-1 variance of x (0 variance for one value).
func meanVar(x []float64) (mean, variance float64) {
	if len(x) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	if len(x) < 2 {
		return mean, 0
	}
	for _, v := range x {
		variance += (v - mean) * (v - mean)
	}
	return mean, variance / float64(len(x)-1)
}

// BH is the Benjamini-Hochberg adjustment of the p-values p, as R's
// p.adjust(p, method = "BH"): q_(i) = min over j >= i of min(1, m p_(j) / j) in the
// ascending order of p, where m counts the p-values that are not NaN; NaN stays NaN.
func BH(p []float64) []float64 {
	idx := make([]int, 0, len(p))
	for i, v := range p {
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	q := make([]float64, len(p))
	for i := range q {
		q[i] = math.NaN()
	}
	m := float64(len(idx))
	run := 1.0
	for r := len(idx) - 1; r >= 0; r-- {
		run = math.Min(run, m*p[idx[r]]/float64(r+1))
		q[idx[r]] = run
	}
	return q
}
