package study

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/internal/text"
)

// CohortOptions are how a cohort is read and a model applied to it.
type CohortOptions struct {
	Read dataset.Options // the cohort's own reading options
	// Log2 log2-transforms the cohort's values first: for a model trained on values
	// logged before Steadfast read them, and a cohort of unlogged intensities.
	Log2  bool
	Apply signature.ApplyOptions
}

// Validate reads the cohort at path (any format Steadfast reads, or a GEO accession;
// its class optional),
// preprocesses it as the model's training data were (log2 or log-CPM, nothing dropped)
// and applies the model (signature.Apply). The notes say what the reader and the
// matching assumed, and warn when the cohort's values look logged differently from the
// training data's, or when the cohort is the training data or shares its samples.
func Validate(ctx context.Context, m *signature.Model, path string, o CohortOptions) (*signature.Validation, error) {
	if o.Log2 && (m.Prep.Log2 || m.Prep.LogCPM) {
		return nil, fmt.Errorf("the model already log-transforms the values as its training data were; leave out the cohort's extra log2")
	}
	read := o.Read
	read.Unlabelled = true
	raw, err := ReadData(ctx, path, read, nil)
	if err != nil {
		return nil, err
	}
	name, digest := filepath.Base(path), ""
	if raw.Source != nil { // from GEO: the data file's digest
		name, digest = raw.Name, raw.Source.Files[0].SHA256
	} else if digest, err = dataset.FileSHA256(path); err != nil {
		return nil, err
	}
	var ds *dataset.Dataset
	switch {
	case m.Norm != nil:
		ds, err = cohortCounts(raw, m)
	case m.Impute != nil:
		ds, err = cohortIntensities(raw, m)
	default:
		ds, err = cohortPrep(raw, m.Prep, o.Log2, matchable(m, raw))
	}
	if err != nil {
		return nil, err
	}
	c := &signature.Cohort{Name: name, SHA256: digest, X: ds.X, Samples: ds.Samples, Features: ds.Features, Symbols: ds.Symbols}
	if err := cohortOutcome(c, m, ds); err != nil {
		return nil, err
	}
	v, err := signature.Apply(m, c, o.Apply)
	if err != nil {
		return nil, err
	}
	notes := slices.Clone(raw.Notes)
	if m.Norm != nil || m.Impute != nil {
		notes = slices.Clone(ds.Notes) // with how the counts or intensities were preprocessed
	}
	if w := scaleWarning(m, raw, v, o.Log2); w != "" {
		notes = append(notes, w)
	}
	if kind, w := sameData(m, raw, sharedValues(m, ds, v.Matches)); w != "" {
		notes = append(notes, w)
		v.Overlap = kind
	}
	v.Notes = append(notes, v.Notes...)
	return v, nil
}

// cohortPrep applies the model's log2 or log-CPM (and the extra log2 asked) to raw,
// dropping nothing. Log2 acts value by value, so only the features that can match a
// model gene (needed) are kept and transformed; log-CPM needs every feature for the
// library sizes.
func cohortPrep(raw *dataset.Dataset, p dataset.Prep, log2 bool, needed []int) (*dataset.Dataset, error) {
	prep := dataset.Prep{Log2: p.Log2 || log2, Log2Floor: p.Log2Floor, LogCPM: p.LogCPM}
	if !prep.LogCPM {
		sub := *raw
		sub.X, sub.Features = dataset.SelectFeatures(raw.X, needed), dataset.Pick(raw.Features, needed)
		if raw.Symbols != nil {
			sub.Symbols = dataset.Pick(raw.Symbols, needed)
		}
		raw = &sub
	}
	if prep.LogCPM {
		counted, err := dataset.CheckCounts(raw)
		if err != nil {
			return nil, fmt.Errorf("the model turns counts into log-CPM as its training data were, but %v", err)
		}
		raw = counted
	}
	note, err := dataset.Log2Check(raw, prep)
	if err != nil && p.Log2 {
		return nil, fmt.Errorf("%s: the model log2-transforms a cohort's values as its training data's were, but some of this cohort's values are negative, so they look logged already; give the cohort's values unlogged, as the training data were read", raw.Name)
	}
	if err != nil {
		return nil, err
	}
	ds, _ := dataset.PreprocessValues(raw, prep)
	if note != "" {
		ds.Notes = append(slices.Clone(ds.Notes), note)
	}
	return ds, nil
}

// cohortCounts normalises a cohort's read counts as the model's training counts were,
// each sample against the model's frozen TMM reference alone (counts.Norm): its library
// size and factor over the reference genes the cohort has (matched by id), then every
// feature's log-CPM with the training prior's scale. It refuses values that are not
// counts, and a cohort holding under half of the reference genes (its genes named
// otherwise, or another kind of data); a note says how many it holds.
func cohortCounts(raw *dataset.Dataset, m *signature.Model) (*dataset.Dataset, error) {
	counted, err := dataset.CheckCounts(raw)
	if err != nil {
		return nil, fmt.Errorf("the model normalises read counts as its training data were, but %v", err)
	}
	col := make(map[string]int, len(counted.Features))
	for j, f := range counted.Features {
		col[f] = j
	}
	present := make([]bool, len(m.NormGenes))
	var at []int
	for i, g := range m.NormGenes {
		if j, ok := col[g]; ok {
			present[i] = true
			at = append(at, j)
		}
	}
	if len(at)*2 < len(m.NormGenes) {
		return nil, fmt.Errorf("%s: only %d of the %d genes of the model's normalisation reference (its training data's genes with enough reads) are in the cohort, by id; TMM needs most of them: give the cohort's counts with the training data's gene ids (e.g. %s)", raw.Name, len(at), len(m.NormGenes), strings.Join(m.NormGenes[:min(3, len(m.NormGenes))], ", "))
	}
	if frac, example := fractional(counted.X, at); frac > 0.01 {
		return nil, fmt.Errorf("%s: the model was trained on RNA-seq read counts and normalises a cohort's counts against its reference, but %.0f%% of this cohort's values of the reference genes are not whole numbers (e.g. %g): these look like microarray intensities or normalised values, which cannot be put on a count reference; validate this signature on counts, or build one on this platform's data (a k-TSP signature needs no common scale)", raw.Name, 100*frac, example)
	}
	norm := m.Norm.Restricted(present)
	n, p := counted.Dims()
	out := *counted
	out.X = mat.NewDense(n, p, nil)
	ref := make([]float64, len(m.NormGenes))
	for i := 0; i < n; i++ {
		row := counted.X.RawRowView(i)
		for k, j := range at {
			ref[norm.Kept[k]] = row[j]
		}
		eff, _ := norm.Effective(ref)
		norm.LogCPMWith(row, out.X.RawRowView(i), eff)
	}
	note := fmt.Sprintf("read counts normalised against the model's TMM reference, sample by sample: %d of its %d genes are in the cohort", len(at), len(m.NormGenes))
	if len(at) < len(m.NormGenes) {
		note += " (library sizes and factors over those alone)"
	}
	out.Notes = append(slices.Clone(out.Notes), note)
	return &out, nil
}

// fractional is the share of x's values in the columns cols that are not whole
// numbers, and one of them.
func fractional(x *mat.Dense, cols []int) (float64, float64) {
	n, _ := x.Dims()
	bad, all, example := 0, 0, 0.0
	for i := 0; i < n; i++ {
		for _, j := range cols {
			if v := x.At(i, j); !math.IsNaN(v) {
				all++
				if v != math.Trunc(v) {
					bad, example = bad+1, v
				}
			}
		}
	}
	if all == 0 {
		return 0, 0
	}
	return float64(bad) / float64(all), example
}

// matchable are the cohort features that match a model gene by id or by symbol.
func matchable(m *signature.Model, raw *dataset.Dataset) []int {
	col := make(map[string]int, len(raw.Features))
	for j, f := range raw.Features {
		col[f] = j
	}
	var out []int
	for _, mt := range signature.MatchGenes(m, raw.Features, raw.Symbols) {
		for _, p := range mt.Probes {
			out = append(out, col[p])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// scaleWarning compares how the cohort's values of the genes found look (logged or
// not, before preprocessing) with how the model's training values were, and says so
// with the evidence when they differ.
func scaleWarning(m *signature.Model, raw *dataset.Dataset, v *signature.Validation, log2 bool) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	col := map[string]int{}
	for j, f := range raw.Features {
		col[f] = j
	}
	n, _ := raw.Dims()
	for _, mt := range v.Matches {
		for _, p := range mt.Probes {
			for i := 0; i < n; i++ {
				if x := raw.X.At(i, col[p]); !math.IsNaN(x) && !math.IsInf(x, 0) {
					lo, hi = math.Min(lo, x), math.Max(hi, x)
				}
			}
		}
	}
	if math.IsInf(lo, 1) {
		return ""
	}
	tLo, tHi := math.Inf(1), math.Inf(-1)
	for _, x := range m.Mean {
		tLo, tHi = math.Min(tLo, x), math.Max(tHi, x)
	}
	cohortUnlogged := lo >= 0 && hi > 1000
	switch {
	case m.Prep.LogCPM:
		return ""
	case dataset.Summarize(raw).Counts:
		return fmt.Sprintf("warning: the cohort's values are whole numbers up to %.4g, as RNA-seq read counts are, while the model was trained on microarray values: counts and intensities are on different scales (and counts need normalising by library size), so the predictions at the model's threshold are meaningless; harmonise the cohort to the training data (--harmonize combat, or the Validate dialog's Harmonisation) after turning its counts into log-CPM, or validate a k-TSP signature, which compares genes within a sample", hi)
	case m.Prep.Log2 && hi < 100:
		return fmt.Sprintf("warning: the cohort's values of the signature genes lie between %.3g and %.3g, as if already logged, but the model log2-transforms them as it did its training data (unlogged intensities): if they are logged, the predictions are meaningless; give the cohort's unlogged values", lo, hi)
	case !m.Prep.Log2 && !log2 && cohortUnlogged && tHi < 100:
		return fmt.Sprintf("warning: the cohort's values of the signature genes look unlogged (none negative, up to %.4g) while the model was trained on logged values (the genes' training means lie between %.3g and %.3g): log2 the cohort (--log2, or Log2 the cohort in the Validate dialog), or the predictions are meaningless", hi, tLo, tHi)
	case !m.Prep.Log2 && hi < 100 && tHi > 1000:
		return fmt.Sprintf("warning: the cohort's values of the signature genes lie between %.3g and %.3g, as if logged, while the model was trained on unlogged values (the genes' training means reach %.4g): give the cohort's unlogged values, or the predictions are meaningless", lo, hi, tHi)
	}
	return ""
}

// trainingHash is the hash of raw preprocessed as the training data were ("" when it
// cannot be).
func trainingHash(raw *dataset.Dataset, prep dataset.Prep) string {
	ds, _, err := Prepare(raw, prep)
	if err != nil {
		return ""
	}
	return ds.Hash()
}

// autoName is a sample name a reader makes up (sample12, line40), shared by unrelated
// files.
var autoName = regexp.MustCompile(`^(sample|line)[0-9]+$`)

// sharedValues counts the samples of ds (the cohort, preprocessed as the model's
// training data were) whose values of the signature genes are those of a training
// sample: the same fingerprint (signature.Fingerprints), whatever the names. It is -1
// when it cannot tell: a model without fingerprints, or a gene not found or found as
// several probes (averaged, so never a training value).
func sharedValues(m *signature.Model, ds *dataset.Dataset, matches []signature.Match) int {
	if len(m.Prints) == 0 {
		return -1
	}
	col := make(map[string]int, len(ds.Features))
	for j, f := range ds.Features {
		col[f] = j
	}
	var cols []int
	for _, mt := range matches {
		if len(mt.Probes) != 1 {
			return -1
		}
		cols = append(cols, col[mt.Probes[0]])
	}
	train := make(map[string]bool, len(m.Prints))
	for _, p := range m.Prints {
		train[p] = true
	}
	shared := 0
	for _, p := range signature.Fingerprints(dataset.SelectFeatures(ds.X, cols)) {
		if train[p] {
			shared++
		}
	}
	return shared
}

// sameData warns when the cohort is the model's training data (the same analysed
// values), holds samples whose values of the signature genes are training samples'
// (shared of them, -1 when unknown), or shares sample names with it; kind names such a
// cohort for titles (Validation.Overlap).
func sameData(m *signature.Model, raw *dataset.Dataset, shared int) (kind, warning string) {
	if len(raw.Samples) == len(m.Samples) && trainingHash(raw, m.Config.Prep) == m.DataSHA256 {
		return "the model's own training data", "warning: this cohort is the model's training data itself (the same values), not an independent cohort: its metrics say how well the model fits the samples it was trained on, not how it predicts new ones"
	}
	genes := text.Count(len(m.Genes), "signature gene")
	chance := ""
	if len(m.Genes) < 3 {
		chance = fmt.Sprintf(" (with only %s, equal values may also be chance)", genes)
	}
	switch n := len(raw.Samples); {
	case shared == n:
		return "its training samples", fmt.Sprintf("warning: every one of the cohort's %s has the values of a training sample on the %s%s: the cohort is the model's training data, or part of it, not an independent cohort; its metrics say how well the model fits the samples it was trained on, not how it predicts new ones", text.Count(n, "sample"), genes, chance)
	case shared > 0:
		return fmt.Sprintf("a cohort holding %d of its training samples", shared), fmt.Sprintf("warning: %d of the cohort's %s %s the values of a training sample on the %s%s: they are training samples, so the cohort is not independent and its metrics are optimistic; leave them out for an honest estimate", shared, text.Count(n, "sample"), text.Plural(shared, "has|have"), genes, chance)
	}
	train := map[string]bool{}
	for _, s := range m.Samples {
		train[s] = true
	}
	var named []string
	for _, s := range raw.Samples {
		if train[s] && !autoName.MatchString(s) {
			named = append(named, s)
		}
	}
	if len(named) == len(raw.Samples) {
		return "a cohort named as its training samples", fmt.Sprintf("warning: all %d of the cohort's samples have the names of samples the model was trained on: if this is the training data itself, it is not an independent cohort, and its metrics say how well the model fits the samples it was trained on, not how it predicts new ones", len(named))
	}
	if len(named) > 0 {
		return fmt.Sprintf("a cohort sharing %d of its training samples' names", len(named)), fmt.Sprintf("warning: %d of the cohort's %d samples %s the names of samples the model was trained on (%s): if they are the same samples, the cohort is not independent",
			len(named), len(raw.Samples), text.Plural(len(named), "has|have"), listSome(named, 5))
	}
	return "", ""
}

// ValidationFiles are what a validation writes: predictions.csv (sample, its class,
// the predicted class, the decision value, each class's score, the model's and the
// cohort's SHA-256), genes.csv (how each signature gene was matched), and, when some
// samples have a class the model knows, metrics.csv.
func ValidationFiles(v *signature.Validation) map[string][]byte {
	if v.Model.Cox != nil {
		files := map[string][]byte{"predictions.csv": csvOf(SurvivalPredictionTable(v)), "genes.csv": csvOf(MatchTable(v))}
		if v.Survival != nil {
			files["metrics.csv"] = csvOf(SurvivalValidationMetrics(v))
		}
		if v.Shift != nil {
			files["shift.csv"] = csvOf(ShiftTable(v))
		}
		return files
	}
	files := map[string][]byte{"predictions.csv": csvOf(PredictionTable(v)), "genes.csv": csvOf(MatchTable(v))}
	if v.Metrics != nil {
		files["metrics.csv"] = csvOf(ValidationMetrics(v))
	}
	if v.Shift != nil {
		files["shift.csv"] = csvOf(ShiftTable(v))
	}
	return files
}

// PredictionTable is predictions.csv: a row a predicted sample. The decision value is
// the positive class's score with two classes (a linear SVM's w'z + b), the predicted
// class's score with more.
func PredictionTable(v *signature.Validation) [][]string {
	m := v.Model
	head := []string{"sample", "true_class", "predicted_class", decisionColumn(v)}
	for _, c := range m.Classes {
		head = append(head, "score_"+c)
	}
	if v.Probs != nil {
		pos := m.Classes[v.Positive()]
		head = append(head, "probability_"+pos, "rule_calls_"+pos+"_above_probability")
	}
	rows := [][]string{append(head, "in_metrics", "model_sha256", "cohort_sha256")}
	for i, s := range v.Samples {
		row := []string{s, v.Given[i], m.Classes[v.Pred[i]], num(decisionValue(v, i))}
		for _, sc := range v.Scores[i] {
			row = append(row, num(sc))
		}
		if v.Probs != nil {
			row = append(row, num(v.Probs[i]), num(v.RuleProb))
		}
		rows = append(rows, append(row, strconv.FormatBool(v.Truth[i] >= 0), m.SHA256, v.SHA256))
	}
	return rows
}

// decisionColumn names the decision value's column with its orientation: the positive
// class's score of two (w'z + b oriented so that higher means the positive class;
// model.json's d = w'z + b is oriented to its class 1), else the predicted class's.
func decisionColumn(v *signature.Validation) string {
	if p := v.Positive(); p >= 0 {
		return "decision_value_higher_means_" + v.Model.Classes[p]
	}
	return "decision_value_of_predicted_class"
}

// decisionValue is sample i's decision value as decisionColumn names it.
func decisionValue(v *signature.Validation, i int) float64 {
	if p := v.Positive(); p >= 0 {
		return v.Scores[i][p]
	}
	return v.Scores[i][v.Pred[i]]
}

// CohortConfusion is a validation's confusion matrix as people read it: the cohort's
// samples of a class the model knows, by their class and the class predicted, with the
// share predicted right; nil without such samples.
func CohortConfusion(v *signature.Validation) [][]string {
	mt := v.Metrics
	if mt == nil {
		return nil
	}
	m := v.Model
	out := [][]string{append(append([]string{fmt.Sprintf("true class \\ predicted (%d cohort samples)", mt.N)}, m.Classes...), "predicted right")}
	for t, row := range mt.Confusion {
		r := []string{m.Classes[t]}
		n := 0
		for _, k := range row {
			r = append(r, strconv.Itoa(k))
			n += k
		}
		right := "no sample"
		if n > 0 {
			right = text.Sig3(float64(row[t]) / float64(n))
		}
		out = append(out, append(r, right))
	}
	return out
}

// PredictionDisplay is the predictions as people read them (the report, the window): a
// row a sample with its true and predicted class, its decision value and probability
// with three significant digits; the digests, the same on every row of
// predictions.csv, are left to the text.
func PredictionDisplay(v *signature.Validation) [][]string {
	what := "decision value"
	if p := v.Positive(); p >= 0 {
		what = "decision value (higher: " + v.Model.Classes[p] + ")"
	}
	head := []string{"sample", "true class", "predicted class", what}
	if v.Probs != nil {
		pos := v.Model.Classes[v.Positive()]
		head = append(head, fmt.Sprintf("probability of %s (the rule calls %s above %.3f)", pos, pos, v.RuleProb))
	}
	rows := [][]string{head}
	for i, s := range v.Samples {
		row := []string{s, v.Given[i], v.Model.Classes[v.Pred[i]], text.Sig3(decisionValue(v, i))}
		if v.Probs != nil {
			row = append(row, text.Sig3(v.Probs[i]))
		}
		rows = append(rows, row)
	}
	return rows
}

// ShiftTable is shift.csv: each signature gene found, its standardised mean
// difference, variance ratio and share outside the training range (the cohort as given,
// before any harmonisation), then the medians and the scores' SMD.
func ShiftTable(v *signature.Validation) [][]string {
	s := v.Shift
	rows := [][]string{{"gene", "smd", "variance_ratio", "share_outside_training_range"}}
	for _, g := range s.Genes {
		rows = append(rows, []string{g.Gene, num(g.SMD), num(g.VarRatio), num(g.Outside)})
	}
	return append(rows, []string{"median |smd|", num(s.MedianAbsSMD), "", num(s.MedianOut)},
		[]string{"scores (positive class)", num(s.ScoreSMD), "", ""},
		[]string{"off the training scale", strconv.FormatBool(s.OffScale), "", ""})
}

// MatchTable is genes.csv: each signature gene, how it was found and the cohort's
// features used.
func MatchTable(v *signature.Validation) [][]string {
	rows := [][]string{{"gene", "symbol", "matched_by", "current_symbol", "cohort_features"}}
	for _, mt := range v.Matches {
		by := mt.By
		if by == "" {
			by = "missing"
		}
		rows = append(rows, []string{mt.ID, mt.Symbol, by, mt.Current, strings.Join(mt.Probes, "; ")})
	}
	return rows
}

// ValidationMetrics is metrics.csv (metric, value, low, high): the files' digests and
// the preprocessing, the samples counted, accuracy, balanced accuracy, sensitivity and
// specificity, the AUC with its DeLong 95% interval (per class, one-vs-rest, with more
// than two) and the confusion matrix.
func ValidationMetrics(v *signature.Validation) [][]string {
	m, mt := v.Model, v.Metrics
	prep := signature.HarmonizationText(v.Options.Harmonize)
	rows := [][]string{{"metric", "value", "low", "high"},
		{"model_sha256", m.SHA256, "", ""}, {"cohort", v.Cohort, "", ""}, {"cohort_sha256", v.SHA256, "", ""},
		{"harmonisation", prep, "", ""},
		{"genes_found", fmt.Sprintf("%d of %d", v.Found(), len(m.Genes)), "", ""},
		{"samples_in_metrics", strconv.Itoa(mt.N), "", ""},
		{"accuracy", num(mt.Accuracy), "", ""},
		{"balanced_accuracy", num(mt.Balanced), "", ""},
	}
	if p := v.Positive(); p >= 0 {
		rows = append(rows, []string{"positive_class", m.Classes[p], "", ""},
			[]string{"sensitivity_wilson95", num(mt.Sensitivity), num(mt.SensCI[0]), num(mt.SensCI[1])},
			[]string{"specificity_wilson95", num(mt.Specificity), num(mt.SpecCI[0]), num(mt.SpecCI[1])},
			[]string{"auc_delong95", num(mt.AUC.AUC), num(mt.AUC.Low), num(mt.AUC.High)})
		if c := mt.Calibration; c != nil {
			rows = append(rows, []string{"brier", num(c.Brier), "", ""}, []string{"calibration_intercept", num(c.Intercept), "", ""},
				[]string{"calibration_slope", num(c.Slope), "", ""},
				[]string{"probability_method", cohortProbMethod(m), "", ""})
		}
	}
	for c, a := range mt.PerClass {
		rows = append(rows, []string{"auc_delong95 " + m.Classes[c] + " vs rest", num(a.AUC), num(a.Low), num(a.High)})
	}
	if mt.PerClass != nil {
		rows = append(rows, []string{"auc_mean_one_vs_rest", num(mt.MeanAUC), "", ""})
	}
	for t, row := range mt.Confusion {
		for p, k := range row {
			rows = append(rows, []string{"confusion " + m.Classes[t] + " -> " + m.Classes[p], strconv.Itoa(k), "", ""})
		}
	}
	if sh := v.Shift; sh != nil {
		rows = append(rows, []string{"shift_median_abs_smd", num(sh.MedianAbsSMD), "", num(sh.Limit)},
			[]string{"shift_median_share_outside_training_range", num(sh.MedianOut), "", num(signature.ShiftOutside)},
			[]string{"shift_scores_smd", num(sh.ScoreSMD), "", ""},
			[]string{"off_training_scale", strconv.FormatBool(sh.OffScale), "", ""})
	}
	return rows
}

// cohortProbMethod says where a cohort's probabilities came from.
func cohortProbMethod(m *signature.Model) string {
	if experiment.DirectProbability(m.Classifier) {
		return "the model's own probabilities (" + experiment.ClassifierLabel(m.Classifier) + "; no Platt map); calibration as rms val.prob"
	}
	return "the model's Platt map, fitted on the study's out-of-fold scores; calibration as rms val.prob"
}
