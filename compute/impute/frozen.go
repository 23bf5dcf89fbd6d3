package impute

import (
	"fmt"
	"math"
	"slices"
)

// Frozen is a Fitted as a locked model keeps it, for the genes it scores: the kept
// proteins (every sample's sum, median, quantile map and MinProb mean and SD are taken
// over those it has), the normalisation's targets, and each gene's imputation.
type Frozen struct {
	Kept []string `json:"kept"`
	// Over marks, for KNN, the kept proteins missing in more than trunc(rowmax n)
	// training samples: the others are the ones a sample's mean is taken over.
	Over         []bool       `json:"over,omitempty"`
	SumTarget    float64      `json:"sumTarget,omitempty"`
	MedianTarget float64      `json:"medianTarget,omitempty"`
	Target       []float64    `json:"target,omitempty"` // Quantile's, ascending, one value a kept protein
	Genes        []FrozenGene `json:"genes"`
}

// FrozenGene is how one gene's missing value is imputed: by the sample's mean (Mean,
// KNN), by the mean of its neighbours the sample has (KNN), or HalfMin.
type FrozenGene struct {
	ID         string   `json:"id"`
	Mean       bool     `json:"mean,omitempty"`
	Neighbours []string `json:"neighbours,omitempty"`
	HalfMin    float64  `json:"halfMin,omitempty"`
}

// Freeze keeps what preprocessing the proteins genes (universe indices) of another
// sample needs.
func (f *Fitted) Freeze(genes []int) *Frozen {
	z := &Frozen{SumTarget: f.sumTarget, MedianTarget: f.medianTarget, Target: f.target}
	for _, j := range f.kept {
		z.Kept = append(z.Kept, f.features[j])
		if f.opt.Impute == KNN {
			z.Over = append(z.Over, f.over[j])
		}
	}
	for _, j := range genes {
		g := FrozenGene{ID: f.features[j]}
		switch f.opt.Impute {
		case KNN:
			if !f.over[j] {
				for _, c := range f.neighbours(j) {
					g.Neighbours = append(g.Neighbours, f.features[c])
				}
			}
			g.Mean = len(g.Neighbours) == 0 // no neighbour: the sample's mean, as Apply
		case HalfMin:
			g.HalfMin = f.halfMin[j]
		}
		z.Genes = append(z.Genes, g)
	}
	return z
}

// Universe are the proteins a sample's values are needed of, in the order Apply
// takes them: the kept ones, then the genes and neighbours not among them.
func (z *Frozen) Universe() []string {
	out := slices.Clone(z.Kept)
	seen := map[string]bool{}
	for _, id := range out {
		seen[id] = true
	}
	add := func(id string) {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	for _, g := range z.Genes {
		add(g.ID)
		for _, c := range g.Neighbours {
			add(c)
		}
	}
	return out
}

// Fitted is z as a Fitted over Universe() with options o (the model's), imputing the
// genes alone; genes are their places in the universe.
func (z *Frozen) Fitted(o Options) (f *Fitted, genes []int, err error) {
	if o, err = o.Resolved(); err != nil {
		return nil, nil, err
	}
	if err := z.Check(o); err != nil {
		return nil, nil, err
	}
	u := z.Universe()
	at := make(map[string]int, len(u))
	for i, id := range u {
		at[id] = i
	}
	f = &Fitted{opt: o, features: u, isKept: make([]bool, len(u)), sumTarget: z.SumTarget, medianTarget: z.MedianTarget, target: z.Target,
		over: make([]bool, len(u)), nbs: map[int][]int{}, halfMin: make([]float64, len(u)), only: make([]bool, len(u))}
	for k := range z.Kept {
		f.kept, f.isKept[k] = append(f.kept, k), true
		if o.Impute == KNN && !z.Over[k] {
			f.retained = append(f.retained, k)
		}
	}
	for _, g := range z.Genes {
		j := at[g.ID]
		genes = append(genes, j)
		f.only[j], f.over[j], f.halfMin[j] = true, g.Mean, g.HalfMin
		for _, c := range g.Neighbours {
			f.nbs[j] = append(f.nbs[j], at[c])
		}
	}
	return f, genes, nil
}

// Check reports a frozen preprocessing that cannot be used with the options o (read
// back from a file): no kept protein or a repeated one, a target of another length,
// not ascending or not finite, a sum target not positive, a gene without its
// imputation or with one of another kind.
func (z *Frozen) Check(o Options) error {
	if len(z.Kept) < 2 || len(z.Kept) > 10_000_000 || len(z.Genes) == 0 || len(z.Genes) > 100_000 {
		return fmt.Errorf("a preprocessing of %d kept proteins for %d genes", len(z.Kept), len(z.Genes))
	}
	seen := make(map[string]bool, len(z.Kept))
	for _, id := range z.Kept {
		if id == "" || seen[id] {
			return fmt.Errorf("the kept protein %q empty or repeated", id)
		}
		seen[id] = true
	}
	fin := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	if (o.Impute == KNN) != (z.Over != nil) || z.Over != nil && len(z.Over) != len(z.Kept) {
		return fmt.Errorf("%d marks of sparse proteins for %d kept proteins with imputation %s", len(z.Over), len(z.Kept), o.Impute)
	}
	if (o.Normalize == Quantile) != (z.Target != nil) || z.Target != nil && len(z.Target) != len(z.Kept) {
		return fmt.Errorf("a quantile target of %d values for %d kept proteins with normalisation %s", len(z.Target), len(z.Kept), o.Normalize)
	}
	for i, v := range z.Target {
		if !fin(v) || i > 0 && v < z.Target[i-1] {
			return fmt.Errorf("a quantile target not finite or not ascending at %d", i+1)
		}
	}
	if !fin(z.MedianTarget) || !fin(z.SumTarget) || (o.Normalize == Sum) != (z.SumTarget > 0) || o.Normalize != Median && z.MedianTarget != 0 {
		return fmt.Errorf("a median target of %v and a sum target of %v with normalisation %s", z.MedianTarget, z.SumTarget, o.Normalize)
	}
	for _, g := range z.Genes {
		if g.ID == "" || !fin(g.HalfMin) || len(g.Neighbours) > 1000 {
			return fmt.Errorf("gene %q: its imputation damaged", g.ID)
		}
		knn := o.Impute == KNN && (g.Mean != (len(g.Neighbours) == 0))
		other := o.Impute != KNN && (g.Mean || len(g.Neighbours) > 0)
		if knn || other || o.Impute != HalfMin && g.HalfMin != 0 {
			return fmt.Errorf("gene %q: an imputation that is not %s", g.ID, o.Impute)
		}
		for _, c := range g.Neighbours {
			if c == "" || c == g.ID {
				return fmt.Errorf("gene %q: a neighbour %q", g.ID, c)
			}
		}
	}
	return nil
}
