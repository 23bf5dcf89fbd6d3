package group

import (
	"container/heap"
	"context"
	"fmt"
	"math"
	"sort"
)

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
