package study

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
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
