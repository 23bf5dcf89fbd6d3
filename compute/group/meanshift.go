package group

import (
	"context"
	"hash/maphash"
	"math"
	"slices"
	"sync/atomic"

	"gonum.org/v1/gonum/floats"
)

// trajectory is one mean-shift path: its point y and, after each evaluation, the exact
// sum and number of the features within h of y.
type trajectory struct {
	y      []float64
	sum    []float64 // sum of the members of N_h(y), exact (see space)
	count  int
	ref    []float64 // Gaussian kernel: the weighted mean at y
	state  int8
	leader int32 // the trajectory this one coincides with, or -1
	// the hubs of its last evaluation (flat kernel)
	big, small *hub
}

const (
	moving int8 = iota
	done
)

// shifter runs mean shift from every feature in synchronous rounds.
type shifter struct {
	sp       *space
	h        float64
	gaussian bool
	tr       []trajectory
	full     atomic.Int64 // evaluations that screened every feature
	hubs     atomic.Int64 // hubs built
	seed     maphash.Seed
}

func newShifter(sp *space, h float64, gaussian bool) *shifter {
	p, _ := sp.pt.Dims()
	ms := &shifter{sp: sp, h: h, gaussian: gaussian, tr: make([]trajectory, p), seed: maphash.MakeSeed()}
	for s := range ms.tr {
		ms.tr[s] = trajectory{y: slices.Clone(sp.pt.RawRowView(s)), leader: -1}
	}
	return ms
}

// run moves every trajectory until it stops (step below tol) or maxIter rounds have
// passed. A stationary point's density is the number of members whose mean it is, as in
// scikit-learn's MeanShift. It returns the rounds taken.
func (ms *shifter) run(ctx context.Context, maxIter int, tol float64) (int, error) {
	rounds := 0
	for it := 0; it < maxIter; it++ {
		var todo []int
		for s := range ms.tr {
			if ms.tr[s].state == moving && ms.tr[s].leader < 0 {
				todo = append(todo, s)
			}
		}
		if len(todo) == 0 {
			break
		}
		var err error
		switch {
		case ms.gaussian:
			err = ms.scan(ctx, todo)
		case it == 0:
			err = ms.firstRound(ctx)
		default:
			err = ms.evaluateAtHubs(ctx, todo)
		}
		if err != nil {
			return 0, err
		}
		rounds = it + 1
		for _, s := range todo {
			ms.advance(s, tol, it == maxIter-1)
		}
		ms.merge(todo)
	}
	return rounds, nil
}

// advance moves a trajectory to the mean of its members, and stops it there when the
// step is below tol or it is the last round.
func (ms *shifter) advance(s int, tol float64, last bool) {
	t := &ms.tr[s]
	if (!ms.gaussian && t.count == 0) || (ms.gaussian && t.ref == nil) {
		t.state = done // nothing within reach: no peak (scikit-learn drops it too)
		t.count = 0
		t.big, t.small = nil, nil
		return
	}
	next := make([]float64, len(t.y))
	if ms.gaussian {
		copy(next, t.ref)
	} else {
		c := float64(t.count)
		for i, v := range t.sum {
			next[i] = v / c
		}
	}
	if math.Sqrt(dist2(next, t.y)) < tol || last {
		t.state = done
		t.big, t.small = nil, nil
	}
	t.y = next
}

// merge marks moving trajectories at bitwise the same point as followers of the first of
// them: their futures are the same.
func (ms *shifter) merge(todo []int) {
	first := map[uint64][]int{}
	for _, s := range todo {
		t := &ms.tr[s]
		if t.state != moving {
			continue
		}
		var hs maphash.Hash
		hs.SetSeed(ms.seed)
		var b [8]byte
		for _, v := range t.y {
			u := math.Float64bits(v)
			for i := range b {
				b[i] = byte(u >> (8 * i))
			}
			hs.Write(b[:])
		}
		key := hs.Sum64()
		matched := false
		for _, l := range first[key] {
			if slices.Equal(ms.tr[l].y, t.y) {
				t.leader, matched = int32(l), true
				t.big, t.small = nil, nil
				break
			}
		}
		if !matched {
			first[key] = append(first[key], s)
		}
	}
}

// scan evaluates the trajectories by screening every feature.
func (ms *shifter) scan(ctx context.Context, rows []int) error {
	ms.full.Add(int64(len(rows)))
	ys := make([][]float64, len(ms.tr))
	for _, s := range rows {
		ys[s] = ms.tr[s].y
	}
	return ms.sp.screenRows(ctx, ys, rows, func(s int, sc screener) {
		if ms.gaussian {
			ms.gaussianStep(s, sc)
			return
		}
		t := &ms.tr[s]
		t.sum, t.count = ms.members(sc, t.sum)
	})
}

// members returns the exact sum and number of the features within h of the screened
// point, reusing sum's storage.
func (ms *shifter) members(sc screener, sum []float64) ([]float64, int) {
	p, n := ms.sp.pt.Dims()
	if sum == nil {
		sum = make([]float64, n)
	}
	clear(sum)
	count := 0
	within := sc.cut(ms.h * ms.h)
	for k := 0; k < p; k++ {
		if sc.inside(k, sc.g[k], within) {
			count++
			floats.Add(sum, ms.sp.pt.RawRowView(k))
		}
	}
	return sum, count
}

// gaussianStep computes the Gaussian-weighted mean (sigma = h/2, features within 2h) of
// the features around y into ref, and the number within h into count.
func (ms *shifter) gaussianStep(s int, sc screener) {
	t := &ms.tr[s]
	p, n := ms.sp.pt.Dims()
	h2, r2 := ms.h*ms.h, 4*ms.h*ms.h
	sigma2 := ms.h * ms.h / 4
	next := make([]float64, n)
	wsum := 0.0
	t.count = 0
	reach := sc.cut(r2)
	for k := 0; k < p; k++ {
		if float64(sc.g[k])-ms.sp.half[k] < reach.out {
			continue // certainly beyond 2h
		}
		d := sc.exact(k)
		if d > r2 {
			continue
		}
		if d <= h2 {
			t.count++
		}
		wk := math.Exp(-d / (2 * sigma2))
		wsum += wk
		for i, v := range ms.sp.pt.RawRowView(k) {
			next[i] += wk * v
		}
	}
	if wsum == 0 {
		t.ref = nil
		return
	}
	for i := range next {
		next[i] /= wsum
	}
	t.ref = next
}

// point returns trajectory s's final point and density (a follower's are its leader's).
func (ms *shifter) point(s int) ([]float64, int) {
	for ms.tr[s].leader >= 0 {
		s = int(ms.tr[s].leader)
	}
	return ms.tr[s].y, ms.tr[s].count
}
