package stability

import (
	"math"
	"math/rand/v2"
	"sort"
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

// AdjustedMeasures lists them in the order topPair.values returns their I.
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

// values returns the I of every AdjustedMeasures entry (Zucknick's value itself) for the
// top k of the two rankings (k at most the prefix of newTopPair), sim(i, j) being the
// similarity of a[i] and b[j].
func (tp topPair) values(k int, sim func(i, j int) float64) []float64 {
	var onlyA, onlyB []int // positions in a and b
	for i := 0; i < k; i++ {
		if tp.posInB[i] >= k {
			onlyA = append(onlyA, i)
		}
	}
	for j := 0; j < k; j++ {
		if tp.posInA[j] >= k {
			onlyB = append(onlyB, j)
		}
	}
	c := float64(k - len(onlyA))
	// the similar pairs between A and B
	type edge struct {
		i, j int // indices into onlyA, onlyB
		s    float64
	}
	var edges []edge
	rowHit, colHit := make([]bool, len(onlyA)), make([]bool, len(onlyB))
	rowSum, colSum := make([]float64, len(onlyA)), make([]float64, len(onlyB))
	rowN, colN := make([]int, len(onlyA)), make([]int, len(onlyB))
	for ii, i := range onlyA {
		for jj, j := range onlyB {
			if s := sim(i, j); s >= AdjustedThreshold {
				edges = append(edges, edge{ii, jj, s})
				rowHit[ii], colHit[jj] = true, true
				rowSum[ii] += s
				colSum[jj] += s
				rowN[ii]++
				colN[jj]++
			}
		}
	}
	o12, o21 := count(rowHit), count(colHit)
	mean12, mean21 := 0.0, 0.0
	for ii := range rowSum {
		if rowN[ii] > 0 {
			mean12 += rowSum[ii] / float64(rowN[ii])
		}
	}
	for jj := range colSum {
		if colN[jj] > 0 {
			mean21 += colSum[jj] / float64(colN[jj])
		}
	}
	// greedy matching: most similar pair first (ties by position in a, then in b)
	sort.SliceStable(edges, func(x, y int) bool { return edges[x].s > edges[y].s })
	usedA, usedB := make([]bool, len(onlyA)), make([]bool, len(onlyB))
	greedy := 0
	adj := make([][]int, len(onlyA))
	for _, e := range edges {
		adj[e.i] = append(adj[e.i], e.j)
		if !usedA[e.i] && !usedB[e.j] {
			usedA[e.i], usedB[e.j] = true, true
			greedy++
		}
	}
	// Zucknick: x over all of V_i (and V_j), y over the other side's own features
	zu := 0.0 // a[i] and b[j] differ here: one of them is in only one top k
	for i := 0; i < k; i++ {
		for _, j := range onlyB {
			if s := sim(i, j); s >= AdjustedThreshold {
				zu += s
			}
		}
	}
	for j := 0; j < k; j++ {
		for _, i := range onlyA {
			if s := sim(i, j); s >= AdjustedThreshold {
				zu += s
			}
		}
	}
	kf := float64(k)
	return []float64{
		c + math.Min(float64(o12), float64(o21)),
		c + math.Min(mean12, mean21),
		c + float64(greedy),
		c + float64(maxMatching(adj, len(onlyB))),
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
		for ki, k := range c.ks {
			for m, v := range tp.values(k, sim) {
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
// rankings drawn from r; sim(f, g) is the similarity of features f and g.
func Expected(p int, ks []int, n int, r *rand.Rand, sim func(f, g int) float64) [][]float64 {
	out := make([][]float64, len(ks))
	for i := range out {
		out[i] = make([]float64, len(AdjustedMeasures))
	}
	if len(ks) == 0 {
		return out
	}
	maxK := ks[len(ks)-1]
	s := make([][]float64, maxK)
	for i := range s {
		s[i] = make([]float64, maxK)
	}
	for t := 0; t < n; t++ {
		a, b := sample(p, maxK, r), sample(p, maxK, r)
		for i, f := range a {
			for j, g := range b {
				s[i][j] = sim(f, g)
			}
		}
		tp := newTopPair(a, b, maxK)
		for ki, k := range ks {
			for m, v := range tp.values(k, func(i, j int) float64 { return s[i][j] }) {
				out[ki][m] += v / float64(n)
			}
		}
	}
	return out
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
