package study

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"steadfast/compute/signature"
	"steadfast/internal/text"
)

// choiceCount is how many outer training sets chose a method at k.
type choiceCount struct {
	Method string
	K, N   int
}

// countChoices counts the choices by method and k, the most often first (then by
// method and k).
func countChoices(choices []NestedChoice) []choiceCount {
	idx := map[[2]string]int{}
	var out []choiceCount
	for _, c := range choices {
		key := [2]string{c.Method, strconv.Itoa(c.K)}
		i, ok := idx[key]
		if !ok {
			i = len(out)
			idx[key] = i
			out = append(out, choiceCount{Method: c.Method, K: c.K})
		}
		out[i].N++
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].N != out[b].N {
			return out[a].N > out[b].N
		}
		if out[a].Method != out[b].Method {
			return out[a].Method < out[b].Method
		}
		return out[a].K < out[b].K
	})
	return out
}

// choiceCounts says how often each (method, k) was chosen, the most often first:
// "Cox score test at k = 10 in 12, Cox score test at k = 20 in 3".
func choiceCounts(choices []NestedChoice) string {
	var parts []string
	for _, c := range countChoices(choices) {
		parts = append(parts, fmt.Sprintf("%s at k = %d in %d", c.Method, c.K, c.N))
	}
	return strings.Join(parts, ", ")
}

// NestedChoiceTable is nested-choices.csv: a row an outer training set, its
// repetition and fold (from 1; empty in a run saved before folds were kept) and the
// method and k its inner study chose.
func NestedChoiceTable(choices []NestedChoice) [][]string {
	rows := [][]string{{"repetition", "fold", "method", "k"}}
	for _, c := range choices {
		fold := ""
		if c.Fold > 0 {
			fold = strconv.Itoa(c.Fold)
		}
		rows = append(rows, []string{strconv.Itoa(c.Repeat + 1), fold, c.Method, strconv.Itoa(c.K)})
	}
	return rows
}

// NestedCountTable is nested-choice-counts.csv: a row a method at k the inner studies
// chose, how many of the outer training sets chose it and their share, the most often
// first.
func NestedCountTable(choices []NestedChoice) [][]string {
	rows := [][]string{{"method", "k", "outer_training_sets", "share"}}
	for _, c := range countChoices(choices) {
		rows = append(rows, []string{c.Method, strconv.Itoa(c.K), strconv.Itoa(c.N), num(float64(c.N) / float64(len(choices)))})
	}
	return rows
}

// NestedCountDisplay is NestedCountTable as people read it (the window, the report).
func NestedCountDisplay(choices []NestedChoice) (header []string, rows [][]string) {
	header = []string{"method chosen", "k", fmt.Sprintf("outer training sets that chose it (of %d)", len(choices)), "share"}
	for _, r := range NestedCountTable(choices)[1:] {
		share, _ := strconv.ParseFloat(r[3], 64)
		rows = append(rows, []string{r[0], r[1], r[2], fmt.Sprintf("%.0f%%", 100*share)})
	}
	return header, rows
}

// NestedCountCaption says what NestedCountDisplay counts.
func NestedCountCaption(choices []NestedChoice, innerFolds int) string {
	return fmt.Sprintf("Inner choices of the nested estimate: the method and k the advice chose in each of the %s (%d-fold inner CV on each; nested-choices.csv lists each)", text.Count(len(choices), "outer training set"), innerFolds)
}

// NestedChoicesIs is metrics.csv's nested_choices row: the counts, and where each
// choice is listed.
func NestedChoicesIs(choices []NestedChoice) string {
	return fmt.Sprintf("the inner studies chose %s of the %d outer training sets (nested-choice-counts.csv; each in nested-choices.csv)", choiceCounts(choices), len(choices))
}

// nestedFiles adds nested-choices.csv and nested-choice-counts.csv to files.
func nestedFiles(files map[string][]byte, choices []NestedChoice) {
	files["nested-choices.csv"] = csvOf(NestedChoiceTable(choices))
	files["nested-choice-counts.csv"] = csvOf(NestedCountTable(choices))
}

// SurvivalHeldOutTable is heldout-scores.csv of a survival signature: every
// repetition's held-out risk scores, a row a sample of a resample's test set (the
// repetition and fold from 1), with its time and event. Per repetition they give the
// pooled Harrell's C, Uno's C and time-dependent AUC of metrics.csv.
func (s *SurvivalSignature) SurvivalHeldOutTable() [][]string {
	rows := [][]string{{"repetition", "fold", "sample", "time", "event", "risk_score"}}
	for _, h := range s.CV.HeldOut {
		ev := "0"
		if s.Outcome.Event[h.Sample] {
			ev = "1"
		}
		rows = append(rows, []string{strconv.Itoa(h.Repeat + 1), strconv.Itoa(h.Fold + 1), s.Samples[h.Sample], num(s.Outcome.Time[h.Sample]), ev, num(h.Score)})
	}
	return rows
}

// HeldOutTable is heldout-scores.csv of a class signature: every repetition's
// held-out scores, a row a sample of a resample's test set (the repetition and fold
// from 1), its class and the classifier's score of each class. Per repetition the
// positive class's scores give the pooled AUC of metrics.csv.
func (s *Signature) HeldOutTable() [][]string {
	head := []string{"repetition", "fold", "sample", "class"}
	for _, c := range s.Classes {
		head = append(head, "score_"+c)
	}
	rows := [][]string{head}
	for _, h := range s.CV.HeldOut {
		row := []string{strconv.Itoa(h.Repeat + 1), strconv.Itoa(h.Fold + 1), s.Samples[h.Sample], s.Classes[s.Labels[h.Sample]]}
		for _, v := range h.Scores {
			row = append(row, num(v))
		}
		rows = append(rows, row)
	}
	return rows
}

// unoMeanRange is the mean, least and largest of the repetitions' Uno's C.
func unoMeanRange(cv *signature.SurvivalCV) (mean, lo, hi float64) {
	return concordanceMeanRange(cv.Uno)
}
