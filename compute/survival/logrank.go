package survival

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// LogRank is the log-rank test of equal survival in G groups, as
// survival::survdiff(Surv(time, event) ~ group) (rho = 0). At each distinct event
// time with d events among n at risk, n_g of them in group g:
//
//	Expected_g = sum d n_g / n
//	Var_gh = sum d (n - d) / (n - 1) * n_g / n * (delta_gh - n_h / n)   (n > 1)
//	Chisq = (O - E)' V^-1 (O - E) over the groups with Expected > 0 but the first
//
// with DF = (groups with Expected > 0) - 1 and P the chi-square's upper tail. With
// fewer than two such groups there is no test: Chisq 0, DF 0 and P 1 (survdiff
// refuses a single group).
type LogRank struct {
	N                  []int
	Observed, Expected []float64
	Var                *mat.SymDense
	Chisq              float64
	DF                 int
	P                  float64
}

// LogRankTest compares the survival of the groups labelled 0 .. G-1 in group (one
// label per sample; G is the largest label plus one, and every label below it
// should be used).
func LogRankTest(o Outcome, group []int) (*LogRank, error) {
	if err := o.check(false); err != nil {
		return nil, err
	}
	if len(group) != len(o.Time) {
		return nil, fmt.Errorf("log-rank test: %d group labels for %d samples", len(group), len(o.Time))
	}
	ng := 0
	for i, g := range group {
		if g < 0 {
			return nil, fmt.Errorf("log-rank test: sample %d (row %d) has a negative group label %d", i, i+1, g)
		}
		ng = max(ng, g+1)
	}
	s := sortOutcome(o)
	lr := &LogRank{N: make([]int, ng), Observed: make([]float64, ng), Expected: make([]float64, ng)}
	v := make([]float64, ng*ng)
	risk := make([]float64, ng)
	for _, g := range group {
		risk[g]++
		lr.N[g]++
	}
	for j := 0; j < s.groups(); j++ {
		// risk holds the samples with time >= t_j
		rows := s.idx[s.start[j]:s.start[j+1]]
		nr := float64(s.n - s.start[j])
		d := float64(s.d[j])
		if d > 0 {
			for _, i := range rows {
				if o.Event[i] {
					lr.Observed[group[i]]++
				}
			}
			for g := range risk {
				lr.Expected[g] += d * risk[g] / nr
			}
			if nr > 1 {
				for g := range risk {
					tmp := d * risk[g] * (nr - d) / (nr * (nr - 1))
					v[g*ng+g] += tmp
					for h := range risk {
						v[g*ng+h] -= tmp * risk[h] / nr
					}
				}
			}
		}
		for _, i := range rows {
			risk[group[i]]--
		}
	}
	lr.Var = mat.NewSymDense(ng, v)
	var keep []int
	for g, e := range lr.Expected {
		if e > 0 {
			keep = append(keep, g)
		}
	}
	lr.DF = len(keep) - 1
	if len(keep) >= 2 {
		k := keep[1:]
		m := len(k)
		vv := mat.NewDense(m, m, nil)
		oe := mat.NewVecDense(m, nil)
		for a, g := range k {
			oe.SetVec(a, lr.Observed[g]-lr.Expected[g])
			for b, h := range k {
				vv.Set(a, b, v[g*ng+h])
			}
		}
		var sol mat.VecDense
		if err := sol.SolveVec(vv, oe); err != nil {
			return nil, fmt.Errorf("log-rank test: the variance of the group counts is singular: %v", err)
		}
		lr.Chisq = mat.Dot(&sol, oe)
	}
	if lr.DF > 0 {
		lr.P = distuv.ChiSquared{K: float64(lr.DF)}.Survival(lr.Chisq)
	} else {
		lr.P = 1
	}
	return lr, nil
}
