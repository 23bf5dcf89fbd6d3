package study

import (
	"fmt"
	"strconv"
	"strings"

	"steadfast/compute/experiment"
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
	header = []string{"term", "gene symbol", "training mean", "training SD", "coefficient"}
	linear := len(m.W) == 1 && len(m.Classes) == 2
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
		rows = append(rows, []string{fmt.Sprintf("pair %d", p+1), m.Genes[pr[0]].ID + " < " + m.Genes[pr[1]].ID, "", "", "votes " + m.Classes[m.PairLess[p]]})
	}
	if p := m.Platt; p != nil {
		rows = append(rows, []string{"probability map A", "", "", "", strconv.FormatFloat(p.A, 'g', -1, 64)},
			[]string{"probability map B", "", "", "", strconv.FormatFloat(p.B, 'g', -1, 64)})
	}
	return header, rows
}

// HowToApply says in words how the full model predicts a new sample (TRIPOD item 15b).
func (s *Signature) HowToApply() string {
	m := s.Model
	var b strings.Builder
	prep := "taken as they are"
	switch {
	case m.Prep.Log2:
		prep = "log2-transformed (values below 1 raised to 1)"
	case m.Prep.LogCPM:
		prep = "turned into log2 counts per million"
	}
	fmt.Fprintf(&b, "To predict a new sample: take its values of the %s, %s", text.Count(len(m.Genes), "gene"), prep)
	if m.Config.ZScore {
		b.WriteString("; standardise each, z = (x - training mean) / training SD (0 where the SD is 0)")
	}
	switch {
	case m.Classifier == "ktsp":
		return fmt.Sprintf("To predict a new sample: take its values of the genes of the %s below, %s (no scaling is needed: any increasing transform gives the same votes); each pair votes for its class when its first gene's value is below its second's, else for the other class; the class of most votes wins. steadfast predict --model model.json does this, checking the file first.", text.Count(len(m.Pairs), "pair"), prep)
	case len(m.W) == 1 && len(m.Classes) == 2:
		pos, ref := m.Classes[m.Positive], m.Classes[1-m.Positive]
		fmt.Fprintf(&b, "; the score is d = sum of coefficient x z over the genes + intercept; d > 0 predicts %s, else %s", pos, ref)
		if m.Platt != nil {
			fmt.Fprintf(&b, "; the probability of %s is 1 / (1 + exp(A d + B)) with the probability map's A and B", pos)
		}
	case m.W != nil:
		b.WriteString("; each class's score is its own linear function (model.json), the largest predicts")
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
	return rows
}
