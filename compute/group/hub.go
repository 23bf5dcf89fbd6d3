package group

import (
	"context"
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"

	"steadfast/compute/fastblas"
)

// Reach of the two kinds of hub, in units of h. Mean-shift points of one dense blob
// gather within a few hundredths of h of each other after a few rounds, so a small hub
// serves many of them with a thin ring; big hubs, built from a scan of every feature,
// make the small ones without another scan.
const (
	smallReach = 0.05
	bigReach   = 0.3
)

// hub is a centre c with the exact members of N_h(c) and its ring: every feature that may
// lie within margin of the sphere ||x - c|| = h. For a point y with ||y - c|| <= reach <=
// margin, a feature outside the ring is on the same side of h from y as from c (triangle
// inequality), so N_h(y) is N_h(c) changed by ring features alone.
type hub struct {
	c     []float64
	reach float64
	sum   []float64 // of the members of N_h(c), exact
	count int
	ring  []int32
	in    []bool // ring[i] within h of c
}

// serves reports whether hb may evaluate a point at y.
func (ms *shifter) serves(hb *hub, y []float64) bool {
	return hb != nil && near(y, hb.c, hb.reach, ms.h)
}

// near reports ||y - c|| + 1e-9 h <= r: the room keeps every triangle-inequality
// decision clear of rounding.
func near(y, c []float64, r, h float64) bool {
	return math.Sqrt(dist2(y, c))+1e-9*h <= r
}

// ringBand returns the values v of the screened point (see value) of the features that
// may lie within margin of the sphere ||x - y|| = h, neither certainly within h - margin
// nor certainly beyond h + margin, as one comparison: |v - mid| <= wide, wide a little
// more than half the band so that rounding never leaves such a v outside (as
// cutoff.band); every v when h <= margin.
func (ms *shifter) ringBand(sc screener, margin float64) (mid, wide float64) {
	lo2 := math.Inf(-1)
	if r := ms.h - margin; r > 0 {
		lo2 = r * r
	}
	lo, hi := sc.cut(lo2), sc.cut((ms.h+margin)*(ms.h+margin))
	return cutoff{in: lo.in, out: hi.out}.band()
}

// hubFromScan builds the hub at the screened point from its distances to every feature.
func (ms *shifter) hubFromScan(sc screener, reach, margin float64) *hub {
	p, n := ms.sp.pt.Dims()
	hb := &hub{c: sc.y, reach: reach, sum: make([]float64, n)}
	mid, wide := ms.ringBand(sc, margin)
	within := sc.cut(ms.h * ms.h)
	rb, ib := scratchIdx.get(p), scratchIn.get(p)
	defer scratchIdx.put(rb)
	defer scratchIn.put(ib)
	ring, in := *rb, *ib
	m := 0
	for k := 0; k < p; k++ {
		v := sc.value(k, sc.g[k])
		ring[m], in[m] = int32(k), sc.inside(k, v, within)
		if in[m] {
			hb.count++
			floats.Add(hb.sum, ms.sp.pt.RawRowView(k))
		}
		if math.Abs(v-mid) <= wide { // kept: no branch on it
			m++
		}
	}
	hb.ring, hb.in = slices.Clone(ring[:m]), slices.Clone(in[:m])
	return hb
}

// derive returns the exact members (sum into dst, count) of a point y within reach of
// hb's centre, screened against hb's ring (g[i] = y'x_ring[i]); with margin > 0 also the
// ring features that may lie within margin of y's sphere, with their membership.
func (ms *shifter) derive(hb *hub, sc screener, dst []float64, margin float64) (sum []float64, count int, ring []int32, inRing []bool) {
	sum = append(dst[:0], hb.sum...)
	count = hb.count
	within := sc.cut(ms.h * ms.h)
	flip := func(k int32, in bool) {
		if in {
			count++
			floats.Add(sum, ms.sp.pt.RawRowView(int(k)))
		} else {
			count--
			floats.Sub(sum, ms.sp.pt.RawRowView(int(k)))
		}
	}
	if margin == 0 { // an evaluation: the memberships alone
		mid, wide := within.band()
		for i, k := range hb.ring {
			in, sure := within.estimate(sc.value(int(k), sc.g[i]), mid, wide)
			if !sure {
				in = sc.exact(int(k)) <= within.r2
			}
			if in != hb.in[i] {
				flip(k, in)
			}
		}
		return sum, count, nil, nil
	}
	rmid, rwide := ms.ringBand(sc, margin)
	rb, ib := scratchIdx.get(len(hb.ring)), scratchIn.get(len(hb.ring))
	defer scratchIdx.put(rb)
	defer scratchIn.put(ib)
	m := 0
	for i, k := range hb.ring {
		v := sc.value(int(k), sc.g[i])
		in := sc.inside(int(k), v, within)
		(*rb)[m], (*ib)[m] = k, in
		if math.Abs(v-rmid) <= rwide { // kept: no branch on it
			m++
		}
		if in != hb.in[i] {
			flip(k, in)
		}
	}
	return sum, count, slices.Clone((*rb)[:m]), slices.Clone((*ib)[:m])
}

// atHub screens the points ys against hb's ring and calls visit(i, sc) for each point,
// g holding the products with the ring's features in ring order. The products come from
// a product per ring feature or, for many points, the ring gathered and multiplied by
// blocks of points.
func (ms *shifter) atHub(hb *hub, ys [][]float64, visit func(i int, sc screener)) {
	if len(ys) >= 16 {
		ms.atHubGathered(hb, ys, visit)
		return
	}
	_, n := ms.sp.pt.Dims()
	cb, yb := scratch32.get(len(hb.ring)), scratch32.get(n)
	defer scratch32.put(cb, yb)
	c, y32 := *cb, *yb
	for i, y := range ys {
		for d, v := range y {
			y32[d] = float32(v)
		}
		for r, k := range hb.ring {
			c[r] = sdot(y32, ms.sp.x32[int(k)*n:int(k+1)*n])
		}
		visit(i, ms.sp.screener(y, c))
	}
}

// wideCheaper reports whether one point's products with all p features, by a matrix
// product, cost less than its products with m of them one by one: a float32 product of
// two rows, read from scattered features, is about 12 times slower per element than
// OpenBLAS's matrix product and about 4 times slower than gonum's (with OpenBLAS, DGF
// on Leukemia took the same time, within the machine's noise, at 6, 12 and 24).
func (sp *space) wideCheaper(m int) bool {
	ratio := 4
	if fastblas.Native() || fastblas.Kernel() {
		ratio = 12
	}
	return m*ratio > sp.len()
}

// atHubGathered is atHub by gathering the ring and multiplying it by blocks of points.
func (ms *shifter) atHubGathered(hb *hub, ys [][]float64, visit func(i int, sc screener)) {
	_, n := ms.sp.pt.Dims()
	m := len(hb.ring)
	const block = 256
	rb, ybb, cb := scratch32.get(m*n), scratch32.get(min(block, len(ys))*n), scratch32.get(min(block, len(ys))*m)
	defer scratch32.put(rb, ybb, cb)
	ring, yb, c := *rb, *ybb, *cb
	for i, k := range hb.ring {
		copy(ring[i*n:(i+1)*n], ms.sp.x32[int(k)*n:int(k+1)*n])
	}
	for b := 0; b < len(ys); b += block {
		part := ys[b:min(b+block, len(ys))]
		for i, y := range part {
			for d, v := range y {
				yb[i*n+d] = float32(v)
			}
		}
		if m > 0 {
			blas32.Gemm(blas.NoTrans, blas.Trans, 1,
				blas32.General{Rows: len(part), Cols: n, Stride: n, Data: yb[:len(part)*n]},
				blas32.General{Rows: m, Cols: n, Stride: n, Data: ring}, 0,
				blas32.General{Rows: len(part), Cols: m, Stride: m, Data: c[:len(part)*m]})
		}
		for i, y := range part {
			visit(b+i, ms.sp.screener(y, c[i*m:(i+1)*m]))
		}
	}
}

// cover goes through the points in order and gives each the first centre within r of
// it, making it a new centre when there is none; it returns each point's centre (an
// index into ys) and the centres in order. Distances to the centres so far come from
// one matrix product per block of points.
func cover(ys [][]float64, r, h float64) (assign, centres []int) {
	if len(ys) == 0 {
		return nil, nil
	}
	const block = 128
	assign = make([]int, len(ys))
	bp := coverPool.Get().(*blockProducts)
	defer coverPool.Put(bp)
	cm := bp.rows[:0] // centres' coordinates, row by row
	var cc []float64  // and squared norms
	for b := 0; b < len(ys); b += block {
		part := ys[b:min(b+block, len(ys))]
		nc := len(centres)
		g := bp.of(part, cm, nc)
		for i, y := range part {
			yy := dot(y, y)
			found := -1
			for j := 0; j < len(centres) && found < 0; j++ {
				c := ys[centres[j]]
				if j < nc {
					est := yy + cc[j] - 2*g[i*nc+j]
					if est-1e-9*(yy+cc[j]) > r*r {
						continue
					}
				}
				if near(y, c, r, h) {
					found = j
				}
			}
			if found < 0 {
				found = len(centres)
				centres = append(centres, b+i)
				cm = append(cm, y...)
				bp.rows = cm
				cc = append(cc, yy)
			}
			assign[b+i] = centres[found]
		}
	}
	return assign, centres
}

// blockProducts computes, for a block of points, the inner products with m points held
// row by row, as one float64 matrix product, reusing its buffers (and, for cover, the
// rows' buffer).
type blockProducts struct{ yb, g, rows []float64 }

var coverPool = sync.Pool{New: func() any { return new(blockProducts) }}

// of returns g with g[i*m+j] = ys[i]'rows_j (nothing when m = 0).
func (bp *blockProducts) of(ys [][]float64, rows []float64, m int) []float64 {
	if m == 0 {
		return nil
	}
	n := len(ys[0])
	bp.yb = grow(bp.yb, len(ys)*n)
	bp.g = grow(bp.g, len(ys)*m)
	for i, y := range ys {
		copy(bp.yb[i*n:], y)
	}
	blas64.Gemm(blas.NoTrans, blas.Trans, 1,
		blas64.General{Rows: len(ys), Cols: n, Stride: n, Data: bp.yb},
		blas64.General{Rows: m, Cols: n, Stride: n, Data: rows}, 0,
		blas64.General{Rows: len(ys), Cols: m, Stride: m, Data: bp.g})
	return bp.g
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n, max(n, 2*cap(s)))
	}
	return s[:n]
}

// evaluateAtHubs evaluates the trajectories (after the first round, flat kernel) at
// small hubs: those whose small hub no longer serves them get a new one, made from a big
// hub, which those whose big hub no longer serves them get from a scan.
func (ms *shifter) evaluateAtHubs(ctx context.Context, todo []int) error {
	var need, lost []int
	for _, s := range todo {
		t := &ms.tr[s]
		if ms.serves(t.small, t.y) {
			continue
		}
		need = append(need, s)
		if !ms.serves(t.big, t.y) {
			lost = append(lost, s)
		}
	}
	if err := ms.newBigHubs(ctx, lost); err != nil {
		return err
	}
	var rest []int // those a lone scan did not give a small hub
	for _, s := range need {
		if t := &ms.tr[s]; !ms.serves(t.small, t.y) {
			rest = append(rest, s)
		}
	}
	if err := ms.newSmallHubs(ctx, rest); err != nil {
		return err
	}
	// evaluate every trajectory at its small hub
	evs := make([]hubEval, len(todo))
	for i, s := range todo {
		t := &ms.tr[s]
		evs[i] = hubEval{hb: t.small, y: t.y}
		if t.small == nil {
			evs[i].hb = t.big
		}
	}
	return ms.screenAtHubs(ctx, evs, func(i int, sc screener) {
		t := &ms.tr[todo[i]]
		t.sum, t.count, _, _ = ms.derive(evs[i].hb, sc, t.sum, 0)
	})
}

// hubEval is a point to screen against a hub's ring.
type hubEval struct {
	hb *hub
	y  []float64
}

// screenAtHubs screens each point against its hub's ring and calls visit(i, sc) for
// evs[i], g holding the products with the ring's features in ring order; visit may run
// on several goroutines, never twice for one i. A hub's points are screened together
// (see atHub); the points of hubs with few points and a large ring, by blocks of points
// of any hubs against every feature, which costs less per point than products with the
// ring's features one by one.
func (ms *shifter) screenAtHubs(ctx context.Context, evs []hubEval, visit func(i int, sc screener)) error {
	all := make([]int, len(evs))
	for i := range all {
		all[i] = i
	}
	var jobs [][]int // blocks of at most 256 points of one hub
	var wide []int
	groups := groupBy(all, func(i int) *hub { return evs[i].hb })
	for _, g := range groups {
		if len(g) < 16 && ms.sp.wideCheaper(len(evs[g[0]].hb.ring)) {
			wide = append(wide, g...)
		}
	}
	if len(wide) < screenBlockRows {
		wide = nil // a product with every feature pays off over a full block of points
	}
	for _, g := range groups {
		if wide != nil && len(g) < 16 && ms.sp.wideCheaper(len(evs[g[0]].hb.ring)) {
			continue
		}
		for b := 0; b < len(g); b += 256 {
			jobs = append(jobs, g[b:min(b+256, len(g))])
		}
	}
	err := forAll(ctx, len(jobs), func(j int) {
		rows := jobs[j]
		ys := make([][]float64, len(rows))
		for i, e := range rows {
			ys[i] = evs[e].y
		}
		ms.atHub(evs[rows[0]].hb, ys, func(i int, sc screener) { visit(rows[i], sc) })
	})
	if err != nil {
		return err
	}
	ys := make([][]float64, len(evs))
	for _, i := range wide {
		ys[i] = evs[i].y
	}
	return ms.sp.screenRows(ctx, ys, wide, func(i int, sc screener) {
		ring := evs[i].hb.ring
		cb := scratch32.get(len(ring))
		defer scratch32.put(cb)
		for r, k := range ring {
			(*cb)[r] = sc.g[k]
		}
		sc.g = *cb
		visit(i, sc)
	})
}

// newBigHubs gives the trajectories big hubs centred at a cover of their points, each
// built from a scan of every feature; a trajectory alone in its part of the cover gets
// a small hub at its point from the scan instead (its thin ring is cheaper to evaluate,
// and a point far from all others is seldom joined).
func (ms *shifter) newBigHubs(ctx context.Context, rows []int) error {
	ys := make([][]float64, len(rows))
	for i, s := range rows {
		ys[i] = ms.tr[s].y
	}
	assign, centres := cover(ys, bigReach*ms.h, ms.h)
	size := make([]int, len(rows))
	for _, c := range assign {
		size[c]++
	}
	made := make([]*hub, len(rows))
	scanRows := make([]int, len(centres))
	all := make([][]float64, len(rows))
	for i, c := range centres {
		scanRows[i], all[c] = c, ys[c]
	}
	ms.full.Add(int64(len(centres)))
	ms.hubs.Add(int64(len(centres)))
	err := ms.sp.screenRows(ctx, all, scanRows, func(i int, sc screener) {
		if size[i] == 1 {
			made[i] = ms.hubFromScan(sc, smallReach*ms.h, smallReach*ms.h)
		} else {
			made[i] = ms.hubFromScan(sc, bigReach*ms.h, (bigReach+smallReach)*ms.h)
		}
	})
	if err != nil {
		return err
	}
	for i, s := range rows {
		if c := assign[i]; size[c] == 1 {
			ms.tr[s].small, ms.tr[s].big = made[c], nil
		} else {
			ms.tr[s].big = made[c]
		}
	}
	return nil
}

// newSmallHubs gives the trajectories small hubs centred at a cover of their points
// (within each big hub), each derived from its big hub.
func (ms *shifter) newSmallHubs(ctx context.Context, rows []int) error {
	groups := groupBy(rows, func(s int) *hub { return ms.tr[s].big })
	assigns := make([][]int, len(groups))
	centres := make([][]int, len(groups)) // per group, the points that get a hub
	err := forAll(ctx, len(groups), func(j int) {
		ys := make([][]float64, len(groups[j]))
		for i, s := range groups[j] {
			ys[i] = ms.tr[s].y
		}
		var all []int
		assigns[j], all = cover(ys, smallReach*ms.h, ms.h)
		size := map[int]int{}
		for _, c := range assigns[j] {
			size[c]++
		}
		// a centre that serves only itself is not worth a hub: its trajectory is
		// evaluated at the big hub
		for _, c := range all {
			if size[c] > 1 {
				centres[j] = append(centres[j], c)
			}
		}
	})
	if err != nil {
		return err
	}
	var evs []hubEval
	var from [][2]int // evs[e] is centre from[e][1] of group from[e][0]
	for j, cs := range centres {
		for _, c := range cs {
			t := &ms.tr[groups[j][c]]
			evs = append(evs, hubEval{hb: t.big, y: t.y})
			from = append(from, [2]int{j, c})
		}
	}
	made := make([]*hub, len(evs))
	err = ms.screenAtHubs(ctx, evs, func(e int, sc screener) {
		hb := &hub{c: evs[e].y, reach: smallReach * ms.h}
		hb.sum, hb.count, hb.ring, hb.in = ms.derive(evs[e].hb, sc, nil, smallReach*ms.h)
		made[e] = hb
	})
	if err != nil {
		return err
	}
	ms.hubs.Add(int64(len(evs)))
	at := make([]map[int]*hub, len(groups))
	for e, f := range from {
		if at[f[0]] == nil {
			at[f[0]] = map[int]*hub{}
		}
		at[f[0]][f[1]] = made[e]
	}
	for j, grp := range groups {
		for i, s := range grp {
			ms.tr[s].small = at[j][assigns[j][i]] // nil: at the big hub
		}
	}
	return nil
}

// groupBy splits rows into groups with the same key, in order of first appearance.
func groupBy(rows []int, key func(s int) *hub) [][]int {
	at := map[*hub]int{}
	var out [][]int
	for _, s := range rows {
		k := key(s)
		j, ok := at[k]
		if !ok {
			j = len(out)
			at[k] = j
			out = append(out, nil)
		}
		out[j] = append(out[j], s)
	}
	return out
}
