package group

import (
	"context"
	"hash/maphash"
	"math"
	"slices"
	"sync/atomic"
)

// trajectory is one mean-shift path: its point y and, after each evaluation, the exact
// sum and number of the features within h of y.
type trajectory struct {
	y      []float64
	sum    []float64 // sum of the members of N_h(y), exact (see space)
	count  int
	ref    []float64 // Gaussian kernel: the weighted mean at y
	state  int8
	steps  int32 // mean-shift steps taken
	leader int32 // the trajectory whose path this one joined, or -1
	shift  int32 // steps this one had taken when it reached the leader's point, less the leader's
	alone  bool  // follows no other: its joined path would have run past the last step
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
	byPoint  []int32 // Gaussian kernel: the features in lexicographic order of their points
	tr       []trajectory
	full     atomic.Int64 // evaluations that screened every feature
	hubs     atomic.Int64 // hubs built
	seed     maphash.Seed
	visited  map[uint64][]visit // points evaluated or about to be, by hash
}

// visit is trajectory s at point y after steps steps.
type visit struct {
	s, steps int32
	y        []float64
}

func newShifter(sp *space, h float64, gaussian bool) *shifter {
	p, _ := sp.pt.Dims()
	ms := &shifter{sp: sp, h: h, gaussian: gaussian, tr: make([]trajectory, p), seed: maphash.MakeSeed(),
		visited: map[uint64][]visit{}}
	for s := range ms.tr {
		ms.tr[s] = trajectory{y: slices.Clone(sp.pt.RawRowView(s)), leader: -1}
	}
	if gaussian {
		ms.byPoint = make([]int32, p)
		for k := range ms.byPoint {
			ms.byPoint[k] = int32(k)
		}
		slices.SortFunc(ms.byPoint, func(a, b int32) int {
			return slices.Compare(sp.pt.RawRowView(int(a)), sp.pt.RawRowView(int(b)))
		})
	}
	return ms
}

// run moves every trajectory until it stops (step below tol) or has taken maxIter steps.
// A stationary point's density is the number of members whose mean it is, as in
// scikit-learn's MeanShift. It returns the most steps any trajectory took.
//
// A path depends on its point alone, so a trajectory that reaches a point another one
// was evaluated at (in this round or an earlier one) follows that one's path from there
// instead of being evaluated again; should the joined path, shifted by the steps between
// the two visits, run past maxIter, the trajectory is taken up again on its own.
func (ms *shifter) run(ctx context.Context, maxIter int, tol float64) (int, error) {
	for first := true; ; first = false {
		var todo []int
		for s := range ms.tr {
			if ms.tr[s].state == moving && ms.tr[s].leader < 0 {
				todo = append(todo, s)
			}
		}
		if len(todo) == 0 {
			if ms.release(maxIter) {
				continue
			}
			break
		}
		var err error
		switch {
		case ms.gaussian:
			err = ms.evaluateGaussian(ctx, todo)
		case first:
			err = ms.firstRound(ctx)
		default:
			err = ms.evaluateAtHubs(ctx, todo)
		}
		if err != nil {
			return 0, err
		}
		for _, s := range todo {
			ms.advance(s, tol, int(ms.tr[s].steps)+1 >= maxIter)
		}
		ms.join(todo)
	}
	most := 0
	for s := range ms.tr {
		most = max(most, ms.totalSteps(s))
	}
	return most, nil
}

// advance moves a trajectory to the mean of its members, and stops it there when the
// step is below tol or it is the last step.
func (ms *shifter) advance(s int, tol float64, last bool) {
	t := &ms.tr[s]
	t.steps++
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

// join makes each moving trajectory that reached, bitwise, a point some trajectory was
// evaluated at or is about to be a follower of that one, and records the points of the
// others. The first to reach a point in a round leads.
func (ms *shifter) join(todo []int) {
	for _, s := range todo {
		t := &ms.tr[s]
		if t.state != moving || t.alone {
			continue
		}
		key := ms.hash(t.y)
		matched := false
		for _, v := range ms.visited[key] {
			if slices.Equal(v.y, t.y) {
				t.leader, t.shift, matched = v.s, t.steps-v.steps, true
				t.big, t.small = nil, nil
				break
			}
		}
		if !matched {
			ms.visited[key] = append(ms.visited[key], visit{s: int32(s), steps: t.steps, y: t.y})
		}
	}
}

func (ms *shifter) hash(y []float64) uint64 {
	var hs maphash.Hash
	hs.SetSeed(ms.seed)
	var b [8]byte
	for _, v := range y {
		u := math.Float64bits(v)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		hs.Write(b[:])
	}
	return hs.Sum64()
}

// totalSteps is the steps trajectory s takes in all: a follower's shift plus its
// leader's.
func (ms *shifter) totalSteps(s int) int {
	n := 0
	for ms.tr[s].leader >= 0 {
		n += int(ms.tr[s].shift)
		s = int(ms.tr[s].leader)
	}
	return n + int(ms.tr[s].steps)
}

// release takes up again, on their own, the followers whose joined path would run past
// maxIter steps (they would have stopped elsewhere), and reports whether there were any.
func (ms *shifter) release(maxIter int) bool {
	var over []int
	for s := range ms.tr {
		if ms.tr[s].leader >= 0 && ms.totalSteps(s) > maxIter {
			over = append(over, s)
		}
	}
	for _, s := range over {
		t := &ms.tr[s]
		t.leader, t.shift, t.alone, t.state = -1, 0, true, moving
	}
	return len(over) > 0
}

// point returns trajectory s's final point and density (a follower's are its leader's).
func (ms *shifter) point(s int) ([]float64, int) {
	for ms.tr[s].leader >= 0 {
		s = int(ms.tr[s].leader)
	}
	return ms.tr[s].y, ms.tr[s].count
}
