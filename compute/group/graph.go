package group

import (
	"context"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"
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

// adjacent reports whether v is in the ascending neighbour list adj.
func adjacent(adj []int32, v int) bool {
	i := sort.Search(len(adj), func(i int) bool { return int(adj[i]) >= v })
	return i < len(adj) && int(adj[i]) == v
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
