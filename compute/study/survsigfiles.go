package study

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"steadfast/compute/signature"
	"steadfast/compute/survival"
	"steadfast/internal/text"
)

// Files are a survival signature's files: model.json, signature.csv (its genes),
// predictions.csv (every sample's risk score and group, locked and cross-validated),
// metrics.csv, heldout-scores.csv (every repetition's held-out risk scores), with the
// nested estimate nested-choices.csv and nested-choice-counts.csv, and
// permutations.csv when the permutation test was run.
func (s *SurvivalSignature) Files() (map[string][]byte, error) {
	model, err := s.Model.Encode()
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{
		"model.json":      model,
		"signature.csv":   csvOf(s.GeneTable()),
		"predictions.csv": csvOf(s.PredictionTable()),
		"metrics.csv":     csvOf(s.MetricsTable()),
	}
	if s.CV.HeldOut != nil {
		files["heldout-scores.csv"] = csvOf(s.SurvivalHeldOutTable())
	}
	if s.Nested != nil {
		nestedFiles(files, s.Nested.Choices)
	}
	if s.Perm != nil {
		files["permutations.csv"] = csvOf(permutationRows(s.Perm))
	}
	return files, nil
}

// permutationRows is permutations.csv: each permutation's statistic.
func permutationRows(p *Permutations) [][]string {
	rows := [][]string{{"permutation", p.Column()}}
	for i, a := range p.AUCs {
		rows = append(rows, []string{strconv.Itoa(i + 1), num(a)})
	}
	return rows
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

// MetricsTable is metrics.csv: metric, value, low, high. The headline C first
// (c_index_headline, as a class signature's auc_headline: the nested estimate when the
// advice chose and it was computed, else the plain one; c_index_headline_is says
// which), then c_index, the plain cross-validated C (c_index_is says whether it is
// optimistic), the nested estimate's details, the other cross-validated measures, the
// permutation test, and the locked model's optimistic measures.
func (s *SurvivalSignature) MetricsTable() [][]string {
	cv, a := s.CV, s.Apparent
	rows := [][]string{{"metric", "value", "low", "high"}}
	add := func(name string, v, lo, hi float64) {
		rows = append(rows, []string{name, num(v), num(lo), num(hi)})
	}
	say := func(name, v string) { rows = append(rows, []string{name, v, "", ""}) }
	h := s.Headline()
	add("c_index_headline", h.C.Mean, h.C.Low, h.C.High)
	say("c_index_headline_is", h.Name()+": "+h.What())
	plainIs := fmt.Sprintf("Harrell's C of the held-out samples, the mean over %d resamples (%d repetitions); interval %s", cv.C.Resamples, cv.C.Repetitions, signature.CIntervalMethod)
	if s.Advised {
		plainIs = "optimistic, the advice's choice judged on the resamples that chose it; " + plainIs
	}
	add("c_index", cv.C.Mean, cv.C.Low, cv.C.High)
	say("c_index_is", plainIs)
	reps := text.Count(len(cv.Pooled), "repetition")
	mean, lo, hi := concordanceMeanRange(cv.Pooled)
	add("c_index_pooled_mean_range_over_repetitions", mean, lo, hi)
	say("c_index_pooled_mean_range_over_repetitions_is", "Harrell's C of each repetition's held-out scores pooled (every sample scored once, by the resample that held it out; heldout-scores.csv): the mean over "+reps+", low and high the least and largest")
	if n := s.Nested; n != nil {
		add("nested_c_index", n.C.Mean, n.C.Low, n.C.High)
		say("nested_c_index_is", fmt.Sprintf("Harrell's C of the outer held-out samples, each scored by the Cox model of the choice its inner study made, the mean over %d outer resamples (%d repetitions); interval by the plain estimate's method: %s", n.C.Resamples, n.C.Repetitions, signature.CIntervalMethod))
		mean, lo, hi := n.PooledRange()
		add("nested_c_index_pooled_mean_range_over_repetitions", mean, lo, hi)
		say("nested_c_index_pooled_mean_range_over_repetitions_is", "Harrell's C of each outer repetition's held-out scores pooled, each by its own choice: the mean over "+text.Count(len(n.Pooled), "repetition")+", low and high the least and largest")
		say("nested_outer_training_sets", strconv.Itoa(len(n.Choices)))
		say("nested_inner_folds", strconv.Itoa(n.InnerFolds))
		say("nested_is", "nested_outer_training_sets: the outer training sets, each with an inner study of nested_inner_folds-fold CV making the advice's choice again")
		say("nested_choices", NestedChoicesIs(n.Choices))
	}
	choice := "given, not the advice's: " + signature.GivenWarning
	if s.Advised {
		choice = "the advice's (chosen on these resamples: every cross-validated measure of the choice here but the nested C is optimistic)"
	}
	say("method_and_k", choice)
	uno, ulo, uhi := unoMeanRange(cv)
	add(unoName(cv.Tau), uno, ulo, uhi)
	say("uno_c_is", "Uno's C truncated at "+num(cv.Tau)+" (survival::concordance, timewt n/G2, ymax tau) of each repetition's held-out scores pooled: the mean over "+reps+", low and high the least and largest")
	hr := cv.HR[0]
	add("hazard_ratio_per_sd", hr.HR, hr.Low, hr.High)
	say("hazard_ratio_per_sd_is", "a Cox model of the outcome on the first repetition's held-out risk scores, each in its resample's training SDs; 95% Wald interval")
	if hr.Infinite {
		say("hazard_ratio_per_sd_warning", survival.InfiniteNote("the held-out risk score"))
	}
	lr := cv.LogRank[0]
	add("logrank_p", lr.P, math.NaN(), math.NaN())
	add("logrank_chisq", lr.Chisq, float64(lr.DF), math.NaN())
	say("logrank_is", "the first repetition's cross-validated risk groups (each sample cut by its resample's training scores); its p is approximate, the permutation test is exact; logrank_chisq's low is its degrees of freedom")
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
	say("calibration_is", "at each horizon each cross-validated risk group of the first repetition: predicted, its mean predicted survival (each sample by its resample's model); observed, its Kaplan-Meier survival with the 95% interval")
	if p := s.Perm; p != nil {
		add("permutation_p", p.P, math.NaN(), math.NaN())
		add("permutation_smallest_attainable_p", p.Smallest(), math.NaN(), math.NaN())
		say("permutations", strconv.Itoa(len(p.AUCs)))
		say("permutation_statistic", p.StatisticText())
		add("permutation_statistic_observed", p.Observed, math.NaN(), math.NaN())
		say("permutation_choice_repeated", strconv.FormatBool(p.Choice))
		say("permutation_is", PermutationIs)
		say("permutations_is", "the permuted studies run")
	}
	add("c_index_apparent", a.C.C, a.C.C-1.96*a.C.SE, a.C.C+1.96*a.C.SE)
	add("hazard_ratio_per_sd_apparent", a.HR.HR, a.HR.Low, a.HR.High)
	if a.HR.Infinite {
		say("hazard_ratio_per_sd_apparent_warning", survival.InfiniteNote("the locked model's risk score on its own samples"))
	}
	add("logrank_p_apparent", a.LogRank.P, math.NaN(), math.NaN())
	say("apparent_is", "the locked model on the samples it was fitted to: optimistic")
	add("samples", float64(len(s.Samples)), math.NaN(), math.NaN())
	say("samples_is", "the patients of the study, each in every analysis")
	add("events", float64(s.Outcome.Events()), math.NaN(), math.NaN())
	say("events_is", "the patients with the event; the others are censored")
	add("genes", float64(len(s.Genes)), math.NaN(), math.NaN())
	say("genes_is", "the signature's genes, in the locked Cox model")
	add("cox_ridge_lambda", s.Model.Cox.Ridge, math.NaN(), math.NaN())
	say("cox_ridge_lambda_is", "the ridge penalty lambda/2 sum beta^2 of every Cox model here, the genes z-scored")
	say("risk_groups", s.Model.Cox.GroupRule())
	return rows
}

// unoName is metrics.csv's name of Uno's C truncated at tau: the mean (and range) over
// the repetitions of each one's pooled held-out scores.
func unoName(tau float64) string {
	return "uno_c_tau_" + num(tau) + "_pooled_mean_range_over_repetitions"
}

// concordanceMeanRange is the mean, least and largest of the repetitions' pooled C.
func concordanceMeanRange(pooled []survival.Concordance) (mean, lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, c := range pooled {
		mean += c.C / float64(len(pooled))
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

// Performance says in a few sentences how well the procedure predicts, the headline C
// first (nested when the advice chose and it was computed, the plain one then called
// optimistic), and the permutation test when it was run.
func (s *SurvivalSignature) Performance() string {
	cv, a := s.CV, s.Apparent
	unit := s.Opts.Unit
	if unit != "" {
		unit = " " + unit
	}
	var b strings.Builder
	plain := fmt.Sprintf("the mean over %s of a Cox model of the genes each training set ranked first, on its held-out samples", text.Count(cv.C.Resamples, "resample"))
	h := s.Headline()
	switch h.Estimate {
	case signature.HeadlineNested:
		fmt.Fprintf(&b, "Headline: the %s; %s. %s The same choice on the resamples that chose it (optimistic): Harrell's C %.3f (95%% CI %.3f-%.3f), %s; the measures below are of it, and optimistic too.",
			h.Text(), h.What(), s.Nested.Summary(), cv.C.Mean, cv.C.Low, cv.C.High, plain)
	case signature.HeadlineOptimistic:
		fmt.Fprintf(&b, "Headline: the %s, %s; %s.", h.Text(), plain, h.What())
	default:
		fmt.Fprintf(&b, "Headline: the %s, %s; %s.", h.Text(), plain, h.What())
	}
	mean, lo, hi := concordanceMeanRange(cv.Pooled)
	uno, ulo, uhi := unoMeanRange(cv)
	fmt.Fprintf(&b, " Each repetition's held-out scores pooled give Harrell's C %.3f on average (range %.3f-%.3f over %s) and Uno's C truncated at %s%s %.3f (range %.3f-%.3f).", mean, lo, hi, text.Count(len(cv.Pooled), "repetition"), num(cv.Tau), unit, uno, ulo, uhi)
	hr, lr := cv.HR[0], cv.LogRank[0]
	fmt.Fprintf(&b, " The held-out risk score's hazard ratio is %s; its cross-validated %s differ by the log-rank test with p = %s (approximate).",
		hr.Text("SD", "the held-out risk score"), strings.Join(s.Model.Cox.GroupNames(), " and "), pText(lr.P))
	for h, t := range cv.Horizons {
		m, _ := timeAUCMean(cv, h)
		fmt.Fprintf(&b, " At %s%s the time-dependent AUC is %.3f.", num(t), unit, m)
	}
	fmt.Fprintf(&b, " The locked model on its own samples (optimistic): C %.3f, hazard ratio %s.", a.C.C, a.HR.Text("SD", "the locked model's risk score on its own samples"))
	if s.Perm != nil {
		fmt.Fprintf(&b, " Permutation test of C: %s.", s.Perm.Says())
	}
	return b.String()
}

// pText writes a p-value, "< 0.0001" below it.
func pText(p float64) string {
	if p < 1e-4 {
		return "< 0.0001"
	}
	return fmt.Sprintf("%.2g", p)
}
