package group

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
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
	n, _ := x.Dims()
	ps := newPoints(x)
	p := ps.len()
	g := Graph{Adj: make([][]int32, p)}
	// |r| > eps  <=>  d^2 < 2(n-1)(1-eps) or d^2 > 2(n-1)(1+eps), as d^2 = 2(n-1)(1-r)
	lo, hi := 2*float64(n-1)*(1-epsilon), 2*float64(n-1)*(1+epsilon)
	err := ps.pairwise(ctx, func(j int, d2 []float64) {
		var l []int32
		for k, v := range d2 {
			if k != j && (v < lo || v > hi) {
				l = append(l, int32(k))
			}
		}
		g.Adj[j] = l
	})
	return g, err
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

// MIDS solves the relaxed programme of Shu, Ma and Latecki (2013), maximise
// f(x) = x'Ax - x'Ex over [0,1]^p with A = diag(w/||w||), w_i = degree, by the integer
// projected fixed point method (step to the best 0/1 point of the linear model, line
// search on the quadratic), rounds at 1/2, and repairs: while an edge lies inside the
// set the member with most neighbours inside leaves (ties: smaller degree, then larger
// index), then vertices are added by decreasing degree until the set dominates; last,
// (2,1)-swaps shrink it (see shrink). On correlation graphs the relaxation's iterate
// tends to 0 from its interior start, so the result is in practice the degree-greedy set
// shrunk by swaps. It is always an independent dominating set (CheckIDS holds).
func (g Graph) MIDS() []int {
	p := len(g.Adj)
	w := make([]float64, p)
	norm := 0.0
	for i, a := range g.Adj {
		w[i] = float64(len(a))
		norm += w[i] * w[i]
	}
	norm = math.Sqrt(norm)
	a := make([]float64, p)
	for i := range a {
		if norm > 0 {
			a[i] = w[i] / norm
		}
	}
	// M x = a o x - E x
	mul := func(x, out []float64) {
		for i := range out {
			s := a[i] * x[i]
			for _, j := range g.Adj[i] {
				s -= x[j]
			}
			out[i] = s
		}
	}
	x := make([]float64, p)
	for i := range x {
		x[i] = 1 / float64(p)
	}
	mx := make([]float64, p)
	md := make([]float64, p)
	b := make([]float64, p)
	d := make([]float64, p)
	for it := 0; it < 1000; it++ {
		mul(x, mx)
		for i := range b {
			b[i] = 0
			if mx[i] > 0 {
				b[i] = 1
			}
			d[i] = b[i] - x[i]
		}
		mul(d, md)
		C, D, moved := 0.0, 0.0, 0.0
		for i := range d {
			C += mx[i] * d[i]
			D += d[i] * md[i]
		}
		r := 1.0
		if D < 0 {
			r = math.Min(1, -C/D)
		}
		if C <= 1e-12 && D >= 0 {
			break
		}
		for i := range x {
			nx := x[i] + r*d[i]
			moved += math.Abs(nx - x[i])
			x[i] = nx
		}
		if moved < 1e-9 {
			break
		}
	}
	in := make([]bool, p)
	for i, v := range x {
		in[i] = v >= 0.5
	}
	// repair independence
	for {
		worst, worstN := -1, 0
		for v := range in {
			if !in[v] {
				continue
			}
			k := 0
			for _, u := range g.Adj[v] {
				if in[u] {
					k++
				}
			}
			if k > worstN || (k == worstN && k > 0 && (len(g.Adj[v]) < len(g.Adj[worst]) || len(g.Adj[v]) == len(g.Adj[worst]) && v > worst)) {
				worst, worstN = v, k
			}
		}
		if worst < 0 {
			break
		}
		in[worst] = false
	}
	order := make([]int, p)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return len(g.Adj[order[i]]) > len(g.Adj[order[j]]) })
	return g.shrink(g.completeFrom(in, order))
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
// every MIDS feature.
type MIDSFilter struct {
	Inner   score.Ranker
	Epsilon float64
}

// Rank implements score.Ranker.
func (m MIDSFilter) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (score.Ranking, error) {
	g, err := CorrelationGraph(ctx, x, m.Epsilon)
	if err != nil {
		return score.Ranking{}, err
	}
	set := g.MIDS()
	inner, err := m.Inner.Rank(ctx, dataset.SelectFeatures(x, set), y, classes, r)
	if err != nil {
		return score.Ranking{}, err
	}
	_, p := x.Dims()
	rk := score.Ranking{Score: make([]float64, p)}
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
