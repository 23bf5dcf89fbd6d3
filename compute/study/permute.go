package study

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/internal/text"
)

// Permutations is a permutation test of a signature's cross-validated statistic: the
// AUC of a class signature, Harrell's C of a survival signature (Measure). The outcome
// is permuted over the samples N times (the class labels; a survival outcome's (time,
// event) pairs), the study (selection and model refit in every training set, the same
// protocol) run again each time, and P = (1 + #{permuted >= observed}) / (N + 1), at
// least 1/(N + 1). For a signature the advice chose (Advised) every method of the run
// is run again and the advice chooses again in each permutation (Choice says so), so
// the test pays for the choice; else the chosen method alone. The statistic is the
// plain estimate of the procedure (the mean of the resamples' held-out AUCs, or C, of
// its choice; StatisticText), and the observed one is computed by the same cut study
// on the true outcome, so observed and permuted come from one procedure and are
// exchangeable when the outcome carries no signal.
type Permutations struct {
	Observed float64
	// AUCs are the permuted studies' statistics, AUCs or Harrell's C as Measure says (the
	// name is the one saved runs keep).
	AUCs   []float64
	P      float64
	Choice bool `json:"choiceRepeated"`
	// Measure is the statistic's measure: "" the AUC, MeasureC Harrell's C.
	Measure string `json:"measure,omitempty"`
}

// MeasureC is the Measure of a survival signature's test: Harrell's C.
const MeasureC = "Harrell's C"

// MeasureName is the statistic's measure: "AUC" or "Harrell's C".
func (p *Permutations) MeasureName() string {
	if p.Measure == "" {
		return "AUC"
	}
	return p.Measure
}

// Column names the statistic in a table's header: "auc" or "c_index".
func (p *Permutations) Column() string {
	if p.Measure == MeasureC {
		return "c_index"
	}
	return "auc"
}

// StatisticText says which number the test compares, for the outputs.
func (p *Permutations) StatisticText() string {
	if p.Measure == MeasureC {
		if p.Choice {
			return "the plain cross-validated Harrell's C of the advice's choice (the mean of the resamples' held-out C of the Cox model, the choice made on them), the advice choosing again on each permutation of the (time, event) pairs"
		}
		return "the cross-validated Harrell's C of the signature's method and k (the mean of the resamples' held-out C of the Cox model), the (time, event) pairs permuted together"
	}
	if p.Choice {
		return "the plain cross-validated AUC of the advice's choice (the mean of the resamples' held-out AUCs, the choice made on them), the advice choosing again on each permutation"
	}
	return "the cross-validated AUC of the signature's method and k (the mean of the resamples' held-out AUCs)"
}

// Smallest is the smallest p the test can give, 1/(N + 1).
func (p *Permutations) Smallest() float64 { return 1 / float64(len(p.AUCs)+1) }

// Says is the test's result in a sentence's tail: "p = 0.0099 (the smallest
// attainable with 100 permutations: 0.0099; the statistic ...)".
func (p *Permutations) Says() string {
	return fmt.Sprintf("p = %.3g (the smallest attainable with %s: %.3g; the statistic, %s, observed %.3f)",
		p.P, text.Count(len(p.AUCs), "permutation"), p.Smallest(), p.StatisticText(), p.Observed)
}

// MaxPermutations bounds N.
const MaxPermutations = 10_000

// PermutationCost estimates the time of n permutations in seconds from the run's own
// measure: each permuted study, and the study of the observed labels cut the same way,
// redoes the chosen method's rankings (the units' seconds outside the classifiers) and
// fits one classifier at one k where the run fitted every classifier at every accuracy
// k (the classifiers' seconds over that count); advised, every method's rankings and
// one classifier at every k (the advice reads them all), summed and shared among the
// run's workers (all cores when not set). A run saved before it kept the classifiers'
// seconds gives an upper bound: all its seconds.
func PermutationCost(res *experiment.Result, c signature.Choice, advised bool, n int) float64 {
	fits := float64(max(len(res.Config.Classifiers)*len(res.Config.AccuracyKs()), 1))
	per := 0.0
	for m, mr := range res.Methods {
		switch {
		case advised: // every method, the chosen one too, one classifier's fits at every k
			per += mr.Seconds - mr.PredictSeconds + mr.PredictSeconds/float64(len(res.Config.Classifiers))
		case m == c.Method:
			per += mr.Seconds - mr.PredictSeconds + mr.PredictSeconds/fits
		}
	}
	return per / workers(res.Config) * float64(n+1)
}

// permutedConfig is the run's configuration cut to what the test needs: the choice's
// method and classifier, accuracy at its k alone (the grid keeps its largest k, so every
// ranking keeps the head it had); when advised, every method with what the advice
// reads (AdviceOnly) for the choice's classifier.
func permutedConfig(res *experiment.Result, c signature.Choice, advised bool) experiment.Config {
	cfg := res.Config
	cfg.Classifiers = []string{c.Classifier}
	if advised {
		cfg.AdviceOnly = true
		return cfg
	}
	cfg.Methods = slices.Clone(cfg.Methods[c.Method : c.Method+1])
	cfg.Ks = []int{c.K, slices.Max(res.Config.Ks)}
	cfg.AccuracyMax = c.K
	cfg.PredictionsOnly = true
	return cfg
}

// Permute runs the permutation test of the signature sig (of the run res on its data
// ds) with n permutations drawn from seed: first the cut study on the true labels (the
// observed statistic), then each permutation's; progress counts them, n + 1 in all.
func Permute(ctx context.Context, res *experiment.Result, ds *dataset.Dataset, sig *Signature, n int, seed uint64, progress func(done, total int)) (*Permutations, error) {
	cfg := permutedConfig(res, sig.Choice, sig.Advised)
	labels := make([]int, len(ds.Labels))
	out := &Permutations{Choice: sig.Advised}
	err := permutationTest(ctx, out, len(ds.Labels), n, seed, progress, func(order []int) (float64, error) {
		for i, j := range order {
			labels[i] = ds.Labels[j]
		}
		return permutedAUC(ctx, cfg, ds, labels, sig)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// permutationTest fills out: the statistic of the identity order first (observed),
// then of n orders of the samples drawn from seed (each sample i taking the outcome of
// order[i]), and P; progress counts the n + 1 statistics.
func permutationTest(ctx context.Context, out *Permutations, samples, n int, seed uint64, progress func(done, total int), statistic func(order []int) (float64, error)) error {
	if n < 1 || n > MaxPermutations {
		return fmt.Errorf("%d permutations: give 1 to %d", n, MaxPermutations)
	}
	identity := make([]int, samples)
	for i := range identity {
		identity[i] = i
	}
	obs, err := statistic(identity)
	if err != nil {
		return fmt.Errorf("the study of the observed outcome: %w", err)
	}
	out.Observed = obs
	if progress != nil {
		progress(1, n+1)
	}
	r := rand.New(rand.NewPCG(seed, 0x7065726d))
	order := slices.Clone(identity)
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		copy(order, identity)
		r.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		v, err := statistic(order)
		if err != nil {
			return fmt.Errorf("permutation %d: %w", i+1, err)
		}
		out.AUCs = append(out.AUCs, v)
		if progress != nil {
			progress(i+2, n+1)
		}
	}
	above := 0
	for _, a := range out.AUCs {
		if a >= out.Observed {
			above++
		}
	}
	out.P = float64(1+above) / float64(n+1)
	return nil
}

// permutedAUC runs the study cfg on ds with labels in place of its own and returns the
// cross-validated AUC of sig's choice (the mean of the resamples' held-out AUCs), the
// advice choosing again when sig.Advised.
func permutedAUC(ctx context.Context, cfg experiment.Config, ds *dataset.Dataset, labels []int, sig *Signature) (float64, error) {
	pd := *ds
	pd.Labels = slices.Clone(labels)
	pres, err := experiment.Run(ctx, cfg, &pd, nil)
	if err != nil {
		return 0, err
	}
	m, k := 0, sig.Choice.K
	if sig.Advised {
		var ok bool
		if m, k, ok = signature.Advice(pres, sig.Choice.Classifier); !ok {
			return 0, fmt.Errorf("the advice chose nothing")
		}
	}
	cv, err := signature.CrossValidated(pres, m, sig.Choice.Classifier, k, max(sig.Positive, 0))
	if err != nil {
		return 0, err
	}
	return cv.Interval.Mean, nil
}
