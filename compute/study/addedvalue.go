package study

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"steadfast/compute/dataset"
	"steadfast/compute/survival"
	"steadfast/internal/text"
)

// ScoreTerm names the cross-validated risk score as a term of the added-value models.
const ScoreTerm = "risk score (cross-validated, per SD)"

// Model names of the added-value analysis.
const (
	CovariatesModel = "covariates"
	WithScoreModel  = "covariates + risk score"
)

// AddedTerm is one term of a Cox model of the added-value analysis: a numeric
// covariate (its hazard ratio per unit), one level of a categorical covariate against
// its reference, or the risk score (per SD); HR = exp(coefficient) with its 95% Wald
// interval and p, as summary(coxph(...)) gives them.
type AddedTerm struct {
	Model     string // CovariatesModel or WithScoreModel
	Term      string // "Age", "Grade: Poorly diff vs Well diff", ScoreTerm
	Covariate string // the covariate's name; "" for the risk score
	Level     string // a categorical covariate's level ("" otherwise)
	Reference string // and its reference level
	Coef, SE  float64
	HR, Low   float64
	High, P   float64
	// Infinite is the fit's warning that the coefficient may be infinite (coxph's;
	// the term separates the events): HR, Low and High are then no estimates.
	Infinite bool
}

// AddedValue is what a survival signature's risk score adds to clinical covariates:
// a Cox model (Efron ties, no penalty) of the covariates alone and one of the
// covariates and the cross-validated risk score, both on the samples with every
// covariate (complete cases); the likelihood-ratio test of adding the score, 2 (l_1 -
// l_0) on 1 df; and Harrell's C of each model's linear predictor with their change and
// its infinitesimal-jackknife interval (survival::concordance(fit0, fit1), contrast
// c(-1, 1)). The score is each sample's held-out score from the first repetition, in
// its resample's training SDs, so the score is not fitted to the sample it scores;
// the models' few coefficients are fitted to all complete cases.
type AddedValue struct {
	Covariates []string // the covariates, in the models' order
	Samples    int      // all samples
	N, Events  int      // complete cases and their events
	// Missing are the samples without a value of each covariate, MissingSamples
	// the samples so left out (complete cases), by name.
	Missing        []int
	MissingSamples []string
	Base, Full     *survival.CoxFit
	Terms          []AddedTerm // the covariates model's terms, then the full model's
	LRT, LRTP      float64     // likelihood-ratio chi-square of adding the score, 1 df
	C              survival.ConcordanceDiff
	Notes          []string // levels left out (no complete case), fit warnings
	// data are the models' data, a row a complete case: sample, time, event, the
	// covariates as read, the cross-validated risk score (added_value_data.csv).
	data [][]string
}

// AddedCovariates are the named covariates of ds: "auto" (or none) all of ds's
// covariates; a name that is no covariate but a feature of ds, that feature as a
// numeric covariate (with a note: the study analysed it as a feature). A name that is
// neither is refused with the covariates and features it could be.
func AddedCovariates(ds *dataset.Dataset, names []string) ([]dataset.Covariate, []string, error) {
	if len(names) == 0 || len(names) == 1 && strings.EqualFold(strings.TrimSpace(names[0]), "auto") {
		if len(ds.Covariates) == 0 {
			return nil, nil, fmt.Errorf("%s has no clinical covariate (no column named like age, grade, stage, size, nodes, ER...): name the columns with --covariates when the data are read (a configuration's read.covariates)", ds.Name)
		}
		return ds.Covariates, nil, nil
	}
	var out []dataset.Covariate
	var notes []string
	for _, name := range names {
		name = strings.TrimSpace(name)
		if c := ds.FindCovariate(name); c != nil {
			if slices.ContainsFunc(out, func(o dataset.Covariate) bool { return o.Name == c.Name }) {
				return nil, nil, fmt.Errorf("the covariate %q is named twice", c.Name)
			}
			out = append(out, *c)
			continue
		}
		j := slices.IndexFunc(ds.Features, func(f string) bool { return strings.EqualFold(f, name) })
		if j < 0 {
			if len(ds.Covariates) == 0 {
				return nil, nil, fmt.Errorf("no covariate %q in %s: it has no clinical covariate (no column named like age, grade, stage, size, nodes, ER...); name a column the study read as a feature, or have a column read as a covariate by the run (a configuration's read.covariates)", name, ds.Name)
			}
			return nil, nil, fmt.Errorf("no covariate %q in %s: its clinical covariates are %s (a column read as a feature may be named too)", name, ds.Name, strings.Join(ds.CovariateNames(), ", "))
		}
		n, _ := ds.Dims()
		out = append(out, dataset.Covariate{Name: ds.Features[j], Values: mat.Col(make([]float64, n), j, ds.X)})
		notes = append(notes, fmt.Sprintf("%q was analysed as a feature by the study; here it is a numeric covariate, with the values the study used", ds.Features[j]))
	}
	return out, notes, nil
}

// covDesign is the complete cases of covs (rows of samples with every covariate) and
// their design: a numeric covariate's value, a categorical covariate's dummies for
// each level used but the first used one (the reference). Levels no complete case
// has are left out, with a note.
type covDesign struct {
	rows  []int
	x     [][]float64 // per complete case, the terms' values
	terms []AddedTerm
	notes []string
}

func designOf(covs []dataset.Covariate, n int) (*covDesign, []int, error) {
	d := &covDesign{}
	missing := make([]int, len(covs))
	for i := range n {
		ok := true
		for k := range covs {
			if covs[k].Missing(i) {
				missing[k]++
				ok = false
			}
		}
		if ok {
			d.rows = append(d.rows, i)
		}
	}
	for k, m := range missing {
		if m == n {
			return nil, missing, fmt.Errorf("the covariate %q has no value in any of the %s: leave it out of the covariates", covs[k].Name, text.Count(n, "sample"))
		}
	}
	d.x = make([][]float64, len(d.rows))
	for k := range covs {
		c := &covs[k]
		if !c.Categorical() {
			lo, hi := math.Inf(1), math.Inf(-1)
			for r, i := range d.rows {
				d.x[r] = append(d.x[r], c.Values[i])
				lo, hi = math.Min(lo, c.Values[i]), math.Max(hi, c.Values[i])
			}
			if len(d.rows) > 0 && lo == hi {
				return nil, missing, fmt.Errorf("the covariate %q is %g in every complete case: it cannot be in a model", c.Name, lo)
			}
			d.terms = append(d.terms, AddedTerm{Term: c.Name, Covariate: c.Name})
			continue
		}
		used := make([]bool, len(c.Levels))
		for _, i := range d.rows {
			used[c.Codes[i]] = true
		}
		var levels []int
		for l, u := range used {
			if u {
				levels = append(levels, l)
			} else {
				d.notes = append(d.notes, fmt.Sprintf("%s level %q has no complete case and is left out", c.Name, c.Levels[l]))
			}
		}
		if len(levels) < 2 {
			return nil, missing, fmt.Errorf("the covariate %q has one level in the complete cases: it cannot be in a model", c.Name)
		}
		ref := c.Levels[levels[0]]
		for _, l := range levels[1:] {
			d.terms = append(d.terms, AddedTerm{Term: fmt.Sprintf("%s: %s vs %s", c.Name, c.Levels[l], ref), Covariate: c.Name, Level: c.Levels[l], Reference: ref})
			for r, i := range d.rows {
				v := 0.0
				if c.Codes[i] == l {
					v = 1
				}
				d.x[r] = append(d.x[r], v)
			}
		}
	}
	return d, missing, nil
}

// AddedValueOf is the added value of the risk score (one per sample of o) over the
// covariates covs (of the same samples); samples names them in messages.
func AddedValueOf(o survival.Outcome, covs []dataset.Covariate, score []float64, samples []string) (*AddedValue, error) {
	n := len(o.Time)
	if len(covs) == 0 {
		return nil, fmt.Errorf("added value: no covariate")
	}
	if len(score) != n {
		return nil, fmt.Errorf("added value: %d risk scores for %d samples", len(score), n)
	}
	for _, c := range covs {
		if c.Len() != n {
			return nil, fmt.Errorf("added value: the covariate %q has %d values for %d samples", c.Name, c.Len(), n)
		}
	}
	d, missing, err := designOf(covs, n)
	if err != nil {
		return nil, err
	}
	av := &AddedValue{Samples: n, N: len(d.rows), Missing: missing, Notes: d.notes}
	for _, c := range covs {
		av.Covariates = append(av.Covariates, c.Name)
	}
	in := make([]bool, n)
	for _, i := range d.rows {
		in[i] = true
	}
	for i := range n {
		if !in[i] {
			av.MissingSamples = append(av.MissingSamples, samples[i])
		}
	}
	sub := o.Subset(d.rows)
	av.Events = sub.Events()
	k := len(d.terms)
	if av.Events < 2 || av.N <= k+2 {
		worst := 0
		for j, m := range missing {
			if m > missing[worst] {
				worst = j
			}
		}
		hint := "choose fewer covariates"
		if missing[worst] > 0 {
			hint = fmt.Sprintf("%q is missing in %s: leave it out, or choose fewer covariates", av.Covariates[worst], text.Count(missing[worst], "sample"))
		}
		return nil, fmt.Errorf("added value: only %d of the %s have every covariate (%s), with %s: too few for a Cox model of %s and the risk score; %s",
			av.N, text.Count(n, "sample"), strings.Join(av.Covariates, ", "), text.Count(av.Events, "event"), text.Count(k, "term"), hint)
	}
	x0 := mat.NewDense(av.N, k, nil)
	x1 := mat.NewDense(av.N, k+1, nil)
	for r, i := range d.rows {
		if math.IsNaN(score[i]) || math.IsInf(score[i], 0) {
			return nil, fmt.Errorf("added value: sample %q has no risk score", samples[i])
		}
		for j, v := range d.x[r] {
			x0.Set(r, j, v)
			x1.Set(r, j, v)
		}
		x1.Set(r, k, score[i])
	}
	if av.Base, err = survival.Cox(sub, x0, survival.CoxOptions{}); err != nil {
		return nil, fmt.Errorf("the Cox model of the covariates: %w", err)
	}
	if av.Full, err = survival.Cox(sub, x1, survival.CoxOptions{}); err != nil {
		return nil, fmt.Errorf("the Cox model of the covariates and the risk score: %w", err)
	}
	for _, m := range []struct {
		name string
		fit  *survival.CoxFit
	}{{CovariatesModel, av.Base}, {WithScoreModel, av.Full}} {
		if !m.fit.Converged {
			av.Notes = append(av.Notes, fmt.Sprintf("the model of the %s: %s", m.name, m.fit.Warnings()[0]))
		}
		for j := range m.fit.Coef {
			t := AddedTerm{Term: ScoreTerm}
			if j < k {
				t = d.terms[j]
			}
			t.Model = m.name
			t.Coef, t.SE, t.HR, t.Low, t.High, t.P = m.fit.Coef[j], m.fit.SE[j], m.fit.HR[j], m.fit.HRLow[j], m.fit.HRHigh[j], m.fit.P[j]
			t.Infinite = m.fit.Unreliable(j)
			av.Terms = append(av.Terms, t)
		}
	}
	av.data = [][]string{append(append([]string{"sample", "time", "event"}, av.Covariates...), "cv_risk_score")}
	for _, i := range d.rows {
		row := []string{samples[i], num(o.Time[i]), "0"}
		if o.Event[i] {
			row[2] = "1"
		}
		for _, c := range covs {
			if c.Categorical() {
				row = append(row, c.Levels[c.Codes[i]])
			} else {
				row = append(row, num(c.Values[i]))
			}
		}
		av.data = append(av.data, append(row, num(score[i])))
	}
	av.LRT = 2 * (av.Full.LogLik - av.Base.LogLik)
	av.LRTP = distuv.ChiSquared{K: 1}.Survival(math.Max(av.LRT, 0))
	if av.C, err = survival.CompareHarrell(sub, av.Base.LinearPredictor, av.Full.LinearPredictor); err != nil {
		return nil, err
	}
	return av, nil
}

// AddedValue is the added value of s's cross-validated risk score over the covariates
// names of ds (the data s was built from, read as the study did; see AddedCovariates),
// kept as s.Added; a failure leaves s.Added as it was.
func (s *SurvivalSignature) AddedValue(ds *dataset.Dataset, names []string) (*AddedValue, error) {
	if !slices.Equal(ds.Samples, s.Samples) {
		return nil, fmt.Errorf("the data's samples are not the signature's: open the run's own data file")
	}
	if s.CV == nil || len(s.CV.Scaled) != len(s.Samples) {
		return nil, fmt.Errorf("the signature has no cross-validated risk score of every sample")
	}
	covs, notes, err := AddedCovariates(ds, names)
	if err != nil {
		return nil, err
	}
	av, err := AddedValueOf(s.Outcome, covs, s.CV.Scaled, s.Samples)
	if err != nil {
		return nil, err
	}
	av.Notes = append(notes, av.Notes...)
	s.Added = av
	return av, nil
}
