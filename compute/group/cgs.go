package group

import (
	"container/heap"
	"context"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/progress"
	"steadfast/compute/score"
)

// CGS finds consensus groups (Loscalzo, Yu, Ding 2009): DGF on Bootstraps bootstrap
// samples of the training set (each z-scored with its own bandwidth); W_ij = share of the
// runs in which i and j share a group; average-linkage clustering on W merging while the
// mean W between two clusters exceeds 0.5; representative = the member nearest the
// group's centre; groups ranked by the representative's F.
type CGS struct {
	DGF        DGFParams
	Bootstraps int
}

// Rank implements score.Ranker.
func (c CGS) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (score.Ranking, error) {
	groups, err := c.Groups(ctx, x, y, classes, r)
	if err != nil {
		return score.Ranking{}, err
	}
	return groupRanking(groups, score.FScores(x, y, classes), r), nil
}

// Cooccurrence counts, for every pair of features, the runs in which they share a group.
// It holds only the pairs seen together (sparse).
type Cooccurrence struct {
	P     int
	Runs  int
	Count map[uint64]uint16 // key i*P + j with i < j
}

// Groups returns the ranked consensus groups.
func (c CGS) Groups(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) ([]Group, error) {
	n, p := x.Dims()
	t := max(c.Bootstraps, 1)
	runs := make([][]Group, t)
	idx := make([]int, n)
	for b := 0; b < t; b++ {
		for i := range idx {
			idx[i] = r.IntN(n)
		}
		res, err := DGF(ctx, bootstrapPoints(x, y, idx), c.DGF)
		if err != nil {
			return nil, err
		}
		runs[b] = res.Groups
		progress.Share(ctx, float64(b+1)/float64(t+1)) // the consensus costs less than a run
	}
	clusters := consensus(p, runs, 0.5)
	ps := newPoints(x)
	f := score.FScores(x, y, classes)
	groups := make([]Group, len(clusters))
	for i, m := range clusters {
		rep := representativeByCentre(ps, m, f)
		groups[i] = Group{Members: m, Representative: rep, Density: len(m), Relevance: f[rep]}
	}
	sortByRelevance(ps, f, groups)
	return groups, ctx.Err()
}

// bootstrapPoints returns the bootstrap sample x[idx], z-scored, as its distinct samples
// in order of first draw, each scaled by the square root of its count c_i: distances
// between features are those of the sample with its repeats, sum_i c_i (a_i - b_i)^2, and
// so are means, the bandwidth and DGF's groups (peaks of one density still tie in the same
// coordinate order), at about 0.63 of the cost (a bootstrap holds about 63% of the
// samples).
func bootstrapPoints(x *mat.Dense, y []int, idx []int) *mat.Dense {
	xb, _ := dataset.SelectSamples(x, y, idx)
	dataset.Standardize(xb)
	n, p := x.Dims()
	count := make([]int, n)
	var firsts []int // rows of xb drawing a sample for the first time
	for row, i := range idx {
		if count[i] == 0 {
			firsts = append(firsts, row)
		}
		count[i]++
	}
	out := mat.NewDense(len(firsts), p, nil)
	for r, row := range firsts {
		dst := out.RawRowView(r)
		copy(dst, xb.RawRowView(row))
		if c := count[idx[row]]; c > 1 {
			floats.Scale(math.Sqrt(float64(c)), dst)
		}
	}
	return out
}

// consensus clusters the p features by average linkage on W_ij = share of the runs in
// which i and j are in one group, merging while the mean W between two clusters exceeds
// stop (see AverageLinkage).
//
// Real arrays give groups of thousands of genes, millions of pairs a run, so the pairs are
// not listed one by one:
//   - a feature in a group in at most a share stop of the runs has W <= stop with every
//     other feature, so no mean involving it ever exceeds stop: it stays alone and is
//     left out;
//   - features in at most one group a run, the same group each run (or none in the same
//     runs), have W with each other equal to the largest W either has with anyone, and
//     identical W to every other feature, so average linkage merges them first and never
//     separates them: they enter as one node of their size, and W is held between nodes.
func consensus(p int, runs [][]Group, stop float64) [][]int {
	t := len(runs)
	num, den := stopFraction(stop)
	sig, grouped, several := memberships(p, runs)
	// nodes: features with one signature, and every feature in several groups of a run
	// alone; node -1: a feature that stays alone
	node := make([]int, p)
	var members [][]int
	var out [][]int
	bySig := map[string]int{}
	for j := 0; j < p; j++ {
		if cmpFrac(uint64(grouped[j]), uint64(t), num, den) <= 0 {
			node[j] = -1
			out = append(out, []int{j})
			continue
		}
		if !several[j] {
			key := sigKey(sig[j])
			if a, ok := bySig[key]; ok {
				node[j] = a
				members[a] = append(members[a], j)
				continue
			}
			bySig[key] = len(members)
		}
		node[j] = len(members)
		members = append(members, []int{j})
	}
	multi := make([]bool, len(members))
	for a, mem := range members {
		multi[a] = several[mem[0]]
	}
	// sum[a][b]: t times W summed over the feature pairs between nodes a and b, that is
	// |a| |b| times the number of runs in which they share a group (integers: exact). Two
	// nodes of one group a run share at most that group; a pair with a node in several
	// groups is counted once a run however many groups it shares.
	size := make([]int, len(members))
	for a, mem := range members {
		size[a] = len(mem)
	}
	sum := make([]map[int]uint64, len(members))
	mark := make([]int, len(members)) // the number of the last group a node was listed in
	stamp := 0
	var in []int
	for _, groups := range runs {
		seen := map[[2]int]bool{} // pairs with a node in several groups, this run
		for _, grp := range groups {
			stamp++
			in = in[:0]
			for _, j := range grp.Members {
				if a := node[j]; a >= 0 && mark[a] != stamp {
					mark[a] = stamp
					in = append(in, a)
				}
			}
			for x, a := range in {
				for _, b := range in[x+1:] {
					lo, hi := min(a, b), max(a, b)
					if multi[lo] || multi[hi] {
						if seen[[2]int{lo, hi}] {
							continue
						}
						seen[[2]int{lo, hi}] = true
					}
					addPair(sum, lo, hi, uint64(size[lo]*size[hi]))
				}
			}
		}
	}
	for _, cl := range averageLinkage(size, sum, uint64(t), stop) {
		var f []int
		for _, a := range cl {
			f = append(f, members[a]...)
		}
		sort.Ints(f)
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// memberships returns each feature's group in every run (-1: none, or the last of
// several), the number of runs in which it is in a group, and whether it is in several
// groups of one run.
func memberships(p int, runs [][]Group) (sig [][]int32, grouped []int, several []bool) {
	t := len(runs)
	flat := make([]int32, p*t)
	for i := range flat {
		flat[i] = -1
	}
	sig = make([][]int32, p)
	for j := range sig {
		sig[j] = flat[j*t : (j+1)*t]
	}
	grouped = make([]int, p)
	several = make([]bool, p)
	for r, groups := range runs {
		for g, grp := range groups {
			for _, j := range grp.Members {
				if sig[j][r] >= 0 {
					several[j] = true
				} else {
					grouped[j]++
				}
				sig[j][r] = int32(g)
			}
		}
	}
	return sig, grouped, several
}

// stopFraction returns stop as an exact fraction num/den.
func stopFraction(stop float64) (num, den uint64) {
	r := new(big.Rat).SetFloat64(stop)
	if r == nil || r.Sign() < 0 || !r.Num().IsUint64() || !r.Denom().IsUint64() {
		panic("group: the linkage stop must be a finite non-negative number")
	}
	return r.Num().Uint64(), r.Denom().Uint64()
}

// addPair adds v to sum[a][b] and sum[b][a].
func addPair(sum []map[int]uint64, a, b int, v uint64) {
	if sum[a] == nil {
		sum[a] = map[int]uint64{}
	}
	if sum[b] == nil {
		sum[b] = map[int]uint64{}
	}
	sum[a][b] += v
	sum[b][a] += v
}

func sigKey(s []int32) string {
	b := make([]byte, 4*len(s))
	for i, v := range s {
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	return string(b)
}

// AverageLinkage clusters the P features by average linkage on W = Count/Runs: the two
// clusters with the largest mean W over all their cross pairs (absent pairs count 0)
// merge while that mean exceeds stop. Only pairs with W > 0 are held, so the work stays
// within the connected components of the W > 0 graph. Clusters are returned with
// ascending members, ordered by their smallest member.
func AverageLinkage(w Cooccurrence, stop float64) [][]int {
	size := make([]int, w.P)
	for i := range size {
		size[i] = 1
	}
	sum := make([]map[int]uint64, w.P)
	for k, cnt := range w.Count {
		addPair(sum, int(k/uint64(w.P)), int(k%uint64(w.P)), uint64(cnt))
	}
	out := averageLinkage(size, sum, uint64(w.Runs), stop)
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// averageLinkage clusters nodes of the given sizes, sum[a][b] being runs times the sum of
// W over the pairs between nodes a and b (an integer; it is changed): the two clusters
// with the largest mean W merge while it exceeds stop; ties go to the clusters with the
// smaller names (a cluster is named by its first node), so merges never depend on map
// order. Means are compared as exact fractions, never rounded. It returns the clusters
// as ascending node lists.
func averageLinkage(size []int, sum []map[int]uint64, runs uint64, stop float64) [][]int {
	num, den := stopFraction(stop)
	nn := len(size)
	size = append([]int(nil), size...)
	version := make([]int, nn)
	alive := make([]bool, nn)
	for i := range alive {
		alive[i] = true
	}
	h := &linkHeap{}
	push := func(a, b int) {
		if a > b {
			a, b = b, a
		}
		pairs := uint64(size[a] * size[b])
		// sum / (runs pairs) > num / den
		if cmpFrac(sum[a][b], runs*pairs, num, den) > 0 {
			heap.Push(h, link{sum[a][b], pairs, a, b, version[a], version[b]})
		}
	}
	for a := range sum {
		for b := range sum[a] {
			if a < b {
				push(a, b)
			}
		}
	}
	parent := make([]int, nn)
	for i := range parent {
		parent[i] = i
	}
	for h.Len() > 0 {
		l := heap.Pop(h).(link)
		if !alive[l.a] || !alive[l.b] || version[l.a] != l.va || version[l.b] != l.vb {
			continue
		}
		a, b := l.a, l.b // a < b: a absorbs b
		for c, v := range sum[b] {
			if c == a {
				continue
			}
			if sum[a] == nil {
				sum[a] = map[int]uint64{}
			}
			sum[a][c] += v
			sum[c][a] += v
			delete(sum[c], b)
		}
		delete(sum[a], b)
		sum[b] = nil
		size[a] += size[b]
		alive[b] = false
		parent[b] = a
		version[a]++
		for c := range sum[a] {
			push(a, c)
		}
	}
	find := func(i int) int {
		for parent[i] != i {
			i = parent[i]
		}
		return i
	}
	byRoot := map[int][]int{}
	var roots []int
	for i := 0; i < nn; i++ {
		rt := find(i)
		if _, ok := byRoot[rt]; !ok {
			roots = append(roots, rt)
		}
		byRoot[rt] = append(byRoot[rt], i)
	}
	out := make([][]int, 0, len(roots))
	for _, rt := range roots {
		out = append(out, byRoot[rt])
	}
	return out
}

type link struct {
	sum, pairs uint64 // mean W = sum / (runs pairs)
	a, b       int
	va, vb     int
}

// cmpFrac compares a/b with c/d (b, d > 0) exactly: -1, 0 or 1.
func cmpFrac(a, b, c, d uint64) int {
	h1, l1 := bits.Mul64(a, d)
	h2, l2 := bits.Mul64(c, b)
	switch {
	case h1 != h2:
		return cmpU(h1, h2)
	default:
		return cmpU(l1, l2)
	}
}

func cmpU(x, y uint64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// linkHeap pops the largest mean first; ties by the smaller cluster names, so merges
// never depend on map order.
type linkHeap []link

func (h linkHeap) Len() int { return len(h) }
func (h linkHeap) Less(i, j int) bool {
	if c := cmpFrac(h[i].sum, h[i].pairs, h[j].sum, h[j].pairs); c != 0 {
		return c > 0
	}
	if h[i].a != h[j].a {
		return h[i].a < h[j].a
	}
	return h[i].b < h[j].b
}
func (h linkHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *linkHeap) Push(x any)   { *h = append(*h, x.(link)) }
func (h *linkHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
