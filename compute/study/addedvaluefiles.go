package study

import (
	"fmt"
	"math"
	"strings"

	"steadfast/internal/text"
)

// AddedValueFile is the added-value table's file in a signature's folder, and
// AddedValueDataFile the models' data (a row a complete case: sample, time, event, the
// covariates as read, the cross-validated risk score), so a script refits them.
const (
	AddedValueFile     = "added_value.csv"
	AddedValueDataFile = "added_value_data.csv"
)

// Table is added_value.csv: model, term, hr, low95, high95, p. First every term of the
// model of the covariates alone, then of the covariates and the risk score (hazard
// ratios per unit of a numeric covariate, per level against the reference, per SD of
// the score). Then rows of model "statistic", whose hr column holds the statistic's
// value: lrt_chisq (adding the score, 1 df; its p), c_covariates and
// c_covariates_plus_score (Harrell's C with its 95% interval, C -+ 1.96 SE), c_change
// (the second minus the first, its interval and p from their infinitesimal-jackknife
// covariance), samples, events and samples_missing_covariates.
func (a *AddedValue) Table() [][]string {
	rows := [][]string{{"model", "term", "hr", "low95", "high95", "p"}}
	for _, t := range a.Terms {
		rows = append(rows, []string{t.Model, t.Term, num(t.HR), num(t.Low), num(t.High), num(t.P)})
	}
	nan := math.NaN()
	stat := func(term string, v, lo, hi, p float64) {
		rows = append(rows, []string{"statistic", term, num(v), num(lo), num(hi), num(p)})
	}
	stat("lrt_chisq", a.LRT, nan, nan, a.LRTP)
	z := 1.959963984540054
	for _, c := range []struct {
		name string
		c, s float64
	}{{"c_covariates", a.C.A.C, a.C.A.SE}, {"c_covariates_plus_score", a.C.B.C, a.C.B.SE}} {
		stat(c.name, c.c, c.c-z*c.s, c.c+z*c.s, nan)
	}
	stat("c_change", a.C.Diff, a.C.Low, a.C.High, a.C.P)
	stat("samples", float64(a.N), nan, nan, nan)
	stat("events", float64(a.Events), nan, nan, nan)
	stat("samples_missing_covariates", float64(a.Samples-a.N), nan, nan, nan)
	return rows
}

// Files are the added value's files: added_value.csv and added_value_data.csv.
func (a *AddedValue) Files() map[string][]byte {
	out := map[string][]byte{AddedValueFile: csvOf(a.Table())}
	if a.data != nil {
		out[AddedValueDataFile] = csvOf(a.data)
	}
	return out
}

// Dropped says how many samples the analysis left out for a missing covariate, with
// each covariate's count: "12 of 144 samples left out for a missing covariate (Age
// 10, Grade 3)"; "" when none.
func (a *AddedValue) Dropped() string {
	if a.N == a.Samples {
		return ""
	}
	var by []string
	for k, m := range a.Missing {
		if m > 0 {
			by = append(by, fmt.Sprintf("%s %d", a.Covariates[k], m))
		}
	}
	return fmt.Sprintf("%d of %s left out for a missing covariate (%s): the models are fitted to the %s with every covariate",
		a.Samples-a.N, text.Count(a.Samples, "sample"), strings.Join(by, ", "), text.Count(a.N, "complete case"))
}

// Sentence says in a few sentences what the risk score adds to the covariates.
func (a *AddedValue) Sentence() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Added value over %s (%s, %s): adding the cross-validated risk score to a Cox model of the covariates gives a likelihood-ratio chi-square of %.2f on 1 df (%s);",
		strings.Join(a.Covariates, ", "), text.Count(a.N, "patient"), text.Count(a.Events, "event"), a.LRT, pIs(a.LRTP))
	fmt.Fprintf(&b, " Harrell's C goes from %.3f to %.3f (change %+.3f, 95%% CI %+.3f to %+.3f, paired infinitesimal jackknife as survival::concordance).",
		a.C.A.C, a.C.B.C, a.C.Diff, a.C.Low, a.C.High)
	for _, t := range a.Terms {
		if t.Model == WithScoreModel && t.Covariate == "" {
			fmt.Fprintf(&b, " Given the covariates, the score's hazard ratio is %.2f per SD (95%% CI %.2f-%.2f).", t.HR, t.Low, t.High)
		}
	}
	if d := a.Dropped(); d != "" {
		b.WriteString(" " + d + ".")
	}
	return b.String()
}

// Headline is the added value in a line: "over Age, Grade: C 0.712 -> 0.750
// (likelihood ratio p = 0.041)".
func (a *AddedValue) Headline() string {
	return fmt.Sprintf("over %s: C %.3f -> %.3f (likelihood ratio %s)", strings.Join(a.Covariates, ", "), a.C.A.C, a.C.B.C, pIs(a.LRTP))
}

// pIs is "p = 0.041", or "p < 0.0001".
func pIs(p float64) string {
	t := pText(p)
	if strings.HasPrefix(t, "<") {
		return "p " + t
	}
	return "p = " + t
}
