package study

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
)

// Permutations is a permutation test of a signature's cross-validated AUC: the class
// labels permuted N times, the chosen method's whole study (selection and classifier
// refit in every training set, the same protocol) run again each time, and
// P = (1 + #{permuted AUC >= observed}) / (N + 1).
type Permutations struct {
	Observed float64
	AUCs     []float64
	P        float64
}

// MaxPermutations bounds N.
const MaxPermutations = 10_000

// PermutationCost estimates the time of n permutations in seconds from the run's own
// measure: each permuted study redoes the chosen method's rankings (the units' seconds
// outside the classifiers) and fits one classifier at one k where the run fitted every
// classifier at every accuracy k (the classifiers' seconds over that count), summed and
// shared among the run's workers (all cores when not set). A run saved before it kept
// the classifiers' seconds gives an upper bound: all its seconds.
func PermutationCost(res *experiment.Result, c signature.Choice, n int) float64 {
	mr := res.Methods[c.Method]
	fits := float64(max(len(res.Config.Classifiers)*len(res.Config.AccuracyKs()), 1))
	per := mr.Seconds - mr.PredictSeconds + mr.PredictSeconds/fits
	workers := res.Config.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return per / float64(workers) * float64(n)
}

// permutedConfig is the run's configuration cut to what the test needs: the choice's
// method and classifier, accuracy at its k alone (the grid keeps its largest k, so every
// ranking keeps the head it had).
func permutedConfig(res *experiment.Result, c signature.Choice) experiment.Config {
	cfg := res.Config
	cfg.Methods = slices.Clone(cfg.Methods[c.Method : c.Method+1])
	cfg.Classifiers = []string{c.Classifier}
	cfg.Ks = []int{c.K, slices.Max(res.Config.Ks)}
	cfg.AccuracyMax = c.K
	cfg.PredictionsOnly = true
	return cfg
}

// Permute runs the permutation test of the signature sig (of the run res on its data
// ds) with n permutations drawn from seed; progress gets the permutations done.
func Permute(ctx context.Context, res *experiment.Result, ds *dataset.Dataset, sig *Signature, n int, seed uint64, progress func(done, total int)) (*Permutations, error) {
	if n < 1 || n > MaxPermutations {
		return nil, fmt.Errorf("%d permutations: give 1 to %d", n, MaxPermutations)
	}
	cfg := permutedConfig(res, sig.Choice)
	out := &Permutations{Observed: sig.CV.MeanAUC}
	r := rand.New(rand.NewPCG(seed, 0x7065726d))
	above := 0
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pd := *ds
		pd.Labels = slices.Clone(ds.Labels)
		r.Shuffle(len(pd.Labels), func(a, b int) { pd.Labels[a], pd.Labels[b] = pd.Labels[b], pd.Labels[a] })
		pres, err := experiment.Run(ctx, cfg, &pd, nil)
		if err != nil {
			return nil, err
		}
		cv, err := signature.CrossValidated(pres, 0, sig.Choice.Classifier, sig.Choice.K, max(sig.Positive, 0))
		if err != nil {
			return nil, err
		}
		out.AUCs = append(out.AUCs, cv.MeanAUC)
		if cv.MeanAUC >= out.Observed {
			above++
		}
		if progress != nil {
			progress(i+1, n)
		}
	}
	out.P = float64(1+above) / float64(n+1)
	return out, nil
}
