package study

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
)

// Permutations is a permutation test of a signature's cross-validated AUC: the class
// labels permuted N times, the study (selection and classifier refit in every training
// set, the same protocol) run again each time, and P = (1 + #{permuted AUC >=
// observed}) / (N + 1). For a signature the advice chose (Signature.Advised) every
// method of the run is run again and the advice chooses again in each permutation
// (Choice says so), so the test pays for the choice; else the chosen method alone.
type Permutations struct {
	Observed float64
	AUCs     []float64
	P        float64
	Choice   bool `json:"choiceRepeated"`
}

// MaxPermutations bounds N.
const MaxPermutations = 10_000

// PermutationCost estimates the time of n permutations in seconds from the run's own
// measure: each permuted study redoes the chosen method's rankings (the units' seconds
// outside the classifiers) and fits one classifier at one k where the run fitted every
// classifier at every accuracy k (the classifiers' seconds over that count); advised,
// every method's rankings and one classifier at every k (the advice reads them all),
// summed and
// shared among the run's workers (all cores when not set). A run saved before it kept
// the classifiers' seconds gives an upper bound: all its seconds.
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
	return per / workers(res.Config) * float64(n)
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
// ds) with n permutations drawn from seed; progress gets the permutations done.
func Permute(ctx context.Context, res *experiment.Result, ds *dataset.Dataset, sig *Signature, n int, seed uint64, progress func(done, total int)) (*Permutations, error) {
	return PermuteFrom(ctx, res, ds, sig, nil, n, seed, progress)
}

// PermuteFrom is Permute continuing first, a test of the same signature and seed with
// fewer permutations (a probe timed before asking for the rest): its permuted AUCs are
// kept and their label shuffles drawn again, so the result is Permute's.
func PermuteFrom(ctx context.Context, res *experiment.Result, ds *dataset.Dataset, sig *Signature, first *Permutations, n int, seed uint64, progress func(done, total int)) (*Permutations, error) {
	if n < 1 || n > MaxPermutations {
		return nil, fmt.Errorf("%d permutations: give 1 to %d", n, MaxPermutations)
	}
	out := &Permutations{Observed: sig.CV.MeanAUC, Choice: sig.Advised}
	if first != nil {
		if len(first.AUCs) > n || first.Observed != out.Observed || first.Choice != out.Choice {
			return nil, fmt.Errorf("the first permutations are of another test (%d of %d, AUC %v, not %v)", len(first.AUCs), n, first.Observed, out.Observed)
		}
		out.AUCs = slices.Clone(first.AUCs)
	}
	cfg := permutedConfig(res, sig.Choice, sig.Advised)
	r := rand.New(rand.NewPCG(seed, 0x7065726d))
	labels := slices.Clone(ds.Labels)
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		copy(labels, ds.Labels)
		r.Shuffle(len(labels), func(a, b int) { labels[a], labels[b] = labels[b], labels[a] })
		if i < len(out.AUCs) {
			continue
		}
		auc, err := permutedAUC(ctx, cfg, ds, labels, sig)
		if err != nil {
			return nil, fmt.Errorf("permutation %d: %w", i+1, err)
		}
		out.AUCs = append(out.AUCs, auc)
		if progress != nil {
			progress(i+1, n)
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
// cross-validated AUC of sig's choice, the advice choosing again when sig.Advised.
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
	return cv.MeanAUC, nil
}
