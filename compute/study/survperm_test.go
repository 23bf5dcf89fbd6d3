package study

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
)

// dlbclGenes is DLBCL CHOP (../shared/data; the test fails without it) with its first
// genes genes (all when 0), its (time, event) pairs shuffled together among the
// patients by seed when shuffle is set: a survival outcome independent of the genes.
func dlbclGenes(t *testing.T, genes int, shuffle bool, seed uint64) *dataset.Dataset {
	t.Helper()
	ds, err := dataset.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "dlbcl_chop_survival.csv"), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	if genes > 0 {
		keep := make([]int, genes)
		for j := range keep {
			keep[j] = j
		}
		ds.X = dataset.SelectFeatures(ds.X, keep)
		ds.Features = ds.Features[:genes]
		if ds.Symbols != nil {
			ds.Symbols = ds.Symbols[:genes]
		}
	}
	if shuffle {
		order := make([]int, len(ds.Samples))
		for i := range order {
			order[i] = i
		}
		rand.New(rand.NewPCG(seed, 11)).Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		ds = permutedSurvival(ds, order)
	}
	return ds
}

// survivalStudy runs the Cox score test with the Cox model at ks under repeats x folds
// CV (stratified by the event) on ds, with workers workers (0: all cores).
func survivalStudy(t *testing.T, ds *dataset.Dataset, repeats, folds int, ks []int, workers int) *experiment.Result {
	t.Helper()
	cfg := experiment.DefaultSurvivalConfig()
	cfg.Repeats, cfg.Folds, cfg.Ks, cfg.Workers = repeats, folds, ks, workers
	res, err := experiment.Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The p of the permutation test, by hand: an observed statistic of 0.6 against the
// permuted 0.5, 0.6, 0.7 and 0.55 has two permuted values at or above it, so p =
// (1 + 2) / (4 + 1) = 0.6; the first statistic is of the samples in their own order,
// the others of permutations of them, drawn from the seed alone.
func TestPermutationPByHand(t *testing.T) {
	values := []float64{0.6, 0.5, 0.6, 0.7, 0.55}
	var orders [][]int
	out := &Permutations{Measure: MeasureC}
	err := permutationTest(context.Background(), out, 6, 4, 3, nil, func(order []int) (float64, error) {
		orders = append(orders, slices.Clone(order))
		return values[len(orders)-1], nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.Observed != 0.6 || !slices.Equal(out.AUCs, values[1:]) || out.P != 0.6 || out.Smallest() != 0.2 {
		t.Errorf("observed %g, permuted %v, p %g (by hand 0.6), smallest %g (1/5)", out.Observed, out.AUCs, out.P, out.Smallest())
	}
	if !slices.Equal(orders[0], []int{0, 1, 2, 3, 4, 5}) {
		t.Errorf("the observed statistic's order is %v, not the samples' own", orders[0])
	}
	for _, o := range orders[1:] {
		s := slices.Clone(o)
		slices.Sort(s)
		if !slices.Equal(s, orders[0]) {
			t.Errorf("%v is not a permutation of the samples", o)
		}
	}
	if out.Column() != "c_index" || !strings.Contains(out.StatisticText(), "(time, event) pairs permuted together") {
		t.Errorf("column %q, statistic %q", out.Column(), out.StatisticText())
	}
}

// A permuted survival outcome keeps each patient's time with its own event (the pairs
// move together) and the events as the labels the folds stratify by.
func TestPermutedSurvivalKeepsPairs(t *testing.T) {
	ds := dlbclGenes(t, 10, false, 0)
	order := make([]int, len(ds.Samples))
	for i := range order {
		order[i] = (i + 7) % len(order)
	}
	pd := permutedSurvival(ds, order)
	for i, j := range order {
		if pd.Survival.Time[i] != ds.Survival.Time[j] || pd.Survival.Event[i] != ds.Survival.Event[j] || (pd.Labels[i] == 1) != pd.Survival.Event[i] {
			t.Fatalf("sample %d: (%g, %v, label %d), patient %d's (%g, %v)", i, pd.Survival.Time[i], pd.Survival.Event[i], pd.Labels[i], j, ds.Survival.Time[j], ds.Survival.Event[j])
		}
	}
	if ds.Survival.Time[0] == pd.Survival.Time[0] && ds.Survival.Time[1] == pd.Survival.Time[1] {
		t.Error("the data's own outcome changed with the permuted copy")
	}
}

// The permutation test of C finds DLBCL's real signal (the Cox score test's 30
// genes under 2 x 5-fold CV; Lenz et al. 2008 report prognostic signatures in these
// patients): its cross-validated C, 0.568 here, lies about 1.9 SDs of the permuted
// studies' C above their mean (0.50, SD 0.036), so p, with 39 permutations, is at most
// 0.1 (0.075). On outcomes shuffled among the patients (no signal by construction) p
// is not systematically small: under the null each of 6 such sets has p <= 0.1 with
// probability 0.1 (9 permutations), so 3 or more of 6 would happen with probability
// 0.016 (binomial); the test asks for 2 at most.
func TestSurvivalPermutationSignalAndNoise(t *testing.T) {
	ctx := context.Background()
	ds := dlbclGenes(t, 0, false, 0)
	res := survivalStudy(t, ds, 2, 5, []int{30}, 0)
	sig, err := BuildSurvivalSignature(ctx, res, ds, signature.Choice{Method: 0, K: 30}, SurvivalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	perm, err := PermuteSurvival(ctx, res, ds, sig, 39, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if perm.P > 0.1 || math.Abs(perm.Observed-sig.CV.C.Mean) > 1e-12 {
		t.Errorf("DLBCL: p = %g (at most 0.1 expected), observed %g (the signature's cross-validated C %g), permuted %v", perm.P, perm.Observed, sig.CV.C.Mean, perm.AUCs)
	}
	small := 0
	var ps []float64
	for set := range 6 {
		nd := dlbclGenes(t, 1000, true, uint64(100+set))
		nres := survivalStudy(t, nd, 1, 5, []int{10}, 0)
		nsig, err := BuildSurvivalSignature(ctx, nres, nd, signature.Choice{Method: 0, K: 10}, SurvivalOptions{})
		if err != nil {
			t.Fatal(err)
		}
		np, err := PermuteSurvival(ctx, nres, nd, nsig, 9, uint64(200+set), nil)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, np.P)
		if np.P <= 0.1 {
			small++
		}
	}
	if small > 2 {
		t.Errorf("on shuffled outcomes %d of 6 permutation tests gave p <= 0.1: %v", small, ps)
	}
	t.Logf("DLBCL: observed C %.3f, p %.3g; shuffled outcomes' p: %v", perm.Observed, perm.P, ps)
}

// The permutation test and the nested C do not depend on the workers: one worker and
// two give the same permuted statistics and the same nested C, choice by choice.
func TestSurvivalPermutationAndNestedWorkers(t *testing.T) {
	ctx := context.Background()
	ds := dlbclGenes(t, 500, false, 0)
	var perms [][]float64
	var nested []*SurvivalNested
	for _, w := range []int{1, 2} {
		res := survivalStudy(t, ds, 1, 4, []int{10, 20}, w)
		m, k, ok := signature.Advice(res, "cox")
		if !ok {
			t.Fatal("no advice")
		}
		sig, err := BuildSurvivalSignature(ctx, res, ds, signature.Choice{Method: m, K: k}, SurvivalOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !sig.Advised {
			t.Fatal("the advice's choice is not marked advised")
		}
		p, err := PermuteSurvival(ctx, res, ds, sig, 3, 9, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Choice {
			t.Error("the advice's choice was not made again in the permutations")
		}
		perms = append(perms, append([]float64{p.Observed}, p.AUCs...))
		if err := sig.Nest(ctx, res, ds, nil); err != nil {
			t.Fatal(err)
		}
		nested = append(nested, sig.Nested)
	}
	if !slices.Equal(perms[0], perms[1]) {
		t.Errorf("permutation statistics with 1 worker %v, with 2 %v", perms[0], perms[1])
	}
	a, b := nested[0], nested[1]
	if a.C != b.C || !slices.Equal(a.OuterC, b.OuterC) || !slices.Equal(a.Choices, b.Choices) {
		t.Errorf("nested C with 1 worker %+v, with 2 %+v", a.C, b.C)
	}
}
