package experiment

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"steadfast/compute/counts"
	"steadfast/compute/dataset"
	"steadfast/compute/impute"
	"steadfast/compute/method"
	"steadfast/compute/score"
)

// varianceOrder lists the columns of x by decreasing sample variance, ties by name (so
// the order does not depend on the columns' order in the file).
func varianceOrder(x *mat.Dense, names []string) []int {
	n, p := x.Dims()
	v := make([]float64, p)
	col := make([]float64, n)
	for j := range v {
		mat.Col(col, j, x)
		v[j] = stat.Variance(col, nil)
	}
	idx := make([]int, p)
	for j := range idx {
		idx[j] = j
	}
	sort.Slice(idx, func(a, b int) bool {
		if v[idx[a]] != v[idx[b]] {
			return v[idx[a]] > v[idx[b]]
		}
		return names[idx[a]] < names[idx[b]]
	})
	return idx
}

// mostVariable returns, ascending, the first n columns of a variance order; nil when n
// is 0 or keeps every column.
func mostVariable(order []int, n int) []int {
	if n <= 0 || n >= len(order) {
		return nil
	}
	keep := slices.Clone(order[:n])
	slices.Sort(keep)
	return keep
}

// widen maps a ranking of the kept columns back to all features: the kept ones in
// their order and with their scores, then the rest in the training set's variance order,
// scored below every kept feature (so S_W and S_R compare whole vectors as before).
func widen(rk score.Ranking, keep, order []int) score.Ranking {
	p := len(order)
	out := score.Ranking{Score: make([]float64, p), Relevance: rk.Relevance, Unconverged: rk.Unconverged}
	in := make([]bool, p)
	low := math.Inf(1)
	for _, j := range rk.Order {
		f := keep[j]
		out.Order = append(out.Order, f)
		out.Score[f], in[f] = rk.Score[j], true
		low = math.Min(low, rk.Score[j])
	}
	for _, g := range rk.Groups {
		m := make([]int, len(g))
		for i, j := range g {
			m[i] = keep[j]
		}
		out.Groups = append(out.Groups, m)
	}
	for r, f := range order {
		if !in[f] {
			out.Order = append(out.Order, f)
			out.Score[f] = low - 1 - float64(r)/float64(p)
		}
	}
	return out
}

// filterColumns returns x's columns keep (x itself when keep is nil).
func filterColumns(x *mat.Dense, keep []int) *mat.Dense {
	if keep == nil || x == nil {
		return x
	}
	return dataset.SelectFeatures(x, keep)
}

// keptFirst is order with the features of kept (ascending indices) moved before the
// others, each part in its order; order itself when kept is nil.
func keptFirst(order, kept []int) []int {
	if kept == nil {
		return order
	}
	in := make([]bool, len(order))
	for _, j := range kept {
		in[j] = true
	}
	out := make([]int, 0, len(order))
	for _, j := range order {
		if in[j] {
			out = append(out, j)
		}
	}
	for _, j := range order {
		if !in[j] {
			out = append(out, j)
		}
	}
	return out
}

// normaliseCounts overwrites xtr and xte (the split's training and test samples, in
// that order) with log-CPM values from ds.Counts (test.Counts for a given test set) by
// edgeR's normalisation fitted on the training samples alone (counts.Norm: filterByExpr
// with their classes ytr, TMM against their reference, the prior's scale) and applied
// to each test sample against that frozen reference. It returns the kept genes.
func normaliseCounts(ctx context.Context, ds, test *dataset.Dataset, s dataset.Split, ytr []int, xtr, xte *mat.Dense) ([]int, error) {
	rows := counts.Rows(ds.Counts, s.Train)
	norm, err := counts.FitContext(ctx, rows, ytr)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		norm.TrainLogCPM(i, rows[i], xtr.RawRowView(i))
	}
	if xte == nil {
		return norm.Kept, nil
	}
	src, idx := ds.Counts, s.Test
	if test != nil {
		if test.Counts == nil {
			return nil, fmt.Errorf("the test set holds no read counts to normalise as the training set's")
		}
		src, idx = test.Counts, nil
		for i := range test.Labels {
			idx = append(idx, i)
		}
	}
	for i, r := range idx {
		norm.LogCPM(src.RawRowView(r), xte.RawRowView(i))
	}
	return norm.Kept, nil
}

// imputeSplit overwrites xtr and xte (the split's training and test samples, in that
// order) with the intensities of ds.Raw (test.Raw for a given test set) preprocessed by
// the valid-value filter, normalisation and imputation fitted on the training samples
// alone (impute.Fit with their classes ytr) and applied to each test sample against that
// frozen fit. It returns the proteins the filter kept.
func imputeSplit(ctx context.Context, cfg Config, ds, test *dataset.Dataset, s dataset.Split, ytr []int, xtr, xte *mat.Dense) ([]int, error) {
	rows := dataset.Rows(ds.Raw, s.Train)
	f, err := impute.FitContext(ctx, rows, ytr, len(ds.Classes), dataset.Pick(ds.Samples, s.Train), ds.Features, cfg.Prep.For(ds).ImputeOptions())
	if err != nil {
		return nil, err
	}
	for i := range rows {
		f.Train(i, xtr.RawRowView(i))
	}
	if xte != nil {
		src, idx, names := ds.Raw, s.Test, ds.Samples
		if test != nil {
			if test.Raw == nil {
				return nil, fmt.Errorf("the test set holds no intensities to preprocess as the training set's")
			}
			src, idx, names = test.Raw, nil, test.Samples
		}
		for i, row := range dataset.Rows(src, idx) {
			r := i
			if idx != nil {
				r = idx[i]
			}
			f.Apply(row, names[r], xte.RawRowView(i))
		}
	}
	return f.Kept(), ctx.Err()
}

// RankAll ranks the features of ds on all its samples with spec as a study of cfg ranks
// them in its all-sample unit: read counts normalised by edgeR's pipeline fitted on the
// samples (the genes its filter drops ranked last, by variance), cfg's top-variance
// filter, z-scoring when cfg says; r is the ranker's random stream.
func RankAll(ctx context.Context, cfg Config, ds *dataset.Dataset, spec method.Spec, r *rand.Rand) (score.Ranking, error) {
	ranker, err := method.New(spec)
	if err != nil {
		return score.Ranking{}, err
	}
	if err := method.CheckOutcome([]method.Spec{spec}, ds.Survival != nil); err != nil {
		return score.Ranking{}, err
	}
	all := make([]int, len(ds.Labels))
	for i := range all {
		all[i] = i
	}
	xtr, ytr, _, _, order, keep, err := prepare(ctx, cfg, ds, nil, dataset.Split{Train: all})
	if err != nil {
		return score.Ranking{}, err
	}
	rk, err := rank(ctx, ranker, filterColumns(xtr, keep), ytr, ds, all, r)
	if err != nil || keep == nil {
		return rk, err
	}
	return widen(rk, keep, order), nil
}
