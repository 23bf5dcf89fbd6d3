package study

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sort"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/internal/text"
)

// NestedRepeats is how many of the study's repetitions the nested estimate uses as its
// outer splits (each of their folds gets an inner study); InnerFolds the folds of the
// inner study (one repetition, fewer when a class is too small).
const (
	NestedRepeats = 5
	InnerFolds    = 5
)

// Nested is the cross-validated estimate of the procedure that chooses its method and
// k by the advice (signature.Advice) for one classifier: for each outer split (the
// study's own, of its first NestedRepeats repetitions), an inner study on the outer
// training samples alone (the same methods, ks and classifiers, InnerFolds-fold CV)
// gives the advice's choice, whose held-out scores on the outer test samples are taken
// from the study; each repetition's outer scores are pooled into one AUC, as
// signature.CrossValidated does. The choice never sees the samples it is judged on, so
// on data without signal the estimate is 0.5 (the plain estimate of a choice made on
// the same resamples is not).
type Nested struct {
	Classifier string
	Positive   int // the positive class of two, or -1 (mean one-vs-rest AUC)
	// AUCs[r] is repetition Repeats[r]'s AUC (two classes: with DeLong's interval).
	AUCs                    []signature.AUC
	Repeats                 []int
	MeanAUC, MinAUC, MaxAUC float64
	Choices                 []NestedChoice // one an outer split
	InnerFolds              int
	// Interval is signature.CVInterval over the outer splits' own AUCs.
	Interval signature.Interval
}

// NestedChoice is the advice's choice inside one outer training set: the outer
// split's repetition and its place among the repetition's splits (Fold, from 1; 0 in
// a run saved before it was kept), the method and k chosen.
type NestedChoice struct {
	Repeat int
	Fold   int `json:",omitempty"`
	Method string
	K      int
}

// outerSplit is one of the study's resamples that tested samples: its repetition, test
// samples and the matching prediction of each method.
type outerSplit struct {
	repeat int
	fold   int // from 1, within the repetition
	test   []int
	pred   []experiment.Prediction // pred[m]: method m's
}

// NestedEstimate computes the Nested estimate of the run res on its data ds
// (preprocessed as the run did) for classifier cl with positive the positive class of
// two (-1 otherwise); progress gets the outer splits done. It needs two or more
// methods or ks to choose among, and the run's out-of-fold predictions.
func NestedEstimate(ctx context.Context, res *experiment.Result, ds *dataset.Dataset, cl string, positive int, progress func(done, total int)) (*Nested, error) {
	outer, err := outerSplits(res)
	if err != nil {
		return nil, err
	}
	folds := InnerFolds
	for _, o := range outer {
		folds = min(folds, smallestClass(ds.Labels, len(ds.Classes), o.test))
	}
	if folds < 2 {
		return nil, fmt.Errorf("a class has too few samples in an outer training set for an inner study (2 folds at least)")
	}
	cfg := res.Config
	cfg.Protocol, cfg.Repeats, cfg.Folds, cfg.Mode, cfg.AdviceOnly = experiment.CV10x10, 1, folds, experiment.Pairwise, true
	cfg.Classifiers = []string{cl}
	accKs := res.Config.AccuracyKs()
	if len(res.Methods) < 2 && len(experiment.ErrorKs(res, cl)) < 2 {
		return nil, fmt.Errorf("the run has one method and one k: there is no choice to make again")
	}
	n := &Nested{Classifier: cl, Positive: positive, InnerFolds: folds}
	scores := map[int][][]float64{} // repetition -> pooled rows
	truth := map[int][]int{}
	var chosen []experiment.Prediction // each outer split's scores of its choice
	nc := len(ds.Classes)
	for i, o := range outer {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		inner := subset(ds, complement(o.test, len(ds.Labels)))
		icfg := cfg
		icfg.Seed = cfg.Seed ^ (0x6e657374 + uint64(i)*0x9e3779b97f4a7c15)
		ires, err := experiment.Run(ctx, icfg, inner, nil)
		if err != nil {
			return nil, fmt.Errorf("the inner study of outer split %d: %v", i+1, err)
		}
		m, k, ok := signature.Advice(ires, cl)
		if !ok {
			return nil, fmt.Errorf("the inner study of outer split %d gives no advice for %s", i+1, cl)
		}
		ki := slices.Index(accKs, k)
		if ki < 0 {
			return nil, fmt.Errorf("the inner study of outer split %d chose k = %d, which the run did not measure", i+1, k)
		}
		pr := o.pred[m]
		flat := pr.Scores[cl][ki]
		chosen = append(chosen, experiment.Prediction{Repeat: o.repeat, Test: pr.Test, Scores: map[string][][]float64{cl: {flat}}})
		for j, s := range pr.Test {
			scores[o.repeat] = append(scores[o.repeat], flat[j*nc:(j+1)*nc])
			truth[o.repeat] = append(truth[o.repeat], ds.Labels[s])
		}
		n.Choices = append(n.Choices, NestedChoice{Repeat: o.repeat, Fold: o.fold, Method: res.Methods[m].Label, K: k})
		if progress != nil {
			progress(i+1, len(outer))
		}
	}
	n.Interval = signature.CVInterval(chosen, cl, 0, nc, ds.Labels, positive)
	for r := range scores {
		n.Repeats = append(n.Repeats, r)
	}
	sort.Ints(n.Repeats)
	for _, r := range n.Repeats {
		n.AUCs = append(n.AUCs, signature.PooledAUC(scores[r], truth[r], nc, positive))
	}
	n.MeanAUC, n.MinAUC, n.MaxAUC = signature.MeanRange(n.AUCs)
	return n, nil
}

// outerSplits are the study's resamples of its first NestedRepeats repetitions that
// tested samples, each with every method's prediction for it.
func outerSplits(res *experiment.Result) ([]outerSplit, error) {
	if len(res.Methods) == 0 || len(res.Methods[0].Predictions) == 0 {
		return nil, fmt.Errorf("this run holds no out-of-fold predictions (saved before Steadfast kept them): run it again")
	}
	var out []outerSplit
	folds := map[int]int{}
	for _, pr := range res.Methods[0].Predictions {
		if pr.Repeat >= NestedRepeats {
			continue
		}
		folds[pr.Repeat]++
		o := outerSplit{repeat: pr.Repeat, fold: folds[pr.Repeat], test: pr.Test}
		for m := range res.Methods {
			i := slices.IndexFunc(res.Methods[m].Predictions, func(q experiment.Prediction) bool {
				return q.Repeat == pr.Repeat && slices.Equal(q.Test, pr.Test)
			})
			if i < 0 {
				return nil, fmt.Errorf("the run's methods were not tested on the same resamples")
			}
			o.pred = append(o.pred, res.Methods[m].Predictions[i])
		}
		out = append(out, o)
	}
	return out, nil
}

// complement is 0..n-1 without the indices in out.
func complement(out []int, n int) []int {
	skip := make([]bool, n)
	for _, i := range out {
		skip[i] = true
	}
	var in []int
	for i := 0; i < n; i++ {
		if !skip[i] {
			in = append(in, i)
		}
	}
	return in
}

// subset is the samples rows of ds.
func subset(ds *dataset.Dataset, rows []int) *dataset.Dataset {
	s := &dataset.Dataset{Name: ds.Name, Features: ds.Features, Symbols: ds.Symbols, Classes: ds.Classes, MaxQuant: ds.MaxQuant, MassSpec: ds.MassSpec}
	s.X, s.Labels = dataset.SelectSamples(ds.X, ds.Labels, rows)
	if ds.Groups != nil {
		s.Groups = dataset.Pick(ds.Groups, rows)
	}
	if ds.Samples != nil {
		s.Samples = dataset.Pick(ds.Samples, rows)
	}
	s.Covariates = dataset.PickCovariates(ds.Covariates, rows)
	if ds.Counts != nil {
		s.Counts, _ = dataset.SelectSamples(ds.Counts, ds.Labels, rows)
	}
	if ds.Raw != nil {
		s.Raw, _ = dataset.SelectSamples(ds.Raw, ds.Labels, rows)
	}
	if sv := ds.Survival; sv != nil {
		s.Survival = &dataset.Survival{Time: pickOf(sv.Time, rows), Event: pickOf(sv.Event, rows), TimeName: sv.TimeName, EventName: sv.EventName}
	}
	return s
}

// pickOf is v's values at idx.
func pickOf[T any](v []T, idx []int) []T {
	out := make([]T, len(idx))
	for i, j := range idx {
		out[i] = v[j]
	}
	return out
}

// smallestClass is the size of the smallest class among the samples not in test.
func smallestClass(labels []int, classes int, test []int) int {
	count := make([]int, classes)
	in := make([]bool, len(labels))
	for _, i := range test {
		in[i] = true
	}
	for i, l := range labels {
		if !in[i] {
			count[l]++
		}
	}
	return slices.Min(count)
}

// Summary says the nested estimate and the choices made, for the outputs.
func (n *Nested) Summary() string {
	what := "AUC"
	if n.Positive < 0 {
		what = "mean one-vs-rest AUC"
	}
	return fmt.Sprintf("Nested estimate, the advice's choice made again inside each training set (%s of %d-fold inner CV on %s): %s %s (95%% CI %s-%s, an interval by the same method as the plain estimate's below, not the same interval), pooled %s over %s (range %s-%s). The inner studies chose %s of the %d training sets.",
		text.Count(len(n.Choices), "inner study"), n.InnerFolds, text.Count(len(n.Choices), "outer training set"), what, f3(n.Interval.Mean), f3(n.Interval.Low), f3(n.Interval.High),
		f3(n.MeanAUC), text.Count(len(n.AUCs), "repetition"), f3(n.MinAUC), f3(n.MaxAUC), choiceCounts(n.Choices), len(n.Choices))
}

// Nest sets s.Nested, the nested estimate of the advice's procedure with s's
// classifier (see NestedEstimate), from the run res it was built from and its data ds,
// and makes it the headline. Asked of a method and k the user gave, it takes them as
// chosen after seeing the study's results (Advised): their plain estimate is then
// optimistic, and the permutation test repeats the choice too.
func (s *Signature) Nest(ctx context.Context, res *experiment.Result, ds *dataset.Dataset, progress func(done, total int)) error {
	n, err := NestedEstimate(ctx, res, ds, s.Choice.Classifier, s.Positive, progress)
	if err != nil {
		return err
	}
	s.SetNested(n)
	return nil
}

// SetNested makes n, a nested estimate of s's choice (NestedEstimate with s's
// classifier), s's headline, as Nest does; a window computes n in the background and
// sets it on the goroutine that shows s.
func (s *Signature) SetNested(n *Nested) {
	s.Nested, s.Advised = n, true
	s.keepHeadline()
}

// NestedCost estimates the seconds of the nested estimate from the run's own measure:
// each of its outer splits runs every method's rankings on InnerFolds resamples,
// against the run's units (a survival study's, its Cox models too: the nested estimate
// of a survival signature, SurvivalSignature.Nest).
func NestedCost(res *experiment.Result) float64 {
	secs, units := 0.0, 0
	for _, m := range res.Methods {
		secs += m.Seconds - m.PredictSeconds
		if res.Data.Survival != nil { // the Cox model, the run's one model, fitted at every k as the run did
			secs += m.PredictSeconds
		}
		units = max(units, len(m.Runs)+1)
	}
	outer, _ := outerSplits(res)
	return secs / float64(max(units, 1)) * float64(len(outer)*InnerFolds) / workers(res.Config)
}

// workers is how many units of cfg run side by side: its Workers, every core when 0
// (as experiment's Check sets it).
func workers(cfg experiment.Config) float64 {
	if cfg.Workers > 0 {
		return float64(cfg.Workers)
	}
	return float64(runtime.NumCPU())
}
