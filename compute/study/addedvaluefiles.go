package study

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"steadfast/compute/survival"
	"steadfast/internal/text"
)

// AddedValueFile is the added-value table's file in a signature's folder, and
// AddedValueDataFile the models' data (a row a complete case: sample, time, event, the
// covariates as read, the cross-validated risk score), so a script refits them.
const (
	AddedValueFile     = "added_value.csv"
	AddedValueDataFile = "added_value_data.csv"
)

// Table is added_value.csv: model, term, hr, low95, high95, p, warning. First every term of the
// model of the covariates alone, then of the covariates and the risk score (hazard
// ratios per unit of a numeric covariate, per level against the reference, per SD of
// the score). Then rows of model "statistic", whose hr column holds the statistic's
// value: lrt_chisq (adding the score, 1 df; its p), c_covariates and
// c_covariates_plus_score (Harrell's C with its 95% interval, C -+ 1.96 SE), c_change
// (the second minus the first, its interval and p from their infinitesimal-jackknife
// covariance), samples, events and samples_missing_covariates. The warning column
// says when a term's coefficient may be infinite (its hr, low95 and high95 are then
// no estimates, as coxph warns) and when c_change has no interval.
func (a *AddedValue) Table() [][]string {
	rows := [][]string{{"model", "term", "hr", "low95", "high95", "p", "warning"}}
	for _, t := range a.Terms {
		w := ""
		if t.Infinite {
			w = InfiniteWarning
		}
		rows = append(rows, []string{t.Model, t.Term, num(t.HR), num(t.Low), num(t.High), num(t.P), w})
	}
	nan := math.NaN()
	stat := func(term string, v, lo, hi, p float64) {
		rows = append(rows, []string{"statistic", term, num(v), num(lo), num(hi), num(p), ""})
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
	if a.SameRanks() {
		rows[len(rows)-1][6] = SameRanksWarning
	}
	stat("samples", float64(a.N), nan, nan, nan)
	stat("events", float64(a.Events), nan, nan, nan)
	stat("samples_missing_covariates", float64(a.Samples-a.N), nan, nan, nan)
	return rows
}

// InfiniteWarning is added_value.csv's warning of a term whose coefficient may be
// infinite, and SameRanksWarning that of a change in C without an interval.
const (
	InfiniteWarning  = "coefficient may be infinite (as R's coxph warns: the term separates the events): hr, low95 and high95 are not estimates"
	SameRanksWarning = "both models rank every comparable pair of patients alike: the change has no spread, and its interval is no measure of precision"
)

// SameRanks reports whether the change in C has no spread (its SE rounds to 0): both
// models order the comparable pairs alike, as when a covariate separates the events.
func (a *AddedValue) SameRanks() bool { return !(a.C.SE > 1e-12) }

// Warnings name each term whose coefficient may be infinite, by model: "the model of
// the covariates: the Cox coefficient of Stage may be infinite ...".
func (a *AddedValue) Warnings() []string {
	var out []string
	for _, t := range a.Terms {
		if t.Infinite {
			out = append(out, fmt.Sprintf("the model of the %s: %s", t.Model, survival.InfiniteNote(termName(t))))
		}
	}
	return out
}

// termName names a term in a sentence: the covariate's term, or "the risk score".
func termName(t AddedTerm) string {
	if t.Covariate == "" {
		return "the risk score"
	}
	return t.Term
}

// CChange is the change in Harrell's C for a sentence: "change +0.021 (95% CI +0.003
// to +0.040)"; without the interval when both models rank the patients alike, and in
// two significant digits when three decimals would print its ends alike.
func (a *AddedValue) CChange() string {
	if a.SameRanks() {
		return fmt.Sprintf("change %+.3f, with no interval: both models rank every comparable pair of patients alike", a.C.Diff)
	}
	if lo, hi := fmt.Sprintf("%+.3f", a.C.Low), fmt.Sprintf("%+.3f", a.C.High); lo == hi {
		return fmt.Sprintf("change %+.2g (95%% CI %+.2g to %+.2g)", a.C.Diff, a.C.Low, a.C.High)
	}
	return fmt.Sprintf("change %+.3f (95%% CI %+.3f to %+.3f)", a.C.Diff, a.C.Low, a.C.High)
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
	fmt.Fprintf(&b, " Harrell's C goes from %.3f to %.3f (%s; paired infinitesimal jackknife as survival::concordance).",
		a.C.A.C, a.C.B.C, a.CChange())
	for _, t := range a.Terms {
		if t.Model == WithScoreModel && t.Covariate == "" && !t.Infinite {
			fmt.Fprintf(&b, " Given the covariates, the score's hazard ratio is %.2f per SD (95%% CI %.2f-%.2f).", t.HR, t.Low, t.High)
		}
	}
	for _, w := range a.Warnings() {
		b.WriteString(" Warning, " + w + ".")
	}
	if d := a.Dropped(); d != "" {
		b.WriteString(" " + d + ".")
	}
	return b.String()
}

// Headline is the added value in a line: "over Age, Grade: C 0.712 -> 0.750
// (likelihood ratio p = 0.041)", naming any term whose coefficient may be infinite
// ("...; warning: the Cox coefficient of Stage may be infinite ...").
func (a *AddedValue) Headline() string {
	h := fmt.Sprintf("over %s: C %.3f -> %.3f (likelihood ratio %s)", strings.Join(a.Covariates, ", "), a.C.A.C, a.C.B.C, pIs(a.LRTP))
	var names []string
	for _, t := range a.Terms {
		if t.Infinite && !slices.Contains(names, termName(t)) {
			names = append(names, termName(t))
		}
	}
	if len(names) > 0 {
		h += fmt.Sprintf("; warning: the Cox coefficient of %s may be infinite (it separates the events), its hazard ratio is no estimate", strings.Join(names, " and of "))
	}
	return h
}

// pIs is "p = 0.041", or "p < 0.0001".
func pIs(p float64) string {
	t := pText(p)
	if strings.HasPrefix(t, "<") {
		return "p " + t
	}
	return "p = " + t
}
