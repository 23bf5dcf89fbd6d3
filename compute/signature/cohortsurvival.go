package signature

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/survival"
)

// SurvivalMetrics are a survival signature's measures on a cohort with its own times and
// events: the locked model's risk scores, its groups cut at the training cut-offs.
type SurvivalMetrics struct {
	N, Events int
	// C is Harrell's C of the risk scores with its infinitesimal-jackknife SE; Uno is
	// Uno's C truncated at Tau.
	C, Uno survival.Concordance
	Tau    float64
	// HR is the hazard ratio per training SD of the risk score (a Cox model of the
	// cohort's outcome on score / the training scores' SD).
	HR      HazardRatio
	LogRank *survival.LogRank // of the risk groups (fewer than two groups: nil)
	// Horizons are the model's horizons within the cohort's follow-up; TimeAUC and
	// Calibration (the locked model's predicted survival against the cohort's
	// Kaplan-Meier survival by risk group) are at each.
	Horizons    []float64
	TimeAUC     []survival.TimeAUC
	Calibration [][]survival.CalibrationGroup
}

// predictRisk scores the rows with a survival signature's Cox model: each sample's risk
// score (Scores: one column) and risk group (Pred).
func (v *Validation) predictRisk(rows *mat.Dense) {
	r, err := v.Model.RiskScores(rows)
	if err != nil { // the rows hold the model's genes: cannot happen
		v.Notes = append(v.Notes, "warning: "+err.Error())
		return
	}
	v.Scores, v.Pred = make([][]float64, len(r)), v.Model.Cox.Groups(r)
	for i, s := range r {
		v.Scores[i] = []float64{s}
	}
}

// Risk is the predicted samples' risk scores (a survival signature's).
func (v *Validation) Risk() []float64 {
	out := make([]float64, len(v.Scores))
	for i, s := range v.Scores {
		out[i] = s[0]
	}
	return out
}

// measureSurvival measures the predicted samples against the cohort's times and events
// (time and event per cohort sample, kept: the predicted samples' cohort indices).
func (v *Validation) measureSurvival(time []float64, event []bool) (*SurvivalMetrics, error) {
	o := survival.Outcome{}
	for _, i := range v.kept {
		o.Time, o.Event = append(o.Time, time[i]), append(o.Event, event[i])
	}
	v.Time, v.Event = o.Time, o.Event
	if o.Events() == 0 {
		v.Notes = append(v.Notes, "no predicted sample of the cohort had the event: its risk scores are given, without measures")
		return nil, nil
	}
	c := v.Model.Cox
	risk := v.Risk()
	m := &SurvivalMetrics{N: len(risk), Events: o.Events()}
	var err error
	if m.C, err = survival.Harrell(o, risk); err != nil {
		return nil, err
	}
	last := slices.Max(o.Time)
	m.Tau = math.Min(c.Tau, last)
	if m.Tau <= 0 {
		m.Tau = last
	}
	if m.Uno, err = survival.Uno(o, risk, m.Tau); err != nil {
		return nil, err
	}
	scaled := make([]float64, len(risk))
	for i, s := range risk {
		scaled[i] = s / c.ScoreSD
	}
	if m.HR, err = hazardPerSD(o, scaled); err != nil {
		return nil, err
	}
	groups := v.Pred
	if slices.Max(groups) > slices.Min(groups) {
		if m.LogRank, err = logRankOf(o, groups); err != nil {
			return nil, err
		}
	}
	for _, h := range c.Horizons {
		if h >= last {
			v.Notes = append(v.Notes, fmt.Sprintf("the horizon %g is beyond the cohort's follow-up (%g): no time-dependent AUC or calibration there", h, last))
			continue
		}
		a, err := survival.TimeDependentAUC(o, risk, h)
		if err != nil {
			a = survival.TimeAUC{Time: h, AUC: math.NaN(), SE: math.NaN()}
		}
		cal, err := survival.Calibration(o, c.SurvivalAt(risk, h), groups, h)
		if err != nil {
			return nil, err
		}
		m.Horizons, m.TimeAUC, m.Calibration = append(m.Horizons, h), append(m.TimeAUC, a), append(m.Calibration, cal)
	}
	return m, nil
}

// logRankOf is the log-rank test of the groups present (relabelled 0.. in order), as
// survdiff compares only the groups that have samples.
func logRankOf(o survival.Outcome, groups []int) (*survival.LogRank, error) {
	present := map[int]int{}
	var labels []int
	for _, g := range groups {
		if _, ok := present[g]; !ok {
			present[g] = 0
			labels = append(labels, g)
		}
	}
	slices.Sort(labels)
	for i, g := range labels {
		present[g] = i
	}
	relabelled := make([]int, len(groups))
	for i, g := range groups {
		relabelled[i] = present[g]
	}
	return survival.LogRankTest(o, relabelled)
}

// SurvivalText says a survival cohort's measures in a few sentences.
func (v *Validation) SurvivalText(unit string) string {
	m := v.Survival
	if m == nil {
		return ""
	}
	if unit != "" {
		unit = " " + unit
	}
	hr := fmt.Sprintf("hazard ratio %.2f per training SD of the risk score (95%% CI %.2f-%.2f, p = %s)", m.HR.HR, m.HR.Low, m.HR.High, pWords(m.HR.P))
	if m.HR.Infinite {
		hr = "hazard ratio per training SD of the risk score " + m.HR.Text("SD", "the risk score on the cohort")
	}
	s := fmt.Sprintf("On %d cohort samples (%d events): Harrell's C %.3f (95%% CI %.3f-%.3f), Uno's C truncated at %g%s %.3f; %s",
		m.N, m.Events, m.C.C, m.C.C-1.96*m.C.SE, m.C.C+1.96*m.C.SE, m.Tau, unit, m.Uno.C, hr)
	if m.LogRank != nil {
		s += fmt.Sprintf("; the risk groups cut at the training cut-offs differ by the log-rank test, p = %s", pWords(m.LogRank.P))
	}
	for i, h := range m.Horizons {
		s += fmt.Sprintf("; at %g%s the time-dependent AUC is %.3f", h, unit, m.TimeAUC[i].AUC)
	}
	return s + "."
}

// pWords writes a p-value, "< 0.0001" below it.
func pWords(p float64) string {
	if p < 1e-4 {
		return "< 0.0001"
	}
	return fmt.Sprintf("%.2g", p)
}
