package study

import (
	"fmt"
	"math"

	"steadfast/compute/dataset"
	"steadfast/compute/signature"
	"steadfast/compute/survival"
)

// cohortOutcome gives the cohort c the outcome of ds that the model m predicts: for a
// survival signature the cohort's times and events (none: risk scores only; a class
// column is refused as no outcome of the model's), else each sample's class.
func cohortOutcome(c *signature.Cohort, m *signature.Model, ds *dataset.Dataset) error {
	if m.Cox == nil {
		if ds.Survival != nil {
			return fmt.Errorf("%s holds a survival outcome (time %q, event %q); the model predicts classes (%s): give the cohort's class column (--class NAME, or Class when opening it)", ds.Name, ds.Survival.TimeName, ds.Survival.EventName, joinClasses(m.Classes))
		}
		for _, l := range ds.Labels {
			c.Classes = append(c.Classes, ds.Classes[l])
		}
		return nil
	}
	c.Classes = make([]string, len(ds.Samples)) // a risk model knows no class
	if s := ds.Survival; s != nil {
		c.Time, c.Event = s.Time, s.Event
	}
	return nil
}

// joinClasses lists classes: "a, b and c".
func joinClasses(c []string) string {
	out := ""
	for i, s := range c {
		switch {
		case i == 0:
		case i == len(c)-1:
			out += " and "
		default:
			out += ", "
		}
		out += s
	}
	return out
}

// SurvivalPredictionTable is a survival signature's predictions.csv on a cohort:
// sample, time and event (empty when the cohort has none), risk score and risk group
// (cut at the training cut-offs).
func SurvivalPredictionTable(v *signature.Validation) [][]string {
	names := v.Model.Cox.GroupNames()
	rows := [][]string{{"sample", "time", "event", "risk_score", "risk_group"}}
	for i, s := range v.Samples {
		t, e := "", ""
		if v.Time != nil {
			t, e = num(v.Time[i]), "0"
			if v.Event[i] {
				e = "1"
			}
		}
		rows = append(rows, []string{s, t, e, num(v.Scores[i][0]), names[v.Pred[i]]})
	}
	return rows
}

// SurvivalValidationMetrics is a survival signature's metrics.csv on a cohort: metric,
// value, low, high.
func SurvivalValidationMetrics(v *signature.Validation) [][]string {
	rows := [][]string{{"metric", "value", "low", "high"}}
	m := v.Survival
	if m == nil {
		return rows
	}
	nan := math.NaN()
	add := func(name string, x, lo, hi float64) { rows = append(rows, []string{name, num(x), num(lo), num(hi)}) }
	add("c_index", m.C.C, math.Max(0, m.C.C-1.96*m.C.SE), math.Min(1, m.C.C+1.96*m.C.SE))
	rows = append(rows, []string{"c_index_is", "Harrell's C of the locked model's risk scores on the cohort, 95% CI from its infinitesimal-jackknife SE (survival::concordance)", "", ""})
	add("uno_c_tau_"+num(m.Tau), m.Uno.C, nan, nan)
	add("hazard_ratio_per_sd", m.HR.HR, m.HR.Low, m.HR.High)
	add("hazard_ratio_per_sd_p", m.HR.P, nan, nan)
	if m.HR.Infinite {
		rows = append(rows, []string{"hazard_ratio_per_sd_warning", survival.InfiniteNote("the risk score on the cohort"), "", ""})
	}
	if m.LogRank != nil {
		add("logrank_p", m.LogRank.P, nan, nan)
		add("logrank_chisq", m.LogRank.Chisq, float64(m.LogRank.DF), nan)
	}
	for i, h := range m.Horizons {
		a := m.TimeAUC[i]
		add("time_auc_"+num(h), a.AUC, math.Max(0, a.AUC-1.96*a.SE), math.Min(1, a.AUC+1.96*a.SE))
		for _, g := range m.Calibration[i] {
			if g.N == 0 {
				continue
			}
			name := v.Model.Cox.GroupNames()[g.Group]
			add(fmt.Sprintf("calibration_%s_%s_predicted", num(h), underscored(name)), g.Predicted, nan, nan)
			add(fmt.Sprintf("calibration_%s_%s_observed", num(h), underscored(name)), g.Observed, g.Low, g.High)
		}
	}
	add("samples", float64(m.N), nan, nan)
	add("events", float64(m.Events), nan, nan)
	return rows
}

// underscored is s with its spaces as underscores.
func underscored(s string) string {
	out := []rune(s)
	for i, r := range out {
		if r == ' ' {
			out[i] = '_'
		}
	}
	return string(out)
}
