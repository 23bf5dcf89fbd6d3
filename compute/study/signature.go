package study

import (
	"bytes"
	"context"
	"encoding/csv"
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
	Genes    []signature.Gene
	Model    *signature.Model
	CV       *signature.Estimate
	Classes  []string
	// the signature genes' values across the samples (Values[g][i], as analysed), for
	// its heatmap
	Samples []string
	Labels  []int
	Values  [][]float64
	// Perm is the permutation test, when one was run (see Permute).
	Perm *Permutations
	// Validation is the model applied to an independent cohort, when it was (Validate).
	Validation *signature.Validation
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
// (by name; "" for the second class). A method, k or classifier not in the run, or a run
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
	pos := -1
	if len(ds.Classes) == 2 {
		pos = 1
		if positive != "" {
			if pos = slices.Index(ds.Classes, positive); pos < 0 {
				return nil, fmt.Errorf("the positive class %q is not one of the run's (%s)", positive, strings.Join(ds.Classes, ", "))
			}
		}
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
	genes := signature.Describe(res, ds, c, feats, res.Config.Prep.Log2 || res.Config.Prep.LogCPM)
	if model.W != nil && len(ds.Classes) == 2 {
		for i := range genes {
			genes[i].Weight = model.W[0][i]
		}
	}
	values := make([][]float64, len(feats))
	for g, j := range feats {
		values[g] = mat.Col(nil, j, ds.X)
	}
	return &Signature{Choice: c, Positive: pos, Genes: genes, Model: model, CV: cv, Classes: ds.Classes,
		Samples: ds.Samples, Labels: ds.Labels, Values: values}, nil
}

func intList(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

// Files are what the signature writes: model.json, signature.csv (a gene a row),
// roc.csv (every repetition's curve), metrics.csv (metric, value, low, high) and, after
// a permutation test, permutations.csv (each permuted study's AUC).
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
	if s.Perm != nil {
		rows := [][]string{{"permutation", "auc"}}
		for i, a := range s.Perm.AUCs {
			rows = append(rows, []string{strconv.Itoa(i + 1), num(a)})
		}
		files["permutations.csv"] = csvOf(rows)
	}
	return files, nil
}

// GeneTable is signature.csv: one row a gene, under its header.
func (s *Signature) GeneTable() [][]string {
	test := "welch_p"
	if len(s.Classes) > 2 {
		test = "anova_p"
	}
	rows := [][]string{{"gene", "symbol", "selection_frequency", "mean_rank", "svm_weight", "higher_in", "log2_fold_change", test, "bh_fdr", "group_members"}}
	for _, g := range s.Genes {
		rows = append(rows, []string{g.ID, g.Symbol, num(g.Frequency), num(g.MeanRank), num(g.Weight), g.Higher, num(g.Log2FC), num(g.P), num(g.FDR), strings.Join(g.Members, "; ")})
	}
	return rows
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
	positive := "one-vs-rest"
	if s.Positive >= 0 {
		positive = s.Classes[s.Positive]
	}
	rows := [][]string{{"metric", "value", "low", "high"},
		{"positive_class", positive, "", ""},
		{"auc", num(cv.MeanAUC), num(cv.MinAUC), num(cv.MaxAUC)},
		{"auc_repetition_1_delong95", num(first.AUC), num(first.Low), num(first.High)},
		{"sensitivity", num(cv.Sensitivity()), "", ""},
		{"specificity", num(cv.Specificity()), "", ""},
		{"balanced_accuracy", num(cv.BalancedAccuracy()), "", ""},
	}
	if s.Perm != nil {
		rows = append(rows, []string{"permutation_p", num(s.Perm.P), "", ""}, []string{"permutations", strconv.Itoa(len(s.Perm.AUCs)), "", ""})
	}
	for t, row := range cv.Confusion {
		for p, n := range row {
			rows = append(rows, []string{"confusion " + s.Classes[t] + " -> " + s.Classes[p], strconv.Itoa(n), "", ""})
		}
	}
	return rows
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
