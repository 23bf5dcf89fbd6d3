package score

import (
	"context"
	"math/rand/v2"
	"slices"
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

// rankWeighted is Rank with a weight per sample (nil: all 1), passed to the SVM. While
// the features outnumber the samples the SVMs are fitted through the samples' Gram
// matrix, computed once and updated as features leave (classify.Gram), their weights
// w = sum_i alpha_i y_i x_i over the remaining features; then on the remaining columns.
func (s SVMRFE) rankWeighted(ctx context.Context, x *mat.Dense, y []int, weight []float64, classes int, r *rand.Rand) (Ranking, error) {
	n, p := x.Dims()
	remaining := make([]int, p)
	for j := range remaining {
		remaining[j] = j
	}
	score := make([]float64, p)
	order := make([]int, p)
	tie := TieOrder(p, r) // equal weights leave in this order
	back := p             // order[back:] is filled
	cur := x
	var gram *classify.Gram // while the kernel path runs
	var xt *mat.Dense       // x transposed, a feature's values a row, for its weights
	stopped := 0            // fits that hit the iteration cap
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
		var w []float64
		if gramRFE && classify.UseKernel(n, len(remaining)) {
			if gram == nil {
				var err error
				if gram, err = classify.NewGram(ctx, x); err != nil {
					return Ranking{}, err
				}
			}
			ay, ok, err := classify.FitGram(ctx, gram, y, classes, weight, s.SVM, r)
			if err != nil {
				return Ranking{}, err
			}
			if !ok {
				stopped++
			}
			if xt == nil {
				xt = mat.DenseCopyOf(x.T())
			}
			w = squaredWeights(xt, remaining, ay)
		} else {
			if gram != nil { // the columns left, once they are no more than the samples
				gram, cur = nil, dataset.SelectFeatures(x, remaining)
			}
			m := classify.LinearSVM{Params: s.SVM, SampleWeight: weight}
			if err := m.Fit(ctx, cur, y, classes, r); err != nil {
				return Ranking{}, err
			}
			stopped += unconverged(m)
			w = m.SquaredWeights()
		}
		maxW := 0.0
		for _, v := range w {
			maxW = max(maxW, v)
		}
		pos := make([]int, len(remaining))
		for i := range pos {
			pos[i] = i
		}
		leavesFirst := func(a, b int) bool {
			if w[a] != w[b] {
				return w[a] < w[b]
			}
			return tie[remaining[a]] > tie[remaining[b]] // the later in tie order leaves first
		}
		drop := s.dropCount(len(remaining))
		selectFirst(pos, drop, leavesFirst) // the drop leaving first, in order; the rest after
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
		if gram != nil {
			var dropped []int
			for _, i := range pos[:drop] {
				dropped = append(dropped, remaining[i])
			}
			slices.Sort(dropped)
			gram.Drop(x, dropped)
		} else {
			cur = dataset.SelectFeatures(x, keep)
		}
		done += float64(len(remaining))
		progress.Share(ctx, done/work)
		remaining = keep
	}
	return Ranking{Order: order, Score: score, Unconverged: stopped}, nil
}

// gramRFE lets SVM-RFE fit through the Gram matrix (off in a test comparing the paths).
var gramRFE = true

// selectFirst puts the k least elements of v under the strict total order less first,
// sorted, and the others after them in some order: a quickselect (median-of-three
// pivots) then a sort of the k, where a full sort of v cost p log p a round.
func selectFirst(v []int, k int, less func(a, b int) bool) {
	lo, hi := 0, len(v) // the k-th least lies in v[lo:hi]
	for hi-lo > 16 && k > lo && k < hi {
		mid := lo + (hi-lo)/2
		a, b, c := v[lo], v[mid], v[hi-1]
		pivot := b // the median of the three
		if less(a, b) != less(a, c) {
			pivot = a
		} else if less(b, a) != less(b, c) {
			pivot = b
		} else {
			pivot = c
		}
		// three-way partition: < pivot, == pivot (only pivot itself: the order is strict), > pivot
		i, j := lo, hi
		for m := lo; m < j; {
			switch {
			case less(v[m], pivot):
				v[i], v[m] = v[m], v[i]
				i++
				m++
			case less(pivot, v[m]):
				j--
				v[m], v[j] = v[j], v[m]
			default:
				m++
			}
		}
		switch {
		case k <= i:
			hi = i
		case k >= j:
			lo = j
		default:
			lo, hi = k, k
		}
	}
	if lo < k && k < hi { // the short stretch holding the k-th least: sorted
		sort.Slice(v[lo:hi], func(a, b int) bool { return less(v[lo+a], v[lo+b]) })
	}
	sort.Slice(v[:k], func(a, b int) bool { return less(v[a], v[b]) })
}

// squaredWeights is sum over models m of w_mj^2 for the features cols, w_mj = sum_i
// ay[m][i] x_ij (a floats.Dot of column j of x, xt's row j, with ay[m]): as
// classify.LinearSVM.SquaredWeights of the SVMs on those columns.
func squaredWeights(xt *mat.Dense, cols []int, ay [][]float64) []float64 {
	out := make([]float64, len(cols))
	for _, a := range ay {
		for k, c := range cols {
			v := floats.Dot(xt.RawRowView(c), a)
			out[k] += v * v
		}
	}
	return out
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
