package signature

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/classify"
	"steadfast/compute/experiment"
	"steadfast/internal/text"
)

// predict scores the samples (named samples) with a value in every gene found; the
// others are skipped and named with the genes they lack.
func (v *Validation) predict(x *mat.Dense, samples []string) {
	n, g := x.Dims()
	var keep, present []int
	for j := 0; j < g; j++ {
		if v.Matches[j].By != "" {
			present = append(present, j)
		}
	}
	var given []string
	var truth []int
	for i := 0; i < n; i++ {
		var lack []string
		for _, j := range present {
			if math.IsNaN(x.At(i, j)) {
				lack = append(lack, geneName(v.Matches[j]))
			}
		}
		if len(lack) > 0 {
			v.Skipped = append(v.Skipped, fmt.Sprintf("%s (no value of %s)", samples[i], listSome(lack, 4)))
			continue
		}
		keep = append(keep, i)
	}
	rows := mat.NewDense(max(len(keep), 1), g, nil)
	for r, i := range keep {
		for j := 0; j < g; j++ {
			val := x.At(i, j)
			if v.Matches[j].By == "" {
				val = v.Model.Mean[j] // a linear model's term at the training mean; k-NN drops it
			}
			rows.Set(r, j, val)
		}
		v.Samples = append(v.Samples, samples[i])
		given, truth = append(given, v.Given[i]), append(truth, v.Truth[i])
	}
	v.Given, v.Truth, v.kept = given, truth, keep
	if len(keep) == 0 {
		return
	}
	for _, j := range present {
		v.Values = append(v.Values, mat.Col(nil, j, rows)[:len(keep)])
		v.GeneLabels = append(v.GeneLabels, geneName(v.Matches[j]))
	}
	if v.Model.Cox != nil {
		v.predictRisk(rows)
	} else if len(present) < g && v.Model.Classifier == "ktsp" {
		k := v.Model.intactPairs(present)
		v.Pred, v.Scores = k.PredictScores(rows)
	} else if len(present) < g && v.Model.TrainX != nil { // k-NN: the distance over the genes present
		v.Scores, v.Pred = v.Model.scoresOn(rows, present)
	} else {
		v.Scores, v.Pred, _ = v.Model.Scores(rows)
	}
	if experiment.DirectProbability(v.Model.Classifier) && len(v.Model.Classes) == 2 {
		// the model's own probabilities; its rule calls the positive class above 1/2
		for _, sc := range v.Scores {
			v.Probs = append(v.Probs, sc[v.positive])
		}
		v.RuleProb = 0.5
	} else if pl := v.Model.Platt; pl != nil && len(v.Model.Classes) == 2 {
		flip := func(p float64) float64 {
			if v.positive != v.Model.Positive {
				return 1 - p
			}
			return p
		}
		for _, sc := range v.Scores {
			v.Probs = append(v.Probs, flip(pl.Prob(sc[v.Model.Positive])))
		}
		v.RuleProb = flip(pl.Prob(v.Model.RuleScore()))
		v.probabilityNote()
	}
	if len(v.Skipped) > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("%s not predicted, having a missing value in a signature gene: %s", text.Count(len(v.Skipped), "sample"), listSome(v.Skipped, 5)))
	}
}

// probabilityNote says, when some samples' probabilities lie on the other side of 1/2
// from their predicted class, that the rule's threshold is RuleProb, not 1/2.
func (v *Validation) probabilityNote() {
	pos := v.Model.Classes[v.positive]
	odd := 0
	for i, p := range v.Probs {
		if (v.Pred[i] == v.positive) != (p > 0.5) {
			odd++
		}
	}
	if odd == 0 {
		return
	}
	v.Notes = append(v.Notes, fmt.Sprintf("the classifier's rule calls %s when the probability of %s exceeds %.3f (its threshold mapped by the Platt calibration), not 0.5: %s of %d %s a probability on the other side of 0.5 from the class predicted (predictions.csv gives the threshold beside each probability)",
		pos, pos, v.RuleProb, text.Count(odd, "sample"), len(v.Probs), text.Plural(odd, "has|have")))
}

// intactPairs is the model's k-TSP with the pairs whose genes are both among present.
func (m *Model) intactPairs(present []int) *classify.KTSP {
	k := &classify.KTSP{}
	for p, pr := range m.Pairs {
		if slices.Contains(present, pr[0]) && slices.Contains(present, pr[1]) {
			k.Pairs, k.Less = append(k.Pairs, pr), append(k.Less, m.PairLess[p])
		}
	}
	return k
}

// scoresOn is Scores for k-NN on the genes cols only (the others missing).
func (m *Model) scoresOn(x *mat.Dense, cols []int) ([][]float64, []int) {
	z := m.scale(x, strings.HasPrefix(m.Classifier, "weka"))
	n, _ := z.Dims()
	train := mat.NewDense(len(m.TrainX), len(cols), nil)
	for i, r := range m.TrainX {
		for jj, j := range cols {
			train.Set(i, jj, r[j])
		}
	}
	test := mat.NewDense(n, len(cols), nil)
	for i := 0; i < n; i++ {
		for jj, j := range cols {
			test.Set(i, jj, z.At(i, j))
		}
	}
	k := classify.KNN{K: m.Neighbours}
	k.Fit(train, m.TrainY, len(m.Classes))
	pred, scores := k.PredictScores(test)
	return scores, pred
}
