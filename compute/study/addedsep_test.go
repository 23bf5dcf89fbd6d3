package study

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
)

// separatedDLBCL writes a subset of ../shared/data/dlbcl_chop_survival.csv: its first
// 3 samples with an event and first 27 censored ones, with a column "stage" of 2 for
// the events and 1 for the censored, which separates the events (every event has the
// highest stage of its risk set), and returns its path.
func separatedDLBCL(t *testing.T, dir string) string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "..", "shared", "data", "dlbcl_chop_survival.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	with := func(r []string, stage string) []string {
		return append(append(append([]string{}, r[:3]...), stage), r[3:]...)
	}
	out := [][]string{with(recs[0], "stage")}
	events, censored := 0, 0
	for _, r := range recs[1:] {
		switch {
		case r[2] == "1" && events < 3:
			events++
			out = append(out, with(r, "2"))
		case r[2] == "0" && censored < 27:
			censored++
			out = append(out, with(r, "1"))
		}
	}
	path := filepath.Join(dir, "dlbcl_separated.csv")
	g, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(g)
	w.WriteAll(out)
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// A covariate that separates the events (3 events, stage 2 exactly for them, in 30
// DLBCL patients): R's coxph warns "Loglik converged before variable 1; coefficient
// may be infinite." for stage in both models and gives its HR as 1.2e11 (0-Inf)
// (testdata/added_value_separation.R on this run's added_value_data.csv, R 4.2.2,
// survival 3.5-3), C 0.9817073 for the model of stage alone, and no warning for the
// score. The added value marks stage's terms, not the score's; the sentence, the
// headline, added_value.csv's warning column and the notes name stage; the
// signature's apparent HR per SD (its locked model gives C 1 on its own samples)
// carries the warning into measures and text instead of a bare 1e21.
func TestAddedValueSeparation(t *testing.T) {
	ds, err := dataset.ReadFile(separatedDLBCL(t, t.TempDir()), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := experiment.DefaultSurvivalConfig()
	cfg.Repeats, cfg.Folds, cfg.Ks = 2, 3, []int{5, 10}
	res, err := experiment.Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := BuildSurvivalSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 5}, SurvivalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	av, err := s.AddedValue(ds, []string{"stage"})
	if err != nil {
		t.Fatal(err)
	}
	if av.N != 30 || av.Events != 3 || len(av.Terms) != 3 {
		t.Fatalf("%d patients, %d events, %d terms", av.N, av.Events, len(av.Terms))
	}
	for _, term := range av.Terms {
		if want := term.Covariate == "stage"; term.Infinite != want {
			t.Errorf("%s in %s: infinite %v, R warns %v", term.Term, term.Model, term.Infinite, want)
		}
	}
	if d := av.C.A.C - 0.9817073; d > 1e-6 || d < -1e-6 {
		t.Errorf("C of stage alone %v, R 0.9817073", av.C.A.C)
	}
	for _, w := range []string{"Warning, the model of the covariates: the Cox coefficient of stage: 2 vs 1 may be infinite", "Warning, the model of the covariates + risk score: the Cox coefficient of stage: 2 vs 1 may be infinite"} {
		if !strings.Contains(av.Sentence(), w) {
			t.Errorf("sentence lacks %q: %s", w, av.Sentence())
		}
	}
	if !strings.Contains(av.Headline(), "warning: the Cox coefficient of stage: 2 vs 1 may be infinite") {
		t.Errorf("headline: %s", av.Headline())
	}
	if w := av.Warnings(); len(w) != 2 || strings.Contains(strings.Join(av.Notes, " "), "variable 1") {
		t.Errorf("warnings %q, notes %q", w, av.Notes)
	}
	tab := av.Table()
	if tab[0][6] != "warning" || tab[1][6] != InfiniteWarning || tab[2][6] != InfiniteWarning || tab[3][6] != "" {
		t.Errorf("added_value.csv:\n%v", tab)
	}
	if !s.Apparent.HR.Infinite || s.CV.HR[0].Infinite {
		t.Errorf("apparent HR %+v, cross-validated %+v", s.Apparent.HR, s.CV.HR[0])
	}
	if p := s.Performance(); !strings.Contains(p, "hazard ratio not estimated: the Cox coefficient of the locked model's risk score on its own samples may be infinite") {
		t.Errorf("performance: %s", p)
	}
	found := false
	for _, r := range s.MetricsTable() {
		found = found || r[0] == "hazard_ratio_per_sd_apparent_warning" && strings.Contains(r[1], "may be infinite")
	}
	if !found {
		t.Error("measures lack hazard_ratio_per_sd_apparent_warning")
	}
}

// A change in C without spread (both models rank the patients alike, SE 0) is said so,
// not given as an interval "+0.000 to +0.000"; added_value.csv's c_change row carries
// the warning.
func TestAddedValueSameRanks(t *testing.T) {
	av := &AddedValue{Covariates: []string{"Stage"}, N: 10, Events: 3}
	av.C.A.C, av.C.B.C = 0.9, 0.9
	if s := av.Sentence(); strings.Contains(s, "+0.000 to +0.000") || !strings.Contains(s, "change +0.000, with no interval: both models rank every comparable pair of patients alike") {
		t.Error(s)
	}
	tab := av.Table()
	for _, r := range tab {
		if r[1] == "c_change" && r[6] != SameRanksWarning {
			t.Errorf("c_change row %v", r)
		}
	}
	// a spread too small for three decimals is written in two significant digits:
	// 2e-5 -+ 1.96 x 1e-5 = 4e-7 to 3.96e-5, worked by hand
	av.C.Diff, av.C.SE, av.C.Low, av.C.High = 2e-5, 1e-5, 2e-5-1.96e-5, 2e-5+1.96e-5
	if c := av.CChange(); c != "change +2e-05 (95% CI +4e-07 to +4e-05)" {
		t.Error(c)
	}
}

// The locked model without a ridge ("ridge": 0) on the same 30 patients: 5 genes for 3
// events separate them, and the fit flags what coxph would ("coefficient may be
// infinite", by its rule in compute/survival's CoxFit.Infinite): each gene so flagged
// is marked in the signature's genes (and so in its forest plot), as the locked model's
// Infinite (kept in model.json) says.
func TestLockedModelSeparation(t *testing.T) {
	ds, err := dataset.ReadFile(separatedDLBCL(t, t.TempDir()), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := experiment.DefaultSurvivalConfig()
	cfg.Repeats, cfg.Folds, cfg.Ks = 1, 3, []int{5}
	cfg.ClassifierParams = map[string]map[string]float64{"cox": {"ridge": 0}}
	res, err := experiment.Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := BuildSurvivalSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 5}, SurvivalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	flagged := 0
	for g, gene := range s.Genes {
		if gene.Infinite != s.Model.Cox.Infinite[g] {
			t.Errorf("gene %s: %v, the model %v", gene.ID, gene.Infinite, s.Model.Cox.Infinite[g])
		}
		if gene.Infinite {
			flagged++
		}
	}
	if flagged == 0 {
		t.Errorf("no gene flagged: coefficients %v", s.Model.Cox.Coef)
	}
}
