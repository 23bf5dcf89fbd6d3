package survival

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// permuted is the outcome and matrix with rows in the order perm (new row k = old
// row perm[k]).
func permuted(o Outcome, x *mat.Dense, perm []int) (Outcome, *mat.Dense) {
	_, p := x.Dims()
	px := mat.NewDense(len(perm), p, nil)
	for k, i := range perm {
		px.SetRow(k, x.RawRowView(i))
	}
	return o.Subset(perm), px
}

// TestOrderInvariance: results do not depend on the order of the samples; counts
// (numbers at risk and of events, pairs, observed events) are identical, sums of
// floating-point values agree to rounding (1e-12 relative; 1e-10 for the Cox fits,
// whose Newton steps compound it).
func TestOrderInvariance(t *testing.T) {
	s := readSet(t, "dlbcl_chop_survival.csv")
	n, _ := s.x.Dims()
	x := s.x.Slice(0, n, 0, 300).(*mat.Dense)
	x5 := columns(s.x, []int{3, 50, 700, 1200, 3000})
	rng := rand.New(rand.NewPCG(7, 8))
	for rep := 0; rep < 3; rep++ {
		perm := rng.Perm(n)
		po, px := permuted(s.o, x, perm)
		_, px5 := permuted(s.o, x5, perm)
		tr := newTracker(t, "permuted", 1e-12)

		k1, _ := KM(s.o)
		k2, _ := KM(po)
		for j := range k1.Time {
			if k1.Time[j] != k2.Time[j] || k1.NRisk[j] != k2.NRisk[j] || k1.NEvent[j] != k2.NEvent[j] || k1.Surv[j] != k2.Surv[j] {
				t.Fatalf("KM row %d differs", j)
			}
		}
		g := make([]int, n)
		for i := range g {
			g[i] = i % 3
		}
		pg := make([]int, n)
		for k, i := range perm {
			pg[k] = g[i]
		}
		l1, _ := LogRankTest(s.o, g)
		l2, _ := LogRankTest(po, pg)
		for a := range l1.Observed {
			if l1.Observed[a] != l2.Observed[a] {
				t.Errorf("log-rank observed differ")
			}
			tr.check("expected", l2.Expected[a], l1.Expected[a], 1e-12)
		}
		tr.check("log-rank chisq", l2.Chisq, l1.Chisq, 1e-12)

		st1, _ := ScoreTests(s.o, x, nil)
		st2, _ := ScoreTests(po, px, nil)
		for j := range st1.Chisq {
			tr.check("score chisq", st2.Chisq[j], st1.Chisq[j], 1e-12)
		}
		// a resample by rows equals the copied resample
		st3, _ := ScoreTests(s.o, x, perm[:120])
		sub, subx := permuted(s.o, x, perm[:120])
		st4, _ := ScoreTests(sub, subx, nil)
		for j := range st3.Chisq {
			tr.check("rows subset", st3.Chisq[j], st4.Chisq[j], 1e-12)
		}

		// a bootstrap sample (rows repeated) equals its copy
		boot := make([]int, n)
		for i := range boot {
			boot[i] = rng.IntN(n)
		}
		st5, _ := ScoreTests(s.o, x, boot)
		bo, bx := permuted(s.o, x, boot)
		st6, _ := ScoreTests(bo, bx, nil)
		for j := range st5.Chisq {
			tr.check("bootstrap rows", st5.Chisq[j], st6.Chisq[j], 1e-12)
		}

		f1, _ := Cox(s.o, x5, CoxOptions{})
		f2, _ := Cox(po, px5, CoxOptions{})
		ct := newTracker(t, "permuted cox", 1e-10)
		for j := range f1.Coef {
			ct.check("coef", f2.Coef[j], f1.Coef[j], 1e-12)
			ct.check("se", f2.SE[j], f1.SE[j], 1e-12)
		}
		for k, i := range perm {
			ct.check("lp", f2.LinearPredictor[k], f1.LinearPredictor[i], 1e-9)
		}
		lp := f1.LinearPredictor
		plp := f2.LinearPredictor
		h1, _ := Harrell(s.o, lp)
		h2, _ := Harrell(po, plp)
		if h1.Concordant != h2.Concordant || h1.Discordant != h2.Discordant || h1.TiedX != h2.TiedX || h1.TiedY != h2.TiedY {
			t.Errorf("Harrell counts differ: %+v %+v", h1, h2)
		}
		tr.check("harrell se", h2.SE, h1.SE, 1e-12)
		u1, _ := Uno(s.o, lp, 5)
		u2, _ := Uno(po, plp, 5)
		tr.check("uno", u2.C, u1.C, 1e-12)
		tr.check("uno se", u2.SE, u1.SE, 1e-12)
		a1, _ := TimeDependentAUC(s.o, lp, 2)
		a2, _ := TimeDependentAUC(po, plp, 2)
		tr.check("auc", a2.AUC, a1.AUC, 1e-12)
		tr.check("auc se", a2.SE, a1.SE, 1e-12)
		if rep == 0 {
			tr.log()
			ct.log()
		}
	}
}

// randomTied is a random outcome with many tied times and censoring, and a score with
// ties.
func randomTied(rng *rand.Rand, n int) (Outcome, []float64) {
	o := Outcome{Time: make([]float64, n), Event: make([]bool, n)}
	x := make([]float64, n)
	for i := range o.Time {
		o.Time[i] = float64(rng.IntN(12))
		o.Event[i] = rng.Float64() < 0.6
		x[i] = math.Round(rng.NormFloat64() * 2)
	}
	o.Event[0] = true
	o.Event[1] = true
	return o, x
}

// TestAgainstBruteForce compares the O(n log n) counts with an enumeration of all
// pairs (Harrell's and Uno's weighted counts, Uno's weights from a direct product for
// the censoring curve) and the time-dependent AUC with its double sum, on random
// sets with heavy ties; and the batched score test and univariate fits with Cox of
// one covariate.
func TestAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tr := newTracker(t, "brute force", 1e-12)
	for rep := 0; rep < 50; rep++ {
		n := 5 + rng.IntN(60)
		o, x := randomTied(rng, n)
		h, err := Harrell(o, x)
		if err != nil {
			t.Fatal(err)
		}
		c, d, tx, ty := brutePairs(o, x, nil)
		tr.check("harrell concordant", h.Concordant, c, 1)
		tr.check("harrell discordant", h.Discordant, d, 1)
		tr.check("harrell tied x", h.TiedX, tx, 1)
		tr.check("harrell tied y", h.TiedY+h.TiedXY, ty, 1)
		tau := float64(rng.IntN(12))
		u, err := Uno(o, x, tau)
		if err != nil {
			t.Fatal(err)
		}
		w := func(s float64) float64 {
			if s > tau || o.Events() < 2 {
				if s > tau {
					return 0
				}
				return 1
			}
			g := gMinus(o, s)
			return 1 / (g * g)
		}
		c, d, tx, _ = brutePairs(o, x, w)
		tr.check("uno concordant", u.Concordant, c, 1e-9)
		tr.check("uno discordant", u.Discordant, d, 1e-9)
		tr.check("uno tied x", u.TiedX, tx, 1e-9)

		hz := float64(1 + rng.IntN(9))
		a, err := TimeDependentAUC(o, x, hz)
		if err == nil {
			num, den := 0.0, 0.0
			for i := range o.Time {
				if !(o.Time[i] <= hz && o.Event[i]) {
					continue
				}
				wi := 1 / gMinus(o, o.Time[i])
				for j := range o.Time {
					if o.Time[j] <= hz {
						continue
					}
					den += wi
					switch {
					case x[i] > x[j]:
						num += wi
					case x[i] == x[j]:
						num += wi / 2
					}
				}
			}
			tr.check("time auc", a.AUC, num/den, 1e-12)
		}

		xm := mat.NewDense(n, 1, x)
		st, err := ScoreTests(o, xm, nil)
		if err != nil {
			t.Fatal(err)
		}
		fit, err := Cox(o, xm, CoxOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tr.check("score test vs Cox", st.Chisq[0], fit.Score, 1e-12)
		uc, err := UnivariateCox(o, xm, nil)
		if err != nil {
			t.Fatal(err)
		}
		if fit.Converged && !fit.Infinite[0] {
			tr.check("univariate coef vs Cox", uc.Coef[0], fit.Coef[0], 1e-12)
			tr.check("univariate se vs Cox", uc.SE[0], fit.SE[0], 1e-12)
		}
	}
	tr.log()
}

// gMinus is the censoring curve just before s, by its definition: the product over
// censoring times c < s of 1 - (censored at c) / (at risk at c less the events at c).
func gMinus(o Outcome, s float64) float64 {
	g := 1.0
	seen := map[float64]bool{}
	for _, c := range o.Time {
		if c >= s || seen[c] {
			continue
		}
		seen[c] = true
		cens, risk, ev := 0, 0, 0
		for i, ti := range o.Time {
			if ti >= c {
				risk++
			}
			if ti == c {
				if o.Event[i] {
					ev++
				} else {
					cens++
				}
			}
		}
		if cens > 0 {
			g *= 1 - float64(cens)/float64(risk-ev)
		}
	}
	return g
}
