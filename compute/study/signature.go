package study

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
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
	// Advised says the method and k came from the study (FromStudy: the advice of one
	// of its classifiers, or a choice the user said was made after seeing its results,
	// Nest): chosen on the same resamples that estimate them. Nested is then the
	// estimate of the whole procedure, the advice made again with this classifier
	// inside each training set (Nest).
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
		s.Genes = append(s.Genes, signature.Gene{Feature: i, ID: g.ID, Symbol: g.Symbol, Weight: w, ModT: math.NaN(), ModP: math.NaN(), ModFDR: math.NaN()})
	}
	return s
}

// GeneLabels are the genes' names with their symbols when known: "1007_s_at (DDR1)".
func (s *Signature) GeneLabels() []string {
	out := make([]string, len(s.Genes))
	for i, g := range s.Genes {
		out[i] = signature.GeneName(g.ID, g.Symbol)
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
	if err := classesOnly(ds, "this signature (a classifier's)"); err != nil {
		return nil, err
	}
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
		if !op.Direct { // logistic regression and forests give probabilities of their own
			model.Platt = &op.Platt
		}
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
	advised := Choosable(res, c.Classifier) && !c.Frequent && FromStudy(res, c.Method, c.K)
	s := &Signature{Choice: c, Advised: advised, Positive: pos, PositiveWhy: why, Scale: scale, Genes: genes, Model: model, CV: cv, Op: op, Classes: ds.Classes,
		Samples: ds.Samples, Labels: ds.Labels, Values: values, PairStability: pairStab}
	s.keepHeadline()
	return s, nil
}

// FromStudy says method m at k came from the study res: it is the advice
// (signature.Advice) of one of the run's classifiers. The window preselects the first
// classifier's advice and keeps it when only the classifier is changed; the command
// line takes the advice of the classifier asked for. Either way the study's own
// resamples chose m and k, so their plain estimate is optimistic.
func FromStudy(res *experiment.Result, m, k int) bool {
	for _, cl := range res.Config.Classifiers {
		if am, ak, ok := signature.Advice(res, cl); ok && am == m && ak == k {
			return true
		}
	}
	return false
}

// Choosable says the run res offers classifier cl a choice of method or k (two
// methods, or two ks with an error): only then can a choice come from the study, and
// its nested estimate make it again.
func Choosable(res *experiment.Result, cl string) bool {
	return len(res.Methods) > 1 || len(experiment.ErrorKs(res, cl)) > 1
}

func intList(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}
