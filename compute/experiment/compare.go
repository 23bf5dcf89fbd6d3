package experiment

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"steadfast/compute/stability"
)

// Comparison is McNemar's test of two methods' test predictions with one classifier on
// the top K features (Kalousis et al. Table 3). Every test prediction of the protocol is
// one paired case: each sample once per repetition (once per outer fold for Kalousis).
type Comparison struct {
	Classifier string  `json:"classifier"`
	K          int     `json:"k"`
	A          int     `json:"a"`     // method index
	B          int     `json:"b"`     // method index, B > A
	OnlyA      int     `json:"onlyA"` // cases A predicted right and B wrong
	OnlyB      int     `json:"onlyB"` // cases B predicted right and A wrong
	P          float64 `json:"p"`     // two-sided p-value, McNemarP(OnlyA, OnlyB)
	// Test is "" for McNemar's test; for a survival outcome "corrected resampled t":
	// the resamples' differences in Harrell's C (see compareSurvival), OnlyA and OnlyB
	// then counting the resamples where A's C is the larger and where B's is.
	Test string `json:"test,omitempty"`
}

// McNemarP is the p-value of McNemar's test with continuity correction (Dietterich
// 1998; R's mcnemar.test): chi2 = (|b - c| - 1)^2 / (b + c) with one degree of freedom,
// p = P(X > chi2) = erfc(sqrt(chi2 / 2)). With b + c = 0 the methods never differ: p = 1.
func McNemarP(b, c int) float64 {
	if b+c == 0 {
		return 1
	}
	d := math.Abs(float64(b-c)) - 1
	if d <= 0 {
		return 1
	}
	chi2 := d * d / float64(b+c)
	return math.Erfc(math.Sqrt(chi2 / 2))
}

// compare tests every two methods at every accuracy k for every classifier. The tasks
// of two methods are paired by their split label (the same splits for every method).
func compare(cfg Config, tasks []task, outs []taskOut, accKs []int) []Comparison {
	if slices.Contains(cfg.Classifiers, "cox") {
		return compareSurvival(cfg, tasks, outs, accKs)
	}
	byMethod := make([]map[string]taskOut, len(cfg.Methods))
	for m := range byMethod {
		byMethod[m] = map[string]taskOut{}
	}
	var labels []string
	seen := map[string]bool{}
	for i, t := range tasks {
		if !t.eval || outs[i].correct == nil {
			continue
		}
		byMethod[t.method][t.label] = outs[i]
		if !seen[t.label] {
			seen[t.label] = true
			labels = append(labels, t.label)
		}
	}
	sort.Strings(labels)
	var out []Comparison
	for _, cl := range cfg.Classifiers {
		for ki, k := range accKs {
			for a := 0; a < len(cfg.Methods); a++ {
				for b := a + 1; b < len(cfg.Methods); b++ {
					c := Comparison{Classifier: cl, K: k, A: a, B: b}
					for _, l := range labels {
						ra, rb := byMethod[a][l].correct[cl][ki], byMethod[b][l].correct[cl][ki]
						for i := range ra {
							switch {
							case ra[i] && !rb[i]:
								c.OnlyA++
							case rb[i] && !ra[i]:
								c.OnlyB++
							}
						}
					}
					c.P = McNemarP(c.OnlyA, c.OnlyB)
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// StabilityTest is Nogueira et al.'s test (their Theorem 10) of whether methods a and b
// of res are equally stable at k: their Phi and the two-sided p-value; ok is false when
// k is not on both methods' grid.
func StabilityTest(res *Result, a, b, k int) (phiA, phiB, p float64, ok bool) {
	at := func(m int) (stability.Estimate, bool) {
		for _, s := range res.Methods[m].Stability {
			if s.K == k {
				return stability.Estimate{Phi: s.Phi, Var: s.PhiVar}, true
			}
		}
		return stability.Estimate{}, false
	}
	ea, okA := at(a)
	eb, okB := at(b)
	if !okA || !okB {
		return 0, 0, 0, false
	}
	_, p = stability.CompareNogueira(ea, eb)
	return ea.Phi, eb.Phi, p, true
}

// StabilityComparison is Nogueira et al.'s test of whether two methods are equally
// stable at k: their Phi over all resamples and the two-sided p-value.
type StabilityComparison struct {
	A    string  `json:"a"` // method labels
	B    string  `json:"b"`
	K    int     `json:"k"`
	PhiA float64 `json:"phiA"`
	PhiB float64 `json:"phiB"`
	P    float64 `json:"p"`
}

// MoreStable is the label of the method with the larger Phi.
func (c StabilityComparison) MoreStable() string {
	if c.PhiB > c.PhiA {
		return c.B
	}
	return c.A
}

// StabilityComparisons tests every two methods of res at the grid's k (Nogueira's
// test), in method order; pairs whose k is not on both grids are left out.
func StabilityComparisons(res *Result) []StabilityComparison {
	var out []StabilityComparison
	k := res.Config.GridK
	for i := range res.Methods {
		for j := i + 1; j < len(res.Methods); j++ {
			pa, pb, pv, ok := StabilityTest(res, i, j, k)
			if ok {
				out = append(out, StabilityComparison{A: res.Methods[i].Label, B: res.Methods[j].Label, K: k, PhiA: pa, PhiB: pb, P: pv})
			}
		}
	}
	return out
}

// StabilityTests says, for every two methods of res, which is more stable at the grid's
// k by Nogueira's test, one line each ("" when no pair can be tested).
func StabilityTests(res *Result) string {
	var lines []string
	for _, c := range StabilityComparisons(res) {
		pText := fmt.Sprintf("p = %.2g", c.P)
		if c.P < 1e-4 {
			pText = "p < 0.0001"
		}
		lines = append(lines, fmt.Sprintf("Nogueira's test at k = %d: %s Φ %.3f vs %s Φ %.3f: %s more stable, %s", c.K, c.A, c.PhiA, c.B, c.PhiB, c.MoreStable(), pText))
	}
	return strings.Join(lines, "\n")
}

// ErrorKs are the ks of Kalousis et al.'s Table 3 for classifier cl: 10, 20, ..., 50
// among the accuracy ks, or every accuracy k when the grid has none of them.
func ErrorKs(res *Result, cl string) []int {
	var ks, all []int
	for _, pt := range res.Methods[0].Accuracy[cl] {
		all = append(all, pt.K)
		if pt.K%10 == 0 && pt.K <= 50 {
			ks = append(ks, pt.K)
		}
	}
	if len(ks) == 0 {
		return all
	}
	return ks
}

// TopGroup returns, at k for classifier cl, each method's test error (NaN where it has
// none) and whether it is in the top group: the method of least error (the first of
// equals), those of equal error, and those McNemar's test (p >= 0.05) does not separate
// from it; tested says whether the run stored the tests.
func TopGroup(res *Result, cl string, k int) (errs []float64, top []bool, tested bool) {
	p := map[[2]int]float64{}
	for _, c := range res.Comparisons {
		if c.Classifier == cl && c.K == k {
			p[[2]int{c.A, c.B}], p[[2]int{c.B, c.A}] = c.P, c.P
		}
	}
	errs = make([]float64, len(res.Methods))
	best := 0
	for m, mr := range res.Methods {
		errs[m] = math.NaN()
		for _, pt := range mr.Accuracy[cl] {
			if pt.K == k {
				errs[m] = 1 - pt.Mean
			}
		}
		if errs[m] < errs[best] {
			best = m
		}
	}
	top = make([]bool, len(res.Methods))
	for m := range res.Methods {
		pv, ok := p[[2]int{best, m}]
		top[m] = m == best || errs[m] == errs[best] || ok && pv >= 0.05
		tested = tested || ok
	}
	return errs, top, tested
}
