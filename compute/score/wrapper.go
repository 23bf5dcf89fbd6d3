package score

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/classify"
	"steadfast/compute/dataset"
	"steadfast/compute/parallel"
)

// BootstrapWrapper is the random-subset wrapper ranking of Diaz-Diaz, Aguilar-Ruiz et al.:
// Ne random feature subsets, each of a size drawn uniformly from 1..Na and then that
// many distinct features; goodness of a subset = mean accuracy of 3-NN in stratified
// 5-fold CV on the training samples; weight of a feature = mean goodness of the subsets
// containing it. Features never drawn rank last (weight -1). Exhaustive1 instead scores
// every single feature by its own goodness, Exhaustive2 by the mean goodness of every
// pair holding it (the paper's K = 1 and K = 2 baselines).
type BootstrapWrapper struct {
	Ne          int // subsets; <= 0 means p
	Na          int // largest subset size; <= 0 means 0.4% of p (at least 1)
	Exhaustive1 bool
	Exhaustive2 bool // every pair of features (p(p-1)/2 subsets: see PairCount)
	// Progress, when set, is called from worker goroutines, one call at a time, with the subsets evaluated
	// so far and their total (for K = 2, pairs, reported a row of pairs at a time).
	Progress func(done, total int)
}

// PairCount is the number of subsets of the K = 2 baseline, p(p-1)/2, for a cost warning.
func PairCount(p int) int { return p * (p - 1) / 2 }

// PairCost estimates the wall time of the K = 2 baseline on x: the time of the 5-fold
// 3-NN evaluation of 200 pairs, scaled to PairCount(p) pairs on all cores.
func PairCost(x *mat.Dense, y []int, classes int) time.Duration {
	_, p := x.Dims()
	if p < 2 {
		return 0
	}
	folds := dataset.StratifiedFolds(y, min(5, minClass(y, classes)), dataset.Rand(0))
	const trials = 200
	start := time.Now()
	for t := 0; t < trials; t++ {
		i := t % p
		cvAccuracy3NN(x, y, classes, []int{i, (i + 1 + t/p) % p}, folds)
	}
	per := time.Since(start) / trials
	return per * time.Duration(PairCount(p)) / time.Duration(runtime.GOMAXPROCS(0))
}

// Rank implements Ranker.
func (b BootstrapWrapper) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (Ranking, error) {
	_, p := x.Dims()
	folds := dataset.StratifiedFolds(y, min(5, minClass(y, classes)), r)
	seed := r.Uint64()
	var sum, cnt []float64
	var err error
	if b.Exhaustive2 {
		sum, cnt, err = b.pairSums(ctx, x, y, classes, folds)
	} else {
		sum, cnt, err = b.subsetSums(ctx, x, y, classes, folds, seed)
	}
	if err != nil {
		return Ranking{}, err
	}
	w := make([]float64, p)
	for j := range w {
		w[j] = -1
		if cnt[j] > 0 {
			w[j] = sum[j] / cnt[j]
		}
	}
	return Ranking{Order: orderByScore(w, r), Score: w}, nil
}

// progress returns a counter of units done out of total that reports to b.Progress,
// one call at a time.
func (b BootstrapWrapper) progress(total int) func(units int) {
	if b.Progress == nil {
		return func(int) {}
	}
	var mu sync.Mutex
	done := 0
	return func(units int) {
		mu.Lock()
		defer mu.Unlock()
		done += units
		b.Progress(done, total)
	}
}

// subsetSums evaluates the random subsets (or, with Exhaustive1, every single feature)
// and returns per feature the sum of their goodness and their count.
func (b BootstrapWrapper) subsetSums(ctx context.Context, x *mat.Dense, y []int, classes int, folds []dataset.Split, seed uint64) (sum, cnt []float64, err error) {
	_, p := x.Dims()
	var subsets [][]int
	if b.Exhaustive1 {
		for j := 0; j < p; j++ {
			subsets = append(subsets, []int{j})
		}
	} else {
		ne, na := b.Ne, b.Na
		if ne <= 0 {
			ne = p
		}
		if na <= 0 {
			na = max(1, int(math.Round(0.004*float64(p))))
		}
		na = min(na, p)
		for s := 0; s < ne; s++ {
			rs := dataset.Rand(seed, uint64(s))
			size := 1 + rs.IntN(na)
			subsets = append(subsets, append([]int(nil), rs.Perm(p)[:size]...))
		}
	}
	good := make([]float64, len(subsets))
	tick := b.progress(len(subsets))
	err = parallel.For(ctx, 0, len(subsets), func(i int) error {
		good[i] = cvAccuracy3NN(x, y, classes, subsets[i], folds)
		tick(1)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	sum, cnt = make([]float64, p), make([]float64, p)
	for i, s := range subsets {
		for _, j := range s {
			sum[j] += good[i]
			cnt[j]++
		}
	}
	return sum, cnt, nil
}

// pairSums evaluates every pair (i, j), i < j, without storing them: the rows i are cut
// into pairBlocks blocks of about equal pair counts, each block sums into its own
// vector, and the blocks are added in order, so the sums do not depend on scheduling.
func (b BootstrapWrapper) pairSums(ctx context.Context, x *mat.Dense, y []int, classes int, folds []dataset.Split) (sum, cnt []float64, err error) {
	_, p := x.Dims()
	const pairBlocks = 64
	var starts []int // block k holds rows starts[k] .. starts[k+1]-1
	perBlock := float64(PairCount(p)) / pairBlocks
	acc := 0.0
	for i := 0; i < p; i++ {
		if acc >= float64(len(starts))*perBlock {
			starts = append(starts, i)
		}
		acc += float64(p - 1 - i)
	}
	starts = append(starts, p)
	partial := make([][]float64, len(starts)-1)
	tick := b.progress(PairCount(p))
	err = parallel.For(ctx, 0, len(partial), func(k int) error {
		s := make([]float64, p)
		pair := []int{0, 0}
		for i := starts[k]; i < starts[k+1]; i++ {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			for j := i + 1; j < p; j++ {
				pair[0], pair[1] = i, j
				g := cvAccuracy3NN(x, y, classes, pair, folds)
				s[i] += g
				s[j] += g
			}
			tick(p - 1 - i)
		}
		partial[k] = s
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	sum, cnt = make([]float64, p), make([]float64, p)
	for _, s := range partial {
		for j, v := range s {
			sum[j] += v
		}
	}
	for j := range cnt {
		cnt[j] = float64(p - 1)
	}
	return sum, cnt, nil
}

func minClass(y []int, classes int) int {
	c := make([]int, classes)
	for _, l := range y {
		c[l]++
	}
	m := len(y)
	for _, v := range c {
		if v > 0 {
			m = min(m, v)
		}
	}
	return max(m, 2)
}

// cvAccuracy3NN is the mean test accuracy of 3-NN over the folds, on the features sel.
func cvAccuracy3NN(x *mat.Dense, y []int, classes int, sel []int, folds []dataset.Split) float64 {
	sorted := append([]int(nil), sel...)
	sort.Ints(sorted)
	xs := dataset.SelectFeatures(x, sorted)
	acc := 0.0
	for _, f := range folds {
		xtr, ytr := dataset.SelectSamples(xs, y, f.Train)
		xte, yte := dataset.SelectSamples(xs, y, f.Test)
		m := classify.KNN{K: 3}
		m.Fit(xtr, ytr, classes)
		acc += classify.Accuracy(m.Predict(xte), yte)
	}
	return acc / float64(len(folds))
}
