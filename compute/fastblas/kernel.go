package fastblas

import (
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// goKernels is gonum's Go BLAS with the float32 product C = A B' (A m x k, B n x k, both
// row-major: every pairwise inner product of two sets of points, the product DGF and
// MIDS spend their time in) done by an AVX2/FMA kernel where the processor has one. It
// is plain Go with Go assembly: no cgo, nothing to install.
type goKernels struct{ gonum.Implementation }

// Sgemm is gonum's, except that C = A B' (alpha 1, beta 0) goes to sgemmNT.
func (im goKernels) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if tA == blas.NoTrans && tB == blas.Trans && alpha == 1 && beta == 0 &&
		gemmShapeOK(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc) {
		sgemmNT(m, n, k, a, lda, b, ldb, c, ldc)
		return
	}
	im.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// The kernel's tile: stripRows rows of A against tileCols rows of B, the sums over k
// taken stepK at a time.
const (
	stripRows = 3
	tileCols  = 4
	stepK     = 8
	chunkCols = 256 // rows of B packed at a time (at k = 104, 107 KB)
)

// packs are the buffers of one product: B's rows packed by tiles, the last values of a
// strip of A's rows (or a whole last strip) zero-padded, and the strip's sums.
type packs struct{ b, a, out []float32 }

var packPool = sync.Pool{New: func() any { return new(packs) }}

func grow32(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// sgemmNT sets C = A B' (A m x k, B n x k, C m x n, all row-major with the given
// strides). The longer of A and B is the one read a strip at a time; the shorter is
// packed, so a product of a few points with many features (C' = B A') costs no more
// than the other way round.
func sgemmNT(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	pk := packPool.Get().(*packs)
	defer packPool.Put(pk)
	if m >= n {
		pk.product(m, n, k, a, lda, b, ldb, c, ldc, false)
	} else {
		pk.product(n, m, k, b, ldb, a, lda, c, ldc, true)
	}
}

// product sets C = A B', or C' = A B' when transposed, with B packed chunkCols rows at a
// time and A's rows taken in strips of stripRows; rows and sums beyond the ends are zero
// padding, never written to C.
func (pk *packs) product(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, transposed bool) {
	steps := (k + stepK - 1) / stepK
	for j0 := 0; j0 < n; j0 += chunkCols {
		cols := min(chunkCols, n-j0)
		tiles := (cols + tileCols - 1) / tileCols
		ldo := tiles * tileCols
		pk.b = grow32(pk.b, ldo*steps*stepK)
		pack(pk.b, b[j0*ldb:], ldb, cols, k, tileCols, steps)
		pk.a = grow32(pk.a, stripRows*steps*stepK)
		pk.out = grow32(pk.out, stripRows*ldo)
		full, tail := k/stepK, steps-k/stepK
		for i0 := 0; i0 < m; i0 += stripRows {
			rows := min(stripRows, m-i0)
			if rows < stripRows { // the last strip, padded whole: no rows read beyond A
				padRows(pk.a, a[i0*lda:], lda, rows, k, steps*stepK)
				kernel3x4(steps, 0, &pk.a[0], steps*stepK, nil, &pk.b[0], tiles, &pk.out[0], ldo)
			} else {
				if tail > 0 {
					pack(pk.a, a[i0*lda+full*stepK:], lda, rows, k-full*stepK, stripRows, 1)
				}
				kernel3x4(full, tail, &a[i0*lda], lda, &pk.a[0], &pk.b[0], tiles, &pk.out[0], ldo)
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
// each step s, the g rows' values s*stepK .. s*stepK+7 one after another, zero beyond k and
// beyond the last row.
func pack(dst, x []float32, ld, rows, k, g, steps int) {
	full := k / stepK
	for q := 0; q*g < rows; q++ {
		grp := dst[q*g*steps*stepK : (q+1)*g*steps*stepK]
		for r := 0; r < g; r++ {
			if q*g+r >= rows {
				for s := 0; s < steps; s++ {
					clear(grp[(s*g+r)*stepK : (s*g+r+1)*stepK])
				}
				continue
			}
			row := x[(q*g+r)*ld : (q*g+r)*ld+k]
			for s := 0; s < full; s++ {
				*(*[stepK]float32)(grp[(s*g+r)*stepK:]) = *(*[stepK]float32)(row[s*stepK:])
			}
			if full < steps {
				t := grp[(full*g+r)*stepK : (full*g+r+1)*stepK]
				clear(t[copy(t, row[full*stepK:]):])
			}
		}
	}
}

// padRows copies rows x k values of x (stride ld) to dst with stride ldd, zero beyond k
// and beyond the last row up to stripRows rows.
func padRows(dst, x []float32, ld, rows, k, ldd int) {
	clear(dst[:stripRows*ldd])
	for r := 0; r < rows; r++ {
		copy(dst[r*ldd:r*ldd+k], x[r*ld:r*ld+k])
	}
}
