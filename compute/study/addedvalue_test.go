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
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/survival"
)

// nkiSignature is the survival signature of a small study of the NKI 70-gene breast
// cancer data (testdata/nki70.csv; PROVENANCE.md): the Cox score test under 2 x 5-fold
// CV, the signature of its top 10 genes.
func nkiSignature(t *testing.T) (*SurvivalSignature, *dataset.Dataset) {
	t.Helper()
	ds, err := dataset.ReadFile(filepath.Join("testdata", "nki70.csv"), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := experiment.DefaultSurvivalConfig()
	cfg.Repeats, cfg.Folds, cfg.Ks = 2, 5, []int{5, 10}
	res, err := experiment.Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := BuildSurvivalSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 10}, SurvivalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s, ds
}

// TestWriteNKIScore writes testdata/nki70_score.csv, the cross-validated risk score
// the R reference (testdata/added_value.R) reads: STEADFAST_WRITE_NKI_SCORE=1.
func TestWriteNKIScore(t *testing.T) {
	if os.Getenv("STEADFAST_WRITE_NKI_SCORE") == "" {
		t.Skip("writes the reference's input; set STEADFAST_WRITE_NKI_SCORE=1")
	}
	s, _ := nkiSignature(t)
	f, err := os.Create(filepath.Join("testdata", "nki70_score.csv"))
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	w.Write([]string{"sample", "score"})
	for i, name := range s.Samples {
		w.Write([]string{name, strconv.FormatFloat(s.CV.Scaled[i], 'g', 17, 64)})
	}
	w.Flush()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	t.Log(s.GeneLabels())
}

// nkiData is testdata/nki70.csv read as the study reads it, with the score of
// testdata/nki70_score.csv.
func nkiData(t *testing.T) (*dataset.Dataset, []float64) {
	t.Helper()
	ds, err := dataset.ReadFile(filepath.Join("testdata", "nki70.csv"), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join("testdata", "nki70_score.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	score := make([]float64, len(ds.Samples))
	for i, r := range recs[1:] {
		if r[0] != ds.Samples[i] {
			t.Fatalf("score row %d is %s, sample %s", i+1, r[0], ds.Samples[i])
		}
		if score[i], err = strconv.ParseFloat(r[1], 64); err != nil {
			t.Fatal(err)
		}
	}
	return ds, score
}

// The added value of the cross-validated risk score over clinical covariates equals
// R's on the NKI data (testdata/added_value.R, R 4.2.2, survival 3.5-3): both Cox
// models' coefficients, SEs, hazard ratios with their intervals and p, log partial
// likelihoods, the likelihood-ratio test, both Harrell's C with their covariance
// (concordance(fit0, fit1)) and the change in C with its SE, to 1e-6; for Age, Grade
// (3 levels, 2 dummies) and ER; for all five covariates; and on complete cases with
// Age missing for 3 patients and Grade for 2 (one of them the same).
func TestAddedValueEqualsR(t *testing.T) {
	ds, score := nkiData(t)
	var want map[string]struct {
		Covariates []string
		N, Events  int
		Base, Full struct {
			Coef, SE, HR, Low, High, P []float64
			Loglik                     float64
		}
		LRT     float64     `json:"lrt"`
		LRTP    float64     `json:"lrt_p"`
		C       []float64   `json:"c"`
		CVar    [][]float64 `json:"c_var"`
		CDiff   float64     `json:"c_diff"`
		CDiffSE float64     `json:"c_diff_se"`
	}
	b, err := os.ReadFile(filepath.Join("testdata", "added_value.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for _, name := range []string{"age_grade_er", "all", "missing"} {
		w := want[name]
		covs, _, err := AddedCovariates(ds, w.Covariates)
		if err != nil {
			t.Fatal(err)
		}
		if name == "missing" {
			covs = slices.Clone(covs)
			age := slices.Clone(covs[0].Values)
			grade := slices.Clone(covs[1].Codes)
			for _, i := range []int{2, 9, 49} {
				age[i] = math.NaN()
			}
			grade[9], grade[19] = -1, -1
			covs[0].Values, covs[1].Codes = age, grade
		}
		av, err := AddedValueOf(SurvivalOutcomeOf(ds), covs, score, ds.Samples)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if av.N != w.N || av.Events != w.Events {
			t.Errorf("%s: %d complete cases with %d events, R %d and %d", name, av.N, av.Events, w.N, w.Events)
		}
		close := func(what string, got, exp float64) {
			d := math.Abs(got-exp) / math.Max(1, math.Abs(exp))
			worst = math.Max(worst, d)
			if !(d <= 1e-6) {
				t.Errorf("%s: %s %.10g, R %.10g", name, what, got, exp)
			}
		}
		k := len(w.Base.Coef)
		if len(av.Terms) != 2*k+1 {
			t.Fatalf("%s: %d terms, R %d and %d", name, len(av.Terms), k, k+1)
		}
		for i, term := range av.Terms {
			ref, j := w.Base, i
			if i >= k {
				ref, j = w.Full, i-k
			}
			what := term.Model + " " + term.Term
			close(what+" coefficient", term.Coef, ref.Coef[j])
			close(what+" SE", term.SE, ref.SE[j])
			close(what+" HR", term.HR, ref.HR[j])
			close(what+" HR low", term.Low, ref.Low[j])
			close(what+" HR high", term.High, ref.High[j])
			close(what+" p", term.P, ref.P[j])
		}
		close("log likelihood of the covariates", av.Base.LogLik, w.Base.Loglik)
		close("log likelihood with the score", av.Full.LogLik, w.Full.Loglik)
		close("likelihood ratio", av.LRT, w.LRT)
		close("its p", av.LRTP, w.LRTP)
		close("C of the covariates", av.C.A.C, w.C[0])
		close("C with the score", av.C.B.C, w.C[1])
		close("var C of the covariates", av.C.A.SE*av.C.A.SE, w.CVar[0][0])
		close("var C with the score", av.C.B.SE*av.C.B.SE, w.CVar[1][1])
		close("covariance of the C", av.C.Cov, w.CVar[0][1])
		close("change in C", av.C.Diff, w.CDiff)
		close("its SE", av.C.SE, w.CDiffSE)
	}
	t.Logf("largest relative difference from R: %.2g", worst)
}

// A survival signature's added value uses its cross-validated score (the first
// repetition's held-out scores in training SDs, those of its hazard ratio per SD) and
// the data's covariates: auto takes all five of the NKI data, and the result is
// AddedValueOf of that score. The table holds every term of both models, then the
// statistics (13 terms: Diam, N, ER and Age one each and Grade two in each model, and
// the score; 144 patients and 48 events as testdata/PROVENANCE.md says); the sentence
// gives the test and the change in C.
func TestSignatureAddedValue(t *testing.T) {
	s, ds := nkiSignature(t)
	if got := ds.CovariateNames(); !slices.Equal(got, []string{"Diam", "N", "ER", "Grade", "Age"}) || slices.Contains(ds.Features, "Age") {
		t.Fatalf("covariates %v; Age a feature: %v", got, slices.Contains(ds.Features, "Age"))
	}
	av, err := s.AddedValue(ds, []string{"auto"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := AddedValueOf(s.Outcome, ds.Covariates, s.CV.Scaled, s.Samples)
	if err != nil {
		t.Fatal(err)
	}
	if av.LRT != want.LRT || av.C != want.C || len(av.Terms) != 13 {
		t.Errorf("LRT %v, C %+v, %d terms; want %v, %+v, 13", av.LRT, av.C, len(av.Terms), want.LRT, want.C)
	}
	// the score's HR alone on all samples is the signature's cross-validated HR per SD
	hr, err := hazardOf(s.Outcome, s.CV.Scaled)
	if err != nil || math.Abs(hr-s.CV.HR[0].HR) > 1e-12 {
		t.Errorf("the score's HR %v, the signature's %v (%v)", hr, s.CV.HR[0].HR, err)
	}
	tab := av.Table()
	if !slices.Equal(tab[0], []string{"model", "term", "hr", "low95", "high95", "p", "warning"}) || tab[1][0] != CovariatesModel || tab[1][1] != "Diam: >2cm vs <=2cm" ||
		tab[13][0] != WithScoreModel || tab[13][1] != ScoreTerm || tab[14][1] != "lrt_chisq" || tab[17][1] != "c_change" {
		t.Errorf("table:\n%v", tab)
	}
	// kept for the report; added_value_data.csv holds the models' data, a row a
	// complete case, the score the one the models used
	if s.Added != av {
		t.Error("the signature does not keep its added value")
	}
	data, err := csv.NewReader(bytes.NewReader(av.Files()[AddedValueDataFile])).ReadAll()
	if err != nil || len(data) != 145 || !slices.Equal(data[0], []string{"sample", "time", "event", "Diam", "N", "ER", "Grade", "Age", "cv_risk_score"}) {
		t.Fatalf("added_value_data.csv: %v, %d rows, %v", err, len(data), data[0])
	}
	for i, r := range data[1:] {
		if v, _ := strconv.ParseFloat(r[8], 64); r[0] != s.Samples[i] || v != s.CV.Scaled[i] || !slices.Contains(ds.FindCovariate("Grade").Levels, r[6]) {
			t.Fatalf("row %d: %v", i+1, r)
		}
	}
	for _, w := range []string{"Added value over Diam, N, ER, Grade, Age (144 patients, 48 events)", "on 1 df", "Harrell's C goes from"} {
		if !strings.Contains(av.Sentence(), w) {
			t.Errorf("sentence lacks %q: %s", w, av.Sentence())
		}
	}
}

// A p below 0.0001 reads "p < 0.0001" in the sentence and the headline.
func TestAddedValueSmallP(t *testing.T) {
	av := &AddedValue{Covariates: []string{"Age"}, N: 10, Events: 5, LRT: 18.2, LRTP: 2e-5}
	if s, h := av.Sentence(), av.Headline(); !strings.Contains(s, "on 1 df (p < 0.0001)") || h != "over Age: C 0.000 -> 0.000 (likelihood ratio p < 0.0001)" {
		t.Errorf("%s / %s", s, h)
	}
}

// hazardOf is the hazard ratio of a Cox model of o on the score s alone.
func hazardOf(o survival.Outcome, s []float64) (float64, error) {
	fit, err := survival.Cox(o, mat.NewDense(len(s), 1, slices.Clone(s)), survival.CoxOptions{})
	if err != nil {
		return 0, err
	}
	return fit.HR[0], nil
}

// Categorical covariates are coded by dummies against their first level: Grade 1/2/3
// gives two terms, 2 vs 1 and 3 vs 1, whose coefficients are those of a Cox model of
// the two indicator columns; a level without complete cases is left out with a note.
// Complete cases: samples missing a covariate are left out and counted per covariate.
func TestAddedValueCoding(t *testing.T) {
	n := 60
	o := survival.Outcome{Time: make([]float64, n), Event: make([]bool, n)}
	grade := dataset.Covariate{Name: "Grade", Levels: []string{"1", "2", "3", "4"}, Codes: make([]int, n)}
	age := dataset.Covariate{Name: "Age", Values: make([]float64, n)}
	score := make([]float64, n)
	samples := make([]string, n)
	for i := range n {
		grade.Codes[i] = i % 3 // level "4" has no sample
		age.Values[i] = 40 + float64((i*7)%30)
		score[i] = math.Sin(float64(i))
		o.Time[i] = 1 + float64((i*13)%17) + 0.3*float64(grade.Codes[i]) - 0.2*score[i]
		o.Event[i] = i%4 != 0
		samples[i] = "s" + strconv.Itoa(i+1)
	}
	age.Values[5], age.Values[6] = math.NaN(), math.NaN()
	grade.Codes[6], grade.Codes[7] = -1, -1
	av, err := AddedValueOf(o, []dataset.Covariate{grade, age}, score, samples)
	if err != nil {
		t.Fatal(err)
	}
	if av.N != n-3 || !slices.Equal(av.Missing, []int{2, 2}) || !slices.Equal(av.MissingSamples, []string{"s6", "s7", "s8"}) {
		t.Errorf("complete cases %d, missing %v %v", av.N, av.Missing, av.MissingSamples)
	}
	if d := av.Dropped(); !strings.Contains(d, "3 of 60 samples left out for a missing covariate (Grade 2, Age 2)") {
		t.Errorf("dropped: %s", d)
	}
	if len(av.Notes) != 1 || !strings.Contains(av.Notes[0], `Grade level "4" has no complete case`) {
		t.Errorf("notes %v", av.Notes)
	}
	var terms []string
	for _, tm := range av.Terms[:3] {
		terms = append(terms, tm.Term)
	}
	if !slices.Equal(terms, []string{"Grade: 2 vs 1", "Grade: 3 vs 1", "Age"}) {
		t.Fatalf("terms %v", terms)
	}
	// the same model by hand: indicator columns of grades 2 and 3
	var rows []int
	for i := range n {
		if i < 5 || i > 7 {
			rows = append(rows, i)
		}
	}
	x := mat.NewDense(len(rows), 3, nil)
	for r, i := range rows {
		x.Set(r, 0, b2f(grade.Codes[i] == 1))
		x.Set(r, 1, b2f(grade.Codes[i] == 2))
		x.Set(r, 2, age.Values[i])
	}
	fit, err := survival.Cox(o.Subset(rows), x, survival.CoxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for j := range 3 {
		if math.Abs(av.Terms[j].Coef-fit.Coef[j]) > 1e-12 {
			t.Errorf("term %s: %v, by hand %v", av.Terms[j].Term, av.Terms[j].Coef, fit.Coef[j])
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Refusals: a covariate that is neither a covariate nor a feature names the data's
// covariates; data without covariates say how to name them; a covariate with one
// level or one value among the complete cases, without any value, and too few
// complete cases, are refused with the covariate's name (and, for too few, the
// covariate missing most often). nki70.csv has 144 samples (testdata/PROVENANCE.md).
func TestAddedValueRefusals(t *testing.T) {
	ds, score := nkiData(t)
	o := SurvivalOutcomeOf(ds)
	if _, _, err := AddedCovariates(ds, []string{"Age", "Stage"}); err == nil || err.Error() != `no covariate "Stage" in nki70.csv: its clinical covariates are Diam, N, ER, Grade, Age (a column read as a feature may be named too)` {
		t.Errorf("unknown covariate: %v", err)
	}
	covs, notes, err := AddedCovariates(ds, []string{"age", "PRC1"})
	if err != nil || covs[0].Name != "Age" || covs[1].Categorical() || len(notes) != 1 || !strings.Contains(notes[0], `"PRC1" was analysed as a feature`) {
		t.Errorf("a feature as a covariate: %v %v %v", covs, notes, err)
	}
	bare := &dataset.Dataset{Name: "bare.csv"}
	if _, _, err := AddedCovariates(bare, nil); err == nil || !strings.Contains(err.Error(), "bare.csv has no clinical covariate") {
		t.Errorf("no covariates: %v", err)
	}
	if _, _, err := AddedCovariates(bare, []string{"Age"}); err == nil || !strings.Contains(err.Error(), `no covariate "Age" in bare.csv: it has no clinical covariate`) {
		t.Errorf("a name in data without covariates: %v", err)
	}
	er := *ds.FindCovariate("ER")
	er.Codes = slices.Clone(er.Codes)
	for i := range er.Codes {
		if er.Codes[i] == 0 {
			er.Codes[i] = -1
		}
	}
	if _, err := AddedValueOf(o, []dataset.Covariate{er}, score, ds.Samples); err == nil || !strings.Contains(err.Error(), `the covariate "ER" has one level in the complete cases`) {
		t.Errorf("one level: %v", err)
	}
	age := *ds.FindCovariate("Age")
	age.Values = slices.Clone(age.Values)
	for i := range age.Values {
		if i > 3 {
			age.Values[i] = math.NaN()
		}
	}
	if _, err := AddedValueOf(o, []dataset.Covariate{age}, score, ds.Samples); err == nil ||
		!strings.Contains(err.Error(), `only 4 of the 144 samples have every covariate (Age), with`) || !strings.Contains(err.Error(), `too few for a Cox model of 1 term and the risk score; "Age" is missing in 140 samples: leave it out`) {
		t.Errorf("few complete cases: %v", err)
	}
	for i := range age.Values {
		age.Values[i] = math.NaN()
	}
	if _, err := AddedValueOf(o, []dataset.Covariate{age}, score, ds.Samples); err == nil || err.Error() != `the covariate "Age" has no value in any of the 144 samples: leave it out of the covariates` {
		t.Errorf("no value: %v", err)
	}
	for i := range age.Values {
		age.Values[i] = 50
	}
	if _, err := AddedValueOf(o, []dataset.Covariate{age}, score, ds.Samples); err == nil || !strings.Contains(err.Error(), `the covariate "Age" is 50 in every complete case`) {
		t.Errorf("constant: %v", err)
	}
}
