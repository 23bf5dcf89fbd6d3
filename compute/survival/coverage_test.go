package survival

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/rstat"
)

// simulate draws n samples with x ~ N(0, 1), an exponential event time of hazard
// exp(beta x) and an independent exponential censoring time of rate mu (mu = 0:
// no censoring); the score is x.
func simulate(rng *rand.Rand, n int, beta, mu float64) (Outcome, []float64) {
	o := Outcome{Time: make([]float64, n), Event: make([]bool, n)}
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.NormFloat64()
		t := rng.ExpFloat64() / math.Exp(beta*x[i])
		c := math.Inf(1)
		if mu > 0 {
			c = rng.ExpFloat64() / mu
		}
		o.Time[i], o.Event[i] = math.Min(t, c), t <= c
	}
	return o, x
}

// TestCoverage shows by simulation that the 95% intervals cover: exponential event
// times with log hazard ratio beta = log 2 per SD of a normal score, exponential
// censoring of rate 0.45 (about 33% censored) or 1.4 (about 57%), n = 100 and 200,
// 500 replicates each (fixed seeds). Covered are: beta by the Cox Wald interval; the
// population Harrell's C (its limit under the same censoring, from 200,000 samples)
// by C -+ 1.96 SE; Uno's C at tau = 1 and the AUC at t = 0.5 (censoring-free
// quantities, from 200,000 uncensored samples) by theirs. Each coverage must lie in
// [91%, 98.5%] (about -4 and +3.6 binomial SDs around 95% for 500 replicates).
func TestCoverage(t *testing.T) {
	const (
		reps     = 500
		tau      = 1.0
		horizon  = 0.5
		lo, hi   = 0.91, 0.985
		nTruth   = 200000
		trueBeta = math.Ln2
	)
	rng := rand.New(rand.NewPCG(2024, 53))
	free, fx := simulate(rng, nTruth, trueBeta, 0)
	unoTrue, err := Uno(free, fx, tau)
	if err != nil {
		t.Fatal(err)
	}
	aucTrue, err := TimeDependentAUC(free, fx, horizon)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("truth: Uno's C(tau = 1) %.4f, AUC(0.5) %.4f (from %d uncensored samples)", unoTrue.C, aucTrue.AUC, nTruth)
	for _, mu := range []float64{0.45, 1.4} {
		big, bx := simulate(rng, nTruth, trueBeta, mu)
		hTrue, err := Harrell(big, bx)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{100, 200} {
			var cover [4]int
			var cens, fails int
			for r := 0; r < reps; r++ {
				o, x := simulate(rng, n, trueBeta, mu)
				cens += n - o.Events()
				fit, err := Cox(o, mat.NewDense(n, 1, x), CoxOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(fit.Coef[0]-trueBeta) <= rstat.Z95*fit.SE[0] {
					cover[0]++
				}
				h, _ := Harrell(o, x)
				if math.Abs(h.C-hTrue.C) <= rstat.Z95*h.SE {
					cover[1]++
				}
				u, _ := Uno(o, x, tau)
				if math.Abs(u.C-unoTrue.C) <= rstat.Z95*u.SE {
					cover[2]++
				}
				a, err := TimeDependentAUC(o, x, horizon)
				if err != nil {
					fails++
					continue
				}
				if math.Abs(a.AUC-aucTrue.AUC) <= rstat.Z95*a.SE {
					cover[3]++
				}
			}
			name := fmt.Sprintf("n=%d, %.0f%% censored", n, 100*float64(cens)/float64(n*reps))
			t.Logf("%s: coverage Cox beta %.1f%%, Harrell's C %.1f%% (true %.4f), Uno's C %.1f%%, AUC(0.5) %.1f%%",
				name, pct(cover[0], reps), pct(cover[1], reps), hTrue.C, pct(cover[2], reps), pct(cover[3], reps-fails))
			for k, what := range []string{"Cox beta", "Harrell's C", "Uno's C", "time AUC"} {
				m := reps
				if k == 3 {
					m -= fails
				}
				if c := float64(cover[k]) / float64(m); c < lo || c > hi {
					t.Errorf("%s: %s interval covers %.1f%%, outside [%.1f%%, %.1f%%]", name, what, 100*c, 100*lo, 100*hi)
				}
			}
		}
	}
}

func pct(k, n int) float64 { return 100 * float64(k) / float64(n) }
