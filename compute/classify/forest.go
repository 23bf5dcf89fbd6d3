package classify

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/parallel"
)

// ForestTrees is the default number of trees (ranger's and randomForest's num.trees).
const ForestTrees = 500

// Forest is Breiman's random forest of classification trees (Breiman 2001, Mach Learn
// 45:5-32), grown as R's ranger grows it: each tree on a bootstrap sample of the
// training samples (n draws with replacement; the samples not drawn are the tree's
// out-of-bag samples), every node split on the best of Mtry features drawn at random
// without replacement (floor(sqrt(p)) by default), the best split of a feature the
// midpoint between two consecutive distinct values that maximises the Gini criterion
// sum_c nL_c^2/nL + sum_c nR_c^2/nR (nL_c the node's samples of class c going left, x <=
// the midpoint); a node is a leaf when it holds at most MinNode samples (1 by default,
// ranger's for classification), when it is pure, or when none of its Mtry features
// takes two values in it; a leaf votes for its most frequent class. Ties between splits
// go to the feature drawn first and the smaller value; ties between classes in a leaf
// are broken by the tree's random stream.
//
// The probability of class c is the share of trees voting for it; the class is the
// most probable (the first of equals). OOBError is the share of the training samples
// (out of bag in at least one tree) misclassified by the votes of the trees for which
// they were out of bag (ties to the first class).
//
// Every tree draws from its own random stream, derived from Seed and the tree's index,
// never from a shared generator, and every sum over trees is taken in the trees'
// order: the forest does not depend on the number of goroutines (Workers).
//
// With Importance set, Fit also computes ranger's two importances: Permutation, the
// mean over trees of the decrease in the tree's out-of-bag accuracy when the feature's
// values are permuted among its out-of-bag samples (unscaled, ranger's "permutation";
// Breiman 2001), and Impurity, the mean over trees of the decrease of the Gini
// criterion summed over the splits on the feature (ranger's "impurity"), which is
// biased toward features of many distinct values (Strobl et al. 2007).
type Forest struct {
	Trees      int // 0: ForestTrees
	Mtry       int // features tried at each split; 0: floor(sqrt(p))
	MinNode    int // nodes of at most this many samples are leaves; 0: 1
	Seed       uint64
	Workers    int  // goroutines (0: all cores); never changes the forest
	Importance bool // compute Permutation and Impurity

	Nodes       []Tree
	OOBError    float64
	Permutation []float64
	Impurity    []float64
	Features    int // p, the features the forest was grown on
	classes     int
}

// Tree is one tree of a Forest: node i splits on Feature[i] >= 0, a sample going to
// node Left[i] when its value is at most Threshold[i], else to Left[i] + 1; a node with
// Feature[i] < 0 is a leaf voting for class -Feature[i] - 1. Node 0 is the root.
type Tree struct {
	Feature   []int32   `json:"f"`
	Threshold []float64 `json:"t"`
	Left      []int32   `json:"l"`
}

// NewForest is a grown forest from its trees, for p features and the classes: a
// locked model.
func NewForest(trees []Tree, p, classes int) *Forest {
	return &Forest{Nodes: trees, Features: p, classes: classes, Trees: len(trees)}
}

// leaf returns the class of the leaf sample v reaches.
func (t *Tree) leaf(v []float64) int {
	i := 0
	for t.Feature[i] >= 0 {
		if v[t.Feature[i]] <= t.Threshold[i] {
			i = int(t.Left[i])
		} else {
			i = int(t.Left[i]) + 1
		}
	}
	return int(-t.Feature[i] - 1)
}

// leafCol is leaf for sample i of the columns cols, with feature f's value replaced by
// fv.
func (t *Tree) leafCol(cols [][]float64, i, f int, fv float64) int {
	n := 0
	for t.Feature[n] >= 0 {
		j := int(t.Feature[n])
		v := cols[j][i]
		if j == f {
			v = fv
		}
		if v <= t.Threshold[n] {
			n = int(t.Left[n])
		} else {
			n = int(t.Left[n]) + 1
		}
	}
	return int(-t.Feature[n] - 1)
}

// Check reports a tree that cannot be used for p features and the classes: indices
// out of range, children that do not come after their parent (so every walk ends),
// thresholds not finite.
func (t *Tree) Check(p, classes int) error {
	m := len(t.Feature)
	if m == 0 || len(t.Threshold) != m || len(t.Left) != m {
		return fmt.Errorf("a tree of %d features, %d thresholds and %d children", m, len(t.Threshold), len(t.Left))
	}
	for i, f := range t.Feature {
		switch {
		case f >= 0:
			if int(f) >= p || math.IsNaN(t.Threshold[i]) || math.IsInf(t.Threshold[i], 0) {
				return fmt.Errorf("node %d: feature %d of %d, threshold %g", i, f, p, t.Threshold[i])
			}
			if l := int(t.Left[i]); l <= i || l+1 >= m {
				return fmt.Errorf("node %d: children %d and %d of %d nodes", i, l, l+1, m)
			}
		case int(-f-1) >= classes:
			return fmt.Errorf("node %d: a leaf of class %d of %d", i, -f-1, classes)
		}
	}
	return nil
}

// treeOut is what growing one tree gives beside the tree: its out-of-bag votes and its
// importances (per feature it split on, in the order first used).
type treeOut struct {
	oob, oobVote []int32
	impF         []int32
	impV         []float64
	permF        []int32
	permV        []float64
}

// Fit grows the forest on the rows of x with classes y in 0..classes-1.
func (f *Forest) Fit(ctx context.Context, x *mat.Dense, y []int, classes int) error {
	n, p := x.Dims()
	if n < 2 || p < 1 {
		return fmt.Errorf("a random forest needs 2 samples and a feature or more, not %d and %d", n, p)
	}
	trees := f.Trees
	if trees <= 0 {
		trees = ForestTrees
	}
	mtry := f.Mtry
	if mtry <= 0 {
		mtry = max(int(math.Floor(math.Sqrt(float64(p)))), 1)
	}
	if mtry > p {
		return fmt.Errorf("the random forest's mtry (%d features tried at each split) exceeds the %d features", mtry, p)
	}
	minNode := max(f.MinNode, 1)
	cols := make([][]float64, p)
	for j := range cols {
		cols[j] = mat.Col(nil, j, x)
		for _, v := range cols[j] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("a random forest needs finite values (feature %d has %g)", j+1, v)
			}
		}
	}
	f.Features, f.classes, f.Trees = p, classes, trees
	f.Nodes = make([]Tree, trees)
	outs := make([]treeOut, trees)
	canon := canonicalOrder(cols) // the trees grow on the columns in this order
	cols = pickColumns(cols, canon)
	ranks, uniq := rankColumns(cols)
	err := parallel.For(ctx, f.Workers, trees, func(t int) error {
		if t%16 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		g := grower{cols: cols, ranks: ranks, uniq: uniq, y: y, classes: classes, mtry: mtry, minNode: minNode,
			r: rand.New(rand.NewPCG(f.Seed, 0x666f72657374+uint64(t))), importance: f.Importance}
		f.Nodes[t], outs[t] = g.grow(n, p)
		return nil
	})
	if err != nil {
		return err
	}
	for t := range f.Nodes {
		toColumns(&f.Nodes[t], &outs[t], canon)
	}
	votes := make([]int32, n*classes)
	for _, o := range outs {
		for k, i := range o.oob {
			votes[int(i)*classes+int(o.oobVote[k])]++
		}
	}
	wrong, seen := 0, 0
	for i, c := range y {
		v := votes[i*classes : (i+1)*classes]
		best := 0
		for k := range v {
			if v[k] > v[best] {
				best = k
			}
		}
		if v[best] > 0 {
			seen++
			if best != c {
				wrong++
			}
		}
	}
	f.OOBError = math.NaN()
	if seen > 0 {
		f.OOBError = float64(wrong) / float64(seen)
	}
	f.Permutation, f.Impurity = nil, nil
	if f.Importance {
		f.Permutation, f.Impurity = make([]float64, p), make([]float64, p)
		for _, o := range outs { // in the trees' order
			for k, j := range o.impF {
				f.Impurity[j] += o.impV[k]
			}
			for k, j := range o.permF {
				f.Permutation[j] += o.permV[k]
			}
		}
		for j := range f.Impurity {
			f.Impurity[j] /= float64(trees)
			f.Permutation[j] /= float64(trees)
		}
	}
	return nil
}

// Probs writes each class's share of the trees' votes for the sample v into p.
func (f *Forest) Probs(v, p []float64) {
	clear(p)
	for t := range f.Nodes {
		p[f.Nodes[t].leaf(v)]++
	}
	for c := range p {
		p[c] /= float64(len(f.Nodes))
	}
}

// PredictScores returns the class of each row of x and its share of votes of each
// class.
func (f *Forest) PredictScores(x *mat.Dense) ([]int, [][]float64) {
	return mostProbable(x, f.classes, f.Probs)
}

// rankColumns gives each sample's rank among the distinct values of each column
// (equal values equal ranks) and each column's distinct values in increasing order.
func rankColumns(cols [][]float64) (ranks [][]int32, uniq [][]float64) {
	ranks, uniq = make([][]int32, len(cols)), make([][]float64, len(cols))
	if len(cols) == 0 {
		return
	}
	n := len(cols[0])
	order := make([]int32, n)
	for j, col := range cols {
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortFunc(order, func(a, b int32) int {
			switch {
			case col[a] < col[b]:
				return -1
			case col[a] > col[b]:
				return 1
			}
			return 0
		})
		r := make([]int32, n)
		var u []float64
		for k, i := range order {
			if k == 0 || col[i] != col[order[k-1]] {
				u = append(u, col[i])
			}
			r[i] = int32(len(u) - 1)
		}
		ranks[j], uniq[j] = r, u
	}
	return
}

// grower grows one tree from its random stream.
type grower struct {
	cols       [][]float64
	ranks      [][]int32   // each sample's rank among a column's distinct values
	uniq       [][]float64 // each column's distinct values, increasing
	y          []int
	classes    int
	mtry       int
	minNode    int
	r          *rand.Rand
	importance bool
	// scratch
	hist   []float64 // hist[r*classes + c]: the node's samples of class c at rank r
	tot    []int32   // tot[r]: the node's samples at rank r
	used   []int32   // the ranks present in the node, increasing
	counts []float64
	left   []float64
	tried  map[int32]bool
}

// node is an open node of the tree: its samples are samples[start:end].
type node struct{ start, end int }

// grow grows the tree on a bootstrap sample of the n samples.
func (g *grower) grow(n, p int) (Tree, treeOut) {
	samples := make([]int32, n)
	inbag := make([]bool, n)
	for i := range samples {
		s := g.r.IntN(n)
		samples[i], inbag[s] = int32(s), true
	}
	g.hist, g.tot, g.used = make([]float64, n*g.classes), make([]int32, n), make([]int32, 0, n)
	g.counts, g.left = make([]float64, g.classes), make([]float64, g.classes)
	g.tried = make(map[int32]bool, g.mtry)
	var t Tree
	var out treeOut
	open := []node{{0, n}}
	t.Feature, t.Threshold, t.Left = []int32{0}, []float64{0}, []int32{0}
	for id := 0; id < len(open); id++ {
		nd := open[id]
		feat, thr, dec, ok := g.split(samples[nd.start:nd.end], p)
		if !ok {
			t.Feature[id] = int32(-g.leafClass(samples[nd.start:nd.end]) - 1)
			continue
		}
		if g.importance {
			out.impF, out.impV = append(out.impF, feat), append(out.impV, dec)
		}
		// partition: values <= thr first
		s := samples[nd.start:nd.end]
		col := g.cols[feat]
		i, j := 0, len(s)-1
		for i <= j {
			if col[s[i]] <= thr {
				i++
			} else {
				s[i], s[j] = s[j], s[i]
				j--
			}
		}
		t.Feature[id], t.Threshold[id], t.Left[id] = feat, thr, int32(len(open))
		open = append(open, node{nd.start, nd.start + i}, node{nd.start + i, nd.end})
		t.Feature, t.Threshold, t.Left = append(t.Feature, 0, 0), append(t.Threshold, 0, 0), append(t.Left, 0, 0)
	}
	for i := range inbag {
		if !inbag[i] {
			out.oob = append(out.oob, int32(i))
		}
	}
	out.oobVote = make([]int32, len(out.oob))
	for k, i := range out.oob {
		out.oobVote[k] = int32(t.leafCol(g.cols, int(i), -1, 0))
	}
	if g.importance && len(out.oob) > 0 {
		g.permutation(&t, &out)
	}
	return t, out
}

// leafClass is the most frequent class of the samples s, ties broken at random.
func (g *grower) leafClass(s []int32) int {
	clear(g.counts)
	for _, i := range s {
		g.counts[g.y[i]]++
	}
	best, ties := 0, 0
	for c, v := range g.counts {
		switch {
		case v > g.counts[best]:
			best, ties = c, 1
		case v == g.counts[best]:
			ties++
			if c != best && g.r.IntN(ties) == 0 {
				best = c
			}
		}
	}
	return best
}

// split finds the best split of the samples s over Mtry features drawn at random:
// its feature, threshold and decrease of the Gini criterion (the node's n·impurity
// less its children's); ok is false for a leaf.
func (g *grower) split(s []int32, p int) (feat int32, thr, dec float64, ok bool) {
	m := len(s)
	if m <= g.minNode {
		return 0, 0, 0, false
	}
	clear(g.counts)
	for _, i := range s {
		g.counts[g.y[i]]++
	}
	pure := false
	for _, v := range g.counts {
		pure = pure || v == float64(m)
	}
	if pure {
		return 0, 0, 0, false
	}
	node := 0.0
	for _, v := range g.counts {
		node += v * v
	}
	node /= float64(m)
	clear(g.tried)
	best := -1.0
	for len(g.tried) < g.mtry {
		j := int32(g.r.IntN(p))
		if g.tried[j] {
			continue
		}
		g.tried[j] = true
		// the node's class counts by rank, visited in increasing order of value
		rank, u, nc := g.ranks[j], g.uniq[j], g.classes
		g.used = g.used[:0]
		lo, hi := int32(len(u)), int32(-1)
		for _, i := range s {
			r := rank[i]
			if g.tot[r] == 0 {
				g.used = append(g.used, r)
				lo, hi = min(lo, r), max(hi, r)
			}
			g.tot[r]++
			g.hist[int(r)*nc+g.y[i]]++
		}
		if len(g.used) < 2 {
			g.clearHist()
			continue
		}
		if int(hi-lo) < 4*len(g.used) { // dense: walk the ranks in order
			g.used = g.used[:0]
			for r := lo; r <= hi; r++ {
				if g.tot[r] > 0 {
					g.used = append(g.used, r)
				}
			}
		} else {
			slices.Sort(g.used)
		}
		clear(g.left)
		nl := 0.0
		for k, r := range g.used[:len(g.used)-1] {
			h := g.hist[int(r)*nc : int(r)*nc+nc]
			for c, v := range h {
				g.left[c] += v
				nl += v
			}
			nr := float64(m) - nl
			sl, sr := 0.0, 0.0
			for c, l := range g.left {
				r := g.counts[c] - l
				sl += l * l
				sr += r * r
			}
			if d := sl/nl + sr/nr; d > best {
				lo, hi := u[r], u[g.used[k+1]]
				best, feat = d, j
				thr = (lo + hi) / 2
				if thr == hi { // no double between them: ranger takes the lower
					thr = lo
				}
			}
		}
		g.clearHist()
	}
	if best < 0 {
		return 0, 0, 0, false
	}
	return feat, thr, best - node, true
}

// clearHist zeroes the histogram's rows of the ranks used.
func (g *grower) clearHist() {
	for _, r := range g.used {
		clear(g.hist[int(r)*g.classes : int(r+1)*g.classes])
		g.tot[r] = 0
	}
}

// permutation adds the tree's permutation importances to out: for each feature it
// splits on (in order of first use), its out-of-bag accuracy less that with the
// feature's values permuted among the out-of-bag samples.
func (g *grower) permutation(t *Tree, out *treeOut) {
	right := 0
	for k, i := range out.oob {
		if int(out.oobVote[k]) == g.y[i] {
			right++
		}
	}
	nob := float64(len(out.oob))
	perm := make([]int32, len(out.oob))
	done := map[int32]bool{}
	for _, j := range t.Feature {
		if j < 0 || done[j] {
			continue
		}
		done[j] = true
		copy(perm, out.oob)
		g.r.Shuffle(len(perm), func(a, b int) { perm[a], perm[b] = perm[b], perm[a] })
		permRight := 0
		for k, i := range out.oob {
			if t.leafCol(g.cols, int(i), int(j), g.cols[j][perm[k]]) == g.y[i] {
				permRight++
			}
		}
		out.permF = append(out.permF, j)
		out.permV = append(out.permV, float64(right-permRight)/nob)
	}
}
