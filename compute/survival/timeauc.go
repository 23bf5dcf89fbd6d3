package survival

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// TimeAUC is the cumulative/dynamic time-dependent AUC of a risk score at horizon t,
// as riskRegression::Score(list(score), Hist(time, event) ~ 1, times = t, metrics =
// "auc", cens.model = "km") (2022.11.28): cases are the samples with the event by t
// (T_i <= t), controls those still followed after t (T_j > t); censored samples with
// T <= t are neither. With G the Kaplan-Meier estimate of the censoring distribution
// (events before censorings at a tied time, as prodlim's reverse estimate), case i is
// weighted w_i = 1 / G(T_i-) and every control 1 / G(t):
//
//	AUC = sum_{i case} sum_{j control} w_i [1(M_i > M_j) + 1/2 1(M_i = M_j)] / (sum_i w_i * #controls)
//
// SE is riskRegression's: sd(IF) / sqrt(n), IF the estimated influence function of
// the AUC including the term of the estimated censoring distribution (Score's
// default conservative = FALSE), ported from its getIC0AUC and
// getInfluenceFunctionAUCKMCensoringTerm.
type TimeAUC struct {
	Time            float64
	AUC, SE         float64
	Cases, Controls int
}

// TimeDependentAUC computes the AUC of score (higher = event sooner) at horizon t.
// It fails without a case or a control at t.
func TimeDependentAUC(o Outcome, score []float64, t float64) (TimeAUC, error) {
	if err := o.Check(); err != nil {
		return TimeAUC{}, err
	}
	n := len(o.Time)
	if len(score) != n {
		return TimeAUC{}, fmt.Errorf("time-dependent AUC: %d scores for %d samples", len(score), n)
	}
	for i, v := range score {
		if math.IsNaN(v) {
			return TimeAUC{}, fmt.Errorf("time-dependent AUC: sample %d (row %d) has no score", i, i+1)
		}
	}
	// Score's order: time increasing, events first at a tie
	ord := make([]int, n)
	for i := range ord {
		ord[i] = i
	}
	slices.SortFunc(ord, func(a, b int) int {
		if c := cmp.Compare(o.Time[a], o.Time[b]); c != 0 {
			return c
		}
		if o.Event[a] != o.Event[b] {
			if o.Event[a] {
				return -1
			}
			return 1
		}
		return cmp.Compare(a, b)
	})
	time := make([]float64, n)
	status := make([]bool, n)
	risk := make([]float64, n)
	for k, i := range ord {
		time[k], status[k], risk[k] = o.Time[i], o.Event[i], score[i]
	}
	gmin, gt := censoringKM(time, status, t)
	res := TimeAUC{Time: t}
	w := make([]float64, n)
	case_ := make([]bool, n)
	control := make([]bool, n)
	muCase, muControl := 0.0, 0.0
	for k := 0; k < n; k++ {
		switch {
		case time[k] <= t && status[k]:
			case_[k] = true
			w[k] = 1 / gmin[k]
			muCase += w[k]
			res.Cases++
		case time[k] > t:
			control[k] = true
			w[k] = 1 / gt
			muControl += w[k]
			res.Controls++
		}
	}
	if res.Cases == 0 || res.Controls == 0 {
		return res, fmt.Errorf("time-dependent AUC at %v: %d cases (event by then) and %d controls (followed beyond); both are needed", t, res.Cases, res.Controls)
	}
	// ic0Case[k]: control weight below M_k plus half that tied (others than k);
	// ic0Control[k]: case weight above M_k plus half that tied
	byRisk := make([]int, n)
	for i := range byRisk {
		byRisk[i] = i
	}
	slices.SortFunc(byRisk, func(a, b int) int { return cmp.Compare(risk[a], risk[b]) })
	ic0Case := make([]float64, n)
	ic0Control := make([]float64, n)
	below := 0.0
	for a := 0; a < n; {
		b := a
		tied := 0.0
		for b < n && risk[byRisk[b]] == risk[byRisk[a]] {
			if control[byRisk[b]] {
				tied += w[byRisk[b]]
			}
			b++
		}
		for _, k := range byRisk[a:b] {
			own := 0.0
			if control[k] {
				own = w[k]
			}
			ic0Case[k] = below + 0.5*(tied-own)
		}
		below += tied
		a = b
	}
	above := 0.0
	for b := n; b > 0; {
		a := b - 1
		tied := 0.0
		for a >= 0 && risk[byRisk[a]] == risk[byRisk[b-1]] {
			if case_[byRisk[a]] {
				tied += w[byRisk[a]]
			}
			a--
		}
		for _, k := range byRisk[a+1 : b] {
			own := 0.0
			if case_[k] {
				own = w[k]
			}
			ic0Control[k] = above + 0.5*(tied-own)
		}
		above += tied
		b = a + 1
	}
	num := 0.0
	for k := 0; k < n; k++ {
		if case_[k] {
			num += w[k] * ic0Case[k]
		}
	}
	auc := num / (muCase * muControl)
	res.AUC = auc

	nf := float64(n)
	mu := muCase * muControl / (nf * nf)
	nu := auc * mu
	ic := make([]float64, n)
	for k := 0; k < n; k++ {
		var num, den float64
		switch {
		case case_[k]:
			num, den = w[k]/nf*ic0Case[k], w[k]/nf*muControl
		case control[k]:
			num, den = w[k]/nf*ic0Control[k], w[k]/nf*muCase
		}
		ic[k] = (num*mu - den*nu) / (mu * mu)
	}
	censTerm(ic, time, status, t, ic0Case, ic0Control, w, muCase, muControl, nu, gt)
	m := 0.0
	for _, v := range ic {
		m += v
	}
	m /= nf
	ss := 0.0
	for _, v := range ic {
		ss += (v - m) * (v - m)
	}
	res.SE = math.Sqrt(ss/(nf-1)) / math.Sqrt(nf)
	return res, nil
}

// censoringKM returns G(T_k-) for each sample (time sorted) and G(t), G the
// Kaplan-Meier estimate of the censoring distribution with events removed from the
// risk set before the censorings at a tied time (prodlim's reverse = TRUE).
func censoringKM(time []float64, status []bool, t float64) (gmin []float64, gt float64) {
	n := len(time)
	gmin = make([]float64, n)
	g := 1.0
	gt = math.NaN()
	for a := 0; a < n; {
		b := a
		d, c := 0, 0
		for b < n && time[b] == time[a] {
			if status[b] {
				d++
			} else {
				c++
			}
			b++
		}
		if math.IsNaN(gt) && time[a] > t {
			gt = g
		}
		for k := a; k < b; k++ {
			gmin[k] = g
		}
		if c > 0 {
			risk := n - a - d
			g *= float64(risk-c) / float64(risk)
		}
		a = b
	}
	if math.IsNaN(gt) {
		gt = g
	}
	return gmin, gt
}

// censTerm adds to ic the term of the influence function due to the estimated
// censoring distribution: riskRegression's getInfluenceFunctionAUCKMCensoringTerm
// (conservative = FALSE, no competing risks), on data sorted as Score sorts them.
func censTerm(ic, time []float64, status []bool, tau float64, ic0Case, ic0Control, w []float64, muCase, muControl, nu1, gtau float64) {
	n := len(time)
	nf := float64(n)
	// getInfluenceFunctionKM: distinct times, number at risk, and the cumulative sum
	// of n c_s / Y_s^2 (c_s censorings among Y_s at risk at s)
	sindex := make([]int, n)
	var utime, atrisk, mc []float64
	for a := 0; a < n; {
		b := a
		c := 0
		for b < n && time[b] == time[a] {
			if !status[b] {
				c++
			}
			sindex[b] = len(utime)
			b++
		}
		y := float64(n - a)
		prev := 0.0
		if len(mc) > 0 {
			prev = mc[len(mc)-1]
		}
		utime = append(utime, time[a])
		atrisk = append(atrisk, y)
		mc = append(mc, prev+float64(c)/y*nf/y)
		a = b
	}
	firsthit := -1 // the last index with time <= tau
	for k := 0; k < n && time[k] <= tau; k++ {
		firsthit = k
	}
	if firsthit < 0 {
		firsthit = 0
	}
	var t2num1, t2den1 float64 // competing-risk controls (status 2) never occur here
	t2num2 := nu1 * nf * nf
	t2den2 := muCase
	sumNum := 0.0
	for k := firsthit + 1; k < n; k++ {
		sumNum += ic0Control[k]
	}
	sumNum /= gtau
	t3num2 := nu1*nf*nf - sumNum
	sumDen := float64(n-(firsthit+1)) / gtau
	t3den2 := muControl - sumDen
	mu := muCase * muControl / (nf * nf)
	isCase := func(k int) bool { return time[k] <= tau && status[k] }
	k0 := 0
	for k0 < n && time[k0] == time[0] {
		if isCase(k0) {
			t2num2 -= ic0Case[k0] * w[k0]
			t2den2 -= w[k0]
		}
		k0++
	}
	upperTie := k0 - 1
	for i := 0; i < n; i++ {
		j := min(i, firsthit)
		var fi float64
		if utime[sindex[j]] < time[i] {
			fi = -mc[sindex[j]]
		} else {
			cens := 0.0
			if !status[i] {
				cens = 1
			}
			fi = cens*nf/atrisk[sindex[i]] - mc[sindex[i]]
		}
		inv := 1 / (nf * nf)
		t2num := inv * (t2num1 + fi*t2num2)
		t2den := inv * (t2den1 + fi*t2den2) * muControl
		t3num := inv * (fi*t3num2 + fi*sumNum)
		t3den := inv * (fi*t3den2 + fi*sumDen) * muCase
		if upperTie == i {
			k := i + 1
			for k < n && time[k] == time[i+1] {
				if isCase(k) {
					m := mc[sindex[i]]
					t2num1 -= ic0Case[k] * m * w[k]
					t2den1 -= m * w[k]
					t2num2 -= ic0Case[k] * w[k]
					t2den2 -= w[k]
				}
				k++
			}
			upperTie = k - 1
		}
		ifNum := t2num + t3num
		ifDen := t2den + t3den
		ic[i] += (ifNum*mu - ifDen*nu1) / (mu * mu)
	}
}
