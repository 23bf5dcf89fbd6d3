package survival

import (
	"math"
	"sync"
	"testing"
)

// The tests in this file compare with testdata/reference.json, written by
// testdata/reference.R (R 4.2.2, survival 3.5-3, riskRegression 2022.11.28) from the
// real sets in ../shared/data: DLBCL (CHOP, 181 patients, years; R-CHOP, 233, as a
// validation cohort) and AML (116 patients, days), for the 5 genes with the largest
// score test and for 5 genes drawn with set.seed(1) and set.seed(2).

type refCox struct {
	Theta   num   `json:"theta"`
	Coef    []num `json:"coef"`
	Var     []num `json:"var"`
	LogLik  []num `json:"loglik"`
	Iter    int   `json:"iter"`
	LP      []num `json:"lp"`
	Means   []num `json:"means"`
	Score   num   `json:"score"`
	DF      num   `json:"df"`
	Penalty num   `json:"penalty"`
	Genes   []string
}

type refKM struct {
	Time      []num `json:"time"`
	NRisk     []num `json:"n_risk"`
	NEvent    []num `json:"n_event"`
	NCensor   []num `json:"n_censor"`
	Surv      []num `json:"surv"`
	StdErr    []num `json:"std_err"`
	Lower     []num `json:"lower"`
	Upper     []num `json:"upper"`
	Median    num   `json:"median"`
	MedianLCL num   `json:"median_lcl"`
	MedianUCL num   `json:"median_ucl"`
	At        struct {
		Time   []num `json:"time"`
		NRisk  []num `json:"n_risk"`
		NEvent []num `json:"n_event"`
		Surv   []num `json:"surv"`
		StdErr []num `json:"std_err"`
		Lower  []num `json:"lower"`
		Upper  []num `json:"upper"`
	} `json:"at"`
}

type refLogRank struct {
	Obs   []num `json:"obs"`
	Exp   []num `json:"exp"`
	Var   []num `json:"var"`
	Chisq num   `json:"chisq"`
	P     num   `json:"p"`
}

type refConc struct {
	C     num   `json:"c"`
	SE    num   `json:"se"`
	Count []num `json:"count"`
}

type refConcPair struct {
	Harrell refConc `json:"harrell"`
	Uno     refConc `json:"uno"`
}

type refAUC struct {
	Times []num `json:"times"`
	AUC   []num `json:"auc"`
	SE    []num `json:"se"`
}

type refCalGroup struct {
	Group     int `json:"group"`
	N         int `json:"n"`
	Predicted num `json:"predicted"`
	Observed  num `json:"observed"`
	Lower     num `json:"lower"`
	Upper     num `json:"upper"`
	NRisk     int `json:"n_risk"`
	Events    int `json:"events"`
}

type refCase struct {
	Genes       []string               `json:"genes"`
	Cox         refCox                 `json:"cox"`
	LRT         []num                  `json:"lrt"`
	SCTest      []num                  `json:"sctest"`
	Ridge       []refCox               `json:"ridge"`
	Groups2     []int                  `json:"groups2"`
	Groups3     []int                  `json:"groups3"`
	KM          map[string]refKM       `json:"km"`
	LogRank2    refLogRank             `json:"logrank2"`
	LogRank3    refLogRank             `json:"logrank3"`
	Scores      map[string][]num       `json:"scores"`
	Concordance map[string]refConcPair `json:"concordance"`
	AUC         map[string]refAUC      `json:"auc"`
	Calibration struct {
		BaseTime   []num           `json:"base_time"`
		BaseCumHaz []num           `json:"base_cumhaz"`
		Horizons   []num           `json:"horizons"`
		Pred       [][]num         `json:"pred"`
		Groups     [][]refCalGroup `json:"groups"`
	} `json:"calibration"`
	Valid *struct {
		LP          []num       `json:"lp"`
		Concordance refConcPair `json:"concordance"`
		AUC         refAUC      `json:"auc"`
	} `json:"valid"`
}

type refFile struct {
	Cases   map[string]*refCase
	Ridge50 refCox
}

var (
	refOnce sync.Once
	refData refFile
)

func loadRef(tb testing.TB) *refFile {
	tb.Helper()
	refOnce.Do(func() {
		var raw map[string]jsonRaw
		readJSON(tb, "testdata/reference.json", &raw)
		refData.Cases = map[string]*refCase{}
		for k, v := range raw {
			if k == "rchop_ridge50" {
				decode(tb, v, &refData.Ridge50)
				continue
			}
			c := &refCase{}
			decode(tb, v, c)
			refData.Cases[k] = c
		}
	})
	if len(refData.Cases) == 0 {
		tb.Fatal("reference.json: no cases")
	}
	return &refData
}

// refSets names the data set of each case.
var refSets = map[string]string{
	"dlbcl_top5":  "dlbcl_chop_survival.csv",
	"dlbcl_seed1": "dlbcl_chop_survival.csv",
	"dlbcl_seed2": "dlbcl_chop_survival.csv",
	"aml_top5":    "aml_survival.csv",
	"aml_seed1":   "aml_survival.csv",
}

func compareVec(tr *tracker, what string, got []float64, want []num, floor float64) {
	tr.tb.Helper()
	if len(got) != len(want) {
		tr.tb.Errorf("%s %s: %d values, want %d", tr.name, what, len(got), len(want))
		return
	}
	for i := range got {
		tr.check(what, got[i], float64(want[i]), floor)
	}
}

func compareCox(t *testing.T, tr *tracker, fit *CoxFit, want refCox) {
	t.Helper()
	compareVec(tr, "coef", fit.Coef, want.Coef, 1e-12)
	k := len(fit.Coef)
	v := make([]float64, 0, k*k)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			v = append(v, fit.Var.At(i, j))
		}
	}
	compareVec(tr, "var", v, want.Var, 1e-14)
	tr.check("loglik0", fit.LogLik0, float64(want.LogLik[0]), 1e-12)
	tr.check("loglik", fit.LogLik, float64(want.LogLik[1]), 1e-12)
	compareVec(tr, "linear predictor", fit.LinearPredictor, want.LP, 1e-9)
	compareVec(tr, "means", fit.Means, want.Means, 1e-12)
	tr.check("df", fit.LRTDF, float64(want.DF), 1e-12)
	tr.check("penalty", fit.Penalty, float64(want.Penalty), 1e-14)
	if fit.Iter != want.Iter {
		t.Logf("%s: %d iterations, coxph %d", tr.name, fit.Iter, want.Iter)
	}
	if !fit.Converged {
		t.Errorf("%s: not converged", tr.name)
	}
}

// TestCoxAgainstR fits the 5-gene Cox models, unpenalised and with ridge penalties
// theta = 1 and 10 (coxph(... ridge(X, theta, scale = FALSE))), and a ridge on the
// 50 best CHOP genes in R-CHOP (60 events). Tolerance 1e-10 relative (absolute near
// zero) for coefficients, variances, log likelihoods, linear predictors, the
// likelihood-ratio and score tests and the ridge's effective degrees of freedom.
func TestCoxAgainstR(t *testing.T) {
	ref := loadRef(t)
	for name, c := range ref.Cases {
		s := readSet(t, refSets[name])
		x := columns(s.x, s.geneIndex(t, c.Genes))
		tr := newTracker(t, name+" cox", 1e-10)
		fit, err := Cox(s.o, x, CoxOptions{})
		if err != nil {
			t.Fatal(err)
		}
		compareCox(t, tr, fit, c.Cox)
		tr.check("LRT", fit.LRT, float64(c.LRT[0]), 1e-12)
		tr.check("LRT p", fit.LRTP, float64(c.LRT[2]), 1e-300)
		tr.check("score test", fit.Score, float64(c.SCTest[0]), 1e-12)
		tr.check("score p", fit.ScoreP, float64(c.SCTest[2]), 1e-300)
		for j := range fit.Coef {
			tr.check("z", fit.Z[j], fit.Coef[j]/math.Sqrt(float64(c.Cox.Var[j*len(fit.Coef)+j])), 1e-12)
		}
		tr.log()
		for _, r := range c.Ridge {
			tr := newTracker(t, name+" ridge", 1e-10)
			fit, err := Cox(s.o, x, CoxOptions{Ridge: float64(r.Theta)})
			if err != nil {
				t.Fatal(err)
			}
			compareCox(t, tr, fit, r)
			tr.log()
		}
	}
	r := ref.Ridge50
	s := readSet(t, "dlbcl_rchop_survival.csv")
	x := columns(s.x, s.geneIndex(t, r.Genes))
	fit, err := Cox(s.o, x, CoxOptions{Ridge: float64(r.Theta)})
	if err != nil {
		t.Fatal(err)
	}
	tr := newTracker(t, "rchop 50-gene ridge", 1e-10)
	compareCox(t, tr, fit, r)
	tr.log()
}

// scoreOf is a reference score vector.
func (c *refCase) scoreOf(name string) []float64 { return numFloats(c.Scores[name]) }

// TestKMLogRankAgainstR compares the Kaplan-Meier curves (all samples, and either
// side of the median of the 5-gene linear predictor), their summaries at fixed
// times, medians with intervals, and log-rank tests of 2 and 3 risk groups.
// Tolerance 1e-12 relative (counts exact).
func TestKMLogRankAgainstR(t *testing.T) {
	ref := loadRef(t)
	for name, c := range ref.Cases {
		s := readSet(t, refSets[name])
		tr := newTracker(t, name+" km", 1e-12)
		for part, want := range c.KM {
			o := s.o
			if part != "all" {
				var rows []int
				for i, g := range c.Groups2 {
					if (part == "g1") == (g == 1) {
						rows = append(rows, i)
					}
				}
				o = s.o.Subset(rows)
			}
			km, err := KM(o)
			if err != nil {
				t.Fatal(err)
			}
			compareKM(t, tr, km, want)
		}
		tr.log()
		lt := newTracker(t, name+" log-rank", 1e-10)
		for k, want := range []refLogRank{c.LogRank2, c.LogRank3} {
			g := c.Groups2
			if k == 1 {
				g = c.Groups3
			}
			lr, err := LogRankTest(s.o, g)
			if err != nil {
				t.Fatal(err)
			}
			compareVec(lt, "observed", lr.Observed, want.Obs, 1e-12)
			compareVec(lt, "expected", lr.Expected, want.Exp, 1e-12)
			ng := len(lr.Observed)
			var v []float64
			for a := 0; a < ng; a++ {
				for b := 0; b < ng; b++ {
					v = append(v, lr.Var.At(a, b))
				}
			}
			compareVec(lt, "var", v, want.Var, 1e-12)
			lt.check("chisq", lr.Chisq, float64(want.Chisq), 1e-12)
			lt.check("p", lr.P, float64(want.P), 1e-300)
			if lr.DF != ng-1 {
				t.Errorf("%s: df %d", name, lr.DF)
			}
		}
		lt.log()
	}
}

func compareKM(t *testing.T, tr *tracker, km *KaplanMeier, want refKM) {
	t.Helper()
	compareVec(tr, "time", km.Time, want.Time, 1e-300)
	ints := func(v []int) []float64 {
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = float64(x)
		}
		return out
	}
	exact := newTracker(t, tr.name+" counts", 0)
	compareVec(exact, "n.risk", ints(km.NRisk), want.NRisk, 1)
	compareVec(exact, "n.event", ints(km.NEvent), want.NEvent, 1)
	compareVec(exact, "n.censor", ints(km.NCensor), want.NCensor, 1)
	compareVec(tr, "surv", km.Surv, want.Surv, 1e-14)
	compareVec(tr, "std.err", km.StdErr, want.StdErr, 1e-14)
	compareVec(tr, "lower", km.Lower, want.Lower, 1e-14)
	compareVec(tr, "upper", km.Upper, want.Upper, 1e-14)
	m, lo, hi := km.Median()
	tr.check("median", m, float64(want.Median), 1e-14)
	tr.check("median LCL", lo, float64(want.MedianLCL), 1e-14)
	tr.check("median UCL", hi, float64(want.MedianUCL), 1e-14)
	pts := km.Summary(numFloats(want.At.Time))
	var nr, ne, sv, se, l, u []float64
	for _, p := range pts {
		nr = append(nr, float64(p.NRisk))
		ne = append(ne, float64(p.NEvent))
		sv, se, l, u = append(sv, p.Surv), append(se, p.StdErr), append(l, p.Lower), append(u, p.Upper)
	}
	compareVec(exact, "summary n.risk", nr, want.At.NRisk, 1)
	compareVec(exact, "summary events", ne, want.At.NEvent, 1)
	compareVec(tr, "summary surv", sv, want.At.Surv, 1e-14)
	compareVec(tr, "summary std.err", se, want.At.StdErr, 1e-14)
	compareVec(tr, "summary lower", l, want.At.Lower, 1e-14)
	compareVec(tr, "summary upper", u, want.At.Upper, 1e-14)
	ar := km.AtRisk(numFloats(want.At.Time))
	compareVec(exact, "at risk", ints(ar), want.At.NRisk, 1)
}

// TestConcordanceAgainstR compares Harrell's C, Uno's C (tau = 5 years for DLBCL,
// 1000 days for AML) and their standard errors and pair counts for four scores per
// case: the 5-gene linear predictor, the first gene, that gene rounded to 0.5 (many
// ties) and the negated linear predictor; and for the CHOP model applied to
// R-CHOP (its linear predictor computed here). Tolerance 1e-10 relative.
func TestConcordanceAgainstR(t *testing.T) {
	ref := loadRef(t)
	for name, c := range ref.Cases {
		s := readSet(t, refSets[name])
		tau := 5.0
		if refSets[name] == "aml_survival.csv" {
			tau = 1000
		}
		tr := newTracker(t, name+" concordance", 1e-10)
		for sn, want := range c.Concordance {
			compareConc(t, tr, s.o, c.scoreOf(sn), tau, want, sn)
		}
		if c.Valid != nil {
			v := readSet(t, "dlbcl_rchop_survival.csv")
			fit, err := Cox(s.o, columns(s.x, s.geneIndex(t, c.Genes)), CoxOptions{})
			if err != nil {
				t.Fatal(err)
			}
			lp, err := fit.LinearPredictorOf(columns(v.x, v.geneIndex(t, c.Genes)))
			if err != nil {
				t.Fatal(err)
			}
			compareVec(tr, "validation linear predictor", lp, c.Valid.LP, 1e-9)
			compareConc(t, tr, v.o, lp, tau, c.Valid.Concordance, "validation")
		}
		tr.log()
	}
}

func compareConc(t *testing.T, tr *tracker, o Outcome, score []float64, tau float64, want refConcPair, what string) {
	t.Helper()
	h, err := Harrell(o, score)
	if err != nil {
		t.Fatal(err)
	}
	u, err := Uno(o, score, tau)
	if err != nil {
		t.Fatal(err)
	}
	for _, pair := range []struct {
		got  Concordance
		want refConc
		name string
	}{{h, want.Harrell, " harrell"}, {u, want.Uno, " uno"}} {
		g := pair.got
		tr.check(what+pair.name+" C", g.C, float64(pair.want.C), 1e-12)
		tr.check(what+pair.name+" SE", g.SE, float64(pair.want.SE), 1e-12)
		compareVec(tr, what+pair.name+" counts", []float64{g.Concordant, g.Discordant, g.TiedX, g.TiedY, g.TiedXY}, pair.want.Count, 1e-9)
	}
}

// TestTimeAUCAgainstR compares the time-dependent AUC and its standard error with
// riskRegression::Score (cens.model "km", se.fit) at 2 and 5 years (DLBCL) and 365
// and 1000 days (AML), for the four scores and the R-CHOP validation. Tolerance 1e-10
// relative.
func TestTimeAUCAgainstR(t *testing.T) {
	ref := loadRef(t)
	for name, c := range ref.Cases {
		s := readSet(t, refSets[name])
		tr := newTracker(t, name+" time AUC", 1e-10)
		check := func(o Outcome, score []float64, want refAUC, what string) {
			for k, h := range want.Times {
				a, err := TimeDependentAUC(o, score, float64(h))
				if err != nil {
					t.Fatal(err)
				}
				tr.check(what+" AUC", a.AUC, float64(want.AUC[k]), 1e-12)
				tr.check(what+" SE", a.SE, float64(want.SE[k]), 1e-12)
			}
		}
		for sn, want := range c.AUC {
			check(s.o, c.scoreOf(sn), want, sn)
		}
		if c.Valid != nil {
			v := readSet(t, "dlbcl_rchop_survival.csv")
			check(v.o, numFloats(c.Valid.LP), c.Valid.AUC, "validation")
		}
		tr.log()
	}
}

// TestCalibrationAgainstR compares the baseline cumulative hazard (survfit of the
// 5-gene Cox model at the means: Efron's estimator), each sample's predicted
// survival at the horizons (summary(survfit(fit, newdata), times)) and the
// calibration table of the three risk groups (tertiles of the linear predictor):
// mean predicted, Kaplan-Meier observed with its interval, numbers at risk and
// events. Tolerance 1e-10 relative.
func TestCalibrationAgainstR(t *testing.T) {
	ref := loadRef(t)
	for name, c := range ref.Cases {
		s := readSet(t, refSets[name])
		x := columns(s.x, s.geneIndex(t, c.Genes))
		fit, err := Cox(s.o, x, CoxOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tr := newTracker(t, name+" calibration", 1e-10)
		bt, bh := fit.BaselineHazard()
		compareVec(tr, "baseline time", bt, c.Calibration.BaseTime, 1e-300)
		compareVec(tr, "baseline cumhaz", bh, c.Calibration.BaseCumHaz, 1e-12)
		for k, h := range c.Calibration.Horizons {
			pred, err := fit.Survival(x, float64(h))
			if err != nil {
				t.Fatal(err)
			}
			compareVec(tr, "predicted survival", pred, c.Calibration.Pred[k], 1e-12)
			cal, err := Calibration(s.o, pred, c.Groups3, float64(h))
			if err != nil {
				t.Fatal(err)
			}
			for g, want := range c.Calibration.Groups[k] {
				got := cal[g]
				if got.Group != want.Group || got.N != want.N || got.AtRisk != want.NRisk || got.Events != want.Events {
					t.Errorf("%s group %d: n %d at risk %d events %d, want %+v", name, g, got.N, got.AtRisk, got.Events, want)
				}
				tr.check("predicted", got.Predicted, float64(want.Predicted), 1e-12)
				tr.check("observed", got.Observed, float64(want.Observed), 1e-12)
				tr.check("lower", got.Low, float64(want.Lower), 1e-12)
				tr.check("upper", got.High, float64(want.Upper), 1e-12)
			}
		}
		tr.log()
	}
}
