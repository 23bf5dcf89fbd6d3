package signature

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// ROCPoint is one point of a ROC curve: the share of negatives (FPR) and of positives
// (TPR) whose score is at least Threshold.
type ROCPoint struct {
	Threshold, FPR, TPR float64
}

// ROC is the ROC curve of scores for the positive class (pos[i] says whether sample i
// is positive; higher scores mean positive): a first point (0, 0) at threshold +Inf,
// then one point at each distinct score, in decreasing order, as scikit-learn's
// roc_curve(drop_intermediate=False). Nil without a positive or a negative.
func ROC(scores []float64, pos []bool) []ROCPoint {
	np, nn := count(pos)
	if np == 0 || nn == 0 {
		return nil
	}
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	out := []ROCPoint{{Threshold: math.Inf(1)}}
	tp, fp := 0, 0
	for k, i := range idx {
		if pos[i] {
			tp++
		} else {
			fp++
		}
		if k+1 < len(idx) && scores[idx[k+1]] == scores[i] {
			continue // ties: one point after the last of them
		}
		out = append(out, ROCPoint{scores[i], float64(fp) / float64(nn), float64(tp) / float64(np)})
	}
	return out
}

func count(pos []bool) (np, nn int) {
	for _, p := range pos {
		if p {
			np++
		} else {
			nn++
		}
	}
	return np, nn
}

// AUC is the area under the ROC curve with DeLong's variance (DeLong, DeLong and
// Clarke-Pearson 1988) and the 95% interval AUC -+ z_0.975 sqrt(Var) cut to [0, 1], as
// R's pROC (ci.auc, method "delong", direction "<").
type AUC struct {
	AUC, Var, Low, High float64
}

// DeLong computes the AUC of scores (higher means positive) and its DeLong interval:
// with psi(x, y) = 1 when x > y, 1/2 when equal, else 0, over positives x_i (m of them)
// and negatives y_j (n), AUC = mean psi, V10_i = mean_j psi(x_i, y_j), V01_j =
// mean_i psi(x_i, y_j), and Var = var(V10)/m + var(V01)/n (n-1 variances). NaN without
// a positive or a negative; the variance is NaN with a single positive or negative.
func DeLong(scores []float64, pos []bool) AUC {
	var x, y []float64
	for i, s := range scores {
		if pos[i] {
			x = append(x, s)
		} else {
			y = append(y, s)
		}
	}
	sort.Float64s(x) // sums in one order: the same bits whatever the samples' order
	sort.Float64s(y)
	m, n := len(x), len(y)
	if m == 0 || n == 0 {
		nan := math.NaN()
		return AUC{nan, nan, nan, nan}
	}
	v10, v01 := placements(x, y)
	auc := 0.0
	for _, v := range v10 {
		auc += v
	}
	auc /= float64(m)
	_, s10 := meanVar(v10)
	_, s01 := meanVar(v01)
	if m < 2 || n < 2 {
		return AUC{auc, math.NaN(), math.NaN(), math.NaN()}
	}
	vr := s10/float64(m) + s01/float64(n)
	z := distuv.UnitNormal.Quantile(0.975)
	half := z * math.Sqrt(vr)
	return AUC{AUC: auc, Var: vr, Low: math.Max(0, auc-half), High: math.Min(1, auc+half)}
}

// placements returns V10 (for each x, the share of y below it, ties a half) and V01
// (for each y, the share of x above it), by sorting: O((m+n) log(m+n)).
func placements(x, y []float64) (v10, v01 []float64) {
	ys := append([]float64(nil), y...)
	xs := append([]float64(nil), x...)
	sort.Float64s(ys)
	sort.Float64s(xs)
	v10 = make([]float64, len(x))
	for i, v := range x {
		lo := sort.SearchFloat64s(ys, v)                                  // y < v
		hi := sort.Search(len(ys), func(k int) bool { return ys[k] > v }) // y <= v
		v10[i] = (float64(lo) + 0.5*float64(hi-lo)) / float64(len(y))
	}
	v01 = make([]float64, len(y))
	for j, v := range y {
		lo := sort.SearchFloat64s(xs, v)
		hi := sort.Search(len(xs), func(k int) bool { return xs[k] > v })
		v01[j] = (float64(len(xs)-hi) + 0.5*float64(hi-lo)) / float64(len(x))
	}
	return v10, v01
}
