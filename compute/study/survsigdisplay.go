package study

import (
	"fmt"
	"strconv"
	"strings"

	"steadfast/internal/text"
)

// GeneDisplay is signature.csv (GeneTable) as people read it (the window, the
// report): headers in words, the hazard ratio with its interval in one cell, p and FDR
// in scientific notation with two significant digits, the other numbers with three.
func (s *SurvivalSignature) GeneDisplay() (header []string, rows [][]string) {
	header = []string{"rank", "gene", "gene symbol", "Cox coefficient (per SD)", "hazard ratio per SD (95% CI)", "univariate score test z", "univariate p", "FDR (BH)"}
	for i, g := range s.Genes {
		rows = append(rows, []string{strconv.Itoa(i + 1), g.ID, g.Symbol, text.Sig3(g.Coef), fmt.Sprintf("%s (%s-%s)", text.Sig3(g.HR), text.Sig3(g.HRLow), text.Sig3(g.HRHigh)),
			text.Sig3(g.Z), text.PValue(g.P), text.PValue(g.FDR)})
	}
	return header, rows
}

// MeasuresDisplay is metrics.csv (MetricsTable) as people read it: a row a measure
// named in words, its estimate and its interval or range with three significant
// digits; the describing rows (_is and settings) are said in the words, and keys,
// when asked for, adds the metrics.csv name of each row (the window shows it).
func (s *SurvivalSignature) MeasuresDisplay(keys bool) (header []string, rows [][]string) {
	header = []string{"measure", "estimate", "95% CI or range"}
	if keys {
		header = append(header, "metrics.csv")
	}
	for _, r := range s.MetricsTable()[1:] {
		name := s.measureName(r[0])
		if name == "" {
			continue
		}
		est, span := r[1], ""
		if v, err := strconv.ParseFloat(est, 64); err == nil {
			est = text.Sig3(v)
			if strings.HasSuffix(r[0], "_p") || strings.HasSuffix(r[0], "_p_apparent") {
				est = text.PValue(v)
			}
		}
		lo, errL := strconv.ParseFloat(r[2], 64)
		hi, errH := strconv.ParseFloat(r[3], 64)
		switch {
		case errL == nil && errH == nil && strings.Contains(r[0], "_range_"):
			span = "range " + text.Sig3(lo) + "-" + text.Sig3(hi)
		case errL == nil && errH == nil:
			span = text.Sig3(lo) + "-" + text.Sig3(hi)
		case r[0] == "logrank_chisq" && errL == nil:
			span = "on " + text.Count(int(lo), "degree") + " of freedom"
		}
		row := []string{name, est, span}
		if keys {
			row = append(row, r[0])
		}
		rows = append(rows, row)
	}
	return header, rows
}

// measureName names metrics.csv's row key in words, "" for the rows the display
// leaves to its words (descriptions, settings).
func (s *SurvivalSignature) measureName(key string) string {
	unit := ""
	if s.Opts.Unit != "" {
		unit = " " + s.Opts.Unit
	}
	reps := text.Count(len(s.CV.Pooled), "repetition")
	optimistic := ""
	if s.Advised {
		optimistic = ", optimistic (the advice chose on these resamples)"
	}
	fixed := map[string]string{
		"c_index_headline": "Headline: " + s.Headline().Name(),
		"c_index":          "Harrell's C, cross-validated: mean over " + text.Count(s.CV.C.Resamples, "resample") + optimistic,
		"c_index_pooled_mean_range_over_repetitions": "Harrell's C of each repetition's pooled held-out scores: mean over " + reps,
		"nested_outer_training_sets":                 "Nested: outer training sets (an inner study each)",
		"nested_inner_folds":                         "Nested: folds of each inner study",
		"hazard_ratio_per_sd":                        "Hazard ratio per SD of the held-out risk score (repetition 1)",
		"logrank_p":                                  "Log-rank p of the cross-validated risk groups (repetition 1, approximate)",
		"logrank_chisq":                              "Log-rank chi-square of the cross-validated risk groups (repetition 1)",
		"permutation_p":                              "Permutation test p",
		"permutation_smallest_attainable_p":          "Permutation test: smallest attainable p",
		"permutations":                               "Permutations",
		"permutation_statistic_observed":             "Permutation test: observed statistic",
		"c_index_apparent":                           "Harrell's C of the locked model on its own samples (optimistic)",
		"hazard_ratio_per_sd_apparent":               "Hazard ratio per SD of the locked model's risk score on its own samples (optimistic)",
		"logrank_p_apparent":                         "Log-rank p of the locked model's risk groups on its own samples (optimistic)",
		"samples":                                    "Patients",
		"events":                                     "Events",
		"genes":                                      "Genes",
		"cox_ridge_lambda":                           "Ridge penalty lambda of the Cox models",
	}
	if n := s.Nested; n != nil {
		fixed["nested_c_index"] = "Nested Harrell's C: mean over " + text.Count(n.C.Resamples, "outer resample")
		fixed["nested_c_index_pooled_mean_range_over_repetitions"] = "Nested Harrell's C of each repetition's pooled outer held-out scores: mean over " + text.Count(len(n.Pooled), "repetition")
	}
	if name, ok := fixed[key]; ok {
		return name
	}
	if key == unoName(s.CV.Tau) {
		return "Uno's C truncated at " + num(s.CV.Tau) + unit + " of each repetition's pooled held-out scores: mean over " + reps
	}
	for _, t := range s.CV.Horizons {
		if key == "time_auc_"+num(t) {
			return "Time-dependent AUC at " + num(t) + unit + ": mean over " + reps + " (interval from repetition 1's SE)"
		}
		for _, g := range s.Model.Cox.GroupNames() {
			stem := fmt.Sprintf("calibration_%s_%s_", num(t), strings.ReplaceAll(g, " ", "_"))
			switch key {
			case stem + "predicted":
				return fmt.Sprintf("Survival at %s%s, %s group: predicted (mean, repetition 1)", num(t), unit, g)
			case stem + "observed":
				return fmt.Sprintf("Survival at %s%s, %s group: observed (Kaplan-Meier)", num(t), unit, g)
			}
		}
	}
	return ""
}

// MeasuresCaption says what MeasuresDisplay shows and where the rest is.
func (s *SurvivalSignature) MeasuresCaption() string {
	return "Measures of the signature (metrics.csv keeps every digit and a row saying what each is; heldout-scores.csv every held-out risk score)"
}
