package group

import (
	"context"
	"fmt"
	"hash/maphash"
	"math"
	"os"
	"slices"
	"sync"

	"gonum.org/v1/gonum/floats"
	"sync/atomic"
)

// shellShare sets the shell width of a flat-kernel trajectory, w = clamp(shellMoves * its
// last move, h/1000, h*shellShare).
const (
	shellShare = 0.125
	shellMoves = 6.0
)

// trajectory is one mean-shift path. For the flat kernel it keeps, from the last full
// evaluation at ref, the features whose distance to ref lies in [h-w, h+w] (the shell)
// with their membership at y: while ||y - ref|| + eps <= w every other feature keeps the
// side of h it had at ref (triangle inequality), so only the shell is re-measured, and
// the members' sum, exact in fixed point, changes by the features that crossed.
type trajectory struct {
	y, ref []float64
	w      float64
	sum    []float64 // sum of the members of N_h(y), exact (see space)
	count  int
	shell  []int32
	in     []bool
	moved  float64 // length of the last step
	state  int8
	leader int32 // the trajectory this one coincides with, or -1
	hub    *hub  // the hub of its last rebuild, if any
}

const (
	moving   int8 = iota
	settling      // stopped at y; its density at y is still to be counted
	done
)

// shifter runs mean shift from every feature in synchronous rounds.
type shifter struct {
	sp       *space
	h        float64
	gaussian bool
	tr       []trajectory
	full     atomic.Int64 // full evaluations (a scan of every feature)
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
// passed, and counts each stationary point's density. It returns the rounds taken.
func (ms *shifter) run(ctx context.Context, maxIter int, tol float64) (int, error) {
	rounds := 0
	for it := 0; ; it++ {
		var todo []int
		for s := range ms.tr {
			if st := ms.tr[s].state; st != done && ms.tr[s].leader < 0 {
				if it >= maxIter && st == moving {
					ms.tr[s].state = settling // out of rounds: count it where it is
				}
				todo = append(todo, s)
			}
		}
		if len(todo) == 0 {
			return rounds, nil
		}
		f0 := ms.full.Load()
		if err := ms.evaluate(ctx, todo); err != nil {
			return 0, err
		}
		if it < maxIter {
			rounds = it + 1
		}
		for _, s := range todo {
			ms.advance(s, tol)
		}
		ms.merge(todo)
		if debugMS {
			sh, mv, ws := 0, 0.0, 0.0
			for _, s := range todo {
				sh += len(ms.tr[s].shell)
				mv += ms.tr[s].moved
				ws += ms.tr[s].w
			}
			nt := float64(len(todo))
			fmt.Fprintf(os.Stderr, "hubs %d it %d todo %d full %d mean shell %.0f mean move/h %.4f mean w/h %.4f\n", hubRuns.Load(), it, len(todo), ms.full.Load()-f0, float64(sh)/nt, mv/nt/ms.h, ws/nt/ms.h)
		}
	}
}

// advance moves a moving trajectory to the mean of its members (or ends a settling one).
func (ms *shifter) advance(s int, tol float64) {
	t := &ms.tr[s]
	if t.state == settling || (!ms.gaussian && t.count == 0) || (ms.gaussian && t.ref == nil) {
		t.state = done
		return
	}
	next := make([]float64, len(t.y))
	if ms.gaussian {
		copy(next, t.ref) // evaluate left the weighted mean in ref
	} else {
		c := float64(t.count)
		for i, v := range t.sum {
			next[i] = v / c
		}
	}
	t.moved = math.Sqrt(dist2(next, t.y))
	t.y = next
	if t.moved < tol {
		t.state = settling
	}
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
		for _, v := range t.y {
			var b [8]byte
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
				break
			}
		}
		if !matched {
			first[key] = append(first[key], s)
		}
	}
}

// evaluate brings the members (sum, count) of the trajectories up to date at their y:
// from the shell where it is still valid, else by screening every feature.
func (ms *shifter) evaluate(ctx context.Context, todo []int) error {
	var fullRows []int
	eps := 1e-9 * ms.h
	for _, s := range todo {
		t := &ms.tr[s]
		if ms.gaussian || t.ref == nil || math.Sqrt(dist2(t.y, t.ref))+eps > t.w {
			fullRows = append(fullRows, s)
		}
	}
	isFull := make(map[int]bool, len(fullRows))
	for _, s := range fullRows {
		isFull[s] = true
	}
	var shellRows []int
	for _, s := range todo {
		if !isFull[s] {
			shellRows = append(shellRows, s)
		}
	}
	if err := forAll(ctx, len(shellRows), func(i int) { ms.shellStep(shellRows[i]) }); err != nil {
		return err
	}
	// a rebuild near a hub (of this round or the trajectory's last) screens the hub's
	// ring; the others screen every feature, and those after the first round found hubs
	var scans, creators []int
	var centres [][]float64
	owner := map[int]int{} // trajectory -> creator whose hub rebuilds it
	for _, s := range fullRows {
		t := &ms.tr[s]
		switch {
		case ms.gaussian || t.ref == nil:
			scans = append(scans, s)
		case ms.serves(t.hub, t.y):
			owner[s] = -1
		default:
			found := -1
			for i, c := range centres {
				if math.Sqrt(dist2(t.y, c))+1e-9*ms.h <= hubReach*ms.h {
					found = creators[i]
					break
				}
			}
			if found >= 0 {
				owner[s] = found
			} else {
				creators = append(creators, s)
				centres = append(centres, t.y)
				scans = append(scans, s)
			}
		}
	}
	isCreator := map[int]bool{}
	for _, s := range creators {
		isCreator[s] = true
	}
	hubs := make(map[int]*hub, len(creators))
	var hubsMu sync.Mutex
	ms.full.Add(int64(len(scans)))
	ys := make([][]float64, len(ms.tr))
	for _, s := range scans {
		ys[s] = ms.tr[s].y
	}
	err := ms.sp.screenRows(ctx, ys, scans, func(s int, sc screener) {
		switch {
		case ms.gaussian:
			ms.gaussianStep(s, sc)
		case isCreator[s]:
			hb := ms.newHub(sc)
			hubsMu.Lock()
			hubs[s] = hb
			hubsMu.Unlock()
			ms.fullStep(s, sc)
			ms.tr[s].hub = hb
		default:
			ms.fullStep(s, sc)
		}
	})
	if err != nil {
		return err
	}
	// jobs in a fixed order: by hub (first use), blocks of blockRows trajectories
	var jobs []hubJob
	jobOf := map[*hub]int{}
	for _, s := range fullRows {
		o, ok := owner[s]
		if !ok {
			continue
		}
		hb := ms.tr[s].hub
		if o >= 0 {
			hb = hubs[o]
		}
		j, ok := jobOf[hb]
		if !ok || len(jobs[j].rows) == blockRows {
			j = len(jobs)
			jobOf[hb] = j
			jobs = append(jobs, hubJob{hb: hb})
		}
		jobs[j].rows = append(jobs[j].rows, s)
	}
	hubRuns.Add(int64(len(creators)))
	return ms.rebuildAtHubs(ctx, jobs)
}

var hubRuns atomic.Int64

// shellStep re-measures the shell at y and moves the features that crossed h.
func (ms *shifter) shellStep(s int) {
	t := &ms.tr[s]
	_, n := ms.sp.pt.Dims()
	y32 := make([]float32, n)
	for i, v := range t.y {
		y32[i] = float32(v)
	}
	sc := ms.sp.screener(t.y, nil)
	h2 := ms.h * ms.h
	for i, k := range t.shell {
		in := sc.withinDot(int(k), h2, sdot(y32, ms.sp.x32[int(k)*n:int(k+1)*n]))
		if in == t.in[i] {
			continue
		}
		t.in[i] = in
		if in {
			t.count++
			floats.Add(t.sum, ms.sp.pt.RawRowView(int(k)))
		} else {
			t.count--
			floats.Sub(t.sum, ms.sp.pt.RawRowView(int(k)))
		}
	}
}

// fullStep rebuilds the members and the shell of trajectory s around y from screened
// distances to every feature.
func (ms *shifter) fullStep(s int, sc screener) {
	ms.rebuild(s, sc, nil, nil)
}

// rebuild sets the members and the shell of trajectory s around y. Without a hub, g[k]
// (in sc) is y'x_k for every feature; with one, cols lists the hub's ring, g[i] is
// y'x_cols[i], and the hub's core is inside y's new core (see hub).
func (ms *shifter) rebuild(s int, sc screener, cols []int32, hb *hub) {
	t := &ms.tr[s]
	p, n := ms.sp.pt.Dims()
	h := ms.h
	w := ms.width(t)
	lo2, h2, hi2 := (h-w)*(h-w), h*h, (h+w)*(h+w)
	if t.sum == nil {
		t.sum = make([]float64, n)
	}
	t.count, t.shell, t.in = 0, t.shell[:0], t.in[:0]
	if hb != nil {
		copy(t.sum, hb.sum)
		t.count = hb.count
	} else {
		clear(t.sum)
	}
	visit := func(k int, g float32) {
		// the shell holds every feature that may lie within w of the sphere (a few more
		// do no harm: they are re-measured); the rest are certainly inside or outside it
		est, err := sc.boundsDot(k, g)
		switch {
		case est-err > hi2:
		case est+err < lo2:
			t.count++
			floats.Add(t.sum, ms.sp.pt.RawRowView(k))
		default:
			in := sc.withinDot(k, h2, g)
			if in {
				t.count++
				floats.Add(t.sum, ms.sp.pt.RawRowView(k))
			}
			t.shell = append(t.shell, int32(k))
			t.in = append(t.in, in)
		}
	}
	if hb == nil {
		for k := 0; k < p; k++ {
			visit(k, sc.g[k])
		}
	} else {
		for i, k := range cols {
			visit(int(k), sc.g[i])
		}
	}
	t.ref = append(t.ref[:0], t.y...)
	t.w = w
}

// width is the shell width for trajectory t's next rebuild.
func (ms *shifter) width(t *trajectory) float64 {
	w := ms.h * shellShare
	if t.ref != nil {
		w = math.Min(w, math.Max(shellMoves*t.moved, ms.h/1000))
	}
	return w
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
	for k := 0; k < p; k++ {
		est, err := sc.bounds(k)
		if est-err > r2 {
			continue
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

var debugMS = os.Getenv("DEBUGMS") != ""
