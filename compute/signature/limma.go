package signature

import (
	"math"
	"sort"
	"strings"

	"steadfast/compute/counts"
	"steadfast/compute/dataset"
)

// rLevels numbers ds's classes as R's factor levels (sorted by name, case ignored
// first): levels[r] is the class of level r, level[c] the level of class c. limma's
// reference class, and the statistics with it, are then R's.
func rLevels(classes []string) (levels, level []int) {
	levels = make([]int, len(classes))
	for c := range levels {
		levels[c] = c
	}
	sort.SliceStable(levels, func(a, b int) bool {
		x, y := classes[levels[a]], classes[levels[b]]
		if lx, ly := strings.ToLower(x), strings.ToLower(y); lx != ly {
			return lx < ly
		}
		return x < y
	})
	level = make([]int, len(levels))
	for r, c := range levels {
		level[c] = r
	}
	return levels, level
}

// limmaStats are limma's moderated statistics of intensities (ds.Raw: proteomics, as
// DEP reports them): eBayes(lmFit(X, ~ class)) on the study's values X (log2,
// normalised and imputed on all samples) of the proteins the valid-value filter keeps
// on all samples, without weights (counts.Limma). For two classes t is the moderated t
// of the positive class against the other (NaN with more classes), p its two-sided p
// (with more classes, the moderated F's), q the BH FDR over the kept proteins; NaN for
// a protein ranked last by the filter. Nil when the data are not intensities or the
// fit fails.
func limmaStats(ds *dataset.Dataset, positive int) (t, p, q []float64) {
	if ds.Raw == nil || len(ds.Classes) < 2 {
		return nil, nil, nil
	}
	ranked := map[string]bool{}
	for _, l := range ds.LeftOut {
		if l.Ranked {
			ranked[l.Feature] = true
		}
	}
	var kept []int
	for j, f := range ds.Features {
		if !ranked[f] {
			kept = append(kept, j)
		}
	}
	_, level := rLevels(ds.Classes)
	n, g := ds.X.Dims()
	x := make([][]float64, n)
	group := make([]int, n)
	for i := range x {
		row := ds.X.RawRowView(i)
		for _, j := range kept {
			x[i] = append(x[i], row[j])
		}
		group[i] = level[ds.Labels[i]]
	}
	m, err := counts.Limma(x, group)
	if err != nil {
		return nil, nil, nil
	}
	t, p, q = make([]float64, g), make([]float64, g), make([]float64, g)
	for j := range t {
		t[j], p[j], q[j] = math.NaN(), math.NaN(), math.NaN()
	}
	sign := 1.0 // limma's t is of level 1 against level 0
	if len(ds.Classes) == 2 && positive >= 0 && level[positive] == 0 {
		sign = -1
	}
	bh := BH(m.P)
	for k, j := range kept {
		p[j], q[j] = m.P[k], bh[k]
		if m.T != nil {
			t[j] = sign * m.T[k]
		}
	}
	return t, p, q
}
