package study

import (
	"context"
	"fmt"
	"sort"
	"time"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/group"
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
