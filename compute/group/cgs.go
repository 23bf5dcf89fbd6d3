package group

import (
	"container/heap"
	"context"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
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
	return groupRanking(groups, score.FScores(x, y, classes)), nil
}

// Cooccurrence counts, for every pair of features, the runs in which they share a group.
// It holds only the pairs seen together (sparse).
type Cooccurrence struct {
	P     int
	Runs  int
	Count map[uint64]uint16 // key i*P + j with i < j
}

// Add counts one run's groups; a pair in two groups of the run counts once.
func (w *Cooccurrence) Add(groups []Group) {
	seen := map[uint64]bool{}
	for _, g := range groups {
		for a, i := range g.Members {
			for _, j := range g.Members[a+1:] {
				lo, hi := min(i, j), max(i, j)
				k := uint64(lo)*uint64(w.P) + uint64(hi)
				if !seen[k] {
					seen[k] = true
					w.Count[k]++
				}
			}
		}
	}
	w.Runs++
}

// Groups returns the ranked consensus groups.
func (c CGS) Groups(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) ([]Group, error) {
	n, p := x.Dims()
	t := max(c.Bootstraps, 1)
	w := Cooccurrence{P: p, Count: map[uint64]uint16{}}
	idx := make([]int, n)
	for b := 0; b < t; b++ {
		for i := range idx {
			idx[i] = r.IntN(n)
		}
		xb, _ := dataset.SelectSamples(x, y, idx)
		dataset.Standardize(xb)
		res, err := DGF(ctx, xb, c.DGF)
		if err != nil {
			return nil, err
		}
		w.Add(res.Groups)
	}
	clusters := AverageLinkage(w, 0.5)
	ps := newPoints(x)
	f := score.FScores(x, y, classes)
	groups := make([]Group, len(clusters))
	for i, m := range clusters {
		rep := representativeByCentre(ps, m)
		groups[i] = Group{Members: m, Representative: rep, Density: len(m), Relevance: f[rep]}
	}
	sortByRelevance(groups)
	return groups, ctx.Err()
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
	// sum[a][b] = sum of W over pairs between clusters a and b (a cluster is named by
	// its smallest feature)
	sum := make([]map[int]float64, w.P)
	for k, cnt := range w.Count {
		i, j := int(k/uint64(w.P)), int(k%uint64(w.P))
		v := float64(cnt) / float64(w.Runs)
		if sum[i] == nil {
			sum[i] = map[int]float64{}
		}
		if sum[j] == nil {
			sum[j] = map[int]float64{}
		}
		sum[i][j] += v
		sum[j][i] += v
	}
	version := make([]int, w.P)
	alive := make([]bool, w.P)
	for i := range alive {
		alive[i] = true
	}
	h := &linkHeap{}
	push := func(a, b int) {
		if a > b {
			a, b = b, a
		}
		avg := sum[a][b] / float64(size[a]*size[b])
		if avg > stop {
			heap.Push(h, link{avg, a, b, version[a], version[b]})
		}
	}
	for a := range sum {
		for b := range sum[a] {
			if a < b {
				push(a, b)
			}
		}
	}
	parent := make([]int, w.P)
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
	for i := 0; i < w.P; i++ {
		rt := find(i)
		byRoot[rt] = append(byRoot[rt], i)
	}
	out := make([][]int, 0, len(byRoot))
	for _, m := range byRoot {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

type link struct {
	avg    float64
	a, b   int
	va, vb int
}

// linkHeap pops the largest mean first; ties by the smaller cluster names, so merges
// never depend on map order.
type linkHeap []link

func (h linkHeap) Len() int { return len(h) }
func (h linkHeap) Less(i, j int) bool {
	if h[i].avg != h[j].avg {
		return h[i].avg > h[j].avg
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
