package study

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/survival"

	"gonum.org/v1/gonum/mat"
)

// dlbclStudy is a small survival study of DLBCL CHOP (../shared/data; the test fails
// without it): the Cox score test under 2 x 5-fold CV, C at k = 5 and 10.
func dlbclStudy(t *testing.T) (*experiment.Result, *dataset.Dataset) {
	t.Helper()
	ds, err := dataset.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "dlbcl_chop_survival.csv"), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	cfg := experiment.DefaultSurvivalConfig()
	cfg.Repeats, cfg.Folds, cfg.Ks = 2, 5, []int{5, 10}
	res, err := experiment.Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res, ds
}

// The locked Cox model of a survival signature equals R's: the 10 genes of largest
// score test on all DLBCL CHOP patients, their coefficients and SEs (ridge theta 1,
// Efron), the risk score's Harrell's C and SE, its hazard ratio per SD, the log-rank
// chi-square of the halves cut at its median and the predicted survival at 2 and 5
// years. Reference: testdata/survsig_lock.R (R 4.2.2, survival 3.5-3), to 1e-6.
func TestSurvivalSignatureLockEqualsR(t *testing.T) {
	res, ds := dlbclStudy(t)
	s, err := BuildSurvivalSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 10}, SurvivalOptions{Horizons: []float64{2, 5}, Unit: "years"})
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Genes                  []string
		Coef, SE, Surv2, Surv5 []float64
		C                      float64 `json:"c"`
		CSE                    float64 `json:"c_se"`
		HR                     float64 `json:"hr"`
		HRLow                  float64 `json:"hr_low"`
		HRHigh                 float64 `json:"hr_high"`
		LogrankChisq           float64 `json:"logrank_chisq"`
	}
	b, err := os.ReadFile(filepath.Join("testdata", "survsig_lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	close := func(what string, got, exp float64) {
		if math.Abs(got-exp) > 1e-6*math.Max(1, math.Abs(exp)) {
			t.Errorf("%s: %.10g, R %.10g", what, got, exp)
		}
	}
	for i, g := range s.Genes {
		if g.ID != want.Genes[i] {
			t.Fatalf("gene %d: %s, R %s", i+1, g.ID, want.Genes[i])
		}
		close("coefficient of "+g.ID, g.Coef, want.Coef[i])
		close("SE of "+g.ID, s.Model.Cox.SE[i], want.SE[i])
	}
	a := s.Apparent
	close("C", a.C.C, want.C)
	close("C's SE", a.C.SE, want.CSE)
	close("HR per SD", a.HR.HR, want.HR)
	close("HR low", a.HR.Low, want.HRLow)
	close("HR high", a.HR.High, want.HRHigh)
	close("log-rank chi-square", a.LogRank.Chisq, want.LogrankChisq)
	for h, exp := range [][]float64{want.Surv2, want.Surv5} {
		got := s.Model.Cox.SurvivalAt(a.Scores, s.Opts.Horizons[h])
		for i := range got {
			close("predicted survival", got[i], exp[i])
		}
	}
}

// The cross-validated estimate refits each resample's model on its own training
// samples: its held-out scores are the study's out-of-fold scores bit for bit, its
// mean C is the study's curve at k, every sample is in one cross-validated risk group
// per repetition, and the files a script reads have their columns and rows.
func TestSurvivalSignatureIsTheStudys(t *testing.T) {
	res, ds := dlbclStudy(t)
	s, err := BuildSurvivalSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 10}, SurvivalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var curve float64
	for _, p := range res.Methods[0].Accuracy["cox"] {
		if p.K == 10 {
			curve = p.Mean
		}
	}
	if math.Abs(s.CV.C.Mean-curve) > 1e-12 || !(s.CV.C.Low < s.CV.C.Mean && s.CV.C.Mean < s.CV.C.High) {
		t.Errorf("cross-validated C %v (%v-%v), the study's curve %v", s.CV.C.Mean, s.CV.C.Low, s.CV.C.High, curve)
	}
	for _, pr := range res.Methods[0].Predictions {
		rf, err := experiment.RefitCox(context.Background(), res.Config, ds, dataset.Split{Train: complementOf(pr.Test, len(ds.Samples)), Test: pr.Test}, pr.Selected[:10], experiment.CoxRidge)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(rf.Test, pr.Scores["cox"][1]) {
			t.Fatal("a refitted resample scores its held-out samples otherwise than the study did")
		}
	}
	if s.Opts.Horizons[0] != 7.62 || s.Opts.Tau != 7.62 {
		t.Errorf("default horizon %v, tau %v; the median follow-up is 7.62 years (R's reverse Kaplan-Meier)", s.Opts.Horizons, s.Opts.Tau)
	}
	files, err := s.Files()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(files["predictions.csv"])).ReadAll()
	if err != nil || len(rows) != 182 || strings.Join(rows[0], ",") != "sample,time,event,risk_score,risk_group,cv_risk_group" || rows[1][0] != "CHOP_V2" || rows[1][1] != "2.68" || rows[1][2] != "1" {
		t.Errorf("predictions.csv: %v, %d rows, first %v", err, len(rows), rows[:2])
	}
	metrics, _ := csv.NewReader(bytes.NewReader(files["metrics.csv"])).ReadAll()
	names := map[string]bool{}
	for _, r := range metrics {
		names[r[0]] = true
	}
	for _, want := range []string{"c_index", "hazard_ratio_per_sd", "logrank_p", "time_auc_7.62", "c_index_apparent"} {
		if !names[want] {
			t.Errorf("metrics.csv lacks %s", want)
		}
	}
	if metrics[1][0] != "c_index_headline" {
		t.Errorf("metrics.csv begins with %v, not the headline C", metrics[1])
	}
	m, err := signature.DecodeModel("model.json", files["model.json"])
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := m.RiskScores(mustSelect(ds, m)); !slices.Equal(r, s.Apparent.Scores) {
		t.Error("the model read back scores otherwise")
	}
}

// complementOf is 0..n-1 without test.
func complementOf(test []int, n int) []int {
	var out []int
	for i := range n {
		if !slices.Contains(test, i) {
			out = append(out, i)
		}
	}
	return out
}

// mustSelect is ds's values of m's genes.
func mustSelect(ds *dataset.Dataset, m *signature.Model) *mat.Dense {
	var idx []int
	for _, g := range m.Genes {
		idx = append(idx, slices.Index(ds.Features, g.ID))
	}
	return dataset.SelectFeatures(ds.X, idx)
}

// A survival signature applied to an independent cohort with its own outcome equals R:
// the locked model of the 10 DLBCL CHOP genes (TestSurvivalSignatureLockEqualsR) on the
// R-CHOP patients: Harrell's C and its SE, Uno's C truncated at 5 years, the hazard
// ratio per training SD of the risk score, the log-rank chi-square of the groups cut at
// the training median (65 high-risk patients) and the predicted survival at 2 years.
// Reference: testdata/survsig_cohort.R (R 4.2.2, survival 3.5-3), to 1e-6. The files a
// script reads have their columns.
func TestSurvivalCohortEqualsR(t *testing.T) {
	res, ds := dlbclStudy(t)
	s, err := BuildSurvivalSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 10}, SurvivalOptions{Horizons: []float64{2, 5}, Unit: "years"})
	if err != nil {
		t.Fatal(err)
	}
	v, err := Validate(context.Background(), s.Model, filepath.Join("..", "..", "..", "shared", "data", "dlbcl_rchop_survival.csv"), CohortOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		C            float64   `json:"c"`
		CSE          float64   `json:"c_se"`
		Uno          float64   `json:"uno"`
		HR           float64   `json:"hr"`
		HRLow        float64   `json:"hr_low"`
		HRHigh       float64   `json:"hr_high"`
		LogrankChisq float64   `json:"logrank_chisq"`
		High         int       `json:"high"`
		Surv2        []float64 `json:"surv2"`
	}
	b, err := os.ReadFile(filepath.Join("testdata", "survsig_cohort.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	m := v.Survival
	if m == nil || m.N != 233 || m.Events != 60 {
		t.Fatalf("cohort measures %+v", m)
	}
	near := func(what string, got, exp float64) {
		if math.Abs(got-exp) > 1e-6*math.Max(1, math.Abs(exp)) {
			t.Errorf("%s: %.10g, R %.10g", what, got, exp)
		}
	}
	near("C", m.C.C, want.C)
	near("C's SE", m.C.SE, want.CSE)
	near("Uno's C", m.Uno.C, want.Uno)
	near("HR", m.HR.HR, want.HR)
	near("HR low", m.HR.Low, want.HRLow)
	near("HR high", m.HR.High, want.HRHigh)
	near("log-rank chi-square", m.LogRank.Chisq, want.LogrankChisq)
	high := 0
	for _, g := range v.Pred {
		high += g
	}
	if high != want.High {
		t.Errorf("%d high-risk patients, R %d", high, want.High)
	}
	got := s.Model.Cox.SurvivalAt(v.Risk()[:5], 2)
	for i := range got {
		near("predicted survival at 2 years", got[i], want.Surv2[i])
	}
	files := ValidationFiles(v)
	rows, _ := csv.NewReader(bytes.NewReader(files["predictions.csv"])).ReadAll()
	if len(rows) != 234 || strings.Join(rows[0], ",") != "sample,time,event,risk_score,risk_group" {
		t.Errorf("predictions.csv: %d rows, header %v", len(rows), rows[0])
	}
	if !bytes.Contains(files["metrics.csv"], []byte("c_index,")) || !bytes.Contains(files["metrics.csv"], []byte("time_auc_5,")) || !bytes.Contains(files["metrics.csv"], []byte("logrank_p,")) {
		t.Errorf("metrics.csv:\n%s", files["metrics.csv"])
	}
}

// A configuration file that names neither methods nor classifiers takes the defaults
// of its data's outcome: the Cox score test and the Cox model for DLBCL's survival,
// the F-statistic and SVM-RFE with the SVM and k-NN for Colon's classes (DefaultConfig);
// one that names them keeps them, and a class model on a survival outcome is refused.
func TestConfigDefaultsFollowTheOutcome(t *testing.T) {
	data := filepath.Join("..", "..", "..", "shared", "data")
	dlbcl, err := dataset.ReadFile(filepath.Join(data, "dlbcl_chop_survival.csv"), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	colon, err := dataset.ReadFile(filepath.Join(data, "colon.csv"), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	write := func(body string) experiment.Config {
		path := filepath.Join(t.TempDir(), "c.json")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := LoadConfig(path)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	bare := write(`{"protocol": "cv10x10"}`)
	cfg, err := Plan(bare, dlbcl)
	if err != nil {
		t.Fatalf("survival data, no methods named: %v", err)
	}
	if len(cfg.Methods) != 1 || cfg.Methods[0].Name != "cox" || !slices.Equal(cfg.Classifiers, []string{"cox"}) {
		t.Errorf("survival defaults: methods %v, classifiers %v", cfg.Methods, cfg.Classifiers)
	}
	cfg, err = Plan(bare, colon)
	def := experiment.DefaultConfig()
	if err != nil || !slices.Equal(cfg.Classifiers, def.Classifiers) || len(cfg.Methods) != len(def.Methods) {
		t.Errorf("class defaults: %v, methods %v, classifiers %v", err, cfg.Methods, cfg.Classifiers)
	}
	named := write(`{"methods": [{"name": "coxnet"}], "protocol": "cv10x10"}`)
	if cfg, err = Plan(named, dlbcl); err != nil || cfg.Methods[0].Name != "coxnet" || !slices.Equal(cfg.Classifiers, []string{"cox"}) {
		t.Errorf("methods named: %v, methods %v, classifiers %v", err, cfg.Methods, cfg.Classifiers)
	}
	if _, err = Plan(write(`{"methods": [{"name": "cox"}], "classifiers": ["svm"]}`), dlbcl); err == nil || !strings.Contains(err.Error(), "Cox model alone") {
		t.Errorf("an SVM on a survival outcome: %v", err)
	}
}

// The default horizon is the median follow-up by reverse Kaplan-Meier, unless that is
// the last time (a study with a censoring only at its end, as BenchmarkCIntervalCoverage
// drew at seed 37 of "n 60, no signal, 30% censored", which was refused as outside the
// follow-up): then the median observed time, and the rule says so. By hand: times 1..10,
// all events but the last, censored at 10: the reverse curve falls to 0 at 10, so the
// median follow-up is 10 = the last time; the median of 1..10 is 5.5.
func TestDefaultHorizonWithinTheFollowUp(t *testing.T) {
	out := survival.Outcome{}
	for i := 1; i <= 10; i++ {
		out.Time = append(out.Time, float64(i))
		out.Event = append(out.Event, i < 10)
	}
	o, err := resolveSurvival(SurvivalOptions{}, out)
	if err != nil {
		t.Fatal(err)
	}
	if o.Horizons[0] != 5.5 || !strings.Contains(o.HorizonRule, "median observed time") {
		t.Errorf("horizon %v by %q, want 5.5 by the median observed time", o.Horizons, o.HorizonRule)
	}
	out.Event[4] = false // a censoring at 5: the reverse curve falls to 5/6 there, then to 0 at 10
	if o, err = resolveSurvival(SurvivalOptions{}, out); err != nil || o.Horizons[0] != 5.5 {
		t.Errorf("%v, horizon %v", err, o.Horizons)
	}
	if _, err := resolveSurvival(SurvivalOptions{Horizons: []float64{10}}, out); err == nil {
		t.Error("a horizon at the last time was accepted")
	}
}

// model.json of a survival signature keeps its headline C and whether the advice
// chose: the plain cross-validated C when method and k were given, written and read
// back with its interval; a headline edited out of [0, 1] or naming an unknown
// estimate is refused.
func TestSurvivalModelKeepsItsHeadline(t *testing.T) {
	res, ds := dlbclStudy(t)
	s, err := BuildSurvivalSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 5}, SurvivalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h := s.Headline()
	b, err := s.Model.Encode()
	if err != nil {
		t.Fatal(err)
	}
	m, err := signature.DecodeModel("model.json", b)
	if err != nil {
		t.Fatal(err)
	}
	got := m.Cox.Headline
	if got == nil || got.C != h.C.Mean || got.Low != h.C.Low || got.High != h.C.High || got.Estimate != h.Estimate || m.Cox.Advised != s.Advised {
		t.Fatalf("read back %+v (advised %v), want %+v (advised %v)", got, m.Cox.Advised, h, s.Advised)
	}
	for _, edit := range []func(*signature.CHeadline){
		func(c *signature.CHeadline) { c.High = 1.5 },
		func(c *signature.CHeadline) { c.Estimate = "best" },
	} {
		bad := *s.Model
		cox := *bad.Cox
		hh := *cox.Headline
		edit(&hh)
		cox.Headline, bad.Cox = &hh, &cox
		b, err := bad.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := signature.DecodeModel("model.json", b); err == nil || !strings.Contains(err.Error(), "headline C") {
			t.Errorf("an edited headline %+v: %v", hh, err)
		}
	}
}
