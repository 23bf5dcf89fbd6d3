package group

import (
	"container/heap"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/score"
)

// Graph is the feature graph of MIDS: an edge joins features whose |Pearson r| exceeds
// epsilon. Adj[i] lists i's neighbours, ascending.
type Graph struct {
	Adj [][]int32
}

// CorrelationGraph builds the graph of the columns of x (z-scored by the caller):
// r_ij = x_i'x_j / (n-1), computed as blocked matrix products.
func CorrelationGraph(ctx context.Context, x *mat.Dense, epsilon float64) (Graph, error) {
	gs, err := CorrelationGraphs(ctx, x, []float64{epsilon})
	if err != nil {
		return Graph{}, err
	}
	return gs[0], nil
}

// CorrelationGraphs builds the graphs at several epsilons from one pass over the
// correlations. As d^2 = ||x_j - x_k||^2 = 2(n-1)(1 - r_jk) for z-scored columns,
// |r_jk| > eps  <=>  d^2 < 2(n-1)(1-eps) or d^2 > 2(n-1)(1+eps); the distances are screened
// by float32 matrix products with a guaranteed error bound and computed in float64 only
// where the bound cannot decide, so the graph is that of the exact correlations.
func CorrelationGraphs(ctx context.Context, x *mat.Dense, epsilons []float64) ([]Graph, error) {
	n, _ := x.Dims()
	sp := newSpace(x)
	p := sp.len()
	gs := make([]Graph, len(epsilons))
	lo, hi := make([]float64, len(epsilons)), make([]float64, len(epsilons))
	for e, eps := range epsilons {
		gs[e].Adj = make([][]int32, p)
		lo[e], hi[e] = 2*float64(n-1)*(1-eps), 2*float64(n-1)*(1+eps)
	}
	rows, all := make([][]float64, p), make([]int, p)
	for j := range rows {
		rows[j], all[j] = sp.pt.RawRowView(j), j
	}
	err := sp.screenRows(ctx, rows, all, func(j int, sc screener) {
		for e := range gs {
			gs[e].Adj[j] = correlated(sc, j, sc.cut(lo[e]), sc.cut(hi[e]))
		}
	})
	return gs, err
}

// correlated lists the features k != j with ||y - x_k||^2 < near.r2 or > far.r2 (|r| > eps),
// deciding by the float32 estimate where its error bound allows. In a dense row (70% of
// Chowdary's pairs are edges at 0.6) a branch on the verdict is mispredicted often, so
// when the first features show more than a quarter of edges the rest are listed without
// one (see edgesDense); a sparse row keeps the branch, which is then cheaper.
func correlated(sc screener, j int, near, far cutoff) []int32 {
	buf := scratchIdx.get(len(sc.g))
	defer scratchIdx.put(buf)
	pre := min(len(sc.g), 256)
	m := edgesSparse(sc, near, far, 0, pre, *buf, 0)
	if 4*m > pre {
		m = edgesDense(sc, near, far, pre, len(sc.g), *buf, m)
	} else {
		m = edgesSparse(sc, near, far, pre, len(sc.g), *buf, m)
	}
	l := (*buf)[:m]
	if i, found := slices.BinarySearch(l, int32(j)); found {
		l = slices.Delete(l, i, i+1)
	}
	if len(l) == 0 {
		return nil
	}
	return slices.Clone(l)
}

// edgesSparse writes to l[m:] the edges among features from..to-1 (j itself included),
// branching on each verdict, and returns the new count.
func edgesSparse(sc screener, near, far cutoff, from, to int, l []int32, m int) int {
	for k := from; k < to; k++ {
		v := sc.value(k, sc.g[k])
		if v < near.out && v > far.in { // certainly between: |r| < eps
			continue
		}
		if v > near.in || v < far.out {
			l[m], m = int32(k), m+1
			continue
		}
		if d := sc.exact(k); d < near.r2 || d > far.r2 {
			l[m], m = int32(k), m+1
		}
	}
	return m
}

// edgesDense is edgesSparse without a branch on the verdict: every k is written and the
// count advanced by the verdict; only the undecided bands (a rounding wider, see
// cutoff.band) branch, to the exact distance.
func edgesDense(sc screener, near, far cutoff, from, to int, l []int32, m int) int {
	nmid, nwide := near.band()
	fmid, fwide := far.band()
	for k := from; k < to; k++ {
		v := sc.value(k, sc.g[k])
		l[m] = int32(k)
		edge := (v > near.in) != (v < far.out) // never both: far.out < near.in
		if math.Abs(v-nmid) <= nwide || math.Abs(v-fmid) <= fwide {
			d := sc.exact(k)
			edge = d < near.r2 || d > far.r2
		}
		if edge {
			m++
		}
	}
	return m
}

// Edges is the number of edges.
func (g Graph) Edges() int {
	e := 0
	for _, a := range g.Adj {
		e += len(a)
	}
	return e / 2
}

// CheckIDS returns an error unless set is independent (no edge inside it) and dominating
// (every other vertex has a neighbour in it).
func (g Graph) CheckIDS(set []int) error {
	in := make([]bool, len(g.Adj))
	for _, v := range set {
		in[v] = true
	}
	for _, v := range set {
		for _, u := range g.Adj[v] {
			if in[u] {
				return fmt.Errorf("features %d and %d are both in the set and adjacent", v, u)
			}
		}
	}
	for v := range g.Adj {
		if in[v] {
			continue
		}
		dominated := false
		for _, u := range g.Adj[v] {
			dominated = dominated || in[u]
		}
		if !dominated {
			return fmt.Errorf("feature %d is neither in the set nor next to it", v)
		}
	}
	return nil
}

// GreedyMIS adds vertices by decreasing degree (ties by index) unless a neighbour is
// already in: a maximal independent set, hence an independent dominating set.
func (g Graph) GreedyMIS() []int {
	order := make([]int, len(g.Adj))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(g.Adj[order[a]]) > len(g.Adj[order[b]]) })
	return g.completeFrom(nil, order)
}

// completeFrom extends the independent set in by the vertices of order that have no
// neighbour in it yet; the result is maximal, so it dominates.
func (g Graph) completeFrom(in []bool, order []int) []int {
	if in == nil {
		in = make([]bool, len(g.Adj))
	}
	blocked := make([]bool, len(g.Adj))
	for v, ok := range in {
		if ok {
			for _, u := range g.Adj[v] {
				blocked[u] = true
			}
		}
	}
	for _, v := range order {
		if in[v] || blocked[v] {
			continue
		}
		in[v] = true
		for _, u := range g.Adj[v] {
			blocked[u] = true
		}
	}
	var set []int
	for v, ok := range in {
		if ok {
			set = append(set, v)
		}
	}
	return set
}

// MIDS returns a small independent dominating set of g (CheckIDS holds), the better
// of two candidates, each shrunk by (2,1)-swaps (see shrink):
//   - the paper's relaxation (Shu, Ma and Latecki 2013, eq. 9): maximise
//     f(x) = w'x/||w|| - x'Ex over [0,1]^p, w_i = degree, by the integer projected fixed
//     point method from x = w/||w|| (see relax); x_i >= 1/2 is kept, an edge left inside
//     drops its higher-index end, and completeGreedy makes the set dominating;
//   - completeGreedy from the empty set.
//
// Ties go to the relaxation. On correlation graphs of microarrays the greedy candidate
// is usually smaller (Colon at 0.6: 68 against 70).
func (g Graph) MIDS() []int {
	p := len(g.Adj)
	x := g.relax()
	in := make([]bool, p)
	for v := range in {
		in[v] = x[v] >= 0.5
	}
	for v := range in {
		if !in[v] {
			continue
		}
		for _, u := range g.Adj[v] {
			if in[u] && int(u) < v {
				in[v] = false
				break
			}
		}
	}
	relaxed := g.shrink(g.completeGreedy(in))
	greedy := g.shrink(g.completeGreedy(nil))
	if len(greedy) < len(relaxed) {
		return greedy
	}
	return relaxed
}

// relax maximises f(x) = a'x - x'Ex over [0,1]^p, a = w/||w||, by the integer projected
// fixed point method (Leordeanu, Hebert and Sukthankar 2009), with E's products by
// adjProduct; see relaxBy.
func (g Graph) relax() []float64 {
	return g.relaxBy(newAdjProduct(g).mul)
}

// relaxBy is relax with out = E v computed by mulE: from x = a, step towards
// b = [a - 2Ex > 0], the best 0/1 point of the linear model, by the r in [0,1] that
// maximises f(x + r(b-x)) = f(x) + rC - r^2 D, C = (a-2Ex)'d, D = d'Ed; stop when C <= 0.
func (g Graph) relaxBy(mulE func(v, out []float64)) []float64 {
	p := len(g.Adj)
	a := make([]float64, p)
	norm := 0.0
	for i, l := range g.Adj {
		a[i] = float64(len(l))
		norm += a[i] * a[i]
	}
	if norm == 0 {
		return a
	}
	for i := range a {
		a[i] /= math.Sqrt(norm)
	}
	x := append([]float64(nil), a...)
	ex, ed, d := make([]float64, p), make([]float64, p), make([]float64, p)
	for it := 0; it < 1000; it++ {
		mulE(x, ex)
		for i := range d {
			d[i] = -x[i]
			if a[i]-2*ex[i] > 0 {
				d[i] = 1 - x[i]
			}
		}
		mulE(d, ed)
		C, D := 0.0, 0.0
		for i := range d {
			C += (a[i] - 2*ex[i]) * d[i]
			D += d[i] * ed[i]
		}
		if C <= 1e-12 {
			break
		}
		r := 1.0
		if D > 0 {
			r = math.Min(1, C/(2*D))
		}
		for i := range x {
			x[i] += r * d[i]
		}
	}
	return x
}

// adjProduct computes out = E v for a graph's adjacency E: out[i] sums v over i's
// neighbours, ascending. Zeros add nothing, so when v's nonzeros reach few edges, their
// neighbour lists are scattered instead, in ascending order too: the same sums, bit for
// bit, for less work (relax's x and its step have few nonzeros once x is near a 0/1
// point). Dense products are gathered on all cores by blocks of rows.
type adjProduct struct {
	g     Graph
	edges int   // entries of E: twice the edges
	nz    []int // v's nonzeros, reused
}

func newAdjProduct(g Graph) *adjProduct { return &adjProduct{g: g, edges: 2 * g.Edges()} }

func (m *adjProduct) mul(v, out []float64) {
	work := 0
	m.nz = m.nz[:0]
	for j, vj := range v {
		if vj != 0 {
			m.nz = append(m.nz, j)
			work += len(m.g.Adj[j])
		}
	}
	if 2*work < m.edges {
		clear(out)
		for _, j := range m.nz {
			vj := v[j]
			for _, i := range m.g.Adj[j] {
				out[i] += vj
			}
		}
		return
	}
	const rows = 1024
	p := len(v)
	forAll(context.Background(), (p+rows-1)/rows, func(b int) {
		for i := b * rows; i < min(p, (b+1)*rows); i++ {
			s := 0.0
			for _, j := range m.g.Adj[i] {
				s += v[j]
			}
			out[i] = s
		}
	})
}

// completeGreedy extends the independent set in (nil: empty) to a dominating one, each
// time adding the free vertex (neither in nor adjacent to the set) that would dominate
// the most vertices not yet dominated, itself included; ties go to the lower index.
func (g Graph) completeGreedy(in []bool) []int {
	p := len(g.Adj)
	if in == nil {
		in = make([]bool, p)
	}
	dominated := make([]bool, p)
	gain := make([]int, p)
	for v := range gain {
		gain[v] = len(g.Adj[v]) + 1
	}
	cover := func(v int) {
		if dominated[v] {
			return
		}
		dominated[v] = true
		gain[v]--
		for _, u := range g.Adj[v] {
			gain[u]--
		}
	}
	take := func(v int) {
		in[v] = true
		cover(v)
		for _, u := range g.Adj[v] {
			cover(int(u))
		}
	}
	for v, ok := range in {
		if ok {
			take(v)
		}
	}
	h := &gainHeap{}
	for v := range gain {
		if !dominated[v] {
			h.items = append(h.items, gainItem{gain[v], v})
		}
	}
	heap.Init(h)
	for h.Len() > 0 {
		it := heap.Pop(h).(gainItem)
		v := it.v
		if dominated[v] {
			continue
		}
		if it.gain != gain[v] { // gains only fall: requeue at the current value
			heap.Push(h, gainItem{gain[v], v})
			continue
		}
		take(v)
	}
	var set []int
	for v, ok := range in {
		if ok {
			set = append(set, v)
		}
	}
	return set
}

type gainItem struct{ gain, v int }

// gainHeap is a max-heap on gain, ties by lower vertex.
type gainHeap struct{ items []gainItem }

func (h *gainHeap) Len() int { return len(h.items) }
func (h *gainHeap) Less(i, j int) bool {
	a, b := h.items[i], h.items[j]
	return a.gain > b.gain || a.gain == b.gain && a.v < b.v
}
func (h *gainHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *gainHeap) Push(x any)    { h.items = append(h.items, x.(gainItem)) }
func (h *gainHeap) Pop() any {
	it := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return it
}

// shrink improves an independent dominating set by (2,1)-swaps until none applies: two
// members u, v leave and an outsider w adjacent to both enters, when w has no other
// member neighbour and every vertex dominated only by u or v is w or adjacent to w.
// Each swap keeps the set independent and dominating and makes it one smaller.
// Candidates are tried in index order, so the result is deterministic.
func (g Graph) shrink(set []int) []int {
	p := len(g.Adj)
	in := make([]bool, p)
	for _, v := range set {
		in[v] = true
	}
	dom := make([]int, p) // members adjacent to each vertex
	for _, v := range set {
		for _, u := range g.Adj[v] {
			dom[u]++
		}
	}
	mark := make([]int, p) // generation stamps for w's neighbourhood
	gen := 0
	for improved := true; improved; {
		improved = false
		for w := 0; w < p; w++ {
			if in[w] || dom[w] != 2 {
				continue
			}
			var uv [2]int
			k := 0
			for _, x := range g.Adj[w] {
				if in[x] {
					uv[k] = int(x)
					k++
				}
			}
			gen++
			mark[w] = gen
			for _, x := range g.Adj[w] {
				mark[x] = gen
			}
			ok := true
			for _, m := range uv {
				for _, x := range g.Adj[m] {
					if in[x] || mark[x] == gen {
						continue
					}
					// x loses m; is it still dominated by a member other than u and v?
					lost := 0
					for _, m2 := range uv {
						if adjacent(g.Adj[x], m2) {
							lost++
						}
					}
					if dom[x]-lost == 0 {
						ok = false
						break
					}
				}
				if !ok {
					break
				}
			}
			if !ok {
				continue
			}
			for _, m := range uv {
				in[m] = false
				for _, x := range g.Adj[m] {
					dom[x]--
				}
			}
			in[w] = true
			for _, x := range g.Adj[w] {
				dom[x]++
			}
			improved = true
		}
	}
	var out []int
	for v, ok := range in {
		if ok {
			out = append(out, v)
		}
	}
	return out
}

// adjacent reports whether v is in the ascending neighbour list adj.
func adjacent(adj []int32, v int) bool {
	i := sort.Search(len(adj), func(i int) bool { return int(adj[i]) >= v })
	return i < len(adj) && int(adj[i]) == v
}

// MIDSFilter ranks with Inner on the features of the MIDS of the correlation graph at
// Epsilon only ("SVM-RFE + MIDS"); the other features follow, by index, scoring below
// every MIDS feature. With Fixed set, that set is used instead of the training data's
// MIDS (the MIDS paper's setting, its MIDS computed once on all samples).
type MIDSFilter struct {
	Inner   score.Ranker
	Epsilon float64
	Fixed   []int
}

// Rank implements score.Ranker.
func (m MIDSFilter) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (score.Ranking, error) {
	set := m.Fixed
	if set == nil {
		g, err := CorrelationGraph(ctx, x, m.Epsilon)
		if err != nil {
			return score.Ranking{}, err
		}
		set = g.MIDS()
	}
	inner, err := m.Inner.Rank(ctx, dataset.SelectFeatures(x, set), y, classes, r)
	if err != nil {
		return score.Ranking{}, err
	}
	_, p := x.Dims()
	rk := score.Ranking{Score: make([]float64, p), Unconverged: inner.Unconverged}
	minS := math.Inf(1)
	for _, s := range inner.Score {
		minS = math.Min(minS, s)
	}
	in := make([]bool, p)
	for _, k := range inner.Order {
		j := set[k]
		in[j] = true
		rk.Order = append(rk.Order, j)
		rk.Score[j] = inner.Score[k]
	}
	for j := 0; j < p; j++ {
		if !in[j] {
			rk.Order = append(rk.Order, j)
			rk.Score[j] = minS - 1
		}
	}
	return rk, nil
}

// SimilaritySum is the sum of |r| over the pairs j < k of the columns of x (z-scored by
// the caller) with |r| > threshold, r = 1 - d^2 / (2 (n - 1)) from the exact float64
// distance d of the pair. Each pair is visited once, in blocks of float32 products with
// a guaranteed error bound, and its distance computed exactly only where the bound
// cannot place it. Column j's part adds its pairs in increasing k, within one worker,
// and the parts are added in column order, so the sum does not depend on the
// goroutines.
func SimilaritySum(ctx context.Context, x *mat.Dense, threshold float64) (float64, error) {
	n, _ := x.Dims()
	sp := newSpace(x)
	lo, hi := 2*float64(n-1)*(1-threshold), 2*float64(n-1)*(1+threshold)
	parts := make([]float64, sp.len())
	e := sp.pairErr()
	err := sp.pairs(ctx, func(_, i0, i1, j0, j1 int, c []float32) {
		cols := j1 - j0
		ub := scratchIdx.get(cols)
		defer scratchIdx.put(ub)
		for a := i0; a < i1; a++ {
			ex := similarPairs{sp: sp, a: a, lo: lo, hi: hi, n: n, part: &parts[a]}
			b0 := max(j0, a+1)
			if b0 >= j1 {
				continue
			}
			for _, b := range sp.unplaced(a, b0, c[(a-i0)*cols+b0-j0:(a-i0+1)*cols], lo, hi, e, *ub) {
				ex.push(int(b))
			}
			ex.flush()
		}
	})
	sum := 0.0
	for _, v := range parts {
		sum += v
	}
	return sum, err
}

// unplaced returns (in out) the features b = b0, b0+1, ... (one for each c[i], c[i] ~
// x_a'x_b in float32) whose screened squared distance to a, est = (||x_a||^2 + ||x_b||^2)
// - 2 c[i], give or take e, cannot be placed between lo and hi: those whose |r| may
// exceed the threshold. On AVX2 four at a time, with the same float64 operations.
func (sp *space) unplaced(a, b0 int, c []float32, lo, hi, e float64, out []int32) []int32 {
	m, done := 0, 0
	if haveAVX2 && len(c) >= 4 {
		done = len(c) / 4 * 4
		_, _ = sp.norm[b0+done-1], out[done-1] // the kernel reads and may write that far
		m = needExact(&c[0], &sp.norm[b0], done/4, sp.norm[a], lo, hi, e, &out[0])
		for i := range out[:m] {
			out[i] += int32(b0)
		}
	}
	for i := done; i < len(c); i++ {
		b := b0 + i
		if est := sp.norm[a] + sp.norm[b] - 2*float64(c[i]); !(est-e >= lo && est+e <= hi) {
			out[m] = int32(b)
			m++
		}
	}
	return out[:m]
}

// similarPairs adds to part, for feature a and features b > a in the order they are
// pushed, |r| = |1 - d / (2 (n - 1))| where the exact squared distance d (pairDist's, bit
// for bit) is below lo or above hi, computing the distances four at a time (dots4).
type similarPairs struct {
	sp     *space
	a, n   int
	lo, hi float64
	part   *float64
	b      [4]int
	m      int
	rows   [4][]float64
	dots   [4]float64
}

func (pr *similarPairs) push(b int) {
	pr.b[pr.m] = b
	pr.m++
	if pr.m == 4 {
		pr.flush()
	}
}

// flush adds the pending pairs, their distances as pairDist computes them (dist2Of from
// floats.Dot's inner products).
func (pr *similarPairs) flush() {
	if pr.m == 0 {
		return
	}
	ya := pr.sp.pt.RawRowView(pr.a)
	for k := range pr.rows {
		pr.rows[k] = pr.sp.pt.RawRowView(pr.b[min(k, pr.m-1)])
	}
	dots4(ya, &pr.rows, &pr.dots)
	for k, b := range pr.b[:pr.m] {
		if d := pr.sp.dist2Of(pr.sp.norm[pr.a], pr.dots[k], b); d < pr.lo || d > pr.hi {
			*pr.part += math.Abs(1 - d/(2*float64(pr.n-1)))
		}
	}
	pr.m = 0
}
