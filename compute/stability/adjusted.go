package stability

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"steadfast/compute/parallel"
)

// The similarity-adjusted measures of stabm (Bommert & Rahnenführer 2020) credit two
// selections for selecting different but similar features. For selections V_i, V_j of
// size k, A = V_i \ V_j and B = V_j \ V_i, and x ~ y when Similarity(x, y) >= threshold.
// Steadfast's similarity is |Pearson r| of the two features over all samples.

// AdjustedMeasure is one similarity-adjusted measure. Corrected ones are
// (I - E[I]) / (max I - E[I]) with E[I] the mean of I over random selections of the same
// size (stabm's correction "estimate"); Zucknick's is used as it is.
type AdjustedMeasure struct {
	Name, Label, Source string
	Corrected           bool
	Max                 func(k float64) float64 // max I for two selections of size k
}

// AdjustedMeasures lists them in the order topPair.valuesAt returns their I.
var AdjustedMeasures = []AdjustedMeasure{
	{"intersectioncount", "Intersection count", "Bommert & Rahnenführer 2020: I = c + min(|{x in A: x ~ some y in B}|, |{y in B: y ~ some x in A}|)", true, func(k float64) float64 { return k }},
	{"intersectionmean", "Intersection mean", "Bommert & Rahnenführer 2020: I = c + min over the two sides of sum_{x in A, G_x nonempty} mean_{y in G_x} Similarity(x, y), G_x = {y in B: x ~ y}", true, func(k float64) float64 { return k }},
	{"intersectiongreedy", "Intersection greedy", "Bommert & Rahnenführer 2020: I = c + a greedy matching of A and B (most similar pairs first)", true, func(k float64) float64 { return k }},
	{"intersectionmbm", "Intersection MBM", "Bommert & Rahnenführer 2020: I = c + the maximum bipartite matching of A and B under ~", true, func(k float64) float64 { return k }},
	{"yu", "Yu", "Yu et al. 2012 (stabm): I = (c + (O_ij + O_ji)/2) / k, O_ij = |{x in A: x ~ some y in B}|", true, func(k float64) float64 { return 1 }},
	{"zucknick", "Zucknick", "Zucknick et al. 2008 (stabm): (c + C(V_i, V_j) + C(V_j, V_i)) / |V_i u V_j|, C(V_k, V_l) = (1/|V_l|) sum over x in V_k, y in V_l \\ V_k, x ~ y of Similarity(x, y)", false, nil},
}

// AdjustedThreshold is the similarity from which two features count as similar
// (stabm's default).
const AdjustedThreshold = 0.9

// topPair is where each of two rankings' first features stands in the other: posInB[i]
// is the position of a[i] in b (len(b) when beyond the prefix looked at), and posInA[j]
// that of b[j] in a.
type topPair struct{ posInB, posInA []int }

func newTopPair(a, b []int, maxK int) topPair {
	posA := make(map[int]int, maxK)
	for i, f := range a[:maxK] {
		posA[f] = i
	}
	tp := topPair{posInB: make([]int, maxK), posInA: make([]int, maxK)}
	for i := range tp.posInB {
		tp.posInB[i] = maxK
	}
	for j, f := range b[:maxK] {
		tp.posInA[j] = maxK
		if i, ok := posA[f]; ok {
			tp.posInA[j], tp.posInB[i] = i, j
		}
	}
	return tp
}

// similar is a pair of positions, i in a and j in b, whose features are similar
// (similarity s >= AdjustedThreshold).
type similar struct {
	i, j int
	s    float64
}

// valuesAt returns, for every k of ks (ascending, at most the prefix of newTopPair), the
// I of every AdjustedMeasures entry (Zucknick's value itself) for the top k of the two
// rankings; sim(i, j) is the similarity of a[i] and b[j]. sim is called once a pair of
// positions; the similar pairs are kept in the three orders the measures add them in
// (by row, by column, most similar first with ties by row then column), so every sum
// is added in the same order as stabm's definitions loop, and each k takes the pairs
// between its own A and B.
func (tp topPair) valuesAt(ks []int, sim func(i, j int) float64) [][]float64 {
	n := len(tp.posInB)
	var byRow []similar
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if s := sim(i, j); s >= AdjustedThreshold {
				byRow = append(byRow, similar{i, j, s})
			}
		}
	}
	byCol := slices.Clone(byRow)
	slices.SortFunc(byCol, func(x, y similar) int { return cmp.Or(cmp.Compare(x.j, y.j), cmp.Compare(x.i, y.i)) })
	bySim := slices.Clone(byRow)
	slices.SortStableFunc(bySim, func(x, y similar) int { return cmp.Compare(y.s, x.s) })
	w := newTopWork(n)
	out := make([][]float64, len(ks))
	for ki, k := range ks {
		out[ki] = w.values(tp, k, byRow, byCol, bySim)
	}
	return out
}

// topWork is the scratch space of topPair.valuesAt, indexed by position.
type topWork struct {
	rowHit, colHit, usedA, usedB []bool
	rowSum, colSum               []float64
	rowN, colN                   []int
	adj                          [][]int
}

func newTopWork(n int) *topWork {
	return &topWork{rowHit: make([]bool, n), colHit: make([]bool, n), usedA: make([]bool, n), usedB: make([]bool, n),
		rowSum: make([]float64, n), colSum: make([]float64, n), rowN: make([]int, n), colN: make([]int, n), adj: make([][]int, n)}
}

// values is the I of every measure at k from the similar pairs in their three orders.
// A is a's top k less b's (position i with posInB[i] >= k), B the other way round.
func (w *topWork) values(tp topPair, k int, byRow, byCol, bySim []similar) []float64 {
	inA := func(i int) bool { return i < k && tp.posInB[i] >= k }
	inB := func(j int) bool { return j < k && tp.posInA[j] >= k }
	onlyA := 0
	for i := 0; i < k; i++ {
		if inA(i) {
			onlyA++
		}
		w.rowHit[i], w.colHit[i], w.usedA[i], w.usedB[i] = false, false, false, false
		w.rowSum[i], w.colSum[i], w.rowN[i], w.colN[i] = 0, 0, 0, 0
		w.adj[i] = w.adj[i][:0]
	}
	c := float64(k - onlyA)
	zu := 0.0 // Zucknick: x over all of V_i, y in B; then y over all of V_j, x in A
	for _, e := range byRow {
		if e.i >= k || !inB(e.j) {
			continue
		}
		zu += e.s
		if inA(e.i) {
			w.rowHit[e.i], w.colHit[e.j] = true, true
			w.rowSum[e.i] += e.s
			w.colSum[e.j] += e.s
			w.rowN[e.i]++
			w.colN[e.j]++
		}
	}
	for _, e := range byCol {
		if e.j < k && inA(e.i) {
			zu += e.s
		}
	}
	o12, o21 := count(w.rowHit[:k]), count(w.colHit[:k])
	mean12, mean21 := 0.0, 0.0
	for i := 0; i < k; i++ {
		if w.rowN[i] > 0 {
			mean12 += w.rowSum[i] / float64(w.rowN[i])
		}
	}
	for j := 0; j < k; j++ {
		if w.colN[j] > 0 {
			mean21 += w.colSum[j] / float64(w.colN[j])
		}
	}
	greedy := 0 // most similar pair first
	for _, e := range bySim {
		if !inA(e.i) || !inB(e.j) {
			continue
		}
		w.adj[e.i] = append(w.adj[e.i], e.j)
		if !w.usedA[e.i] && !w.usedB[e.j] {
			w.usedA[e.i], w.usedB[e.j] = true, true
			greedy++
		}
	}
	kf := float64(k)
	return []float64{
		c + math.Min(float64(o12), float64(o21)),
		c + math.Min(mean12, mean21),
		c + float64(greedy),
		c + float64(maxMatching(w.adj[:k], k)),
		(c + float64(o12+o21)/2) / kf,
		(c + zu/kf) / (2*kf - c),
	}
}

func count(v []bool) int {
	n := 0
	for _, x := range v {
		if x {
			n++
		}
	}
	return n
}

// maxMatching is the size of a maximum matching of a bipartite graph (left vertex i
// adjacent to the right vertices adj[i]) by augmenting paths (Kuhn's algorithm).
func maxMatching(adj [][]int, right int) int {
	match := make([]int, right)
	for j := range match {
		match[j] = -1
	}
	var seen []bool
	var try func(i int) bool
	try = func(i int) bool {
		for _, j := range adj[i] {
			if seen[j] {
				continue
			}
			seen[j] = true
			if match[j] < 0 || try(match[j]) {
				match[j] = i
				return true
			}
		}
		return false
	}
	size := 0
	for i := range adj {
		seen = make([]bool, right)
		if try(i) {
			size++
		}
	}
	return size
}

// AdjustedCurves accumulates the adjusted measures over pairs of rankings for each k
// of ks up to maxK; Add a pair, then Values with the expectations from Expected.
type AdjustedCurves struct {
	ks    []int
	sum   [][]float64 // [ki][measure]
	pairs int
}

// NewAdjustedCurves starts the curves for the ks (ascending).
func NewAdjustedCurves(ks []int) *AdjustedCurves {
	c := &AdjustedCurves{ks: ks, sum: make([][]float64, len(ks))}
	for i := range c.sum {
		c.sum[i] = make([]float64, len(AdjustedMeasures))
	}
	return c
}

// Add adds the pair of rankings a, b; sim(i, j) is the similarity of a[i] and b[j],
// needed for i, j below the largest k.
func (c *AdjustedCurves) Add(a, b []int, sim func(i, j int) float64) {
	if len(c.ks) > 0 {
		tp := newTopPair(a, b, c.ks[len(c.ks)-1])
		for ki, vals := range tp.valuesAt(c.ks, sim) {
			for m, v := range vals {
				c.sum[ki][m] += v
			}
		}
	}
	c.pairs++
}

// Values returns measure name -> value at each k: the mean over pairs, corrected by the
// expectations (expected[ki][measure], from Expected) where the measure is corrected.
// Stabm corrects each pair; every pair here has selections of the same size k, so
// correcting the mean is the same.
func (c *AdjustedCurves) Values(expected [][]float64) map[string][]float64 {
	out := map[string][]float64{}
	for m, am := range AdjustedMeasures {
		v := make([]float64, len(c.ks))
		for ki, k := range c.ks {
			if c.pairs == 0 {
				v[ki] = math.NaN()
				continue
			}
			x := c.sum[ki][m] / float64(c.pairs)
			if am.Corrected {
				e := expected[ki][m]
				x = ratio(x-e, am.Max(float64(k))-e)
			}
			v[ki] = x
		}
		out[am.Name] = v
	}
	return out
}

// Expected estimates E[I] of every adjusted measure at each k of ks (ascending) for two
// random selections of k of the p features, as the mean over n pairs of random
// rankings drawn from r; sim(f, g) is the similarity of features f and g and must be
// safe to call from several goroutines. The pairs are drawn in turn and evaluated on
// workers goroutines (<= 0: GOMAXPROCS), and their values added in the order drawn,
// so the estimate does not depend on workers.
func Expected(ctx context.Context, workers, p int, ks []int, n int, r *rand.Rand, sim func(f, g int) float64) ([][]float64, error) {
	out := make([][]float64, len(ks))
	for i := range out {
		out[i] = make([]float64, len(AdjustedMeasures))
	}
	if len(ks) == 0 {
		return out, nil
	}
	maxK := ks[len(ks)-1]
	as, bs := make([][]int, n), make([][]int, n)
	for t := range as {
		as[t], bs[t] = sample(p, maxK, r), sample(p, maxK, r)
	}
	vals := make([][][]float64, n) // [t][ki][measure]
	err := parallel.For(ctx, workers, n, func(t int) error {
		a, b := as[t], bs[t]
		s := make([][]float64, maxK)
		for i, f := range a {
			s[i] = make([]float64, maxK)
			for j, g := range b {
				s[i][j] = sim(f, g)
			}
		}
		vals[t] = newTopPair(a, b, maxK).valuesAt(ks, func(i, j int) float64 { return s[i][j] })
		return nil
	})
	if err != nil {
		return nil, err
	}
	for t := range vals {
		for ki := range ks {
			for m, v := range vals[t][ki] {
				out[ki][m] += v / float64(n)
			}
		}
	}
	return out, nil
}

// sample returns k distinct features of p in random order: the first k of a random
// permutation, drawn by a partial Fisher-Yates shuffle over a sparse map (O(k)).
func sample(p, k int, r *rand.Rand) []int {
	swapped := make(map[int]int, 2*k)
	at := func(i int) int {
		if v, ok := swapped[i]; ok {
			return v
		}
		return i
	}
	out := make([]int, k)
	for i := 0; i < k; i++ {
		j := i + r.IntN(p-i)
		out[i] = at(j)
		swapped[j] = at(i)
	}
	return out
}
