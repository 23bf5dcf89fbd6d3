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

// Permutations is a permutation test of a signature's cross-validated AUC: the class
// labels permuted N times, the study (selection and classifier refit in every training
// set, the same protocol) run again each time, and P = (1 + #{permuted AUC >=
// observed}) / (N + 1), at least 1/(N + 1). For a signature the advice chose
// (Signature.Advised) every method of the run is run again and the advice chooses again
// in each permutation (Choice says so), so the test pays for the choice; else the
// chosen method alone. The statistic is the plain estimate of the procedure (the mean
// of the resamples' held-out AUCs of its choice; StatisticText), and the observed one
// is computed by the same cut study on the true labels, so observed and permuted come
// from one procedure and are exchangeable when the labels carry no signal.
type Permutations struct {
	Observed float64
	AUCs     []float64
	P        float64
	Choice   bool `json:"choiceRepeated"`
}

// StatisticText says which number the test compares, for the outputs.
func (p *Permutations) StatisticText() string {
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
	if n < 1 || n > MaxPermutations {
		return nil, fmt.Errorf("%d permutations: give 1 to %d", n, MaxPermutations)
	}
	out := &Permutations{Choice: sig.Advised}
	cfg := permutedConfig(res, sig.Choice, sig.Advised)
	obs, err := permutedAUC(ctx, cfg, ds, ds.Labels, sig)
	if err != nil {
		return nil, fmt.Errorf("the study of the observed labels: %w", err)
	}
	out.Observed = obs
	if progress != nil {
		progress(1, n+1)
	}
	r := rand.New(rand.NewPCG(seed, 0x7065726d))
	labels := slices.Clone(ds.Labels)
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		copy(labels, ds.Labels)
		r.Shuffle(len(labels), func(a, b int) { labels[a], labels[b] = labels[b], labels[a] })
		auc, err := permutedAUC(ctx, cfg, ds, labels, sig)
		if err != nil {
			return nil, fmt.Errorf("permutation %d: %w", i+1, err)
		}
		out.AUCs = append(out.AUCs, auc)
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
	return out, nil
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
