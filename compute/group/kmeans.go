package group

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"steadfast/compute/parallel"
	"steadfast/compute/progress"
	"steadfast/compute/score"
)

// KMeans clusters the features (points in sample space) into Clusters clusters by
// Lloyd's algorithm from k-means++ starts, Restarts times, keeping the clustering with
// the least within-cluster sum of squares; representative = member nearest the centre;
// clusters ranked by the representative's F.
type KMeans struct {
	Clusters int
	Restarts int
	// Closest, when above 0, keeps as a cluster's group only its Closest members nearest
	// the centre (all when it has fewer): the DRAGS paper's second way of matching K-means
	// clusters for Sim_ID (Fig. 2, 5 features).
	Closest int
}

// Rank implements score.Ranker.
func (k KMeans) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (score.Ranking, error) {
	groups, err := k.Groups(ctx, x, y, classes, r)
	if err != nil {
		return score.Ranking{}, err
	}
	return groupRanking(groups, score.FScores(x, y, classes), r), nil
}

// Groups returns the ranked clusters.
func (k KMeans) Groups(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) ([]Group, error) {
	ps := newPoints(x)
	assign, _, err := k.cluster(ctx, x, ps, r, 0)
	if err != nil {
		return nil, err
	}
	members := make([][]int, k.clusters(ps.len()))
	for j, c := range assign {
		members[c] = append(members[c], j)
	}
	f := score.FScores(x, y, classes)
	var groups []Group
	for _, m := range members {
		if len(m) == 0 {
			continue
		}
		rep := representativeByCentre(ps, m, f)
		if k.Closest > 0 && len(m) > k.Closest {
			m = closestToCentre(ps, m, f, k.Closest)
		}
		groups = append(groups, Group{Members: m, Representative: rep, Density: len(m), Relevance: f[rep]})
	}
	sortByRelevance(ps, f, groups)
	return groups, nil
}

// clusters is K, between 1 and the p features.
func (k KMeans) clusters(p int) int { return min(max(k.Clusters, 1), p) }

// cluster runs the restarts on workers goroutines (0: GOMAXPROCS) and returns the
// assignment with the least within-cluster sum of squares (the first of equals) and
// every restart's sum. Each restart's draws are taken from r in restart order before
// any runs, so the result does not depend on workers.
func (k KMeans) cluster(ctx context.Context, x *mat.Dense, ps points, r *rand.Rand, workers int) (best []int, ss []float64, err error) {
	p, K := ps.len(), k.clusters(ps.len())
	starts := make([]start, max(k.Restarts, 1))
	for i := range starts {
		starts[i] = drawStart(r, p, K)
	}
	ss = make([]float64, len(starts))
	assign := make([][]int, len(starts))
	pool := sync.Pool{New: func() any { return newLloyd(x, ps, K) }}
	var ran atomic.Int64
	err = parallel.For(ctx, workers, len(starts), func(i int) error {
		lr := pool.Get().(*lloyd)
		defer pool.Put(lr)
		lr.seed(starts[i])
		ss[i] = lr.run()
		assign[i] = slices.Clone(lr.assign)
		progress.Share(ctx, float64(ran.Add(1))/float64(len(starts)+1))
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	bestSS := math.Inf(1)
	for i, s := range ss {
		if s < bestSS {
			bestSS, best = s, assign[i]
		}
	}
	return best, ss, nil
}

// start is one restart's draws for k-means++: the first centre's feature and, for each
// next centre, a uniform draw in [0, 1).
type start struct {
	first int
	u     []float64
}

func drawStart(r *rand.Rand, p, K int) start {
	st := start{first: r.IntN(p), u: make([]float64, K)}
	for c := 1; c < K; c++ {
		st.u[c] = r.Float64()
	}
	return st
}

// lloyd is one K-means run over the points: K centres row by row, the features'
// assignments and the buffers each step reuses.
type lloyd struct {
	x       *mat.Dense // samples x features
	ps      points
	K, n    int
	centre  []float64 // K x n
	cnorm   []float64 // ||c||^2
	cross   []float64 // p x K: x_j'c
	assign  []int
	counts  []int
	nearest []float64 // k-means++: squared distance to the nearest centre so far
}

func newLloyd(x *mat.Dense, ps points, K int) *lloyd {
	p, n := ps.pt.Dims()
	return &lloyd{x: x, ps: ps, K: K, n: n, centre: make([]float64, K*n), cnorm: make([]float64, K),
		cross: make([]float64, p*K), assign: make([]int, p), counts: make([]int, K), nearest: make([]float64, p)}
}

func (lr *lloyd) row(c int) []float64 { return lr.centre[c*lr.n : (c+1)*lr.n] }

// seed places the centres by k-means++ with st's draws: the first at feature st.first,
// each next at feature j with probability D(j)^2 / sum D^2, D(j) the distance to the
// nearest centre so far.
func (lr *lloyd) seed(st start) {
	p := lr.ps.len()
	copy(lr.row(0), lr.ps.pt.RawRowView(st.first))
	for j := range lr.nearest {
		lr.nearest[j] = math.Inf(1)
	}
	lr.closer(lr.row(0))
	for c := 1; c < lr.K; c++ {
		total := 0.0
		for _, v := range lr.nearest {
			total += v
		}
		u := st.u[c] * total
		pick := p - 1
		for j, v := range lr.nearest {
			u -= v
			if u <= 0 {
				pick = j
				break
			}
		}
		copy(lr.row(c), lr.ps.pt.RawRowView(pick))
		lr.closer(lr.row(c))
	}
}

// closer lowers nearest[j] to ||x_j - c||^2 where that is less, each sum in coordinate
// order (dist2's bits): on AVX2 sixteen features side by side from the samples-by-features
// matrix, else four at a time (independent sums keep the processor's adders busy).
func (lr *lloyd) closer(c []float64) {
	p := lr.ps.len()
	j := 0
	if haveAVX2 {
		var d [16]float64
		x := lr.x.RawMatrix()
		for ; j+16 <= p; j += 16 {
			sqdist16(&x.Data[j], x.Stride, lr.n, &c[0], &d)
			lr.lower(j, d[:]...)
		}
	}
	pt := lr.ps.pt.RawMatrix().Data
	n := lr.n
	for ; j+4 <= p; j += 4 {
		a, b, e, f := pt[j*n:(j+1)*n], pt[(j+1)*n:(j+2)*n], pt[(j+2)*n:(j+3)*n], pt[(j+3)*n:(j+4)*n]
		var s0, s1, s2, s3 float64
		for i, v := range c[:n] {
			d0, d1, d2, d3 := a[i]-v, b[i]-v, e[i]-v, f[i]-v
			s0 += d0 * d0
			s1 += d1 * d1
			s2 += d2 * d2
			s3 += d3 * d3
		}
		lr.lower(j, s0, s1, s2, s3)
	}
	for ; j < p; j++ {
		lr.lower(j, dist2(pt[j*n:(j+1)*n], c))
	}
}

// lower sets nearest[j+i] to d[i] where that is less.
func (lr *lloyd) lower(j int, d ...float64) {
	for i, v := range d {
		if v < lr.nearest[j+i] {
			lr.nearest[j+i] = v
		}
	}
}

// run moves the centres by Lloyd's steps (assign each feature to its nearest centre,
// move each centre to its members' mean) until no assignment changes, at most 100
// assignments, and returns the within-cluster sum of squares of the last assignment.
func (lr *lloyd) run() float64 {
	ss := 0.0
	for it := 0; it < 100; it++ {
		var changed bool
		changed, ss = lr.assignAll()
		if !changed && it > 0 { // the first assignment after a seed always moves the centres
			break
		}
		lr.update()
	}
	return ss
}

// assignAll assigns every feature to the first centre minimising ||x_j||^2 - 2 x_j'c +
// ||c||^2 (the cross terms as one matrix product), and returns whether any assignment
// changed and the sum of the minima (each at least 0).
func (lr *lloyd) assignAll() (changed bool, ss float64) {
	p, n, K := lr.ps.len(), lr.n, lr.K
	for c := range K {
		lr.cnorm[c] = dot(lr.row(c), lr.row(c))
	}
	blas64.Gemm(blas.NoTrans, blas.Trans, 1,
		blas64.General{Rows: p, Cols: n, Stride: n, Data: lr.ps.pt.RawMatrix().Data},
		blas64.General{Rows: K, Cols: n, Stride: n, Data: lr.centre}, 0,
		blas64.General{Rows: p, Cols: K, Stride: K, Data: lr.cross})
	for j := 0; j < p; j++ {
		b, d := argminDist(lr.ps.norm[j], lr.cross[j*K:(j+1)*K], lr.cnorm)
		if lr.assign[j] != b {
			changed = true
		}
		lr.assign[j] = b
		ss += math.Max(d, 0)
	}
	return changed, ss
}

// argminDist returns the first c minimising d_c = xx - 2 cross[c] + cnorm[c], and d_c,
// over four interleaved runs of c (independent comparisons; on AVX2, one vector
// register's lanes) joined at the end.
func argminDist(xx float64, cross, cnorm []float64) (int, float64) {
	K := len(cnorm)
	cross = cross[:K]
	inf := math.Inf(1)
	bd := [4]float64{inf, inf, inf, inf}
	bi := [4]int64{0, 1, 2, 3}
	c := K &^ 3
	if haveAVX2 && c > 0 {
		argmin4(xx, &cross[0], &cnorm[0], c/4, &bd, &bi)
	} else {
		argmin4Go(xx, cross[:c], cnorm[:c], &bd, &bi)
	}
	b, d := 0, inf // the tail, then the four runs, in order of their first c
	for ; c < K; c++ {
		if v := xx - 2*cross[c] + cnorm[c]; v < d {
			b, d = c, v
		}
	}
	for l := range bd {
		if bd[l] < d || (bd[l] == d && int(bi[l]) < b) {
			b, d = int(bi[l]), bd[l]
		}
	}
	return b, d
}

// argmin4Go is argmin4 in Go over len(cnorm)/4 blocks.
func argmin4Go(xx float64, cross, cnorm []float64, bd *[4]float64, bi *[4]int64) {
	b0, b1, b2, b3 := bi[0], bi[1], bi[2], bi[3]
	e0, e1, e2, e3 := bd[0], bd[1], bd[2], bd[3]
	for c := 0; c+4 <= len(cnorm); c += 4 {
		x, n := cross[c:c+4:c+4], cnorm[c:c+4:c+4]
		d0 := xx - 2*x[0] + n[0]
		d1 := xx - 2*x[1] + n[1]
		d2 := xx - 2*x[2] + n[2]
		d3 := xx - 2*x[3] + n[3]
		if d0 < e0 {
			b0, e0 = int64(c), d0
		}
		if d1 < e1 {
			b1, e1 = int64(c+1), d1
		}
		if d2 < e2 {
			b2, e2 = int64(c+2), d2
		}
		if d3 < e3 {
			b3, e3 = int64(c+3), d3
		}
	}
	*bi = [4]int64{b0, b1, b2, b3}
	*bd = [4]float64{e0, e1, e2, e3}
}

// update moves each centre to the mean of its members, summed in feature order. Centres
// left empty move to the features farthest from their own centres, the farthest first.
func (lr *lloyd) update() {
	clear(lr.counts)
	clear(lr.centre)
	for j, c := range lr.assign {
		lr.counts[c]++
		floats.Add(lr.row(c), lr.ps.pt.RawRowView(j)) // 1*x + c: the bits of c + x
	}
	var empty []int
	for c, m := range lr.counts {
		if m == 0 {
			empty = append(empty, c)
			continue
		}
		for i := range lr.row(c) {
			lr.row(c)[i] /= float64(m)
		}
	}
	if len(empty) > 0 {
		lr.refill(empty)
	}
}

// refill places the empty centres at the features farthest from their centres (ties
// to the first feature), a different feature each.
func (lr *lloyd) refill(empty []int) {
	p := lr.ps.len()
	far := make([]int, p)
	d := make([]float64, p)
	for j := range far {
		far[j], d[j] = j, dist2(lr.ps.pt.RawRowView(j), lr.row(lr.assign[j]))
	}
	slices.SortStableFunc(far, func(a, b int) int { return cmp.Compare(d[b], d[a]) })
	for i, c := range empty {
		copy(lr.row(c), lr.ps.pt.RawRowView(far[min(i, p-1)]))
	}
}
