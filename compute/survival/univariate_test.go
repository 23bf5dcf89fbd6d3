package survival

import (
	"strconv"
	"testing"
)

// TestUnivariateAgainstR compares the score test and the fitted univariate Cox model
// of every gene of DLBCL (CHOP, 3,833 probes) and AML (6,283 clones) with
// survival::coxph per gene: testdata/univariate.R (R 4.2.2, survival 3.5-3) wrote
// testdata/univariate_{dlbcl,aml}.csv. Tolerance 1e-9 relative (absolute below 1e-12)
// for every value; both take the same Newton steps (checked), so the fitted
// coefficients agree far closer than coxph's convergence criterion (observed: 6e-12
// for the score test, 3e-12 for coef and SE, 5e-16 for the log likelihoods).
func TestUnivariateAgainstR(t *testing.T) {
	for _, c := range []struct{ set, ref string }{
		{"dlbcl_chop_survival.csv", "testdata/univariate_dlbcl.csv"},
		{"aml_survival.csv", "testdata/univariate_aml.csv"},
	} {
		s := readSet(t, c.set)
		head, rows := readCSV(t, c.ref)
		if len(rows) != len(s.genes) || head[1] != "sctest" {
			t.Fatalf("%s: %d rows for %d genes", c.ref, len(rows), len(s.genes))
		}
		st, err := ScoreTests(s.o, s.x, nil)
		if err != nil {
			t.Fatal(err)
		}
		uc, err := UnivariateCox(s.o, s.x, nil)
		if err != nil {
			t.Fatal(err)
		}
		sc := newTracker(t, c.set+" score test", 1e-9)
		fit := newTracker(t, c.set+" coef and se", 1e-9)
		ll := newTracker(t, c.set+" loglik", 1e-9)
		iters := 0
		for j, r := range rows {
			if r[0] != s.genes[j] {
				t.Fatalf("%s row %d: gene %s, want %s", c.ref, j, r[0], s.genes[j])
			}
			f := func(k int) float64 { return parseF(t, r[k]) }
			sc.check(r[0]+" chisq", st.Chisq[j], f(1), 1e-12)
			sc.check(r[0]+" z^2", st.Z[j]*st.Z[j], f(1), 1e-12)
			fit.check(r[0]+" coef", uc.Coef[j], f(2), 1e-12)
			fit.check(r[0]+" se", uc.SE[j], f(3), 1e-12)
			ll.check(r[0]+" loglik0", uc.LogLik0[j], f(4), 1e-12)
			ll.check(r[0]+" loglik", uc.LogLik[j], f(5), 1e-12)
			if it, _ := strconv.Atoi(r[6]); it == uc.Iter[j] {
				iters++
			}
			if (r[7] == "TRUE") != uc.Infinite[j] || !uc.Converged[j] {
				t.Errorf("%s: infinite %v converged %v, R warned %s", r[0], uc.Infinite[j], uc.Converged[j], r[7])
			}
			if (uc.Coef[j] > 0) != (st.Z[j] > 0) {
				t.Errorf("%s: coefficient %v and score z %v disagree in sign", r[0], uc.Coef[j], st.Z[j])
			}
		}
		sc.log()
		fit.log()
		ll.log()
		t.Logf("%s: %d of %d genes took coxph's number of iterations", c.set, iters, len(rows))
		if iters != len(rows) {
			t.Errorf("%s: %d genes took another number of Newton steps than coxph", c.set, len(rows)-iters)
		}
	}
}
