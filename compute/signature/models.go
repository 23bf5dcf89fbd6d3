package signature

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/classify"
	"steadfast/compute/experiment"
)

// LogitFit is a locked logistic regression's penalty: glmnet's alpha and the lambda
// fitted, and how lambda was chosen.
type LogitFit struct {
	Alpha  float64 `json:"alpha"`
	Lambda float64 `json:"lambda"`
	Chosen string  `json:"chosen"`
}

// ForestFit is a locked random forest: its trees (on the scaled genes), how they were
// grown, its out-of-bag error on the training samples (nil when no sample was ever out
// of bag) and each gene's permutation and impurity importance.
type ForestFit struct {
	Trees       []classify.Tree `json:"trees"`
	Mtry        int             `json:"mtry"`
	MinNode     int             `json:"minNode"`
	OOBError    *float64        `json:"oobError,omitempty"`
	Permutation []float64       `json:"permutation"`
	Impurity    []float64       `json:"impurity"`
}

// lockLogit fits the study's logistic regression on all samples' scaled genes z, lambda
// chosen (when not fixed) by the same inner cross-validation as in every resample,
// its folds seeded by the study's seed.
func (m *Model) lockLogit(ctx context.Context, z *mat.Dense, y []int) error {
	p := m.Config.ClassifierValues("logit")
	l := experiment.LogitOf(p)
	if err := l.Fit(ctx, z, y, len(m.Classes), rand.New(rand.NewPCG(m.Config.Seed, 0x6c6f67))); err != nil {
		return err
	}
	m.W, m.B = l.W, l.B
	how := "fixed"
	if p["lambda"] == 0 {
		rule := "lambda.min"
		if p["se1"] == 1 {
			rule = "lambda.1se"
		}
		how = fmt.Sprintf("%s of %d-fold cross-validation on the training samples", rule, min(int(p["folds"]), smallestClass(y, len(m.Classes))))
	}
	m.Logit = &LogitFit{Alpha: p["alpha"], Lambda: l.Chosen, Chosen: how}
	if len(m.Classes) == 2 {
		m.Rule = fmt.Sprintf("logistic regression: the probability of %s is 1/(1 + exp(-(w'z + b))); %s when it exceeds 0.5", m.Classes[1], m.Classes[1])
	} else {
		m.Rule = "logistic regression (multinomial): the probability of each class is exp(w_c'z + b_c) over the sum over classes; the most probable class"
	}
	return nil
}

func smallestClass(y []int, classes int) int {
	count := make([]int, classes)
	for _, c := range y {
		count[c]++
	}
	least := len(y)
	for _, k := range count {
		least = min(least, k)
	}
	return least
}

// lockForest grows the study's random forest on all samples' scaled genes z, seeded
// by the study's seed, with its importances.
func (m *Model) lockForest(ctx context.Context, z *mat.Dense, y []int) error {
	f := experiment.ForestOf(m.Config.ClassifierValues("rf"), m.Config.Seed, 0)
	f.Mtry = min(f.Mtry, len(m.Genes))
	f.Importance = true
	if err := f.Fit(ctx, z, y, len(m.Classes)); err != nil {
		return err
	}
	ff := &ForestFit{Trees: f.Nodes, Mtry: f.Mtry, MinNode: max(f.MinNode, 1), Permutation: f.Permutation, Impurity: f.Impurity}
	if ff.Mtry == 0 {
		ff.Mtry = max(int(math.Floor(math.Sqrt(float64(len(m.Genes))))), 1)
	}
	if !math.IsNaN(f.OOBError) {
		e := f.OOBError
		ff.OOBError = &e
	}
	if b, err := json.Marshal(ff); err != nil || len(b) > MaxModelFile/2 {
		return fmt.Errorf("random forest: its %d trees would take %d MB of the model file, which holds at most %d MB (ReadModel refuses more); grow fewer trees (\"trees\" in the forest's parameters)", len(f.Nodes), len(b)>>20, MaxModelFile>>20)
	}
	m.Forest = ff
	m.Rule = fmt.Sprintf("random forest: %d trees, each voting for a class by threshold rules on the scaled genes; the class of most votes, each class's share of the votes its probability", len(f.Nodes))
	return nil
}

// checkLogit checks a logistic regression read back.
func (m *Model) checkLogit() error {
	nc, g := len(m.Classes), len(m.Genes)
	want := nc
	if nc == 2 {
		want = 1
	}
	if len(m.W) != want || len(m.B) != want || !finite(m.B) {
		return fmt.Errorf("%d logistic models for %d classes", len(m.W), nc)
	}
	for _, w := range m.W {
		if len(w) != g || !finite(w) {
			return fmt.Errorf("a logistic regression's coefficients: %d for %d genes, or one not finite", len(w), g)
		}
	}
	if l := m.Logit; !(l.Alpha >= 0 && l.Alpha <= 1) || !(l.Lambda >= 0) || math.IsInf(l.Lambda, 0) || len(l.Chosen) > 200 {
		return fmt.Errorf("a logistic regression of alpha %g and lambda %g", l.Alpha, l.Lambda)
	}
	if m.Platt != nil {
		return fmt.Errorf("a logistic regression with a Platt map: its probabilities are its own")
	}
	return nil
}

// checkForest checks a random forest read back: at most MaxForestTrees trees, each of
// at most 2n - 1 nodes (n the training samples: a bootstrap sample of n draws has at
// most n leaves), every node's feature, threshold, children and leaf class valid.
func (m *Model) checkForest() error {
	f, nc, g := m.Forest, len(m.Classes), len(m.Genes)
	if len(f.Trees) == 0 || len(f.Trees) > experiment.MaxForestTrees {
		return fmt.Errorf("a random forest of %d trees (1 to %d)", len(f.Trees), experiment.MaxForestTrees)
	}
	most := 2*len(m.Samples) - 1
	for t := range f.Trees {
		if n := len(f.Trees[t].Feature); n > most {
			return fmt.Errorf("random forest tree %d: %d nodes for %d training samples (at most %d)", t+1, n, len(m.Samples), most)
		}
		if err := f.Trees[t].Check(g, nc); err != nil {
			return fmt.Errorf("random forest tree %d: %v", t+1, err)
		}
	}
	if f.Mtry < 1 || f.Mtry > g || f.MinNode < 1 {
		return fmt.Errorf("a random forest trying %d of %d genes a split, nodes of %d samples", f.Mtry, g, f.MinNode)
	}
	if e := f.OOBError; e != nil && !(*e >= 0 && *e <= 1) {
		return fmt.Errorf("an out-of-bag error of %g", *e)
	}
	if len(f.Permutation) != g || len(f.Impurity) != g || !finite(f.Permutation) || !finite(f.Impurity) {
		return fmt.Errorf("importances of %d and %d genes for %d, or one not finite", len(f.Permutation), len(f.Impurity), g)
	}
	if m.W != nil || m.B != nil || m.Platt != nil {
		return fmt.Errorf("a random forest with linear coefficients or a Platt map")
	}
	return nil
}
