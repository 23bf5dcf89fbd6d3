package study

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/internal/text"
)

// Signature is a study's signature: the choice it was made by, its genes with their
// statistics, the locked model, and the cross-validated estimate of the procedure
// (selection and classifier refit in every training set) at its k.
type Signature struct {
	Choice   signature.Choice
	Positive int // the class scored positive (two classes), or -1
	// PositiveWhy says how the positive class was chosen; Scale how fold changes
	// were taken (Scale.Why).
	PositiveWhy string
	Scale       signature.Scale
	Genes       []signature.Gene
	Model       *signature.Model
	CV          *signature.Estimate
	// Op is the performance block of two classes (operating points, probabilities,
	// calibration); nil with more.
	Op      *signature.Operating
	Classes []string
	// the signature genes' values across the samples (Values[g][i], as analysed), for
	// its heatmap
	Samples []string
	Labels  []int
	Values  [][]float64
	// Advised says the method and k are the advice's (signature.Advice): chosen by the
	// data, on the same resamples that estimate them. Nested is then the estimate of
	// the whole procedure, the choice made again inside each training set (Nest).
	Advised bool
	Nested  *Nested
	// Perm is the permutation test, when one was run (see Permute).
	Perm *Permutations
	// Validation is the model applied to an independent cohort, when it was (Validate),
	// and Cohort how, for a saved run to do it again.
	Validation *signature.Validation
	Cohort     *CohortRecord
	// Enrichment is what the signature's genes mean, when it was tested (Enrich).
	Enrichment *Enrichment
	// PairStability is, for a k-TSP model, each locked pair's share of the resamples
	// whose own k-TSP (fitted on the resample's training samples and top k genes)
	// chose it too (PairStabilities); nil otherwise.
	PairStability []float64
	// Opened is the model file a signature was opened from (ModelSignature): it has
	// the model, its genes and classes, and no estimate of its own (CV is nil).
	Opened string
}

// ModelSignature is the signature of a locked model opened from the file path: its
// genes with their symbols and, for a linear SVM of two classes, weights toward the
// positive class; no estimate (the model keeps its summary, Model.CV).
func ModelSignature(m *signature.Model, path string) *Signature {
	s := &Signature{Model: m, Classes: m.Classes, Positive: m.Positive, Opened: path, PositiveWhy: "as the model was built"}
	sign := 1.0
	if m.Positive == 0 {
		sign = -1
	}
	for i, g := range m.Genes {
		w := math.NaN()
		if len(m.W) == 1 && len(m.Classes) == 2 {
			w = sign * m.W[0][i]
		}
		s.Genes = append(s.Genes, signature.Gene{Feature: i, ID: g.ID, Symbol: g.Symbol, Weight: w})
	}
	return s
}

// ModelText says what an opened model is: its genes, classifier, classes, training
// data and digests, and the cross-validated estimate it was built with.
func (s *Signature) ModelText() string {
	m := s.Model
	t := fmt.Sprintf("Model %s: %s of %s (%s), %s, classes %s", filepath.Base(s.Opened), text.Count(len(m.Genes), "gene"), m.Method,
		experiment.ClassifierLabel(m.Classifier), m.Program, strings.Join(m.Classes, ", "))
	if m.Positive >= 0 {
		t += ", " + m.Classes[m.Positive] + " positive"
	}
	t += fmt.Sprintf("; trained on %s from %s (SHA-256 %s...); model digest %s...", text.Count(len(m.Samples), "sample"), m.Data, short12(m.DataSHA256), short12(m.SHA256))
	if cv := m.CV; cv != nil {
		t += fmt.Sprintf(". Its cross-validated AUC when built: %s", f3(cv.MeanAUC))
	}
	return t + ". Validate it on a cohort; the study it came from is not needed."
}

func short12(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// GeneLabels are the genes' names with their symbols when known: "1007_s_at (DDR1)".
func (s *Signature) GeneLabels() []string {
	out := make([]string, len(s.Genes))
	for i, g := range s.Genes {
		out[i] = g.ID
		if g.Symbol != "" && g.Symbol != g.ID {
			out[i] += " (" + g.Symbol + ")"
		}
	}
	return out
}

// DataMatches reports when ds are not the data the run res analysed (another file, or
// the file changed since): the signature's genes and model would be of other data.
func DataMatches(res *experiment.Result, ds *dataset.Dataset) error {
	n, _ := ds.Dims()
	if n != res.Data.Samples || !slices.Equal(ds.Features, res.Data.Features) || !slices.Equal(ds.Classes, res.Data.Classes) ||
		res.Data.Labels != nil && !slices.Equal(ds.Labels, res.Data.Labels) {
		return fmt.Errorf("the data (%s, %d samples, %d features) are not those the run analysed (%s, %d samples, %d features): give the run's data file (--data FILE), read and preprocessed as the run did",
			ds.Name, n, len(ds.Features), res.Data.Name, res.Data.Samples, len(res.Data.Features))
	}
	return nil
}

// BuildSignature makes the signature of choice c from the run res and its data ds
// (read and preprocessed as the run did); positive names the positive class of two
// (by name; "" for signature.DefaultPositive's rule). A method, k or classifier not in the run, or a run
// saved before it kept its out-of-fold predictions, is refused with what to do.
func BuildSignature(ctx context.Context, res *experiment.Result, ds *dataset.Dataset, c signature.Choice, positive string) (*Signature, error) {
	if err := DataMatches(res, ds); err != nil {
		return nil, err
	}
	if !slices.Contains(res.Config.Classifiers, c.Classifier) {
		return nil, fmt.Errorf("the classifier %q was not in this run (%s); choose one of those", c.Classifier, strings.Join(res.Config.Classifiers, ", "))
	}
	if c.K > 0 && !slices.Contains(res.Config.AccuracyKs(), c.K) {
		return nil, fmt.Errorf("k = %d: the run measured accuracy at k = %s only; choose one of those (a k above the study's k grid has no cross-validated estimate)", c.K, intList(res.Config.AccuracyKs()))
	}
	pos, why := signature.DefaultPositive(ds.Classes)
	if len(ds.Classes) == 2 && positive != "" {
		if pos = slices.Index(ds.Classes, positive); pos < 0 {
			return nil, fmt.Errorf("the positive class %q is not one of the run's (%s)", positive, strings.Join(ds.Classes, ", "))
		}
		why = "chosen by the user"
	}
	for ci, n := range ds.ClassCounts() {
		if n < 3 {
			return nil, fmt.Errorf("class %q has %d samples: a signature needs at least 3 in every class for its model and its estimate", ds.Classes[ci], n)
		}
	}
	cv, err := signature.CrossValidated(res, c.Method, c.Classifier, c.K, max(pos, 0))
	if err != nil {
		return nil, err
	}
	feats, err := signature.Select(res, c)
	if err != nil {
		return nil, err
	}
	model, err := signature.Lock(ctx, res, ds, c, feats)
	if err != nil {
		return nil, err
	}
	model.Positive, model.CV = pos, cv.Summary()
	var op *signature.Operating
	if len(ds.Classes) == 2 {
		if op, err = signature.Operate(res, c.Method, c.Classifier, c.K, pos); err != nil {
			return nil, err
		}
		model.Platt = &op.Platt
	}
	scale := signature.ChooseScale(ds, res.Config.Prep.Log2 || res.Config.Prep.LogCPM)
	if ds.Counts != nil {
		scale = signature.VoomScale()
	}
	genes := signature.Describe(res, ds, c, feats, scale, pos)
	if model.W != nil && len(ds.Classes) == 2 {
		sign := 1.0 // the model's w'z + b > 0 is class 1
		if pos == 0 {
			sign = -1
		}
		for i := range genes {
			genes[i].Weight = sign * model.W[0][i]
		}
	}
	values := make([][]float64, len(feats))
	for g, j := range feats {
		values[g] = mat.Col(nil, j, ds.X)
	}
	var pairStab []float64
	if c.Classifier == "ktsp" {
		pairStab = PairStabilities(res, ds, c, feats, model)
	}
	am, ak, ok := signature.Advice(res, c.Classifier)
	choices := len(res.Methods) > 1 || len(experiment.ErrorKs(res, c.Classifier)) > 1
	advised := ok && choices && !c.Frequent && am == c.Method && ak == c.K
	return &Signature{Choice: c, Advised: advised, Positive: pos, PositiveWhy: why, Scale: scale, Genes: genes, Model: model, CV: cv, Op: op, Classes: ds.Classes,
		Samples: ds.Samples, Labels: ds.Labels, Values: values, PairStability: pairStab}, nil
}

func intList(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

// Files are what the signature writes: model.json, signature.csv (a gene a row),
// roc.csv (every repetition's curve), metrics.csv (metric, value, low, high), with two
// classes probabilities.csv (each sample's probability of the positive class) and,
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
	test, fc, g, weight := "anova_p", "log2_fold_change", "hedges_g", "svm_weight"
	if s.Scale.Moderated {
		test = "limma_voom_F_p"
	}
	if s.Positive >= 0 {
		pos, ref := s.Classes[s.Positive], s.Classes[1-s.Positive]
		test, fc, g = "welch_p", "log2_fold_change_"+pos+"_vs_"+ref, "hedges_g_"+pos+"_vs_"+ref
		weight = "svm_weight_toward_" + pos
		if s.Scale.Moderated {
			test = "limma_voom_p"
		}
	}
	rows := [][]string{{"gene", "symbol", "selection_frequency", "mean_rank", weight, "higher_in", "against", fc, g, test, "bh_fdr", "group_members"}}
	for _, gn := range s.Genes {
		rows = append(rows, []string{gn.ID, gn.Symbol, num(gn.Frequency), num(gn.MeanRank), num(gn.Weight), gn.Higher, gn.Against, num(gn.Log2FC), num(gn.G), num(gn.P), num(gn.FDR), strings.Join(gn.Members, "; ")})
	}
	return rows
}

// GeneDisplay is the gene table as people read it (the window, copies, the report):
// headers in words naming the classes, p and FDR in scientific notation with two
// significant digits, the other numbers with three. signature.csv (GeneTable) keeps
// every digit.
func (s *Signature) GeneDisplay() (header []string, rows [][]string) {
	if s.CV == nil { // an opened model: its genes and weights only
		header = []string{"gene", "gene symbol", "SVM weight"}
		if s.Positive >= 0 {
			header[2] = "SVM weight (+ favours " + s.Classes[s.Positive] + ")"
		}
		for _, gn := range s.Genes {
			rows = append(rows, []string{gn.ID, gn.Symbol, text.Sig3(gn.Weight)})
		}
		return header, rows
	}
	test, fc, g, weight := "ANOVA p", "log2 fold change (highest vs lowest)", "Hedges' g (highest vs lowest)", "SVM weight"
	if s.Scale.Moderated {
		test = "limma-voom F p"
	}
	if s.Positive >= 0 {
		pos, ref := s.Classes[s.Positive], s.Classes[1-s.Positive]
		test, fc, g = "Welch p", "log2 fold change "+pos+" vs "+ref, "Hedges' g "+pos+" vs "+ref
		weight = "SVM weight (+ favours " + pos + ")"
		if s.Scale.Moderated {
			test = "limma-voom p"
		}
	}
	header = []string{"gene", "gene symbol", "selected in (share of resamples)", "mean rank", weight, "higher in"}
	if s.Positive < 0 {
		header = append(header, "lowest in")
	}
	header = append(header, fc, g, test, "FDR (BH)", "group members")
	for _, gn := range s.Genes {
		row := []string{gn.ID, gn.Symbol, text.Sig3(gn.Frequency), text.Sig3(gn.MeanRank), text.Sig3(gn.Weight), gn.Higher}
		if s.Positive < 0 {
			row = append(row, gn.Against)
		}
		rows = append(rows, append(row, text.Sig3(gn.Log2FC), text.Sig3(gn.G), text.PValue(gn.P), text.PValue(gn.FDR), strings.Join(gn.Members, "; ")))
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
	header = append(append([]string{"true class \\ predicted"}, s.Classes...), "predicted right")
	for t, row := range s.CV.Confusion {
		r := []string{s.Classes[t]}
		for _, n := range row {
			r = append(r, strconv.Itoa(n))
		}
		rows = append(rows, append(r, text.Sig3(s.CV.ClassSensitivity(t))))
	}
	return header, rows
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
	}{{"classifier's own rule", "corrected resampled, as the AUC's", s.Op.Own}, {"Youden's threshold (optimistic)", "bootstrap of the samples (pROC)", s.Op.Youden}} {
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
	rows := [][]string{{"metric", "value", "low", "high"},
		{"positive_class", positive, "", ""},
		{"reference_class", reference, "", ""},
		{"positive_class_rule", s.PositiveWhy, "", ""},
		{"fold_change", s.Scale.Why, "", ""},
		{"auc_resamples_mean_ci95", num(cv.Interval.Mean), num(cv.Interval.Low), num(cv.Interval.High)},
		{"auc_ci95_method", signature.IntervalMethod, "", ""},
		{"auc_pooled_mean_range_over_repetitions", num(cv.MeanAUC), num(cv.MinAUC), num(cv.MaxAUC)},
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
	}
	rows = append(rows, []string{"balanced_accuracy", num(cv.BalancedAccuracy()), "", ""})
	for p, st := range s.PairStability {
		pr := s.Model.Pairs[p]
		rows = append(rows, []string{fmt.Sprintf("ktsp_pair %s < %s chosen_in_resamples", s.Model.Genes[pr[0]].ID, s.Model.Genes[pr[1]].ID), num(st), "", ""})
	}
	choice := "given, not the advice's"
	if s.Advised {
		choice = "the advice's (chosen on these resamples: the estimates above are optimistic)"
	}
	rows = append(rows, []string{"method_and_k", choice, "", ""})
	if n := s.Nested; n != nil {
		rows = append(rows, []string{"nested_auc_resamples_mean_ci95", num(n.Interval.Mean), num(n.Interval.Low), num(n.Interval.High)},
			[]string{"nested_auc_pooled_mean_range_over_repetitions", num(n.MeanAUC), num(n.MinAUC), num(n.MaxAUC)},
			[]string{"nested_outer_training_sets", strconv.Itoa(len(n.Choices)), "", ""},
			[]string{"nested_inner_folds", strconv.Itoa(n.InnerFolds), "", ""})
		for _, c := range n.Choices {
			rows = append(rows, []string{fmt.Sprintf("nested_choice repetition %d", c.Repeat+1), fmt.Sprintf("%s at k = %d", c.Method, c.K), "", ""})
		}
	}
	if s.Perm != nil {
		rows = append(rows, []string{"permutation_p", num(s.Perm.P), "", ""}, []string{"permutations", strconv.Itoa(len(s.Perm.AUCs)), "", ""},
			[]string{"permutation_choice_repeated", strconv.FormatBool(s.Perm.Choice), "", ""})
	}
	for t, row := range cv.Confusion {
		for p, n := range row {
			rows = append(rows, []string{"confusion " + s.Classes[t] + " -> " + s.Classes[p], strconv.Itoa(n), "", ""})
		}
	}
	return rows
}

// OwnRuleMethod and YoudenMethod name the operating points' intervals in every output.
const (
	OwnRuleMethod = "corrected resampled 95% interval over the resamples, as the AUC's"
	YoudenMethod  = "95% percentile interval of 2000 stratified bootstrap draws of the samples, the threshold chosen again in each (pROC's ci.coords); the threshold is chosen on these same scores, so the point is optimistic"
	ProbMethod    = "Platt scaling of the out-of-fold scores of the positive class; each sample's probability from a map fitted without its tenth of the samples, averaged over the repetitions; calibration as rms val.prob on those probabilities"
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
	rows = append(rows, []string{"own_rule_ci95_method", OwnRuleMethod, "", ""}, []string{"prevalence", num(op.Prevalence), "", ""},
		[]string{"youden_threshold", num(op.Youden.Threshold), "", ""})
	rows = append(rows, coords("youden_", op.Youden)...)
	return append(rows, []string{"youden_ci95_method", YoudenMethod, "", ""},
		[]string{"platt_a", num(op.Platt.A), "", ""}, []string{"platt_b", num(op.Platt.B), "", ""},
		[]string{"brier_cross_fitted", num(op.Calibration.Brier), "", ""},
		[]string{"calibration_intercept_cross_fitted", num(op.Calibration.Intercept), "", ""},
		[]string{"calibration_slope_cross_fitted", num(op.Calibration.Slope), "", ""},
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

// Performance is the cross-validated estimate in words, each number named. Two
// classes: the AUC (mean and range over the repetitions; the first repetition's with
// DeLong's interval, said to be too narrow for the procedure), sensitivity and
// specificity of the positive class and the balanced accuracy at the classifier's own
// rule. More classes: the mean one-vs-rest AUC, then for each class its one-vs-rest
// AUC (mean, range, the first repetition's DeLong interval), sensitivity and
// specificity, and the balanced accuracy. A number that cannot be computed is said so.
func (s *Signature) Performance() string {
	if s.CV == nil {
		return s.ModelText()
	}
	return s.choiceText() + s.plainPerformance() + s.pairsText()
}

// pairsText says how often a k-TSP model's pairs were chosen again in the resamples.
func (s *Signature) pairsText() string {
	if len(s.PairStability) == 0 {
		return ""
	}
	lo, hi := slices.Min(s.PairStability), slices.Max(s.PairStability)
	return fmt.Sprintf(" Each of k-TSP's %d pairs was chosen again by %.0f%% to %.0f%% of the resamples' own k-TSP (fitted on their training samples and top %d genes).", len(s.PairStability), 100*lo, 100*hi, s.Choice.K)
}

// choiceText says how the method and k were chosen, and the nested estimate when the
// data chose them.
func (s *Signature) choiceText() string {
	if !s.Advised {
		return "Method and k as given (not the advice's choice): the estimate below is honest for a choice fixed before seeing these results. "
	}
	if s.Nested == nil {
		return "Method and k are the advice's, chosen on the same resamples that give the estimate below, which is therefore optimistic; the nested estimate (the choice made again inside each training set) was not computed. "
	}
	return s.Nested.Summary() + " The estimate below is of the chosen signature on the resamples that chose it, and is optimistic. "
}

// Brief is the estimate in two short sentences for a laptop's window: the AUC with its
// interval (the nested one first when the advice chose), sensitivity and specificity
// at the classifier's rule, the positive class; Performance has the rest.
func (s *Signature) Brief() string {
	if s.CV == nil {
		return s.ModelText()
	}
	cv, iv := s.CV, s.CV.Interval
	var b strings.Builder
	fmt.Fprintf(&b, "%s. ", text.Count(len(s.Genes), "gene"))
	auc := "Cross-validated AUC"
	if s.Positive < 0 {
		auc = "Cross-validated mean one-vs-rest AUC"
	}
	if n := s.Nested; s.Advised && n != nil {
		fmt.Fprintf(&b, "%s with the advice's choice made again in each training set (nested): %s (95%% CI %s-%s); of this choice on the resamples that chose it: %s (%s-%s, optimistic).",
			auc, f3(n.Interval.Mean), f3(n.Interval.Low), f3(n.Interval.High), f3(iv.Mean), f3(iv.Low), f3(iv.High))
	} else {
		fmt.Fprintf(&b, "%s %s (95%% CI %s-%s).", auc, f3(iv.Mean), f3(iv.Low), f3(iv.High))
	}
	if s.Positive >= 0 {
		fmt.Fprintf(&b, " Sensitivity %s, specificity %s at the classifier's rule, %s positive (%s).", withCI(s.Op.Own.Sens), withCI(s.Op.Own.Spec), s.Classes[s.Positive], s.PositiveWhy)
	} else {
		fmt.Fprintf(&b, " Balanced accuracy %s at the classifier's rule.", f3(cv.BalancedAccuracy()))
	}
	return b.String()
}

// plainPerformance is the estimate of the signature's own choice on the study's
// resamples (see Performance).
func (s *Signature) plainPerformance() string {
	cv := s.CV
	reps := text.Count(len(cv.AUCs), "repetition")
	iv := cv.Interval
	ci := fmt.Sprintf("%s (95%% CI %s-%s, %s, over %s)", f3(iv.Mean), f3(iv.Low), f3(iv.High), signature.IntervalMethod, text.Count(iv.Resamples, "resample"))
	if s.Positive >= 0 {
		op := s.Op
		y := op.Youden
		return fmt.Sprintf("The cross-validated AUC (%s positive), the mean of the resamples' held-out AUCs, was %s; each repetition's held-out scores pooled give %s on average (range %s-%s over %s). "+
			"At the classifier's own rule, sensitivity was %s, specificity %s, positive predictive value %s and negative predictive value %s at the study's prevalence of %s (95%% CIs: %s), and balanced accuracy %s. "+
			"Youden's best threshold on the same scores (%s, optimistic: chosen on them) gives sensitivity %s and specificity %s (%s). "+
			"Platt-scaled probabilities of %s, each from a map fitted without its tenth of the samples, had a Brier score of %s, %s (0 and 1 when calibrated).",
			s.Classes[s.Positive], ci, f3(cv.MeanAUC), f3(cv.MinAUC), f3(cv.MaxAUC), reps,
			withCI(op.Own.Sens), withCI(op.Own.Spec), withCI(op.Own.PPV), withCI(op.Own.NPV), f3(op.Prevalence), OwnRuleMethod, f3(cv.BalancedAccuracy()),
			text.Sig3(y.Threshold), withCI(y.Sens), withCI(y.Spec), YoudenMethod,
			s.Classes[s.Positive], f3(op.Calibration.Brier), op.Calibration.Says())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The cross-validated one-vs-rest AUC averaged over the %d classes, the mean of the resamples' held-out AUCs, was %s; each repetition's held-out scores pooled give %s on average (range %s-%s over %s). Per class, one against the rest (AUC with its 95%% CI, the same interval; sensitivity and specificity at the classifier's own rule): ",
		len(s.Classes), ci, f3(cv.MeanAUC), f3(cv.MinAUC), f3(cv.MaxAUC), reps)
	for c, name := range s.Classes {
		ci := cv.ClassIntervals[c]
		if c > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s AUC %s (CI %s-%s), sensitivity %s, specificity %s", name, f3(ci.Mean), f3(ci.Low), f3(ci.High),
			f3(cv.ClassSensitivity(c)), f3(cv.ClassSpecificity(c)))
	}
	fmt.Fprintf(&b, ". The balanced accuracy was %s.", f3(cv.BalancedAccuracy()))
	return b.String()
}

// withCI writes an estimate with its interval: "0.913 (0.810-0.962)".
func withCI(v signature.Value) string {
	if math.IsNaN(v.Low) {
		return f3(v.Est)
	}
	return fmt.Sprintf("%s (%s-%s)", f3(v.Est), f3(v.Low), f3(v.High))
}

// f3 writes v with three decimals, or says it could not be computed.
func f3(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "not computable"
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}
