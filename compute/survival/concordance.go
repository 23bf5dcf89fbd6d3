package survival

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Concordance is a concordance index of a risk score (higher = shorter survival) and
// its standard error, as survival::concordance(Surv(time, event) ~ score, reverse =
// TRUE). A pair is comparable when the shorter time is an event and the other time
// is longer, or equal but censored (a censored time tied with an event counts as the
// longer); two events at one time are not comparable (TiedY). Over comparable pairs,
// each weighted by w(t) at the earlier (event) time t:
//
//	C = (Concordant + TiedX / 2) / (Concordant + Discordant + TiedX)
//
// Concordant: the earlier event has the higher score; TiedX: equal scores. SE is
// sqrt(var), var the infinitesimal jackknife variance concordance reports by default:
// with, for sample i, c_i, d_i, t_i the weighted counts of its concordant,
// discordant and score-tied pairs, N = Concordant + Discordant + TiedX and Somers' D
// = (Concordant - Discordant) / N,
//
//	var = 1/4 sum_i [ (c_i - d_i) / N - D / N (c_i + d_i + t_i) ]^2
//
// The time weights are taken as fixed (their own variability is not in var). C and SE
// are NaN when no pair is comparable.
type Concordance struct {
	C, SE                                        float64
	Concordant, Discordant, TiedX, TiedY, TiedXY float64
}

// Harrell is Harrell's C (time weight 1): concordance(..., reverse = TRUE).
func Harrell(o Outcome, score []float64) (Concordance, error) {
	return concordance(o, score, false, math.Inf(1))
}

// Uno is Uno's C truncated at tau, as concordance(..., reverse = TRUE, timewt =
// "n/G2", ymax = tau) of survival 3.5-3: the comparable pairs whose earlier (event)
// time t is at most tau, each weighted by 1 / G(t-)^2, G the Kaplan-Meier estimate of
// the censoring distribution with, at a tied time, events before censorings (so
// G(t-) leaves out the censorings at t). The name "n/G2" notwithstanding, the weight
// has no n(t). It differs from the estimator of Uno, Cai, Pencina, D'Agostino and Wei
// (Stat Med 2011;30:1105-17), sum Delta_i G(T_i)^-2 I(T_i < T_j, T_i < tau) I(M_i >
// M_j) over the same sum without I(M_i > M_j), in that here a censored time equal to
// the event time counts as longer, an event at exactly tau counts, equal scores
// count 1/2 (0 there) and, with fewer than two events, the weights are 1. Its SE
// takes the weights as known. NaN when no pair is comparable.
func Uno(o Outcome, score []float64, tau float64) (Concordance, error) {
	if math.IsNaN(tau) {
		return Concordance{}, fmt.Errorf("uno's C: the truncation time is missing")
	}
	return concordance(o, score, true, tau)
}

// fenwick is a binary indexed tree of weights over score ranks 1 .. n, with the
// weight at each rank kept apart for ties.
type fenwick struct {
	tree, node []float64
	total      float64
}

func newFenwick(n int) *fenwick {
	return &fenwick{tree: make([]float64, n+1), node: make([]float64, n+1)}
}

func (f *fenwick) add(r int, w float64) {
	f.node[r] += w
	f.total += w
	for i := r; i < len(f.tree); i += i & -i {
		f.tree[i] += w
	}
}

// walk returns the weights at ranks above r, below r and at r (survival's walkup).
func (f *fenwick) walk(r int) (greater, smaller, tied float64) {
	s := 0.0
	for i := r; i > 0; i -= i & -i {
		s += f.tree[i]
	}
	tied = f.node[r]
	return f.total - s, s - tied, tied
}

// concordance ports survival's concordance3 (right-censored data, unit case weights)
// with Fenwick trees in place of its balanced tree.
func concordance(o Outcome, score []float64, uno bool, ymax float64) (Concordance, error) {
	c, _, err := concordanceInfluence(o, score, uno, ymax)
	return c, err
}

// concordanceInfluence is concordance with each sample's influence on C, dfb_i =
// -[(c_i - d_i) / N - D / N (c_i + d_i + t_i)] / 2 (reverse = TRUE): var = sum dfb_i^2,
// and two scores' covariance on the same samples is sum dfb_i dfb'_i, as
// survival::concordance(fit1, fit2) gives it.
func concordanceInfluence(o Outcome, score []float64, uno bool, ymax float64) (Concordance, []float64, error) {
	if err := o.Check(); err != nil {
		return Concordance{}, nil, err
	}
	n := len(o.Time)
	if len(score) != n {
		return Concordance{}, nil, fmt.Errorf("concordance: %d scores for %d samples", len(score), n)
	}
	for i, v := range score {
		if math.IsNaN(v) {
			return Concordance{}, nil, fmt.Errorf("concordance: sample %d (row %d) has no score", i, i+1)
		}
	}
	rank, nr := ranks(score)
	tf := timefix(o.Time)
	ord := make([]int, n)
	for i := range ord {
		ord[i] = i
	}
	// decreasing time, censored before events, increasing score
	slices.SortFunc(ord, func(a, b int) int {
		if c := cmp.Compare(tf[b], tf[a]); c != 0 {
			return c
		}
		if o.Event[a] != o.Event[b] {
			if o.Event[a] {
				return 1
			}
			return -1
		}
		if c := cmp.Compare(rank[a], rank[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	tw := timeWeights(o, tf, ord, uno, ymax) // by event time, decreasing

	all, dead := newFenwick(nr), newFenwick(nr)
	var count [5]float64
	ic, id, it := make([]float64, n), make([]float64, n), make([]float64, n)
	utime := 0
	for i := 0; i < n; {
		ii := ord[i]
		if !o.Event[ii] {
			g, s, t := dead.walk(rank[ii])
			ic[ii] -= s
			id[ii] -= g
			it[ii] -= t
			all.add(rank[ii], 1)
			i++
			continue
		}
		adj := tw[utime]
		utime++
		ndeath := 0
		dwt, dwt2 := 0.0, 0.0
		xsave := rank[ii]
		for j := i; j < n && tf[ord[j]] == tf[ii]; j++ {
			jj := ord[j]
			ndeath++
			count[3] += dwt * adj
			dwt++
			if rank[jj] != xsave {
				dwt2 = 0
				xsave = rank[jj]
			}
			count[4] += dwt2 * adj
			dwt2++
			g, s, t := all.walk(rank[jj])
			count[0] += g * adj
			count[1] += s * adj
			count[2] += t * adj
			ic[jj] += g * adj
			id[jj] += s * adj
			it[jj] += t * adj
			dead.add(rank[jj], adj)
		}
		for j := i; j < i+ndeath; j++ {
			jj := ord[j]
			g, s, t := dead.walk(rank[jj])
			ic[jj] -= s
			id[jj] -= g
			it[jj] -= t
			all.add(rank[jj], 1)
		}
		i += ndeath
	}
	for i := 0; i < n; i++ {
		g, s, t := dead.walk(rank[i])
		ic[i] += s
		id[i] += g
		it[i] += t
	}
	count[3] -= count[4]
	npair := count[0] + count[1] + count[2]
	somer := (count[0] - count[1]) / npair
	v := 0.0
	infl := make([]float64, n)
	for i := 0; i < n; i++ {
		dfb := (ic[i]-id[i])/npair - somer/npair*(ic[i]+id[i]+it[i])
		v += dfb * dfb
		infl[i] = -dfb / 2
	}
	// reverse = TRUE: concordant and discordant swap, C = 1 - (somer + 1) / 2
	return Concordance{
		C:          1 - (somer+1)/2,
		SE:         math.Sqrt(v / 4),
		Concordant: count[1], Discordant: count[0], TiedX: count[2], TiedY: count[3], TiedXY: count[4],
	}, infl, nil
}

// timeWeights is the weight of each distinct event time, in decreasing time: 1, or
// for Uno's C 1 / G(t-)^2 (survival's fastkm1: events before censorings at a tie);
// 0 beyond ymax. With fewer than two events the weights are 1 (as concordancefit).
func timeWeights(o Outcome, tf []float64, ord []int, uno bool, ymax float64) []float64 {
	n := len(ord)
	var etime, w []float64
	events := o.Events()
	// walk increasing time: ord reversed
	g := 1.0
	for i := n - 1; i >= 0; {
		t := tf[ord[i]]
		j := i
		d, c := 0, 0
		for j >= 0 && tf[ord[j]] == t {
			if o.Event[ord[j]] {
				d++
			} else {
				c++
			}
			j--
		}
		atRisk := i + 1 // samples with time >= t
		if d > 0 {
			etime = append(etime, t)
			if uno && events >= 2 {
				w = append(w, 1/(g*g))
			} else {
				w = append(w, 1)
			}
		}
		if c > 0 {
			// the censoring curve's risk set leaves out the events at t
			g *= float64(atRisk-d-c) / float64(atRisk-d)
		}
		i = j
	}
	out := make([]float64, len(w))
	for k := range w {
		e := len(w) - 1 - k
		if etime[e] > ymax {
			out[k] = 0
		} else {
			out[k] = w[e]
		}
	}
	return out
}

// ranks gives each score its rank among the distinct scores, 1 .. R, and R.
func ranks(score []float64) ([]int, int) {
	type kv struct {
		v float64
		i int
	}
	p := make([]kv, len(score))
	for i, v := range score {
		p[i] = kv{v, i}
	}
	slices.SortFunc(p, func(a, b kv) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	rank := make([]int, len(score))
	r := 0
	for k := range p {
		if k == 0 || p[k].v != p[k-1].v {
			r++
		}
		rank[p[k].i] = r
	}
	return rank, r
}
