// Package fastblas makes gonum's matrix products (Dgemm, Sgemm: the pairwise distances
// of DGF and MIDS, the k-means assignments, the nearest-neighbour correlations) run on
// an optimised BLAS when the machine has one, loaded at run time without cgo: OpenBLAS
// (libopenblas) or, on macOS, Accelerate. Without one, or when the library fails a
// product checked against gonum's at load, gonum's own Go BLAS does them, with the
// products C = A B' on AVX2 kernels where the processor has AVX2 and FMA (see
// goKernels): the same results, as Steadfast decides every distance in its own float64
// arithmetic.
//
// Importing the package is enough. STEADFAST_BLAS=go loads no library (Go and the
// kernels); STEADFAST_BLAS=gonum, gonum's Go BLAS alone; STEADFAST_BLAS=FILE loads that
// library instead of searching. The library runs one thread per call and starts no pool
// of its own (OPENBLAS_NUM_THREADS=1 unless set): Steadfast splits its products over
// its own goroutines.
package fastblas

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
)

// CBLAS enumerations (cblas.h).
const (
	rowMajor = 101
	noTrans  = 111
	trans    = 112
)

type (
	dgemmFunc func(order, ta, tb, m, n, k int32, alpha float64, a *float64, lda int32, b *float64, ldb int32, beta float64, c *float64, ldc int32)
	sgemmFunc func(order, ta, tb, m, n, k int32, alpha float32, a *float32, lda int32, b *float32, ldb int32, beta float32, c *float32, ldc int32)
)

// library is a loaded BLAS: its name and its two products.
type library struct {
	name  string
	dgemm dgemmFunc
	sgemm sgemmFunc
}

var name = "gonum's native Go BLAS"

// Name says which BLAS does the matrix products, and why when it is gonum's.
func Name() string { return name }

var native, kernel bool

// Native reports whether an optimised library (not gonum's Go BLAS) does the products.
func Native() bool { return native }

// Kernel reports whether the AVX2 kernels do the products C = A B' (no library
// loaded, a processor with AVX2 and FMA, STEADFAST_BLAS not gonum).
func Kernel() bool { return kernel }

func init() {
	want := os.Getenv("STEADFAST_BLAS")
	lib, why := load(want)
	if lib == nil {
		if haveKernel && !strings.EqualFold(want, "gonum") {
			blas32.Use(goKernels{})
			blas64.Use(goKernels{})
			name, kernel = "Go: gonum's BLAS with Steadfast's AVX2 kernels for C = A B'", true
		}
		if why != "" {
			name += " (" + why + ")"
		}
		return
	}
	if err := lib.check(); err != nil {
		name += fmt.Sprintf(" (%s was not used: %v)", lib.name, err)
		return
	}
	impl := implementation{lib: lib}
	blas64.Use(impl)
	blas32.Use(impl)
	name, native = lib.name, true
}

// implementation is gonum's Go BLAS with Dgemm and Sgemm done by lib.
type implementation struct {
	gonum.Implementation
	lib *library
}

func cblasTrans(t blas.Transpose) int32 {
	if t == blas.NoTrans {
		return noTrans
	}
	return trans
}

// Dgemm computes C = alpha op(A) op(B) + beta C (row-major), as gonum's Dgemm; empty
// products and argument errors are left to gonum's.
func (im implementation) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if !gemmShapeOK(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc) {
		im.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	im.lib.dgemm(rowMajor, cblasTrans(tA), cblasTrans(tB), int32(m), int32(n), int32(k), alpha, &a[0], int32(lda), &b[0], int32(ldb), beta, &c[0], int32(ldc))
}

// Sgemm is Dgemm in float32.
func (im implementation) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if !gemmShapeOK(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc) {
		im.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	im.lib.sgemm(rowMajor, cblasTrans(tA), cblasTrans(tB), int32(m), int32(n), int32(k), alpha, &a[0], int32(lda), &b[0], int32(ldb), beta, &c[0], int32(ldc))
}

// gemmShapeOK reports whether a product is non-empty, its transposes are known, and its
// slices hold what the sizes say, with every size within int32; anything else goes to
// gonum, which does nothing for empty products and panics with its message otherwise.
func gemmShapeOK(tA, tB blas.Transpose, m, n, k, la, lda, lb, ldb, lc, ldc int) bool {
	known := func(t blas.Transpose) bool { return t == blas.NoTrans || t == blas.Trans || t == blas.ConjTrans }
	if m <= 0 || n <= 0 || k <= 0 || !known(tA) || !known(tB) {
		return false
	}
	ra, ca := m, k
	if tA != blas.NoTrans {
		ra, ca = k, m
	}
	rb, cb := k, n
	if tB != blas.NoTrans {
		rb, cb = n, k
	}
	for _, v := range []int{m, n, k, lda, ldb, ldc, la, lb, lc} {
		if v > math.MaxInt32 {
			return false
		}
	}
	return lda >= max(1, ca) && ldb >= max(1, cb) && ldc >= max(1, n) &&
		la >= lda*(ra-1)+ca && lb >= ldb*(rb-1)+cb && lc >= ldc*(m-1)+n
}

// check multiplies small matrices, each way of transposing, with lib and with gonum and
// returns an error unless they agree to rounding (a library with another calling
// convention fails here rather than giving wrong numbers later).
func (lib *library) check() error {
	const m, n, k = 5, 4, 7
	a, b := make([]float64, m*k), make([]float64, k*n)
	for i := range a {
		a[i] = math.Sin(float64(i+1)) * 3
	}
	for i := range b {
		b[i] = math.Cos(float64(2*i+1)) * 2
	}
	a32, b32 := toFloat32(a), toFloat32(b)
	for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
		for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			lda, ldb := k, n
			if tA == blas.Trans {
				lda = m
			}
			if tB == blas.Trans {
				ldb = k
			}
			c0 := make([]float64, m*n)
			for i := range c0 {
				c0[i] = 0.5
			}
			want, got, got32 := slices.Clone(c0), slices.Clone(c0), toFloat32(c0)
			gonum.Implementation{}.Dgemm(tA, tB, m, n, k, 1.5, a, lda, b, ldb, -2, want, n)
			lib.dgemm(rowMajor, cblasTrans(tA), cblasTrans(tB), m, n, k, 1.5, &a[0], int32(lda), &b[0], int32(ldb), -2, &got[0], n)
			lib.sgemm(rowMajor, cblasTrans(tA), cblasTrans(tB), m, n, k, 1.5, &a32[0], int32(lda), &b32[0], int32(ldb), -2, &got32[0], n)
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) || math.Abs(float64(got32[i])-want[i]) > 1e-4*(1+math.Abs(want[i])) {
					return fmt.Errorf("its product differs from gonum's (%g and %g, not %g)", got[i], got32[i], want[i])
				}
			}
		}
	}
	return nil
}

func toFloat32(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}
