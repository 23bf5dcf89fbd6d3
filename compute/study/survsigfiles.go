package study

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"steadfast/compute/signature"
	"steadfast/internal/text"
)

// Files are a survival signature's files: model.json, signature.csv (its genes),
// predictions.csv (every sample's risk score and group, locked and cross-validated)
// and metrics.csv.
func (s *SurvivalSignature) Files() (map[string][]byte, error) {
	model, err := s.Model.Encode()
	if err != nil {
		return nil, err
	}
	return map[string][]byte{
		"model.json":      model,
		"signature.csv":   csvOf(s.GeneTable()),
		"predictions.csv": csvOf(s.PredictionTable()),
		"metrics.csv":     csvOf(s.MetricsTable()),
	}, nil
}

// GeneTable is signature.csv: a row a gene, its locked coefficient and hazard ratio
// per SD (95% Wald interval from the penalised information), and the univariate Cox
// score test on all samples (descriptive: the genes were chosen by it or its kin).
func (s *SurvivalSignature) GeneTable() [][]string {
	rows := [][]string{{"rank", "gene", "symbol", "cox_coefficient_per_sd", "hazard_ratio_per_sd", "hr_low95", "hr_high95", "univariate_score_z", "univariate_score_p", "univariate_fdr"}}
	for i, g := range s.Genes {
		rows = append(rows, []string{strconv.Itoa(i + 1), g.ID, g.Symbol, num(g.Coef), num(g.HR), num(g.HRLow), num(g.HRHigh), num(g.Z), num(g.P), num(g.FDR)})
	}
	return rows
}

// PredictionTable is predictions.csv: each sample's time and event, its risk score and
// group by the locked model (fitted on it: optimistic), and by the first repetition's
// resample that held it out (cross-validated).
func (s *SurvivalSignature) PredictionTable() [][]string {
	names := s.Model.Cox.GroupNames()
	rows := [][]string{{"sample", "time", "event", "risk_score", "risk_group", "cv_risk_group"}}
	for i, name := range s.Samples {
		ev := "0"
		if s.Outcome.Event[i] {
			ev = "1"
		}
		rows = append(rows, []string{name, num(s.Outcome.Time[i]), ev, num(s.Apparent.Scores[i]), names[s.Apparent.Groups[i]], names[s.CV.Groups[i]]})
	}
	return rows
}

// MetricsTable is metrics.csv: metric, value, low, high. The cross-validated C first
// (the headline), then the locked model's optimistic measures.
func (s *SurvivalSignature) MetricsTable() [][]string {
	cv, a := s.CV, s.Apparent
	rows := [][]string{{"metric", "value", "low", "high"}}
	add := func(name string, v, lo, hi float64) {
		rows = append(rows, []string{name, num(v), num(lo), num(hi)})
	}
	say := func(name, v string) { rows = append(rows, []string{name, v, "", ""}) }
	add("c_index", cv.C.Mean, cv.C.Low, cv.C.High)
	say("c_index_is", fmt.Sprintf("Harrell's C of the held-out samples, the mean over %d resamples (%d repetitions); interval %s", cv.C.Resamples, cv.C.Repetitions, signature.CIntervalMethod))
	mean, lo, hi := concordanceRange(cv)
	add("c_index_pooled_mean_range_over_repetitions", mean, lo, hi)
	uno := 0.0
	for _, u := range cv.Uno {
		uno += u.C / float64(len(cv.Uno))
	}
	add("uno_c_tau_"+num(cv.Tau), uno, math.NaN(), math.NaN())
	hr := cv.HR[0]
	add("hazard_ratio_per_sd", hr.HR, hr.Low, hr.High)
	say("hazard_ratio_per_sd_is", "a Cox model of the outcome on the first repetition's held-out risk scores, each in its resample's training SDs")
	lr := cv.LogRank[0]
	add("logrank_p", lr.P, math.NaN(), math.NaN())
	add("logrank_chisq", lr.Chisq, float64(lr.DF), math.NaN())
	say("logrank_is", "the first repetition's cross-validated risk groups (each sample cut by its resample's training scores); its p is approximate, the permutation test is exact")
	for h, t := range cv.Horizons {
		m, se := timeAUCMean(cv, h)
		add("time_auc_"+num(t), m, math.Max(0, m-1.96*se), math.Min(1, m+1.96*se))
	}
	say("time_auc_is", "cumulative/dynamic AUC at the horizon with Kaplan-Meier censoring weights (riskRegression's Score), the mean over the repetitions' pooled held-out scores; interval from the first repetition's SE")
	for h, t := range cv.Horizons {
		for _, g := range cv.Calibration[h] {
			name := s.Model.Cox.GroupNames()[g.Group]
			add(fmt.Sprintf("calibration_%s_%s_predicted", num(t), strings.ReplaceAll(name, " ", "_")), g.Predicted, math.NaN(), math.NaN())
			add(fmt.Sprintf("calibration_%s_%s_observed", num(t), strings.ReplaceAll(name, " ", "_")), g.Observed, g.Low, g.High)
		}
	}
	add("c_index_apparent", a.C.C, a.C.C-1.96*a.C.SE, a.C.C+1.96*a.C.SE)
	add("hazard_ratio_per_sd_apparent", a.HR.HR, a.HR.Low, a.HR.High)
	add("logrank_p_apparent", a.LogRank.P, math.NaN(), math.NaN())
	say("apparent_is", "the locked model on the samples it was fitted to: optimistic")
	add("samples", float64(len(s.Samples)), math.NaN(), math.NaN())
	add("events", float64(s.Outcome.Events()), math.NaN(), math.NaN())
	add("genes", float64(len(s.Genes)), math.NaN(), math.NaN())
	add("cox_ridge_lambda", s.Model.Cox.Ridge, math.NaN(), math.NaN())
	say("risk_groups", s.Model.Cox.GroupRule())
	return rows
}

// concordanceRange is the mean, least and largest of the repetitions' pooled C.
func concordanceRange(cv *signature.SurvivalCV) (mean, lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, c := range cv.Pooled {
		mean += c.C / float64(len(cv.Pooled))
		lo, hi = math.Min(lo, c.C), math.Max(hi, c.C)
	}
	return mean, lo, hi
}

// timeAUCMean is the mean over the repetitions of the time-dependent AUC at horizon h,
// and the first repetition's SE.
func timeAUCMean(cv *signature.SurvivalCV, h int) (mean, se float64) {
	n := 0.0
	for _, r := range cv.TimeAUC {
		if a := r[h].AUC; !math.IsNaN(a) {
			mean, n = mean+a, n+1
		}
	}
	return mean / n, cv.TimeAUC[0][h].SE
}

// Performance says in a few sentences how well the procedure predicts, the
// cross-validated C first.
func (s *SurvivalSignature) Performance() string {
	cv, a := s.CV, s.Apparent
	unit := s.Opts.Unit
	if unit != "" {
		unit = " " + unit
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Headline: the cross-validated Harrell's C %.3f (95%% CI %.3f-%.3f), the mean over %s of a Cox model of the genes each training set ranked first, on its held-out samples.",
		cv.C.Mean, cv.C.Low, cv.C.High, text.Count(cv.C.Resamples, "resample"))
	mean, lo, hi := concordanceRange(cv)
	fmt.Fprintf(&b, " Pooled over each repetition's folds C is %.3f (range %.3f-%.3f); Uno's C truncated at %s%s %.3f.", mean, lo, hi, num(cv.Tau), unit, cv.Uno[0].C)
	hr, lr := cv.HR[0], cv.LogRank[0]
	fmt.Fprintf(&b, " The held-out risk score's hazard ratio is %.2f per SD (95%% CI %.2f-%.2f); its cross-validated %s differ by the log-rank test with p = %s (approximate).",
		hr.HR, hr.Low, hr.High, strings.Join(s.Model.Cox.GroupNames(), " and "), pText(lr.P))
	for h, t := range cv.Horizons {
		m, _ := timeAUCMean(cv, h)
		fmt.Fprintf(&b, " At %s%s the time-dependent AUC is %.3f.", num(t), unit, m)
	}
	fmt.Fprintf(&b, " The locked model on its own samples (optimistic): C %.3f, hazard ratio %.2f per SD.", a.C.C, a.HR.HR)
	return b.String()
}

// pText writes a p-value, "< 0.0001" below it.
func pText(p float64) string {
	if p < 1e-4 {
		return "< 0.0001"
	}
	return fmt.Sprintf("%.2g", p)
}
