package study

import (
	"context"
	"fmt"
	"math"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
)

// PermuteSurvival runs the permutation test of the survival signature sig's
// cross-validated Harrell's C (of the study res on its data ds, preprocessed as the
// study did) with n permutations drawn from seed: each permutation gives every sample
// another's (time, event) pair, the two together, and the events, by which the folds
// stratify, follow them. The study is cut as Permute cuts it (permutedConfig): for a
// choice given, the signature's method with its Cox model at k alone; for the advice's,
// every method with what the advice reads (the accuracies, the corrected resampled
// t-tests and S_S), the advice choosing again in each permutation. The statistic is the
// mean of the resamples' held-out C at the choice (the study's curve there), the
// observed one from the same cut study on the true outcome; P = (1 + #{permuted >=
// observed}) / (N + 1). Progress counts the n + 1 studies; ctx cancels between and
// within them. The result depends on seed alone, not on the workers.
func PermuteSurvival(ctx context.Context, res *experiment.Result, ds *dataset.Dataset, sig *SurvivalSignature, n int, seed uint64, progress func(done, total int)) (*Permutations, error) {
	if ds.Survival == nil {
		return nil, fmt.Errorf("the permutation test of C needs a survival outcome")
	}
	if err := checkSameSamples(res, ds); err != nil {
		return nil, err
	}
	cfg := permutedConfig(res, sig.Choice, sig.Advised)
	out := &Permutations{Choice: sig.Advised, Measure: MeasureC}
	err := permutationTest(ctx, out, len(ds.Survival.Time), n, seed, progress, func(order []int) (float64, error) {
		return permutedC(ctx, cfg, permutedSurvival(ds, order), sig)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// permutedSurvival is ds with sample i given the outcome of sample order[i]: its time
// and event together, and its label (the event, which the folds stratify by).
func permutedSurvival(ds *dataset.Dataset, order []int) *dataset.Dataset {
	pd := *ds
	sv := *ds.Survival
	sv.Time, sv.Event = pickOf(ds.Survival.Time, order), pickOf(ds.Survival.Event, order)
	pd.Survival = &sv
	pd.Labels = make([]int, len(order))
	for i, e := range sv.Event {
		if e {
			pd.Labels[i] = 1
		}
	}
	return &pd
}

// permutedC runs the cut study cfg on pd and returns the cross-validated C of sig's
// choice, the advice choosing again when sig.Advised.
func permutedC(ctx context.Context, cfg experiment.Config, pd *dataset.Dataset, sig *SurvivalSignature) (float64, error) {
	pres, err := experiment.Run(ctx, cfg, pd, nil)
	if err != nil {
		return 0, err
	}
	m, k := 0, sig.Choice.K
	if sig.Advised {
		var ok bool
		if m, k, ok = signature.Advice(pres, "cox"); !ok {
			return 0, fmt.Errorf("the advice chose nothing")
		}
	}
	return curveC(pres.Methods[m], k)
}

// curveC is a survival study's method's curve at k: the mean of its resamples'
// held-out Harrell's C (those with a comparable pair).
func curveC(mr experiment.MethodResult, k int) (float64, error) {
	for _, p := range mr.Accuracy["cox"] {
		if p.K == k {
			if math.IsNaN(p.Mean) {
				return 0, fmt.Errorf("no resample had a comparable pair of held-out samples at k = %d", k)
			}
			return p.Mean, nil
		}
	}
	return 0, fmt.Errorf("the study measured no Cox model at k = %d", k)
}
