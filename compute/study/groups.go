package study

import (
	"context"
	"fmt"
	"sort"
	"time"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/group"
	"steadfast/compute/memlimit"
	"steadfast/compute/score"
	"steadfast/compute/synth"
)

// GroupsParams are the settings of a group method run once on all samples: DGF's
// densest groups ("dgf"), DRAGS (with elimination, as its paper ran it), CGS or k-means.
type GroupsParams struct {
	Method     string // dgf, drags, cgs or kmeans
	K          int    // DGF's neighbours for the bandwidth
	Gaussian   bool   // DGF with Gaussian weights instead of the flat kernel
	Paper      bool   // the DRAGS paper's bandwidth: a feature its own first neighbour
	Bootstraps int    // CGS's bootstraps
	Clusters   int    // k-means's clusters
	Seed       uint64
}

// Groups runs the group method of p on all samples of ds, x being their z-scored
// values, and returns its groups best first (DGF's by density).
func Groups(ctx context.Context, ds *dataset.Dataset, x *mat.Dense, p GroupsParams) ([]group.Group, error) {
	if err := classesOnly(ds, "the feature groups' relevance (the F-statistic of the classes)"); err != nil {
		return nil, err
	}
	r := dataset.Rand(p.Seed, 100)
	dgf := group.DGFParams{K: p.K, Gaussian: p.Gaussian, SelfNeighbour: p.Paper}
	switch p.Method {
	case "dgf": // DGF's groups, densest first, with DRAGS's relevance and representatives
		groups, err := group.DRAGS{DGF: dgf}.Groups(ctx, x, ds.Labels, len(ds.Classes))
		sort.SliceStable(groups, func(a, b int) bool { return groups[a].Density > groups[b].Density })
		return groups, err
	case "drags":
		dgf.Eliminate = true // as in the DRAGS paper's runs
		return group.DRAGS{DGF: dgf}.Groups(ctx, x, ds.Labels, len(ds.Classes))
	case "cgs":
		return group.CGS{DGF: dgf, Bootstraps: p.Bootstraps}.Groups(ctx, x, ds.Labels, len(ds.Classes), r)
	case "kmeans":
		return group.KMeans{Clusters: p.Clusters, Restarts: 50}.Groups(ctx, x, ds.Labels, len(ds.Classes), r)
	}
	return nil, fmt.Errorf("unknown group method %q (dgf, drags, cgs or kmeans)", p.Method)
}

// WrapperPairs is the number of gene pairs the wrapper's exhaustive K = 2 baseline
// scores on ds (each by 5-fold CV of 3-NN) and the time that takes here, measured on a
// sample of them (score.PairCost).
func WrapperPairs(ds *dataset.Dataset) (pairs int, cost time.Duration) {
	x := dataset.ZScored(ds.X)
	_, p := x.Dims()
	return score.PairCount(p), score.PairCost(x, ds.Labels, len(ds.Classes))
}

// SyntheticPreset is the synthetic data preset of that name (d1k, d5k).
func SyntheticPreset(name string) (synth.Preset, bool) {
	p, ok := synth.Presets[name]
	return p, ok
}

// Synthetic generates n samples of the preset named (d1k, d5k), or, features > 0, of
// that many features in groups of about 20, with seed; part 0 is a training set, 1, 2,
// ... independent sets of the same population. It refuses sizes out of bounds or beyond
// the machine's memory before allocating.
func Synthetic(preset string, features, n int, seed uint64, part int) (*dataset.Dataset, error) {
	p, ok := synth.Presets[preset]
	if !ok {
		return nil, fmt.Errorf("unknown preset %q (d1k or d5k)", preset)
	}
	if features != 0 {
		if features < synth.Relevant*2 || features > 1_000_000 {
			return nil, fmt.Errorf("--features must be between %d and 1000000", synth.Relevant*2)
		}
		p = synth.Sized(features)
	}
	if n < 2 || n > 1_000_000 {
		return nil, fmt.Errorf("--samples must be between 2 and 1000000, not %d", n)
	}
	// the values (8 bytes) and their CSV text (about 9 bytes) at once
	if err := memlimit.Check(fmt.Sprintf("a synthetic set of %d samples x %d features", n, p.Features), 17*float64(n)*float64(p.Features)); err != nil {
		return nil, err
	}
	ds, _ := synth.Generate(p, n, seed, part)
	return ds, nil
}
