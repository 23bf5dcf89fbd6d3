package signature

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"steadfast/compute/experiment"
)

// Estimate is how well a study's procedure (selection and classifier refit in every
// training set) predicts, from its out-of-fold scores at one k: per repetition the ROC
// curve of the pooled test samples of its resamples, and over all of them the
// confusion matrix at the classifier's own rule (the class of largest score).
type Estimate struct {
	Classifier string
	K          int
	Positive   int // the class whose curve it is (two classes), or -1: one-vs-rest
	// Curves[r] and AUCs[r] are repetition r's ROC curve and AUC with its DeLong
	// interval; with more than two classes, the mean over the one-vs-rest curves'
	// AUCs (their intervals are NaN) and the curve of the first class.
	Curves  [][]ROCPoint
	AUCs    []AUC
	Repeats []int // the repetition of each curve
	// PerClass[c] are class c's one-vs-rest AUCs per repetition (more than two classes).
	PerClass                [][]AUC
	MeanAUC, MinAUC, MaxAUC float64
	// Confusion[t][p] counts test samples of class t predicted p, over every repetition.
	Confusion [][]int
	// Interval is the AUC's interval over the resamples (CVInterval); with more than
	// two classes of the mean one-vs-rest AUC, and ClassIntervals[c] class c's.
	Interval       Interval
	ClassIntervals []Interval
	// HeldOut are every repetition's held-out scores (HeldOut.Scores, one a class), a
	// row a test sample of a resample: those Curves and AUCs are of.
	HeldOut []HeldOut
}

// CrossValidated computes the Estimate of classifier cl at k from a study's predictions
// (labels per sample, the classes' names); positive names the class scored for two
// classes. It refuses a k not among the study's accuracy ks, a classifier not in it, and
// a study without predictions (saved before they were kept: run it again).
func CrossValidated(res *experiment.Result, m int, cl string, k, positive int) (*Estimate, error) {
	mr := res.Methods[m]
	if len(mr.Predictions) == 0 || res.Data.Labels == nil {
		return nil, fmt.Errorf("this run holds no out-of-fold predictions (saved before Steadfast kept them): run it again for a ROC curve")
	}
	ki := slices.Index(res.Config.AccuracyKs(), k)
	if ki < 0 {
		return nil, fmt.Errorf("k = %d is not among the ks whose accuracy the study measured (%v); choose one of them", k, res.Config.AccuracyKs())
	}
	if !slices.Contains(res.Config.Classifiers, cl) {
		return nil, fmt.Errorf("the classifier %q was not in this study (%v)", cl, res.Config.Classifiers)
	}
	nc := len(res.Data.Classes)
	if nc == 2 && (positive < 0 || positive > 1) {
		return nil, fmt.Errorf("the positive class %d: give 0 or 1", positive)
	}
	e := &Estimate{Classifier: cl, K: k, Positive: positive, Confusion: make([][]int, nc)}
	if nc > 2 {
		e.Positive = -1
		e.PerClass = make([][]AUC, nc)
	}
	for c := range e.Confusion {
		e.Confusion[c] = make([]int, nc)
	}
	byRepeat := map[int][]experiment.Prediction{}
	for _, pr := range mr.Predictions {
		byRepeat[pr.Repeat] = append(byRepeat[pr.Repeat], pr)
	}
	for _, r := range sortedKeys(byRepeat) {
		for f, pr := range byRepeat[r] {
			flat := pr.Scores[cl][ki]
			for i, s := range pr.Test {
				e.HeldOut = append(e.HeldOut, HeldOut{Repeat: r, Fold: f, Sample: s, Scores: flat[i*nc : (i+1)*nc : (i+1)*nc]})
			}
		}
		scores, truth := pool(byRepeat[r], cl, ki, nc, res.Data.Labels, e.Confusion)
		e.Repeats = append(e.Repeats, r)
		if nc == 2 {
			s, pos := classScores(scores, truth, positive)
			e.Curves = append(e.Curves, ROC(s, pos))
			e.AUCs = append(e.AUCs, DeLong(s, pos))
			continue
		}
		mean := 0.0
		for c := 0; c < nc; c++ {
			s, pos := classScores(scores, truth, c)
			a := DeLong(s, pos)
			e.PerClass[c] = append(e.PerClass[c], a)
			mean += a.AUC / float64(nc)
			if c == 0 {
				e.Curves = append(e.Curves, ROC(s, pos))
			}
		}
		nan := math.NaN()
		e.AUCs = append(e.AUCs, AUC{AUC: mean, Var: nan, Low: nan, High: nan})
	}
	e.Interval = CVInterval(mr.Predictions, cl, ki, nc, res.Data.Labels, e.Positive)
	if nc > 2 {
		for c := 0; c < nc; c++ {
			e.ClassIntervals = append(e.ClassIntervals, CVInterval(mr.Predictions, cl, ki, nc, res.Data.Labels, c))
		}
	}
	e.MeanAUC, e.MinAUC, e.MaxAUC = MeanRange(e.AUCs)
	return e, nil
}

// pool gathers one repetition's test samples: their scores (nc a sample) and classes,
// and counts its predictions into confusion (unless nil): the classifier's own (Prediction.Pred),
// else, in runs saved before they were kept, the class of largest score (the first of
// equals; k-NN's tied votes may have gone to another).
func pool(preds []experiment.Prediction, cl string, ki, nc int, labels []int, confusion [][]int) (scores [][]float64, truth []int) {
	for _, pr := range preds {
		flat := pr.Scores[cl][ki]
		for i, s := range pr.Test {
			row := flat[i*nc : (i+1)*nc]
			scores = append(scores, row)
			truth = append(truth, labels[s])
			best := 0
			for c, v := range row {
				if v > row[best] {
					best = c
				}
			}
			if pr.Pred != nil {
				best = pr.Pred[cl][ki][i]
			}
			if confusion != nil {
				confusion[labels[s]][best]++
			}
		}
	}
	return scores, truth
}

// classScores are the samples' scores of class c and whether each is of class c.
func classScores(scores [][]float64, truth []int, c int) ([]float64, []bool) {
	s := make([]float64, len(scores))
	pos := make([]bool, len(scores))
	for i, row := range scores {
		s[i], pos[i] = row[c], truth[i] == c
	}
	return s, pos
}

// Sensitivity and Specificity read the confusion matrix of two classes with Positive
// as the positive class: TP/(TP+FN) and TN/(TN+FP); with more classes, see
// ClassSensitivity and ClassSpecificity (these are NaN).
func (e *Estimate) Sensitivity() float64 {
	if e.Positive < 0 {
		return math.NaN()
	}
	return recall(e.Confusion, e.Positive)
}

// Specificity: see Sensitivity.
func (e *Estimate) Specificity() float64 {
	if e.Positive < 0 {
		return math.NaN()
	}
	return recall(e.Confusion, 1-e.Positive)
}

// ClassSensitivity is class c against the rest: the share of its samples predicted c.
func (e *Estimate) ClassSensitivity(c int) float64 { return recall(e.Confusion, c) }

// ClassSpecificity is class c against the rest: the share of the other classes'
// samples not predicted c.
func (e *Estimate) ClassSpecificity(c int) float64 {
	neg, right := 0, 0
	for t, row := range e.Confusion {
		if t == c {
			continue
		}
		for p, n := range row {
			neg += n
			if p != c {
				right += n
			}
		}
	}
	if neg == 0 {
		return math.NaN()
	}
	return float64(right) / float64(neg)
}

// ClassAUC is class c's one-vs-rest AUC (more than two classes): its mean and range
// over the repetitions, and the first repetition's with its DeLong interval.
func (e *Estimate) ClassAUC(c int) (mean, lo, hi float64, first AUC) {
	mean, lo, hi = MeanRange(e.PerClass[c])
	return mean, lo, hi, e.PerClass[c][0]
}

// BalancedAccuracy is the mean over the classes of the share of their samples
// predicted right.
func (e *Estimate) BalancedAccuracy() float64 {
	s := 0.0
	for c := range e.Confusion {
		s += recall(e.Confusion, c)
	}
	return s / float64(len(e.Confusion))
}

func recall(conf [][]int, c int) float64 {
	n := 0
	for _, v := range conf[c] {
		n += v
	}
	if n == 0 {
		return math.NaN()
	}
	return float64(conf[c][c]) / float64(n)
}

func sortedKeys(m map[int][]experiment.Prediction) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// ROCGrid is the number of steps of the false-positive-rate grid curves are averaged on.
const ROCGrid = 100

// VerticalAverage averages curves on ROCGrid+1 false-positive rates x = 0, 1/ROCGrid,
// ..., 1: at each x every curve's highest true-positive rate with FPR <= x, and their
// mean, least and greatest.
func VerticalAverage(curves [][]ROCPoint) (x, mean, lo, hi []float64) {
	for g := 0; g <= ROCGrid; g++ {
		fx := float64(g) / ROCGrid
		m, l, h := 0.0, math.Inf(1), math.Inf(-1)
		for _, c := range curves {
			t := 0.0
			for _, p := range c {
				if p.FPR <= fx+1e-12 {
					t = math.Max(t, p.TPR)
				}
			}
			m += t / float64(len(curves))
			l, h = math.Min(l, t), math.Max(h, t)
		}
		x, mean, lo, hi = append(x, fx), append(mean, m), append(lo, l), append(hi, h)
	}
	return x, mean, lo, hi
}

// CVSummary is what a model file keeps of its signature's cross-validated estimate, to
// be drawn beside a cohort's ROC curve: the repetitions' mean, least and greatest AUC,
// the first repetition's AUC with its DeLong interval (two classes), and the vertical
// average of the repetitions' curves as (FPR, TPR) points.
type CVSummary struct {
	Repetitions int          `json:"repetitions"`
	MeanAUC     float64      `json:"meanAUC"`
	MinAUC      float64      `json:"minAUC"`
	MaxAUC      float64      `json:"maxAUC"`
	First       *AUC         `json:"first,omitempty"`
	Curve       [][2]float64 `json:"curve"`
	// Advised says the advice chose method and k; Headline is the estimate every
	// output leads with (nil in a model file of an earlier version).
	Advised  bool      `json:"advised"`
	Headline *Headline `json:"headline,omitempty"`
}

// The estimates a Headline can be.
const (
	// HeadlineNested: the advice chose method and k, and the choice was made again
	// inside each training set (nested cross-validation).
	HeadlineNested = "nested"
	// HeadlineGiven: method and k were given by the user; the plain cross-validated
	// estimate is honest for them only if they were fixed before the study
	// (GivenWarning).
	HeadlineGiven = "given"
	// HeadlineOptimistic: the advice chose method and k on the resamples that
	// estimate them, and the nested estimate was not computed.
	HeadlineOptimistic = "optimistic"
)

// GivenWarning is what every output says of a method and k the user gave: chosen
// after seeing the study, their plain estimate flatters them.
const GivenWarning = "chosen after seeing this study's results? the plain estimate is then optimistic"

// Headline is a signature's one estimate of its cross-validated AUC (two classes; the
// mean one-vs-rest AUC with more), with its 95% interval, that every output leads
// with; Estimate says which (HeadlineNested, HeadlineGiven or HeadlineOptimistic). A
// model file keeps it only when all three numbers are finite (JSON has no NaN).
type Headline struct {
	AUC      float64 `json:"auc"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
	Estimate string  `json:"estimate"`
}

// Name is the headline estimate's short name: "nested cross-validated AUC",
// "cross-validated AUC" or "optimistic cross-validated AUC".
func (h Headline) Name() string {
	switch h.Estimate {
	case HeadlineNested:
		return "nested cross-validated AUC"
	case HeadlineOptimistic:
		return "optimistic cross-validated AUC"
	}
	return "cross-validated AUC"
}

// What says what the headline estimate is, in a phrase.
func (h Headline) What() string {
	switch h.Estimate {
	case HeadlineNested:
		return "the advice's choice of method and k made again inside each training set, so the choice never saw the samples it is judged on"
	case HeadlineOptimistic:
		return "method and k were chosen by the advice on the same resamples that give this estimate (the nested estimate was not computed), so it is optimistic"
	}
	return "method and k as given: the plain cross-validated estimate is honest only if they were fixed before this study; " + GivenWarning
}

// Text is the headline as a sentence's head: "nested cross-validated AUC 0.838 (95% CI
// 0.744-0.901)".
func (h Headline) Text() string {
	if math.IsNaN(h.Low) || math.IsNaN(h.High) {
		return fmt.Sprintf("%s %.3f", h.Name(), h.AUC)
	}
	return fmt.Sprintf("%s %.3f (95%% CI %.3f-%.3f)", h.Name(), h.AUC, h.Low, h.High)
}

// Summary is e's CVSummary.
func (e *Estimate) Summary() *CVSummary {
	s := &CVSummary{Repetitions: len(e.AUCs), MeanAUC: e.MeanAUC, MinAUC: e.MinAUC, MaxAUC: e.MaxAUC}
	if f := e.AUCs[0]; finite([]float64{f.AUC, f.Var, f.Low, f.High}) {
		s.First = &f
	}
	x, mean, _, _ := VerticalAverage(e.Curves)
	for i := range x {
		s.Curve = append(s.Curve, [2]float64{x[i], mean[i]})
	}
	return s
}

// check refuses a summary read back with numbers out of range (nil is none).
func (s *CVSummary) check() error {
	if s == nil {
		return nil
	}
	in01 := func(v ...float64) bool {
		for _, x := range v {
			if !(x >= 0 && x <= 1) {
				return false
			}
		}
		return true
	}
	if s.Repetitions < 1 || s.Repetitions > 10_000 || !in01(s.MeanAUC, s.MinAUC, s.MaxAUC) || len(s.Curve) > ROCGrid+1 {
		return fmt.Errorf("a cross-validated summary of %d repetitions, AUC %g, %d curve points", s.Repetitions, s.MeanAUC, len(s.Curve))
	}
	if f := s.First; f != nil && (!in01(f.AUC, f.Low, f.High) || !(f.Var >= 0)) {
		return fmt.Errorf("a first repetition's AUC %g (%g-%g)", f.AUC, f.Low, f.High)
	}
	if h := s.Headline; h != nil && (!in01(h.AUC, h.Low, h.High) || h.Estimate != HeadlineNested && h.Estimate != HeadlineGiven && h.Estimate != HeadlineOptimistic) {
		return fmt.Errorf("a headline AUC %g (%g-%g) of estimate %q", h.AUC, h.Low, h.High, h.Estimate)
	}
	for _, p := range s.Curve {
		if !in01(p[0], p[1]) {
			return fmt.Errorf("a cross-validated curve point (%g, %g)", p[0], p[1])
		}
	}
	return nil
}
