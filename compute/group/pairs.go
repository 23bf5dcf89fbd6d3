package group

import (
	"context"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/floats"
)

// pairBlock is the number of features on each side of one block of pairs.
const pairBlock = 512

// pairs visits every pair of features once, a block of pairs at a time: for blocks
// [i0, i1) x [j0, j1) with i0 <= j0, c[(a-i0)*(j1-j0) + (b-j0)] is the float32 inner product
// of features a and b. Each of the workers goroutines calls visit with its own index w,
// so it can update state of its own (w < GOMAXPROCS); which worker sees which block is
// not fixed.
func (sp *space) pairs(ctx context.Context, visit func(w, i0, i1, j0, j1 int, c []float32)) error {
	p, n := sp.pt.Dims()
	nb := (p + pairBlock - 1) / pairBlock
	workers := min(runtime.GOMAXPROCS(0), nb)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			c := make([]float32, pairBlock*pairBlock)
			for {
				bi := int(next.Add(1) - 1)
				if bi >= nb || ctx.Err() != nil {
					return
				}
				i0, i1 := bi*pairBlock, min((bi+1)*pairBlock, p)
				for bj := bi; bj < nb; bj++ {
					j0, j1 := bj*pairBlock, min((bj+1)*pairBlock, p)
					cb := c[:(i1-i0)*(j1-j0)]
					blas32.Gemm(blas.NoTrans, blas.Trans, 1,
						blas32.General{Rows: i1 - i0, Cols: n, Stride: n, Data: sp.x32[i0*n : i1*n]},
						blas32.General{Rows: j1 - j0, Cols: n, Stride: n, Data: sp.x32[j0*n : j1*n]}, 0,
						blas32.General{Rows: i1 - i0, Cols: j1 - j0, Stride: j1 - j0, Data: cb})
					visit(w, i0, i1, j0, j1, cb)
				}
			}
		}(w)
	}
	wg.Wait()
	return ctx.Err()
}

// pairErr bounds the error of a screened squared distance between two features.
func (sp *space) pairErr() float64 {
	return 2*sp.gamma*sp.maxLen*sp.maxLen + 2e-12*sp.maxLen*sp.maxLen
}

// pairDist is the squared distance between features a and b the algorithm decides by;
// the same number whichever of the two is asked from.
func (sp *space) pairDist(a, b int) float64 {
	if a > b {
		a, b = b, a
	}
	return sp.dist2(sp.pt.RawRowView(a), sp.norm[a], b)
}

// nearest keeps, for every feature, the K smallest squared distances offered to it.
type nearest struct {
	K     int
	d     []float64 // p*K
	count []int
	worst []float64 // the largest of the K kept, +Inf until K are kept
}

func newNearest(p, K int) *nearest {
	nr := &nearest{K: K, d: make([]float64, p*K), count: make([]int, p), worst: make([]float64, p)}
	for j := range nr.worst {
		nr.worst[j] = math.Inf(1)
	}
	return nr
}

func (nr *nearest) offer(j int, d float64) {
	if d >= nr.worst[j] {
		return
	}
	list := nr.d[j*nr.K : (j+1)*nr.K]
	if nr.count[j] < nr.K {
		list[nr.count[j]] = d
		nr.count[j]++
		if nr.count[j] == nr.K {
			nr.worst[j] = floats.Max(list)
		}
		return
	}
	list[floats.MaxIdx(list)] = d
	nr.worst[j] = floats.Max(list)
}

// bandwidth returns h, the mean over features of the mean distance to the K nearest
// other features (with prm.SelfNeighbour, the sum over the K-1 nearest
// others divided by K), from one pass over the pairs: each worker keeps the K nearest it
// has seen, and the K smallest of their union are the K nearest.
func (sp *space) bandwidth(ctx context.Context, prm DGFParams) (float64, error) {
	K, divisor := prm.neighbours()
	if K == 0 {
		return 0, nil
	}
	p := sp.len()
	procs := runtime.GOMAXPROCS(0)
	near := make([]*nearest, procs)
	for w := range near {
		near[w] = newNearest(p, K)
	}
	e := sp.pairErr()
	err := sp.pairs(ctx, func(w, i0, i1, j0, j1 int, c []float32) {
		nr := near[w]
		cols := j1 - j0
		ub := scratchIdx.get(cols)
		defer scratchIdx.put(ub)
		for a := i0; a < i1; a++ {
			b0 := max(j0, a+1)
			if b0 >= j1 {
				continue
			}
			row := c[(a-i0)*cols : (a-i0+1)*cols]
			for _, b := range sp.nearerOf(a, b0, row[b0-j0:], nr.worst[a], nr.worst, e, *ub) {
				// worst[a] may have fallen since nearerOf read it
				lower := sp.norm[a] + sp.norm[b] - 2*float64(row[int(b)-j0]) - e
				if lower >= nr.worst[a] && lower >= nr.worst[b] {
					continue
				}
				d := sp.pairDist(a, int(b))
				nr.offer(a, d)
				nr.offer(int(b), d)
			}
		}
	})
	if err != nil {
		return 0, err
	}
	h := 0.0
	var all []float64
	for j := 0; j < p; j++ {
		all = all[:0]
		for _, nr := range near {
			all = append(all, nr.d[j*K:j*K+nr.count[j]]...)
		}
		sort.Float64s(all)
		k := min(K, len(all))
		s := 0.0
		for _, d := range all[:k] {
			s += math.Sqrt(d)
		}
		if k > 0 {
			h += s / (divisor - float64(K-k))
		}
	}
	return h / float64(p), nil
}

// firstRound evaluates every trajectory at its own feature (the first round of the flat
// kernel) from one pass over the pairs: the members of N_h(x_a) and N_h(x_b) gain each
// other together. Each worker sums into its own copy; sums are exact, so they add up
// alike in any order.
func (ms *shifter) firstRound(ctx context.Context) error {
	sp := ms.sp
	p, n := sp.pt.Dims()
	procs := runtime.GOMAXPROCS(0)
	sums := make([][]float64, procs)
	counts := make([][]int32, procs)
	h2 := ms.h * ms.h
	above := math.Nextafter(h2, math.Inf(1))
	e := sp.pairErr()
	err := sp.pairs(ctx, func(w, i0, i1, j0, j1 int, c []float32) {
		if sums[w] == nil {
			sums[w], counts[w] = make([]float64, p*n), make([]int32, p)
		}
		sum, count := sums[w], counts[w]
		cols := j1 - j0
		ub := scratchIdx.get(cols)
		defer scratchIdx.put(ub)
		for a := i0; a < i1; a++ {
			b0 := max(j0, a+1)
			if b0 >= j1 {
				continue
			}
			row := c[(a-i0)*cols : (a-i0+1)*cols]
			// listed: est - e <= h2 (or NaN), est - e < the next float above h2
			for _, bb := range sp.unplaced(a, b0, row[b0-j0:], above, math.Inf(1), e, *ub) {
				b := int(bb)
				est := sp.norm[a] + sp.norm[b] - 2*float64(row[b-j0])
				if est-e > h2 || (est+e >= h2 && sp.pairDist(a, b) > h2) {
					continue
				}
				floats.Add(sum[a*n:(a+1)*n], sp.pt.RawRowView(b))
				floats.Add(sum[b*n:(b+1)*n], sp.pt.RawRowView(a))
				count[a]++
				count[b]++
			}
		}
	})
	if err != nil {
		return err
	}
	ms.full.Add(int64(p))
	for s := range ms.tr {
		t := &ms.tr[s]
		t.sum = slices.Clone(sp.pt.RawRowView(s)) // itself
		t.count = 1
		for w := range sums {
			if sums[w] != nil {
				floats.Add(t.sum, sums[w][s*n:(s+1)*n])
				t.count += int(counts[w][s])
			}
		}
	}
	return nil
}

// nearerOf returns (in out) the features b = b0, b0+1, ... (one for each c[i], c[i] ~
// x_a'x_b in float32) that may be among the K nearest of a or of b: not both lower >= wa
// and lower >= wb[b], with lower = ((||x_a||^2 + ||x_b||^2) - 2 c[i]) - e (NaN: listed).
// On AVX2 four at a time, with the same float64 operations.
func (sp *space) nearerOf(a, b0 int, c []float32, wa float64, wb []float64, e float64, out []int32) []int32 {
	m, done := 0, 0
	if haveAVX2 && len(c) >= 4 {
		done = len(c) / 4 * 4
		_, _, _ = sp.norm[b0+done-1], wb[b0+done-1], out[done-1] // the kernel reads and may write that far
		m = nearerEither(&c[0], &sp.norm[b0], &wb[b0], done/4, sp.norm[a], wa, e, &out[0])
		for i := range out[:m] {
			out[i] += int32(b0)
		}
	}
	for i := done; i < len(c); i++ {
		b := b0 + i
		if lower := sp.norm[a] + sp.norm[b] - 2*float64(c[i]) - e; !(lower >= wa && lower >= wb[b]) {
			out[m] = int32(b)
			m++
		}
	}
	return out[:m]
}
