package study

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/survival"
	"steadfast/internal/text"
)

// SurvivalNested is the nested estimate of the procedure that chooses a survival
// signature's method and k by the advice (signature.Advice for the Cox model), as
// Nested is a class signature's: for each outer split (the study's own, of its first
// NestedRepeats repetitions) an inner study on the outer training samples alone (the
// same methods and ks, InnerFolds-fold CV) gives the advice's choice; the Cox model of
// that choice's genes, ranked and fitted on the outer training samples, scores the
// outer test samples (the study's own out-of-fold scores of that method at that k).
// The choice never sees the samples it is judged on.
type SurvivalNested struct {
	// C is the mean of the outer splits' held-out C with the interval of the plain
	// estimate (signature.CInterval: V the infinitesimal-jackknife variance of each
	// repetition's pooled held-out C of the choices).
	C signature.CIndex
	// OuterC[i] is outer split i's held-out Harrell's C of its choice (NaN when no pair
	// of its test samples is comparable), in the order of Choices.
	OuterC []float64
	// Pooled[r] is repetition Repeats[r]'s Harrell's C of its outer splits' held-out
	// scores pooled, each by its own choice.
	Pooled     []survival.Concordance
	Repeats    []int
	Choices    []NestedChoice // one an outer split
	InnerFolds int
}

// SurvivalNestedEstimate computes the SurvivalNested estimate of the survival study
// res on its data ds (preprocessed as the study did); progress gets the outer splits
// done, ctx cancels between and within the inner studies. It needs two or more methods
// or ks to choose among, and the study's out-of-fold predictions.
func SurvivalNestedEstimate(ctx context.Context, res *experiment.Result, ds *dataset.Dataset, progress func(done, total int)) (*SurvivalNested, error) {
	if ds.Survival == nil || res.Data.Survival == nil {
		return nil, fmt.Errorf("the nested estimate of C needs a survival study")
	}
	if err := checkSameSamples(res, ds); err != nil {
		return nil, err
	}
	outer, err := outerSplits(res)
	if err != nil {
		return nil, err
	}
	n := len(ds.Survival.Time)
	folds := InnerFolds
	for _, o := range outer {
		folds = min(folds, smallestClass(ds.Labels, 2, o.test))
	}
	if folds < 2 {
		return nil, fmt.Errorf("an outer training set has too few events or censored samples for an inner study (2 folds at least)")
	}
	if len(res.Methods) < 2 && len(experiment.ErrorKs(res, "cox")) < 2 {
		return nil, fmt.Errorf("the study has one method and one k: there is no choice to make again")
	}
	cfg := res.Config
	cfg.Protocol, cfg.Repeats, cfg.Folds, cfg.Mode, cfg.AdviceOnly = experiment.CV10x10, 1, folds, experiment.Pairwise, true
	cfg.Classifiers = []string{"cox"}
	accKs := res.Config.AccuracyKs()
	out := &SurvivalNested{InnerFolds: folds}
	scores, tested := map[int][]float64{}, map[int][]int{} // repetition -> pooled held-out scores, their samples
	var cs []float64
	testN := 0.0
	for i, o := range outer {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		icfg := cfg
		icfg.Seed = cfg.Seed ^ (0x6e657374 + uint64(i)*0x9e3779b97f4a7c15)
		ires, err := experiment.Run(ctx, icfg, subset(ds, complement(o.test, n)), nil)
		if err != nil {
			return nil, fmt.Errorf("the inner study of outer split %d: %w", i+1, err)
		}
		m, k, ok := signature.Advice(ires, "cox")
		if !ok {
			return nil, fmt.Errorf("the inner study of outer split %d gives no advice", i+1)
		}
		ki := slices.Index(accKs, k)
		if ki < 0 {
			return nil, fmt.Errorf("the inner study of outer split %d chose k = %d, which the study did not measure", i+1, k)
		}
		pr := o.pred[m]
		risk := pr.Scores["cox"][ki]
		c, err := survival.Harrell(experiment.OutcomeOf(ds, pr.Test), risk)
		if err != nil {
			return nil, err
		}
		out.OuterC = append(out.OuterC, c.C)
		if !math.IsNaN(c.C) {
			cs = append(cs, c.C)
			testN += float64(len(pr.Test))
		}
		scores[o.repeat] = append(scores[o.repeat], risk...)
		tested[o.repeat] = append(tested[o.repeat], pr.Test...)
		out.Choices = append(out.Choices, NestedChoice{Repeat: o.repeat, Fold: o.fold, Method: res.Methods[m].Label, K: k})
		if progress != nil {
			progress(i+1, len(outer))
		}
	}
	for r := range scores {
		out.Repeats = append(out.Repeats, r)
	}
	sort.Ints(out.Repeats)
	v, vr := 0.0, 0
	for _, r := range out.Repeats {
		pooled, err := survival.Harrell(experiment.OutcomeOf(ds, tested[r]), scores[r])
		if err != nil {
			return nil, err
		}
		out.Pooled = append(out.Pooled, pooled)
		if !math.IsNaN(pooled.SE) {
			v, vr = v+pooled.SE*pooled.SE, vr+1
		}
	}
	out.C = signature.CInterval(cs, len(out.Repeats), v/math.Max(float64(vr), 1), float64(n), testN/math.Max(float64(len(cs)), 1))
	return out, nil
}

// PooledRange is the mean, least and largest of the repetitions' pooled C.
func (n *SurvivalNested) PooledRange() (mean, lo, hi float64) {
	return concordanceMeanRange(n.Pooled)
}

// Summary says the nested estimate and the choices the inner studies made.
func (n *SurvivalNested) Summary() string {
	mean, lo, hi := n.PooledRange()
	return fmt.Sprintf("Nested estimate, the advice's choice made again inside each training set (%s of %d-fold inner CV on %s): Harrell's C %s (95%% CI %s-%s, an interval by the same method as the plain estimate's, not the same interval), the mean over %s of their held-out C; pooled C %s over %s (range %s-%s). The inner studies chose %s of the %d training sets.",
		text.Count(len(n.Choices), "inner study"), n.InnerFolds, text.Count(len(n.Choices), "outer training set"), f3(n.C.Mean), f3(n.C.Low), f3(n.C.High),
		text.Count(n.C.Resamples, "outer resample"), f3(mean), text.Count(len(n.Pooled), "repetition"), f3(lo), f3(hi), choiceCounts(n.Choices), len(n.Choices))
}

// ChoiceCounts says how often the inner studies chose each method and k, the most
// often first: "Cox score test at k = 10 in 18, Cox score test at k = 20 in 12".
func (n *SurvivalNested) ChoiceCounts() string { return choiceCounts(n.Choices) }

// Nest sets s.Nested, the nested estimate of the advice's procedure (see
// SurvivalNestedEstimate; its cost NestedCost), from the study res it was built from
// and its data ds, and makes it the headline C. Asked of a method and k the user gave,
// it takes them as chosen after seeing the study's results (Advised): their plain C is
// then optimistic.
func (s *SurvivalSignature) Nest(ctx context.Context, res *experiment.Result, ds *dataset.Dataset, progress func(done, total int)) error {
	n, err := SurvivalNestedEstimate(ctx, res, ds, progress)
	if err != nil {
		return err
	}
	s.SetNested(n)
	return nil
}

// SetNested makes n, the nested C of s's choice (SurvivalNestedEstimate), s's
// headline, as Nest does; a window computes n in the background and sets it on the
// goroutine that shows s.
func (s *SurvivalSignature) SetNested(n *SurvivalNested) {
	s.Nested, s.Advised = n, true
	s.stampHeadline()
}

// SurvivalHeadline is the C every output of a survival signature leads with, and
// which estimate it is (signature.HeadlineNested, HeadlineGiven or
// HeadlineOptimistic, as a class signature's Headline).
type SurvivalHeadline struct {
	C        signature.CIndex
	Estimate string
}

// Headline is the nested C when the advice chose method and k and it was computed,
// else the plain cross-validated C (optimistic when the advice chose, honest when the
// user fixed method and k).
func (s *SurvivalSignature) Headline() SurvivalHeadline {
	switch {
	case s.Advised && s.Nested != nil:
		return SurvivalHeadline{C: s.Nested.C, Estimate: signature.HeadlineNested}
	case s.Advised:
		return SurvivalHeadline{C: s.CV.C, Estimate: signature.HeadlineOptimistic}
	}
	return SurvivalHeadline{C: s.CV.C, Estimate: signature.HeadlineGiven}
}

// Name is the headline's short name: "nested cross-validated Harrell's C",
// "cross-validated Harrell's C" or "optimistic cross-validated Harrell's C".
func (h SurvivalHeadline) Name() string {
	switch h.Estimate {
	case signature.HeadlineNested:
		return "nested cross-validated Harrell's C"
	case signature.HeadlineOptimistic:
		return "optimistic cross-validated Harrell's C"
	}
	return "cross-validated Harrell's C"
}

// What says what the headline estimate is, in a phrase.
func (h SurvivalHeadline) What() string { return signature.Headline{Estimate: h.Estimate}.What() }

// Text is the headline as a sentence's head: "nested cross-validated Harrell's C 0.612
// (95% CI 0.551-0.673)".
func (h SurvivalHeadline) Text() string {
	if math.IsNaN(h.C.Low) || math.IsNaN(h.C.High) {
		return fmt.Sprintf("%s %.3f", h.Name(), h.C.Mean)
	}
	return fmt.Sprintf("%s %.3f (95%% CI %.3f-%.3f)", h.Name(), h.C.Mean, h.C.Low, h.C.High)
}
