// Package group finds groups of correlated features: dense groups by mean shift (DGF)
// and their selection (DRAGS), consensus groups over bootstraps (CGS), and k-means
// feature clusters.
package group

import (
	_ "steadfast/compute/fastblas" // matrix products on OpenBLAS

	"context"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"steadfast/compute/parallel"
)

// points holds the features as points in sample space: row j of pt is feature j's
// values over the n samples, with its squared norm.
type points struct {
	pt   *mat.Dense // p x n
	norm []float64  // ||x_j||^2
}

func newPoints(x *mat.Dense) points {
	n, p := x.Dims()
	pt := mat.NewDense(p, n, nil)
	pt.CloneFrom(x.T())
	norm := make([]float64, p)
	for j := range norm {
		r := pt.RawRowView(j)
		s := 0.0
		for _, v := range r {
			s += v * v
		}
		norm[j] = s
	}
	return points{pt, norm}
}

func (ps points) len() int { n, _ := ps.pt.Dims(); return n }

// dist2 is the squared distance between a point y (with squared norm yy) and feature j.
func (ps points) dist2(y []float64, yy float64, j int) float64 {
	return ps.dist2Of(yy, floats.Dot(ps.pt.RawRowView(j), y), j)
}

// dist2Of is dist2 from the inner product g = x_j'y (floats.Dot's): yy - 2g + ||x_j||^2,
// 0 when that is negative.
func (ps points) dist2Of(yy, g float64, j int) float64 {
	d := yy - 2*g + ps.norm[j]
	if d < 0 {
		return 0
	}
	return d
}

// forAll is parallel.For for units that cannot fail.
func forAll(ctx context.Context, n int, f func(i int)) error {
	return parallel.For(ctx, 0, n, func(i int) error { f(i); return nil })
}

// blockRows is how many points share one matrix product when distances are computed
// (memory: blockRows * p * 8 bytes per worker).
const blockRows = 128

// pairwise visits the squared distances of every feature to all others, a block of
// features at a time: d2[k] = ||x_j - x_k||^2 for the feature j visited (see distancesFrom).
func (ps points) pairwise(ctx context.Context, visit func(j int, d2 []float64)) error {
	p := ps.len()
	rows := make([][]float64, p)
	all := make([]int, p)
	for j := range rows {
		rows[j], all[j] = ps.pt.RawRowView(j), j
	}
	return ps.distancesFrom(ctx, rows, all, visit)
}

type blockBuffers struct{ y, c []float64 }

// distancesFrom calls visit(s, d2) for each s in rows with d2[k] = ||ys[s] - x_k||^2 for
// every feature k, computing blockRows rows as one matrix product, X_block X^T. visit may run on
// several goroutines, but never twice for one s; d2 is reused after it returns.
func (ps points) distancesFrom(ctx context.Context, ys [][]float64, rows []int, visit func(s int, d2 []float64)) error {
	p, n := ps.pt.Dims()
	var pool sync.Pool // block buffers, reused across blocks
	blocks := (len(rows) + blockRows - 1) / blockRows
	return forAll(ctx, blocks, func(b int) {
		part := rows[b*blockRows : min((b+1)*blockRows, len(rows))]
		buf, _ := pool.Get().(*blockBuffers)
		if buf == nil {
			buf = &blockBuffers{y: make([]float64, blockRows*n), c: make([]float64, blockRows*p)}
		}
		defer pool.Put(buf)
		yb, c := buf.y[:len(part)*n], buf.c[:len(part)*p]
		for i, s := range part {
			copy(yb[i*n:(i+1)*n], ys[s])
		}
		blas64.Gemm(blas.NoTrans, blas.Trans, 1,
			blas64.General{Rows: len(part), Cols: n, Stride: n, Data: yb},
			blas64.General{Rows: p, Cols: n, Stride: n, Data: ps.pt.RawMatrix().Data}, 0,
			blas64.General{Rows: len(part), Cols: p, Stride: p, Data: c})
		for i, s := range part {
			yy := dot(ys[s], ys[s])
			d2 := c[i*p : (i+1)*p]
			for k, g := range d2 {
				if v := yy - 2*g + ps.norm[k]; v > 0 {
					d2[k] = v
				} else {
					d2[k] = 0
				}
			}
			visit(s, d2)
		}
	})
}

// partialSort moves the k smallest values of v to v[:k] (in any order), by quickselect.
func partialSort(v []float64, k int) {
	lo, hi := 0, len(v)-1
	for lo < hi {
		pivot := v[(lo+hi)/2]
		i, j := lo, hi
		for i <= j {
			for v[i] < pivot {
				i++
			}
			for v[j] > pivot {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		if k-1 <= j {
			hi = j
		} else if k-1 >= i {
			lo = i
		} else {
			return
		}
	}
}
