package study

import (
	"fmt"
	"strconv"
	"strings"

	"steadfast/compute/classify"
	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/internal/text"
)

// FullModel is the locked model in full, for a reader to predict a new sample without
// Steadfast (TRIPOD item 15a): a row a gene with its training mean and standard
// deviation and, for a linear SVM of two classes, its coefficient on the z-scored value
// toward the positive class, then the intercept and the probability map. Full
// precision: a coefficient rounded changes predictions. A k-NN model is its training
// samples (model.json); the rows give the genes and their scaling only.
func (s *Signature) FullModel() (header []string, rows [][]string) {
	m := s.Model
	switch {
	case m.Classifier == "rf":
		return s.fullForest()
	case m.Classifier == "logit" && len(m.W) == 1:
		return s.fullLogit()
	}
	header = []string{"term", "gene symbol", "training mean", "training SD", "coefficient"}
	linear := len(m.W) == 1 && len(m.Classes) == 2
	if perClass := len(m.W) > 1 && len(m.W) == len(m.Classes); perClass { // one-vs-rest: a column a class
		return s.fullModelPerClass()
	}
	sign := 1.0
	if m.Positive == 0 {
		sign = -1
	}
	for i, g := range m.Genes {
		coef := "(k-NN: no coefficient)"
		if m.Classifier == "ktsp" {
			coef = "(k-TSP: see the pairs)"
		}
		if linear {
			coef = strconv.FormatFloat(sign*m.W[0][i], 'g', -1, 64)
		} else if m.W != nil {
			coef = "(one per class: model.json)"
		}
		rows = append(rows, []string{g.ID, g.Symbol, strconv.FormatFloat(m.Mean[i], 'g', -1, 64), strconv.FormatFloat(m.SD[i], 'g', -1, 64), coef})
	}
	if linear {
		rows = append(rows, []string{"intercept", "", "", "", strconv.FormatFloat(sign*m.B[0], 'g', -1, 64)})
	}
	for p, pr := range m.Pairs {
		stab := ""
		if p < len(s.PairStability) {
			stab = fmt.Sprintf("chosen in %.0f%% of resamples", 100*s.PairStability[p])
		}
		rows = append(rows, []string{fmt.Sprintf("pair %d", p+1), m.Genes[pr[0]].ID + " < " + m.Genes[pr[1]].ID, stab, "", "votes " + m.Classes[m.PairLess[p]]})
	}
	if p := m.Platt; p != nil {
		rows = append(rows, []string{"probability map A", "", "", "", strconv.FormatFloat(p.A, 'g', -1, 64)},
			[]string{"probability map B", "", "", "", strconv.FormatFloat(p.B, 'g', -1, 64)})
	}
	return header, rows
}

// fullModelPerClass is FullModel of a linear model of one score a class (one against
// the rest): a coefficient column and an intercept a class.
func (s *Signature) fullModelPerClass() (header []string, rows [][]string) {
	m := s.Model
	header = []string{"term", "gene symbol", "training mean", "training SD"}
	for _, c := range m.Classes {
		if m.Classifier == "logit" { // multinomial: softmax over the classes' scores
			header = append(header, "coefficient, "+c+" (softmax)")
			continue
		}
		header = append(header, "coefficient, "+c+" vs rest")
	}
	for i, g := range m.Genes {
		row := []string{g.ID, g.Symbol, strconv.FormatFloat(m.Mean[i], 'g', -1, 64), strconv.FormatFloat(m.SD[i], 'g', -1, 64)}
		for c := range m.Classes {
			row = append(row, strconv.FormatFloat(m.W[c][i], 'g', -1, 64))
		}
		rows = append(rows, row)
	}
	last := []string{"intercept", "", "", ""}
	for c := range m.Classes {
		last = append(last, strconv.FormatFloat(m.B[c], 'g', -1, 64))
	}
	return header, append(rows, last)
}

// fullLogit is FullModel of a two-class logistic regression: each gene's coefficient
// toward the positive class on the model's scaled value and its odds ratio per
// standard deviation, the intercept and the penalty. No confidence intervals: a
// penalised coefficient is biased toward 0 and has no valid standard error.
func (s *Signature) fullLogit() (header []string, rows [][]string) {
	m := s.Model
	header = []string{"term", "gene symbol", "training mean", "training SD", "coefficient", "odds ratio per SD"}
	sign := 1.0
	if m.Positive == 0 {
		sign = -1
	}
	g := strconv.FormatFloat
	for i, gene := range m.Genes {
		c := sign * m.W[0][i]
		perSD := c // on z-scored genes a unit is a standard deviation
		if !m.Config.ZScore {
			perSD = c * m.SD[i]
		}
		rows = append(rows, []string{gene.ID, gene.Symbol, g(m.Mean[i], 'g', -1, 64), g(m.SD[i], 'g', -1, 64), g(c, 'g', -1, 64), g(experiment.OddsRatio(perSD), 'g', 6, 64)})
	}
	rows = append(rows, []string{"intercept", "", "", "", g(sign*m.B[0], 'g', -1, 64), ""},
		[]string{"penalty", fmt.Sprintf("alpha %g, lambda %s (%s)", m.Logit.Alpha, g(m.Logit.Lambda, 'g', 6, 64), m.Logit.Chosen), "", "", "", "no confidence intervals: penalised coefficients have no valid standard errors"})
	return header, rows
}

// fullForest is FullModel of a random forest: the genes with their scaling and
// importances (the trees themselves are in model.json), the forest's size and its
// out-of-bag error.
func (s *Signature) fullForest() (header []string, rows [][]string) {
	m, f := s.Model, s.Model.Forest
	header = []string{"term", "gene symbol", "training mean", "training SD", "permutation importance", "impurity importance (biased toward genes of many distinct values)"}
	g := strconv.FormatFloat
	for i, gene := range m.Genes {
		rows = append(rows, []string{gene.ID, gene.Symbol, g(m.Mean[i], 'g', -1, 64), g(m.SD[i], 'g', -1, 64), g(f.Permutation[i], 'g', 6, 64), g(f.Impurity[i], 'g', 6, 64)})
	}
	oob := "n/a"
	if f.OOBError != nil {
		oob = g(*f.OOBError, 'g', 4, 64)
	}
	rows = append(rows, []string{"trees", fmt.Sprintf("%d (mtry %d, nodes of at most %d samples left unsplit)", len(f.Trees), f.Mtry, f.MinNode), "", "", "", ""},
		[]string{"out-of-bag error", oob, "", "", "", ""})
	return header, rows
}

// HowToApply says in words how the full model predicts a new sample (TRIPOD item 15b).
func (s *Signature) HowToApply() string {
	m := s.Model
	var b strings.Builder
	prep := "taken as they are"
	switch {
	case m.Impute != nil:
		o, _ := m.Prep.ImputeOptions().Resolved()
		prep = fmt.Sprintf("preprocessed against the model's frozen fit on its training samples (its %d kept proteins' normalisation targets, each gene's imputation), as the training samples were: %s", len(m.Impute.Kept), o.Describe())
	case m.Prep.Log2:
		prep = "log2-transformed (values below 1 raised to 1)"
	case m.Prep.LogCPM && m.Norm != nil:
		prep = fmt.Sprintf("its read counts normalised against the model's frozen reference (the library size and TMM factor over the %d reference genes, as edgeR's .calcFactorTMM against the reference library, divided by the training scale %.6g; then log2 counts per million with a prior of 2 L f / %.6g)", len(m.NormGenes), m.Norm.Scale, m.Norm.MeanEff)
	case m.Prep.LogCPM:
		prep = "turned into log2 counts per million"
	}
	fmt.Fprintf(&b, "To predict a new sample: take its values of the %s, %s", text.Count(len(m.Genes), "gene"), prep)
	switch {
	case m.Config.ZScore && m.Prep.Scaling == "pareto":
		b.WriteString("; Pareto-scale each, z = (x - training mean) / sqrt(training SD) (the model's SD holds the square root; 0 where it is 0)")
	case m.Config.ZScore:
		b.WriteString("; standardise each, z = (x - training mean) / training SD (0 where the SD is 0)")
	}
	switch {
	case m.Classifier == "rf":
		fmt.Fprintf(&b, "; each of the %d trees in model.json sends the sample down its nodes (to the left child when the z-value of the node's gene is at most its threshold) to a leaf that votes for a class; the class of most votes predicts, and each class's share of the votes is its probability (no Platt map)", len(m.Forest.Trees))
	case m.Classifier == "logit" && len(m.W) == 1:
		pos, ref := m.Classes[m.Positive], m.Classes[1-m.Positive]
		fmt.Fprintf(&b, "; the score is d = sum of coefficient x z over the genes + intercept, and the probability of %s is 1 / (1 + exp(-d)): above 0.5 (d > 0) predicts %s, else %s (the model's own probability, no Platt map). exp(coefficient) is the odds ratio of %s per standard deviation of the gene, the others held fixed; penalised coefficients have no valid standard errors, so no confidence intervals are given", pos, pos, ref, pos)
	case m.Classifier == "logit":
		b.WriteString("; each class's score d_c is its own linear function, sum of its coefficient x z over the genes + its intercept (the Full model table's column for the class), its probability exp(d_c) / sum over classes of exp(d); the most probable predicts")
	case m.Classifier == "ktsp":
		return fmt.Sprintf("To predict a new sample: take its values of the genes of the %s below, %s (no scaling is needed: any increasing transform gives the same votes); each pair votes for its class when its first gene's value is below its second's, else for the other class; the class of most votes wins. steadfast predict --model model.json does this, checking the file first.", text.Count(len(m.Pairs), "pair"), prep)
	case len(m.W) == 1 && len(m.Classes) == 2:
		pos, ref := m.Classes[m.Positive], m.Classes[1-m.Positive]
		fmt.Fprintf(&b, "; the score is d = sum of coefficient x z over the genes + intercept; d > 0 predicts %s, else %s", pos, ref)
		if m.Platt != nil {
			fmt.Fprintf(&b, "; the probability of %s is 1 / (1 + exp(A d + B)) with the probability map's A and B", pos)
		}
	case m.W != nil:
		b.WriteString("; each class's score is its own linear function, sum of its coefficient x z over the genes + its intercept (the Full model table's column for the class), and the largest predicts")
	default:
		fmt.Fprintf(&b, "; the class is the majority among the %d training samples nearest in Euclidean distance (model.json holds them)", m.Neighbours)
	}
	b.WriteString(". steadfast predict --model model.json does this, checking the file first.")
	return b.String()
}

// TRIPOD is where the report answers the TRIPOD items (Collins et al., BMJ 2015;
// 350:g7594) on model development and internal validation that the signature
// concerns: item, what it asks, where it is answered.
func (s *Signature) TRIPOD(res *experiment.Result) [][]string {
	counts := make([]string, len(res.Data.Classes))
	for i, c := range res.Data.Classes {
		counts[i] = fmt.Sprintf("%s %d", c, res.Data.ClassCounts[i])
	}
	rows := [][]string{{"TRIPOD item", "asks for", "answered in"},
		{"10b", "type of model, all model-building procedures (predictor selection too), method of internal validation", "Signature: its paragraph (" + experiment.ProtocolText(res.Config) + ", selection refit in every training set)"},
		{"10d", "all measures of model performance", "Signature: its paragraph and the operating points table (AUC, sensitivity, specificity, PPV, NPV, Brier score, calibration)"},
		{"13a", "the flow of participants, with and without the outcome", fmt.Sprintf("the data line at the top: %d samples (%s)", res.Data.Samples, strings.Join(counts, ", "))},
		{"14a", "the number of participants and outcome events in each analysis", "the data line; every resample uses all samples (" + experiment.ProtocolText(res.Config) + ")"},
		{"15a", "the full model: every coefficient and the intercept", "the Full model table (and model.json)"},
		{"15b", "how to use the model", "the paragraph under the Full model table"},
		{"16", "performance measures with confidence intervals", "the operating points table, the AUC's interval in the paragraph, the calibration figure"},
	}
	if s.Nested != nil {
		rows[1][2] += "; the advice's choice of method and k made again inside each training set (nested estimate)"
	}
	if s.Op == nil { // more than two classes: no operating points, no calibration
		rows[2][2] = "Signature: its paragraph (each class's one-vs-rest AUC with its interval, sensitivity and specificity at the classifier's rule, the balanced accuracy)"
		rows[7][2] = "the AUCs' intervals in the paragraph (with more than two classes there are no operating points and no calibration curve)"
	}
	return rows
}

// PairStabilities is, for each pair of the locked k-TSP model (of the genes feats),
// the share of the study's resamples whose own k-TSP, fitted on the resample's training
// samples (the values as read) and its own top k genes, chose the same pair: how much
// the pairs depend on which samples trained them. Nil when the run's resamples cannot
// be paired with their training sets (Kalousis's nested protocol keeps the inner ones
// apart).
func PairStabilities(res *experiment.Result, ds *dataset.Dataset, c signature.Choice, feats []int, m *signature.Model) []float64 {
	mr := res.Methods[c.Method]
	if len(mr.Runs) == 0 || len(mr.Runs) != len(mr.Predictions) {
		return nil
	}
	want := make([][2]int, len(m.Pairs))
	for p, pr := range m.Pairs {
		want[p] = orderedPair(feats[pr[0]], feats[pr[1]])
	}
	hits := make([]float64, len(want))
	n := len(ds.Labels)
	for r, run := range mr.Runs {
		train := complement(mr.Predictions[r].Test, n)
		top := run.Order[:min(c.K, len(run.Order))]
		x := dataset.SelectFeatures(ds.X, top)
		xt, yt := dataset.SelectSamples(x, ds.Labels, train)
		k := classify.KTSP{K: res.Config.KTSPPairs} // as the study's resamples and the model
		if err := k.Fit(xt, yt, len(ds.Classes)); err != nil {
			return nil
		}
		chosen := map[[2]int]bool{}
		for _, pr := range k.Pairs {
			chosen[orderedPair(top[pr[0]], top[pr[1]])] = true
		}
		for p, w := range want {
			if chosen[w] {
				hits[p]++
			}
		}
	}
	for p := range hits {
		hits[p] /= float64(len(mr.Runs))
	}
	return hits
}

func orderedPair(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}
