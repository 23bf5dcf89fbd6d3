package fastblas

import (
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// goKernels is gonum's Go BLAS with the products C = A B' (A m x k, B n x k, both
// row-major: every pairwise inner product of two sets of points, what DGF, MIDS and
// k-means spend their time in) done by AVX2/FMA kernels where the processor has them.
// It is plain Go with Go assembly: no cgo, nothing to install.
type goKernels struct{ gonum.Implementation }

// Sgemm is gonum's, except that C = A B' (alpha 1, beta 0) goes to the kernel.
func (im goKernels) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if tA == blas.NoTrans && tB == blas.Trans && alpha == 1 && beta == 0 &&
		gemmShapeOK(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc) {
		gemmNT(&packs32, kernel3x4, m, n, k, a, lda, b, ldb, c, ldc)
		return
	}
	im.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Dgemm is Sgemm in float64.
func (im goKernels) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if tA == blas.NoTrans && tB == blas.Trans && alpha == 1 && beta == 0 &&
		gemmShapeOK(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc) {
		gemmNT(&packs64, dkernel3x4, m, n, k, a, lda, b, ldb, c, ldc)
		return
	}
	im.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// The kernels' tile: stripRows rows of A against tileCols rows of B, the sums over k
// taken one 256-bit register at a time (8 float32s or 4 float64s).
const (
	stripRows = 3
	tileCols  = 4
	chunkCols = 256 // rows of B packed at a time (float64 at k = 104: 213 KB)
)

type float interface{ float32 | float64 }

// kernelFunc is a kernel: for each of the tiles, the 3 x 4 sums of products of three
// rows of A (at a, a+lda, a+2*lda: full steps, then, when tail is 1, one step from at,
// the three rows' last values zero-padded) and a tile of B packed by pack; the sums of
// row r go to out[r*ldo + 4t .. 4t+3].
type kernelFunc[T float] func(full, tail int, a *T, lda int, at, b *T, tiles int, out *T, ldo int)

// packs are the buffers of one product: B's rows packed by tiles, the last values of a
// strip of A's rows (or a whole last strip) zero-padded, and the strip's sums.
type packs[T float] struct{ b, a, out []T }

var (
	packs32 = sync.Pool{New: func() any { return new(packs[float32]) }}
	packs64 = sync.Pool{New: func() any { return new(packs[float64]) }}
)

// step is how many values of T one 256-bit register holds.
func step[T float]() int {
	var v T
	switch any(v).(type) {
	case float32:
		return 8
	default:
		return 4
	}
}

func grow[T float](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// gemmNT sets C = A B' (A m x k, B n x k, C m x n, all row-major with the given strides)
// with kernel kern. The longer of A and B is the one read a strip at a time; the shorter
// is packed, so a product of a few points with many features (C' = B A') costs no more
// than the other way round.
func gemmNT[T float](pool *sync.Pool, kern kernelFunc[T], m, n, k int, a []T, lda int, b []T, ldb int, c []T, ldc int) {
	pk := pool.Get().(*packs[T])
	defer pool.Put(pk)
	if m >= n {
		pk.product(kern, m, n, k, a, lda, b, ldb, c, ldc, false)
	} else {
		pk.product(kern, n, m, k, b, ldb, a, lda, c, ldc, true)
	}
}

// product sets C = A B', or C' = A B' when transposed, with B packed chunkCols rows at a
// time and A's rows taken in strips of stripRows; rows and sums beyond the ends are zero
// padding, never written to C.
func (pk *packs[T]) product(kern kernelFunc[T], m, n, k int, a []T, lda int, b []T, ldb int, c []T, ldc int, transposed bool) {
	w := step[T]()
	steps := (k + w - 1) / w
	full, tail := k/w, steps-k/w
	for j0 := 0; j0 < n; j0 += chunkCols {
		cols := min(chunkCols, n-j0)
		tiles := (cols + tileCols - 1) / tileCols
		ldo := tiles * tileCols
		pk.b = grow(pk.b, ldo*steps*w)
		pack(pk.b, b[j0*ldb:], ldb, cols, k, tileCols, steps, w)
		pk.a = grow(pk.a, stripRows*steps*w)
		pk.out = grow(pk.out, stripRows*ldo)
		for i0 := 0; i0 < m; i0 += stripRows {
			rows := min(stripRows, m-i0)
			if rows < stripRows { // the last strip, padded whole: no rows read beyond A
				padRows(pk.a, a[i0*lda:], lda, rows, k, steps*w)
				kern(steps, 0, &pk.a[0], steps*w, nil, &pk.b[0], tiles, &pk.out[0], ldo)
			} else {
				if tail > 0 {
					pack(pk.a, a[i0*lda+full*w:], lda, rows, k-full*w, stripRows, 1, w)
				}
				kern(full, tail, &a[i0*lda], lda, &pk.a[0], &pk.b[0], tiles, &pk.out[0], ldo)
			}
			for r := 0; r < rows; r++ {
				sums := pk.out[r*ldo : r*ldo+cols]
				if !transposed {
					copy(c[(i0+r)*ldc+j0:], sums)
					continue
				}
				for q, v := range sums {
					c[(j0+q)*ldc+i0+r] = v
				}
			}
		}
	}
}

// pack lays out rows x k values of x (stride ld) in groups of g rows: for each group and
// each step s, the g rows' values s*w .. s*w+w-1 one after another, zero beyond k and
// beyond the last row.
func pack[T float](dst, x []T, ld, rows, k, g, steps, w int) {
	for q := 0; q*g < rows; q++ {
		grp := dst[q*g*steps*w : (q+1)*g*steps*w]
		for r := 0; r < g; r++ {
			var row []T
			if q*g+r < rows {
				row = x[(q*g+r)*ld : (q*g+r)*ld+k]
			}
			for s := 0; s < steps; s++ {
				t := grp[(s*g+r)*w : (s*g+r+1)*w]
				clear(t[copy(t, row[min(s*w, len(row)):]):])
			}
		}
	}
}

// padRows copies rows x k values of x (stride ld) to dst with stride ldd, zero beyond k
// and beyond the last row up to stripRows rows.
func padRows[T float](dst, x []T, ld, rows, k, ldd int) {
	clear(dst[:stripRows*ldd])
	for r := 0; r < rows; r++ {
		copy(dst[r*ldd:r*ldd+k], x[r*ld:r*ld+k])
	}
}
