package survival

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

type smallCase struct {
	Time    []num `json:"time"`
	Event   []num `json:"event"`
	X       []num `json:"x"`
	Group   []int `json:"group"`
	Tau     num   `json:"tau"`
	Horizon num   `json:"horizon"`
	KM      struct {
		Time      []num `json:"time"`
		NRisk     []num `json:"n_risk"`
		NEvent    []num `json:"n_event"`
		Surv      []num `json:"surv"`
		StdErr    []num `json:"std_err"`
		Lower     []num `json:"lower"`
		Upper     []num `json:"upper"`
		Median    num   `json:"median"`
		MedianLCL num   `json:"median_lcl"`
		MedianUCL num   `json:"median_ucl"`
	} `json:"km"`
	LogRank *struct {
		Obs   []num `json:"obs"`
		Exp   []num `json:"exp"`
		Chisq num   `json:"chisq"`
	} `json:"logrank"`
	Cox struct {
		Coef   num   `json:"coef"`
		SE     num   `json:"se"`
		LogLik []num `json:"loglik"`
		Score  num   `json:"score"`
		Iter   int   `json:"iter"`
	} `json:"cox"`
	Harrell refConc `json:"harrell"`
	Uno     refConc `json:"uno"`
	AUC     *struct {
		AUC num `json:"auc"`
		SE  num `json:"se"`
	} `json:"auc"`
}

func (c *smallCase) outcome() Outcome {
	o := Outcome{Time: numFloats(c.Time), Event: make([]bool, len(c.Event))}
	for i, e := range c.Event {
		o.Event[i] = e == 1
	}
	return o
}

// TestSmallAgainstR checks the edge rules on small sets against testdata/small.json
// (testdata/small.R; R 4.2.2, survival 3.5-3, riskRegression 2022.11.28): "ties" has
// a time-0 event, two events and a censoring at time 1, an event and a censoring at
// times 2 and 4; "oneevent" a single event (whose Cox coefficient is infinite: coxph
// runs out of iterations); "random" 40 samples with times 0..8 and scores rounded to
// integers. Tolerance 1e-10 relative (absolute below 1e-12); the non-converged
// coefficient 1e-6.
func TestSmallAgainstR(t *testing.T) {
	var ref map[string]*smallCase
	readJSON(t, "testdata/small.json", &ref)
	for name, c := range ref {
		o := c.outcome()
		x := numFloats(c.X)
		tr := newTracker(t, name, 1e-10)
		km, err := KM(o)
		if err != nil {
			t.Fatal(err)
		}
		compareVec(tr, "km time", km.Time, c.KM.Time, 1e-12)
		for j := range km.Time {
			if float64(km.NRisk[j]) != float64(c.KM.NRisk[j]) || float64(km.NEvent[j]) != float64(c.KM.NEvent[j]) {
				t.Errorf("%s: km row %d: %d at risk %d events, want %v %v", name, j, km.NRisk[j], km.NEvent[j], c.KM.NRisk[j], c.KM.NEvent[j])
			}
		}
		compareVec(tr, "surv", km.Surv, c.KM.Surv, 1e-12)
		compareVec(tr, "std.err", km.StdErr, c.KM.StdErr, 1e-12)
		compareVec(tr, "lower", km.Lower, c.KM.Lower, 1e-12)
		compareVec(tr, "upper", km.Upper, c.KM.Upper, 1e-12)
		m, lo, hi := km.Median()
		tr.check("median", m, float64(c.KM.Median), 1e-12)
		tr.check("median lcl", lo, float64(c.KM.MedianLCL), 1e-12)
		tr.check("median ucl", hi, float64(c.KM.MedianUCL), 1e-12)
		if c.LogRank != nil {
			lr, err := LogRankTest(o, c.Group)
			if err != nil {
				t.Fatal(err)
			}
			compareVec(tr, "observed", lr.Observed, c.LogRank.Obs, 1e-12)
			compareVec(tr, "expected", lr.Expected, c.LogRank.Exp, 1e-12)
			tr.check("chisq", lr.Chisq, float64(c.LogRank.Chisq), 1e-12)
		}
		xm := mat.NewDense(len(x), 1, x)
		fit, err := Cox(o, xm, CoxOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tr.check("loglik0", fit.LogLik0, float64(c.Cox.LogLik[0]), 1e-12)
		tr.check("score", fit.Score, float64(c.Cox.Score), 1e-12)
		st, err := ScoreTests(o, xm, nil)
		if err != nil {
			t.Fatal(err)
		}
		tr.check("score test", st.Chisq[0], float64(c.Cox.Score), 1e-12)
		if c.Cox.Iter <= 20 {
			tr.check("coef", fit.Coef[0], float64(c.Cox.Coef), 1e-12)
			tr.check("se", fit.SE[0], float64(c.Cox.SE), 1e-12)
			tr.check("loglik", fit.LogLik, float64(c.Cox.LogLik[1]), 1e-12)
			if !fit.Converged || fit.Iter != c.Cox.Iter {
				t.Errorf("%s: converged %v in %d, coxph in %d", name, fit.Converged, fit.Iter, c.Cox.Iter)
			}
		} else {
			// coxph: "Ran out of iterations and did not converge"
			if fit.Converged {
				t.Errorf("%s: converged, coxph did not", name)
			}
			if d := relDiff(fit.Coef[0], float64(c.Cox.Coef), 1e-12); d > 1e-6 {
				t.Errorf("%s: coef %v, coxph %v", name, fit.Coef[0], c.Cox.Coef)
			}
		}
		h, err := Harrell(o, x)
		if err != nil {
			t.Fatal(err)
		}
		u, err := Uno(o, x, float64(c.Tau))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []struct {
			got  Concordance
			want refConc
		}{{h, c.Harrell}, {u, c.Uno}} {
			tr.check("C", p.got.C, float64(p.want.C), 1e-12)
			tr.check("C se", p.got.SE, float64(p.want.SE), 1e-12)
			compareVec(tr, "counts", []float64{p.got.Concordant, p.got.Discordant, p.got.TiedX, p.got.TiedY, p.got.TiedXY}, p.want.Count, 1e-12)
		}
		if c.AUC != nil {
			a, err := TimeDependentAUC(o, x, float64(c.Horizon))
			if err != nil {
				t.Fatal(err)
			}
			tr.check("auc", a.AUC, float64(c.AUC.AUC), 1e-12)
			tr.check("auc se", a.SE, float64(c.AUC.SE), 1e-12)
		}
		tr.log()
	}
}

// tiesSet is the "ties" set, worked by hand below.
func tiesSet() Outcome {
	return Outcome{
		Time:  []float64{1, 1, 1, 2, 2, 3, 4, 4, 5, 0},
		Event: []bool{true, true, false, true, false, true, false, true, false, true},
	}
}

// TestKMByHand: at times 0, 1, 2, 3, 4, 5 the numbers at risk are 10, 9, 6, 4, 3, 1
// and the events 1, 2, 1, 1, 1, 0, so S = 9/10, 9/10 * 7/9 = 0.7, 0.7 * 5/6, then * 3/4,
// * 2/3; Greenwood's variance of log S at 1 is 1/(10*9) + 2/(9*7); the median is 3
// (the first time S < 1/2). The time-0 event counts at 0 (S(0) = 0.9), with all 10
// at risk.
func TestKMByHand(t *testing.T) {
	km, err := KM(tiesSet())
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.9, 0.7, 0.7 * 5 / 6, 0.7 * 5 / 6 * 3 / 4, 0.7 * 5 / 6 * 3 / 4 * 2 / 3, 0.7 * 5 / 6 * 3 / 4 * 2 / 3}
	risk := []int{10, 9, 6, 4, 3, 1}
	for j := range want {
		if math.Abs(km.Surv[j]-want[j]) > 1e-15 || km.NRisk[j] != risk[j] {
			t.Errorf("row %d: S %v at risk %d, want %v %d", j, km.Surv[j], km.NRisk[j], want[j], risk[j])
		}
	}
	if se := math.Sqrt(1.0/90 + 2.0/63); math.Abs(km.StdErr[1]-se) > 1e-15 {
		t.Errorf("std.err at 1: %v, want %v", km.StdErr[1], se)
	}
	if m, _, _ := km.Median(); m != 3 {
		t.Errorf("median %v, want 3", m)
	}
	if km.At(0) != 0.9 || km.At(-1) != 1 || km.At(1.5) != km.Surv[1] || km.At(99) != km.Surv[5] {
		t.Errorf("At: %v %v %v %v", km.At(0), km.At(-1), km.At(1.5), km.At(99))
	}
	if r := km.AtRisk([]float64{0, 0.5, 1, 4.5, 5, 6}); !equalInts(r, []int{10, 9, 9, 1, 1, 0}) {
		t.Errorf("at risk %v", r)
	}
	// a curve exactly 1/2 over an interval: the median is its midpoint
	half, _ := KM(Outcome{Time: []float64{1, 2, 3, 4}, Event: []bool{true, true, true, true}})
	if m, _, _ := half.Median(); m != 2.5 {
		t.Errorf("median of a curve 1/2 on [2, 3): %v, want 2.5", m)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestConcordanceByHand counts the pairs of the ties set by enumeration (the rules of
// concordance): comparable when the shorter time is an event and the other is
// longer, or equal and censored; score ties count 1/2.
func TestConcordanceByHand(t *testing.T) {
	o := tiesSet()
	x := []float64{0.5, 2, 1, 0.5, 3, 1, 2, 0.5, 1, 2.5}
	c, ct, tx, ty := brutePairs(o, x, nil)
	h, err := Harrell(o, x)
	if err != nil {
		t.Fatal(err)
	}
	if h.Concordant != c || h.TiedX != tx || h.TiedY+h.TiedXY != ty {
		t.Errorf("counts %+v, by hand concordant %v discordant %v tied x %v tied y %v", h, c, ct, tx, ty)
	}
	if want := (c + tx/2) / (c + ct + tx); math.Abs(h.C-want) > 1e-15 {
		t.Errorf("C %v, want %v", h.C, want)
	}
}

// brutePairs enumerates the pairs: concordant, discordant, tied on score, tied on an
// event time; w (nil = 1) weights a pair by its earlier time's weight.
func brutePairs(o Outcome, x []float64, w func(t float64) float64) (conc, disc, tx, ty float64) {
	for i := range o.Time {
		if !o.Event[i] {
			continue
		}
		wt := 1.0
		if w != nil {
			wt = w(o.Time[i])
		}
		for j := range o.Time {
			if i == j {
				continue
			}
			switch {
			case o.Time[j] > o.Time[i] || (o.Time[j] == o.Time[i] && !o.Event[j]):
				switch {
				case x[i] > x[j]:
					conc += wt
				case x[i] < x[j]:
					disc += wt
				default:
					tx += wt
				}
			case o.Time[j] == o.Time[i] && j > i:
				ty += wt
			}
		}
	}
	return
}

// TestCheck: errors name the sample and say what is wrong; a time 0 is allowed.
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		o    Outcome
		want string
	}{
		{Outcome{Time: []float64{1, 2}, Event: []bool{true}}, "2 times but 1 event"},
		{Outcome{}, "no samples"},
		{Outcome{Time: []float64{1, 2, -3}, Event: []bool{true, true, false}}, "sample 2 (row 3) has a negative time"},
		{Outcome{Time: []float64{1, math.NaN()}, Event: []bool{true, true}}, "sample 1 (row 2) has no time"},
		{Outcome{Time: []float64{math.Inf(1), 1}, Event: []bool{true, true}}, "sample 0 (row 1) has an infinite time"},
		{Outcome{Time: []float64{1, 2}, Event: []bool{false, false}}, "no sample has the event"},
	} {
		err := c.o.Check()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check(%v) = %v, want %q", c.o, err, c.want)
		}
	}
	if err := (Outcome{Time: []float64{0, 1}, Event: []bool{true, false}}).Check(); err != nil {
		t.Errorf("time 0 with an event: %v", err)
	}
}

// TestAllCensored: the Kaplan-Meier curve is flat at 1 with no median; everything
// that needs an event says so.
func TestAllCensored(t *testing.T) {
	o := Outcome{Time: []float64{1, 2, 3}, Event: []bool{false, false, false}}
	km, err := KM(o)
	if err != nil {
		t.Fatal(err)
	}
	if m, _, _ := km.Median(); km.At(5) != 1 || !math.IsNaN(m) {
		t.Errorf("all censored: S %v median %v", km.At(5), m)
	}
	x := mat.NewDense(3, 1, []float64{1, 2, 3})
	if _, err := Cox(o, x, CoxOptions{}); !errors.Is(err, ErrNoEvents) {
		t.Errorf("Cox: %v", err)
	}
	if _, err := ScoreTests(o, x, nil); !errors.Is(err, ErrNoEvents) {
		t.Errorf("ScoreTests: %v", err)
	}
	if _, err := Harrell(o, []float64{1, 2, 3}); !errors.Is(err, ErrNoEvents) {
		t.Errorf("Harrell: %v", err)
	}
	lr, err := LogRankTest(o, []int{0, 1, 1})
	if err != nil || lr.Chisq != 0 {
		t.Errorf("log-rank: %v %v", lr, err)
	}
}

// TestSingularCox: a covariate that copies another is refused with ErrSingular; a
// ridge makes the fit possible.
func TestSingularCox(t *testing.T) {
	o := tiesSet()
	x := mat.NewDense(10, 2, nil)
	for i := 0; i < 10; i++ {
		x.Set(i, 0, float64(i%4))
		x.Set(i, 1, 2*float64(i%4))
	}
	if _, err := Cox(o, x, CoxOptions{}); !errors.Is(err, ErrSingular) {
		t.Errorf("collinear: %v", err)
	}
	if fit, err := Cox(o, x, CoxOptions{Ridge: 1}); err != nil || !fit.Converged {
		t.Errorf("collinear with a ridge: %v", err)
	}
}

// TestTimefix: times within sqrt(machine epsilon) of each other are one time, as
// survival's aeqSurv (timefix = TRUE) makes them: in R 4.2.2 / survival 3.5-3,
// survfit(Surv(c(1, 1+1e-9, 1+2e-9, 2, 3), c(1, 1, 0, 1, 0)) ~ 1) has times 1, 2, 3
// with 2, 1, 0 events, and coxph(... ~ c(1, 3, 2, 5, 4))$loglik is
// -3.68887945411394, -3.31519971575836.
func TestTimefix(t *testing.T) {
	o := Outcome{Time: []float64{1, 1 + 1e-9, 1 + 2e-9, 2, 3}, Event: []bool{true, true, false, true, false}}
	km, err := KM(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(km.Time) != 3 || km.Time[0] != 1 || km.NEvent[0] != 2 || km.NCensor[0] != 1 {
		t.Errorf("KM times %v events %v", km.Time, km.NEvent)
	}
	fit, err := Cox(o, mat.NewDense(5, 1, []float64{1, 3, 2, 5, 4}), CoxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if relDiff(fit.LogLik0, -3.68887945411394, 1) > 1e-13 || relDiff(fit.LogLik, -3.31519971575836, 1) > 1e-12 {
		t.Errorf("loglik %.15g %.15g", fit.LogLik0, fit.LogLik)
	}
}

// TestCoxWarnings: the single-event set separates (its event has the largest score at
// risk), so the fit runs out of iterations as coxph does and says so in its words.
func TestCoxWarnings(t *testing.T) {
	o := Outcome{Time: []float64{2, 3, 5, 7, 11, 13}, Event: []bool{false, true, false, false, false, false}}
	fit, err := Cox(o, mat.NewDense(6, 1, []float64{1, 2, 1.5, 0.2, 0.7, 1.1}), CoxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w := fit.Warnings(); len(w) != 1 || w[0] != "Ran out of iterations and did not converge" {
		t.Errorf("warnings %q", w)
	}
	clean, err := Cox(tiesSet(), mat.NewDense(10, 1, []float64{0.5, 2, 1, 0.5, 3, 1, 2, 0.5, 1, 2.5}), CoxOptions{})
	if err != nil || clean.Warnings() != nil {
		t.Errorf("clean fit: %v %q", err, clean.Warnings())
	}
	f := &CoxFit{Converged: true, Infinite: []bool{false, true, false, true}}
	if w := f.Warnings(); len(w) != 1 || w[0] != "Loglik converged before variable 2,4; coefficient may be infinite." {
		t.Errorf("warnings %q", w)
	}
}

// TestSeparation: the three earliest of 8 events are the only samples with x = 1, so
// the coefficient runs to infinity while the likelihood converges. In R 4.2.2 /
// survival 3.5-3, coxph(Surv(1:8, rep(1, 8)) ~ c(1, 1, 1, 0, 0, 0, 0, 0)) warns
// "Loglik converged before variable 1; coefficient may be infinite" after 19
// iterations, with coef 21.8924637358127 and loglik -10.60460290274525,
// -6.57925121485741. The likelihood is flat out there, so the coefficient agrees to
// 1e-6 relative only (observed 2e-9: rounding, R scales its covariates).
func TestSeparation(t *testing.T) {
	o := Outcome{Time: []float64{1, 2, 3, 4, 5, 6, 7, 8}, Event: []bool{true, true, true, true, true, true, true, true}}
	fit, err := Cox(o, mat.NewDense(8, 1, []float64{1, 1, 1, 0, 0, 0, 0, 0}), CoxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !fit.Converged || !fit.Infinite[0] || fit.Iter != 19 {
		t.Errorf("converged %v infinite %v after %d", fit.Converged, fit.Infinite, fit.Iter)
	}
	if relDiff(fit.Coef[0], 21.8924637358127, 1) > 1e-6 || relDiff(fit.LogLik, -6.57925121485741, 1) > 1e-12 || relDiff(fit.LogLik0, -10.60460290274525, 1) > 1e-14 {
		t.Errorf("coef %.15g loglik %.15g %.15g", fit.Coef[0], fit.LogLik0, fit.LogLik)
	}
	if w := fit.Warnings(); len(w) != 1 || w[0] != "Loglik converged before variable 1; coefficient may be infinite." {
		t.Errorf("warnings %q", w)
	}
	uc, err := UnivariateCox(o, mat.NewDense(8, 1, []float64{1, 1, 1, 0, 0, 0, 0, 0}), nil)
	if err != nil || !uc.Infinite[0] || uc.Iter[0] != 19 || relDiff(uc.Coef[0], fit.Coef[0], 1) > 1e-12 {
		t.Errorf("univariate: %v infinite %v iter %v coef %v", err, uc.Infinite, uc.Iter, uc.Coef)
	}
}
