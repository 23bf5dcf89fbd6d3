package score

import (
	"context"
	"math/rand/v2"
	"sort"
	"sync"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"steadfast/compute/classify"
	"steadfast/compute/dataset"
	"steadfast/compute/parallel"
	"steadfast/compute/progress"
)

// SVMOne ranks by the squared weights of one linear SVM, sum_m w_mj^2 over the
// one-vs-rest models.
type SVMOne struct{ SVM classify.SVMParams }

// Rank implements Ranker.
func (s SVMOne) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (Ranking, error) {
	m := classify.LinearSVM{Params: s.SVM}
	if err := m.Fit(ctx, x, y, classes, r); err != nil {
		return Ranking{}, err
	}
	w := m.SquaredWeights()
	return Ranking{Order: orderByScore(w, r), Score: w, Unconverged: unconverged(m)}, nil
}

// SVMRFE is recursive feature elimination with a linear SVM (Guyon et al. 2002): train,
// drop the features with the smallest sum_m w_mj^2, retrain on the rest. The ranking is
// the reverse order of elimination. Each round drops max(1, floor(Step * remaining))
// features, or with Halve half of them until 50 remain and then one at a time.
//
// Score of feature j = (round in which j was dropped) + w_j^2 / (max w^2 of that round + tiny),
// so later-dropped features score higher and ties inside a round follow the weights.
type SVMRFE struct {
	SVM   classify.SVMParams
	Step  float64
	Halve bool
}

// Rank implements Ranker.
func (s SVMRFE) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (Ranking, error) {
	return s.rankWeighted(ctx, x, y, nil, classes, r)
}

// rankWeighted is Rank with a weight per sample (nil: all 1), passed to the SVM.
func (s SVMRFE) rankWeighted(ctx context.Context, x *mat.Dense, y []int, weight []float64, classes int, r *rand.Rand) (Ranking, error) {
	_, p := x.Dims()
	remaining := make([]int, p)
	for j := range remaining {
		remaining[j] = j
	}
	score := make([]float64, p)
	order := make([]int, p)
	tie := TieOrder(p, r) // equal weights leave in this order
	back := p             // order[back:] is filled
	cur := x
	stopped := 0 // fits that hit the iteration cap
	work, done := s.work(p), 0.0
	for round := 0; len(remaining) > 0; round++ {
		if err := ctx.Err(); err != nil {
			return Ranking{}, err
		}
		if len(remaining) == 1 {
			score[remaining[0]] = float64(round)
			order[0] = remaining[0]
			break
		}
		m := classify.LinearSVM{Params: s.SVM, SampleWeight: weight}
		if err := m.Fit(ctx, cur, y, classes, r); err != nil {
			return Ranking{}, err
		}
		stopped += unconverged(m)
		w := m.SquaredWeights()
		maxW := 0.0
		for _, v := range w {
			maxW = max(maxW, v)
		}
		pos := make([]int, len(remaining))
		for i := range pos {
			pos[i] = i
		}
		sort.Slice(pos, func(a, b int) bool {
			if w[pos[a]] != w[pos[b]] {
				return w[pos[a]] < w[pos[b]]
			}
			return tie[remaining[pos[a]]] > tie[remaining[pos[b]]] // the later in tie order leaves first
		})
		drop := s.dropCount(len(remaining))
		for _, i := range pos[:drop] {
			j := remaining[i]
			score[j] = float64(round) + w[i]/(maxW+1e-300)*0.999
			back--
			order[back] = j
		}
		keep := make([]int, 0, len(remaining)-drop)
		keepPos := pos[drop:]
		sort.Ints(keepPos)
		for _, i := range keepPos {
			keep = append(keep, remaining[i])
		}
		cur = dataset.SelectFeatures(x, keep)
		done += float64(len(remaining))
		progress.Share(ctx, done/work)
		remaining = keep
	}
	return Ranking{Order: order, Score: score, Unconverged: stopped}, nil
}

// work is the features summed over the rounds that fit an SVM, starting from p: a fit's
// cost grows with the features it sees, so the share of it done is the share of the
// ranking's time.
func (s SVMRFE) work(p int) float64 {
	w := 0.0
	for rem := p; rem > 1; rem -= s.dropCount(rem) {
		w += float64(rem)
	}
	return max(w, 1)
}

// unconverged is 1 when the fit stopped at its iteration cap, else 0.
func unconverged(m classify.LinearSVM) int {
	if m.Converged {
		return 0
	}
	return 1
}

func (s SVMRFE) dropCount(remaining int) int {
	if s.Halve {
		if remaining > 50 {
			return min(remaining/2, remaining-50) // halve, but never below 50 (63 -> 50, not 32)
		}
		return 1
	}
	step := s.Step
	if step <= 0 {
		step = 0.1
	}
	return max(1, int(step*float64(remaining)))
}

// EnsembleRFE is Saeys et al.'s ensemble SVM-RFE: SVM-RFE on B bootstrap samples of the
// training set, aggregated by summing each feature's rank (1 = best) over the B runs;
// score = -(rank sum)/B, so a lower sum ranks higher (ties by the seeded random rule). A sample drawn m
// times enters its bootstrap once with weight m (the same SVM problem; repeated rows
// slow dual coordinate descent several times over).
type EnsembleRFE struct {
	RFE SVMRFE
	B   int
}

// Rank implements Ranker.
func (e EnsembleRFE) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (Ranking, error) {
	n, p := x.Dims()
	B := max(e.B, 1)
	// draw every bootstrap and its stream first, in order, then run them on all cores;
	// rank sums are sums of integers, so the result does not depend on scheduling
	boots := make([][]int, B)
	seeds := make([]uint64, B)
	for b := range boots {
		boots[b] = make([]int, n)
		for i := range boots[b] {
			boots[b][i] = r.IntN(n)
		}
		seeds[b] = r.Uint64()
	}
	sum := make([]float64, p)
	stopped := 0
	var mu sync.Mutex
	shares := make([]float64, B) // of each run, reported as their mean
	err := parallel.For(ctx, 0, B, func(b int) error {
		rows, weight := multiplicities(boots[b], n)
		xb, yb := dataset.SelectSamples(x, y, rows)
		run := progress.WithShare(ctx, func(s float64) {
			mu.Lock()
			shares[b] = s
			mean := floats.Sum(shares) / float64(B)
			mu.Unlock()
			progress.Share(ctx, mean)
		})
		rk, err := e.RFE.rankWeighted(run, xb, yb, weight, classes, dataset.Rand(seeds[b]))
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		for pos, j := range rk.Order {
			sum[j] += float64(pos + 1)
		}
		stopped += rk.Unconverged
		return nil
	})
	if err != nil {
		return Ranking{}, err
	}
	score := make([]float64, p)
	for j := range score {
		score[j] = -sum[j] / float64(B)
	}
	return Ranking{Order: orderByScore(score, r), Score: score, Unconverged: stopped}, nil
}

// multiplicities returns the distinct rows of a bootstrap draw of 0..n-1, ascending, and
// how often each was drawn.
func multiplicities(draw []int, n int) (rows []int, weight []float64) {
	count := make([]int, n)
	for _, i := range draw {
		count[i]++
	}
	for i, c := range count {
		if c > 0 {
			rows = append(rows, i)
			weight = append(weight, float64(c))
		}
	}
	return rows, weight
}
