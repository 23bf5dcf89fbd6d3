package study

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"steadfast/compute/signature"
	"steadfast/internal/text"
)

// Files are what the signature writes: model.json, signature.csv (a gene a row),
// roc.csv (every repetition's curve), metrics.csv (metric, value, low, high),
// heldout-scores.csv (every repetition's held-out scores), with two classes
// probabilities.csv (each sample's probability of the positive class), with the nested
// estimate nested-choices.csv and nested-choice-counts.csv (the inner choices) and,
// after a permutation test, permutations.csv (each permuted study's AUC).
func (s *Signature) Files() (map[string][]byte, error) {
	model, err := s.Model.Encode()
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{
		"model.json":    model,
		"signature.csv": csvOf(s.GeneTable()),
		"roc.csv":       csvOf(s.rocTable()),
		"metrics.csv":   csvOf(s.metricsTable()),
	}
	if s.CV.HeldOut != nil {
		files["heldout-scores.csv"] = csvOf(s.HeldOutTable())
	}
	if s.Nested != nil {
		nestedFiles(files, s.Nested.Choices)
	}
	if s.Op != nil {
		files["probabilities.csv"] = csvOf(s.probabilityTable())
	}
	if s.Perm != nil {
		rows := [][]string{{"permutation", "auc"}}
		for i, a := range s.Perm.AUCs {
			rows = append(rows, []string{strconv.Itoa(i + 1), num(a)})
		}
		files["permutations.csv"] = csvOf(rows)
	}
	return files, nil
}

// GeneTable is signature.csv: one row a gene, under its header. higher_in is the class
// of highest mean, against the class of lowest (of two, the other one). With two classes
// the SVM weight is oriented toward the positive class (a positive weight favours it)
// and the fold change and Hedges' g are the positive class's against the reference,
// both named in the header; with more, of higher_in against against.
func (s *Signature) GeneTable() [][]string {
	wcsv, _ := s.weightWords()
	test, fc, g, weight := "anova_p", "log2_fold_change", "hedges_g", wcsv
	if s.Scale.Moderated {
		test = "limma_voom_F_p"
	}
	if s.Positive >= 0 {
		pos, ref := s.Classes[s.Positive], s.Classes[1-s.Positive]
		test, fc, g = "welch_p", "log2_fold_change_"+pos+"_vs_"+ref, "hedges_g_"+pos+"_vs_"+ref
		weight = wcsv + "_toward_" + pos
		if s.Scale.Moderated {
			test = "limma_voom_p"
		}
	}
	head := []string{"gene", "symbol", "selection_frequency", "mean_rank", weight, "higher_in", "against", fc, g, test, "bh_fdr"}
	limma := s.limma()
	if limma {
		head = append(head, "limma_F_p", "limma_bh_fdr")
		if s.Positive >= 0 {
			head[len(head)-2] = "limma_p"
			head = slices.Insert(head, len(head)-2, "limma_t_"+s.Classes[s.Positive]+"_vs_"+s.Classes[1-s.Positive])
		}
	}
	rows := [][]string{append(head, "group_members")}
	for _, gn := range s.Genes {
		row := []string{gn.ID, gn.Symbol, num(gn.Frequency), num(gn.MeanRank), num(gn.Weight), gn.Higher, gn.Against, num(gn.Log2FC), num(gn.G), num(gn.P), num(gn.FDR)}
		if limma && s.Positive >= 0 {
			row = append(row, num(gn.ModT))
		}
		if limma {
			row = append(row, num(gn.ModP), num(gn.ModFDR))
		}
		rows = append(rows, append(row, strings.Join(gn.Members, "; ")))
	}
	return rows
}

// limma reports whether the genes have limma's moderated statistics (intensities).
func (s *Signature) limma() bool {
	for _, g := range s.Genes {
		if !math.IsNaN(g.ModP) {
			return true
		}
	}
	return false
}

// weightWords name the genes' weights in signature.csv and in words: a linear SVM's
// weights, or logistic regression's coefficients (log odds per unit of the scaled
// gene); other models have none (the column is empty).
func (s *Signature) weightWords() (csv, display string) {
	if s.Model != nil && s.Model.Classifier == "logit" {
		return "logit_coefficient", "logistic coefficient"
	}
	return "svm_weight", "SVM weight"
}

// GeneDisplay is the gene table as people read it (the window, copies, the report):
// headers in words naming the classes, p and FDR in scientific notation with two
// significant digits, the other numbers with three. signature.csv (GeneTable) keeps
// every digit.
func (s *Signature) GeneDisplay() (header []string, rows [][]string) {
	_, wname := s.weightWords()
	if s.CV == nil { // an opened model: its genes and weights only
		header = []string{"gene", "gene symbol", wname}
		if s.Positive >= 0 {
			header[2] = wname + " (+ favours " + s.Classes[s.Positive] + ")"
		}
		for _, gn := range s.Genes {
			rows = append(rows, []string{gn.ID, gn.Symbol, text.Sig3(gn.Weight)})
		}
		return header, rows
	}
	test, fc, g, weight := "ANOVA p", "log2 fold change (highest vs lowest)", "Hedges' g (highest vs lowest)", wname
	if s.Scale.Moderated {
		test = "limma-voom F p"
	}
	if s.Positive >= 0 {
		pos, ref := s.Classes[s.Positive], s.Classes[1-s.Positive]
		test, fc, g = "Welch p", "log2 fold change "+pos+" vs "+ref, "Hedges' g "+pos+" vs "+ref
		weight = wname + " (+ favours " + pos + ")"
		if s.Scale.Moderated {
			test = "limma-voom p"
		}
	}
	header = []string{"gene", "gene symbol", "selected in (share of resamples)", "mean rank", weight, "higher in"}
	if s.Positive < 0 {
		header = append(header, "lowest in")
	}
	header = append(header, fc, g, test, "FDR (BH)")
	limma := s.limma()
	if limma && s.Positive >= 0 {
		header = append(header, "limma moderated t "+s.Classes[s.Positive]+" vs "+s.Classes[1-s.Positive], "limma p", "limma FDR (BH)")
	} else if limma {
		header = append(header, "limma moderated F p", "limma FDR (BH)")
	}
	header = append(header, "group members")
	for _, gn := range s.Genes {
		row := []string{gn.ID, gn.Symbol, text.Sig3(gn.Frequency), text.Sig3(gn.MeanRank), text.Sig3(gn.Weight), gn.Higher}
		if s.Positive < 0 {
			row = append(row, gn.Against)
		}
		row = append(row, text.Sig3(gn.Log2FC), text.Sig3(gn.G), text.PValue(gn.P), text.PValue(gn.FDR))
		if limma && s.Positive >= 0 {
			row = append(row, text.Sig3(gn.ModT))
		}
		if limma {
			row = append(row, text.PValue(gn.ModP), text.PValue(gn.ModFDR))
		}
		rows = append(rows, append(row, strings.Join(gn.Members, "; ")))
	}
	return header, rows
}

// ConfusionDisplay is the cross-validated confusion matrix as people read it: a row a
// true class, a column a predicted class, counted over every repetition (each sample
// once a repetition), then each class's sensitivity (its samples predicted right).
func (s *Signature) ConfusionDisplay() (header []string, rows [][]string) {
	if s.CV == nil {
		return nil, nil
	}
	reps := max(len(s.CV.AUCs), 1)
	header = append(append([]string{fmt.Sprintf("true class \\ predicted (mean of %d repetitions)", reps)}, s.Classes...), "predicted right")
	for t, row := range s.CV.Confusion {
		r := []string{s.Classes[t]}
		for _, n := range row {
			r = append(r, strconv.FormatFloat(float64(n)/float64(reps), 'f', 1, 64))
		}
		rows = append(rows, append(r, text.Sig3(s.CV.ClassSensitivity(t))))
	}
	return header, rows
}

// ConfusionCaption says what ConfusionDisplay's numbers are.
func (s *Signature) ConfusionCaption() string {
	return fmt.Sprintf("Cross-validated confusion matrix: the mean count a repetition over %s (each sample is tested once a repetition), at the classifier's own rule", text.Count(max(len(s.CV.AUCs), 1), "repetition"))
}

// OperatingDisplay is the performance block as people read it (two classes; empty
// with more): a row an operating point, the classifier's own rule and Youden's
// threshold, with sensitivity, specificity, PPV and NPV and their 95% intervals.
func (s *Signature) OperatingDisplay() (header []string, rows [][]string) {
	if s.Op == nil {
		return nil, nil
	}
	header = []string{"operating point", "threshold", "sensitivity (95% CI)", "specificity (95% CI)", "PPV (95% CI)", "NPV (95% CI)", "interval"}
	for _, r := range []struct {
		name, why string
		c         signature.Coords
	}{{"classifier's own rule", "corrected resampled (Nadeau and Bengio)", s.Op.Own}, {"Youden's threshold (optimistic)", "bootstrap of the samples (pROC)", s.Op.Youden}} {
		th := "the classifier's"
		if !math.IsNaN(r.c.Threshold) {
			th = text.Sig3(r.c.Threshold)
		}
		rows = append(rows, []string{r.name, th, withCI(r.c.Sens), withCI(r.c.Spec), withCI(r.c.PPV), withCI(r.c.NPV), r.why})
	}
	return header, rows
}

// ProbabilityDisplay is probabilities.csv as people read it: each sample, its class
// and its cross-fitted probability of the positive class with three digits.
func (s *Signature) ProbabilityDisplay() (header []string, rows [][]string) {
	if s.Op == nil {
		return nil, nil
	}
	for _, r := range s.probabilityTable()[1:] {
		p, _ := strconv.ParseFloat(r[2], 64)
		rows = append(rows, []string{r[0], r[1], text.Sig3(p)})
	}
	return []string{"sample", "class", "probability of " + s.Classes[s.Positive]}, rows
}

// rocTable is roc.csv: every repetition's ROC points.
func (s *Signature) rocTable() [][]string {
	rows := [][]string{{"repetition", "threshold", "fpr", "tpr"}}
	for r, curve := range s.CV.Curves {
		for _, p := range curve {
			rows = append(rows, []string{strconv.Itoa(s.CV.Repeats[r] + 1), num(p.Threshold), num(p.FPR), num(p.TPR)})
		}
	}
	return rows
}

// metricsTable is metrics.csv: the mean AUC over the repetitions (low and high their
// range), the first repetition's AUC with its DeLong 95% interval, sensitivity,
// specificity and balanced accuracy at the classifier's own rule, and the confusion
// matrix (true class -> predicted class, counted over every repetition).
func (s *Signature) metricsTable() [][]string {
	cv := s.CV
	first := cv.AUCs[0]
	positive, reference := "one-vs-rest", ""
	if s.Positive >= 0 {
		positive, reference = s.Classes[s.Positive], s.Classes[1-s.Positive]
	}
	h := s.Headline()
	plain := "auc_resamples_mean_ci95"
	if s.Advised {
		plain = "auc_optimistic_resamples_mean_ci95"
	}
	rows := [][]string{{"metric", "value", "low", "high"},
		{"auc_headline", num(h.AUC), num(h.Low), num(h.High)},
		{"auc_headline_is", h.Name() + ": " + h.What(), "", ""},
		{"positive_class", positive, "", ""},
		{"reference_class", reference, "", ""},
		{"positive_class_rule", s.PositiveWhy, "", ""},
		{"fold_change", s.Scale.Why, "", ""},
		{plain, num(cv.Interval.Mean), num(cv.Interval.Low), num(cv.Interval.High)},
		{"auc_ci95_method", signature.IntervalMethod, "", ""},
		{"auc_pooled_mean_range_over_repetitions", num(cv.MeanAUC), num(cv.MinAUC), num(cv.MaxAUC)},
		{"auc_is", "*_resamples_mean_ci95: the mean of the resamples' held-out AUCs, interval as auc_ci95_method; *_pooled_mean_range_over_repetitions: each repetition's held-out scores pooled (heldout-scores.csv), the mean over the repetitions, low and high the least and largest; *_repetition_1_delong95_fixed_classifier: the first repetition's pooled AUC with DeLong's interval, the classifier taken as fixed", "", ""},
	}
	if s.Positive >= 0 {
		rows = append(rows, []string{"auc_repetition_1_delong95_fixed_classifier", num(first.AUC), num(first.Low), num(first.High)})
		rows = append(rows, s.operatingRows()...)
	} else {
		for c, name := range s.Classes {
			mean, lo, hi, f := cv.ClassAUC(c)
			ci := cv.ClassIntervals[c]
			rows = append(rows, []string{"auc_" + name + "_vs_rest_resamples_mean_ci95", num(ci.Mean), num(ci.Low), num(ci.High)},
				[]string{"auc_" + name + "_vs_rest_pooled_mean_range_over_repetitions", num(mean), num(lo), num(hi)},
				[]string{"auc_" + name + "_vs_rest_repetition_1_delong95_fixed_classifier", num(f.AUC), num(f.Low), num(f.High)},
				[]string{"sensitivity_" + name + "_vs_rest", num(cv.ClassSensitivity(c)), "", ""},
				[]string{"specificity_" + name + "_vs_rest", num(cv.ClassSpecificity(c)), "", ""})
		}
		rows = append(rows, []string{"sensitivity_is", "a class's samples predicted that class at the classifier's own rule, over every repetition", "", ""},
			[]string{"specificity_is", "the other classes' samples not predicted that class at the classifier's own rule, over every repetition", "", ""})
	}
	rows = append(rows, []string{"balanced_accuracy", num(cv.BalancedAccuracy()), "", ""},
		[]string{"balanced_accuracy_is", "the mean over the classes of the share of their samples predicted right at the classifier's own rule, over every repetition", "", ""})
	for p, st := range s.PairStability {
		pr := s.Model.Pairs[p]
		rows = append(rows, []string{fmt.Sprintf("ktsp_pair %s < %s chosen_in_resamples", s.Model.Genes[pr[0]].ID, s.Model.Genes[pr[1]].ID), num(st), "", ""})
	}
	if s.PairStability != nil {
		rows = append(rows, []string{"ktsp_is", "each locked pair's share of the resamples whose own k-TSP chose it too", "", ""})
	}
	choice := "given, not the advice's: " + signature.GivenWarning
	if s.Advised {
		choice = "the advice's (chosen on these resamples: the estimates above are optimistic)"
	}
	rows = append(rows, []string{"method_and_k", choice, "", ""})
	if n := s.Nested; n != nil {
		rows = append(rows, []string{"nested_auc_resamples_mean_ci95", num(n.Interval.Mean), num(n.Interval.Low), num(n.Interval.High)},
			[]string{"nested_auc_pooled_mean_range_over_repetitions", num(n.MeanAUC), num(n.MinAUC), num(n.MaxAUC)},
			[]string{"nested_outer_training_sets", strconv.Itoa(len(n.Choices)), "", ""},
			[]string{"nested_inner_folds", strconv.Itoa(n.InnerFolds), "", ""},
			[]string{"nested_auc_is", "the advice's choice made again inside each outer training set, scored on the outer held-out samples: the mean of the outer resamples' AUCs with an interval by auc_ci95_method's method, and each repetition's pooled outer scores' mean, least and largest", "", ""},
			[]string{"nested_is", "nested_outer_training_sets: the outer training sets, each with an inner study of nested_inner_folds-fold CV making the advice's choice again", "", ""},
			[]string{"nested_choices", NestedChoicesIs(n.Choices), "", ""})
	}
	if s.Perm != nil {
		rows = append(rows, []string{"permutation_p", num(s.Perm.P), "", ""}, []string{"permutation_smallest_attainable_p", num(s.Perm.Smallest()), "", ""},
			[]string{"permutations", strconv.Itoa(len(s.Perm.AUCs)), "", ""},
			[]string{"permutation_statistic", s.Perm.StatisticText(), "", ""}, []string{"permutation_statistic_observed", num(s.Perm.Observed), "", ""},
			[]string{"permutation_choice_repeated", strconv.FormatBool(s.Perm.Choice), "", ""},
			[]string{"permutation_is", PermutationIs, "", ""}, []string{"permutations_is", "the permuted studies run", "", ""})
	}
	for t, row := range cv.Confusion {
		for p, n := range row {
			rows = append(rows, []string{fmt.Sprintf("confusion_pooled_over_%d_repetitions %s -> %s", len(cv.AUCs), s.Classes[t], s.Classes[p]), strconv.Itoa(n), "", ""})
		}
	}
	return append(rows, []string{"confusion_is", "test samples of the true class (left of ->) predicted the class on its right at the classifier's own rule, counted over every repetition", "", ""})
}

// PermutationIs is metrics.csv's permutation_is row: what the permutation rows are.
const PermutationIs = "p = (1 + permuted statistics at least the observed) / (permutations + 1), the smallest attainable 1 / (permutations + 1); each permutation's statistic in permutations.csv"

// OwnRuleMethod and YoudenMethod name the operating points' intervals in every output.
const (
	OwnRuleMethod = "corrected resampled 95% interval over the resamples (Nadeau and Bengio's variance, the repetitions as units, Wilson score form)"
	YoudenMethod  = "95% percentile interval of 2000 stratified bootstrap draws of the samples, the threshold chosen again in each (pROC's ci.coords); the threshold is chosen on these same scores, so the point is optimistic"
	ProbMethod    = "Platt scaling of the out-of-fold scores of the positive class; each sample's probability from a map fitted without its tenth of the samples, averaged over the repetitions; calibration as rms val.prob on those probabilities"
	// OwnProbMethod is ProbMethod for a classifier of probabilities of its own.
	OwnProbMethod = "the classifier's own out-of-fold probabilities of the positive class (logistic regression's fitted probability, a forest's share of trees' votes; no Platt map), averaged over the repetitions; calibration as rms val.prob on those probabilities"
)

// probabilityTable is probabilities.csv: each sample's class and its cross-fitted
// probability of the positive class (Operating.Probs).
func (s *Signature) probabilityTable() [][]string {
	rows := [][]string{{"sample", "class", "probability_" + s.Classes[s.Positive]}}
	for i, p := range s.Op.Probs {
		rows = append(rows, []string{s.Samples[i], s.Classes[s.Labels[i]], num(p)})
	}
	return rows
}

// operatingRows are metrics.csv's rows of the two-class performance block.
func (s *Signature) operatingRows() [][]string {
	op := s.Op
	coords := func(name string, c signature.Coords) [][]string {
		return [][]string{{name + "sensitivity", num(c.Sens.Est), num(c.Sens.Low), num(c.Sens.High)},
			{name + "specificity", num(c.Spec.Est), num(c.Spec.Low), num(c.Spec.High)},
			{name + "ppv", num(c.PPV.Est), num(c.PPV.Low), num(c.PPV.High)},
			{name + "npv", num(c.NPV.Est), num(c.NPV.Low), num(c.NPV.High)}}
	}
	rows := coords("", op.Own)
	for _, m := range []string{"sensitivity", "specificity", "ppv", "npv"} {
		rows = append(rows, []string{m + "_is", "at the classifier's own rule, from every repetition's held-out predictions; interval as own_rule_ci95_method", "", ""})
	}
	rows = append(rows, []string{"own_rule_ci95_method", OwnRuleMethod, "", ""}, []string{"prevalence", num(op.Prevalence), "", ""},
		[]string{"prevalence_is", "the positive class's share of the samples, at which PPV and NPV are taken", "", ""},
		[]string{"youden_threshold", num(op.Youden.Threshold), "", ""})
	rows = append(rows, coords("youden_", op.Youden)...)
	rows = append(rows, []string{"youden_ci95_method", YoudenMethod, "", ""},
		[]string{"youden_is", "youden_threshold: the threshold of largest sensitivity + specificity on the pooled held-out scores (optimistic: chosen on them); youden_*: the measures at it, interval as youden_ci95_method", "", ""})
	if op.Direct { // the classifier's own probabilities: no map, nothing cross-fitted
		return append(rows, []string{"brier", num(op.Calibration.Brier), "", ""},
			[]string{"calibration_intercept", num(op.Calibration.Intercept), "", ""},
			[]string{"calibration_slope", num(op.Calibration.Slope), "", ""},
			[]string{"brier_is", "the mean squared difference of each sample's probability and its class (1 positive), as probability_method says", "", ""},
			[]string{"calibration_is", "the intercept and slope of the logistic recalibration of the probabilities (0 and 1 when calibrated), as probability_method says", "", ""},
			[]string{"probability_method", OwnProbMethod, "", ""})
	}
	return append(rows, []string{"platt_a", num(op.Platt.A), "", ""}, []string{"platt_b", num(op.Platt.B), "", ""},
		[]string{"brier_cross_fitted", num(op.Calibration.Brier), "", ""},
		[]string{"calibration_intercept_cross_fitted", num(op.Calibration.Intercept), "", ""},
		[]string{"calibration_slope_cross_fitted", num(op.Calibration.Slope), "", ""},
		[]string{"platt_is", "platt_a, platt_b: the Platt map P(positive) = 1 / (1 + exp(a score + b)) fitted on every out-of-fold score", "", ""},
		[]string{"brier_is", "the mean squared difference of each sample's cross-fitted probability and its class (1 positive), as probability_method says", "", ""},
		[]string{"calibration_is", "the intercept and slope of the logistic recalibration of the cross-fitted probabilities (0 and 1 when calibrated), as probability_method says", "", ""},
		[]string{"probability_method", ProbMethod, "", ""})
}

// num writes v in full precision, NaN as an empty cell.
func num(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func csvOf(rows [][]string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.WriteAll(rows)
	return b.Bytes()
}
