package fastblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
)

// The kernels' sums are within rounding of the exact ones: |c - a'b| <= (k+2) u
// sum|a_i b_i| (u = 2^-24 in float32, 2^-53 in float64; Higham, Accuracy and Stability,
// eq. 3.5: any order of summation), the exact sums taken in float64 for float32 (exact:
// products of two float32s and up to 200 of their sums fit) and, for float64, as if in
// twice the precision (Ogita, Rump and Oishi's Dot2: error-free products and sums). Shapes cover both ways round, k below, at and above multiples of the step,
// rows and columns not filling a tile, more than a chunk of columns, and strides wider
// than the rows; C beyond its columns is left alone.
func TestKernelProductWithinRounding(t *testing.T) {
	if !haveKernel {
		t.Skip("this processor has no AVX2/FMA: gonum's Go BLAS does the products (tested by gonum)")
	}
	r := rand.New(rand.NewPCG(3, 4))
	shapes := [][3]int{{1, 1, 1}, {3, 4, 8}, {2, 5, 7}, {5, 3, 9}, {3, 4, 4}, {4, 3, 5}, {32, 7129, 72},
		{512, 512, 104}, {300, 257, 62}, {7, 600, 16}, {600, 7, 17}, {4, 4, 200}}
	for trial := 0; trial < 40; trial++ {
		shapes = append(shapes, [3]int{1 + r.IntN(40), 1 + r.IntN(300), 1 + r.IntN(120)})
	}
	for _, s := range shapes {
		m, n, k := s[0], s[1], s[2]
		lda, ldb, ldc := k+r.IntN(3), k+r.IntN(3), n+r.IntN(3)
		a, b := randoms(r, lda*(m-1)+k), randoms(r, ldb*(n-1)+k)
		c0 := randoms(r, ldc*(m-1)+n)
		c64 := append([]float64(nil), c0...)
		goKernels{}.Dgemm(blas.NoTrans, blas.Trans, m, n, k, 1, a, lda, b, ldb, 0, c64, ldc)
		a32, b32, c32 := toFloat32(a), toFloat32(b), toFloat32(c0)
		goKernels{}.Sgemm(blas.NoTrans, blas.Trans, m, n, k, 1, a32, lda, b32, ldb, 0, c32, ldc)
		for i := 0; i < m; i++ {
			for j := 0; j < ldc && i*ldc+j < len(c0); j++ {
				at := fmt.Sprintf("%dx%dx%d: C[%d][%d]", m, n, k, i, j)
				if j >= n {
					if c64[i*ldc+j] != c0[i*ldc+j] || c32[i*ldc+j] != float32(c0[i*ldc+j]) {
						t.Fatalf("%s beyond the columns was written", at)
					}
					continue
				}
				sum, errs, abs := 0.0, 0.0, 0.0
				exact32, abs32 := 0.0, 0.0
				for l := 0; l < k; l++ {
					x, y := a[i*lda+l], b[j*ldb+l]
					p := x * y
					s := sum + p
					z := s - sum
					errs += (sum - (s - z)) + (p - z) + math.FMA(x, y, -p)
					sum = s
					abs += math.Abs(p)
					p32 := float64(a32[i*lda+l]) * float64(b32[j*ldb+l])
					exact32 += p32
					abs32 += math.Abs(p32)
				}
				e := sum + errs
				if d := math.Abs(c64[i*ldc+j] - e); d > float64(k+2)*0x1p-53*abs*1.0001 {
					t.Fatalf("float64 %s = %g, exact %g: off by %g", at, c64[i*ldc+j], e, d)
				}
				if d := math.Abs(float64(c32[i*ldc+j]) - exact32); d > float64(k+2)*0x1p-24*abs32 {
					t.Fatalf("float32 %s = %g, exact %g: off by %g", at, c32[i*ldc+j], exact32, d)
				}
			}
		}
	}
}

// Products other than C = A B' (or with alpha != 1 or beta != 0) are gonum's own, bit
// for bit.
func TestKernelLeavesOtherProductsToGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	a, b, c := randoms(r, 6*5), randoms(r, 5*4), randoms(r, 6*4)
	g := goKernels{}.Implementation
	for _, tc := range []struct {
		tB          blas.Transpose
		alpha, beta float64
	}{{blas.NoTrans, 1, 0}, {blas.Trans, 2, 0}, {blas.Trans, 1, 0.5}} {
		ldb := 4
		if tc.tB == blas.Trans {
			ldb = 5
		}
		n := 4
		want, got := append([]float64(nil), c...), append([]float64(nil), c...)
		g.Dgemm(blas.NoTrans, tc.tB, 6, n, 5, tc.alpha, a, 5, b, ldb, tc.beta, want, 4)
		goKernels{}.Dgemm(blas.NoTrans, tc.tB, 6, n, 5, tc.alpha, a, 5, b, ldb, tc.beta, got, 4)
		want32, got32 := toFloat32(c), toFloat32(c)
		g.Sgemm(blas.NoTrans, tc.tB, 6, n, 5, float32(tc.alpha), toFloat32(a), 5, toFloat32(b), ldb, float32(tc.beta), want32, 4)
		goKernels{}.Sgemm(blas.NoTrans, tc.tB, 6, n, 5, float32(tc.alpha), toFloat32(a), 5, toFloat32(b), ldb, float32(tc.beta), got32, 4)
		for i := range want {
			if got[i] != want[i] || got32[i] != want32[i] {
				t.Fatalf("%c, alpha %g, beta %g: element %d: %g / %g, gonum %g / %g", tc.tB, tc.alpha, tc.beta, i, got[i], got32[i], want[i], want32[i])
			}
		}
	}
}

// BenchmarkSgemmNT times C = A B' at the shapes of DGF on Leukemia (72 samples): a block
// of pairs (512 x 512), a block of points screened against every gene (32 x 7129, and
// the other way round), a hub's ring (256 x 900), with the kernel, gonum's Go BLAS and
// the loaded library.
func BenchmarkSgemmNT(b *testing.B) {
	benchGemmNT(b, [][3]int{{512, 512, 72}, {32, 7129, 72}, {7129, 32, 72}, {256, 900, 72}},
		func(v []float64) []float32 { return toFloat32(v) },
		func(im blas.Float32, m, n, k int, a, bb, c []float32) {
			im.Sgemm(blas.NoTrans, blas.Trans, m, n, k, 1, a, k, bb, k, 0, c, n)
		}, blas32.Implementation())
}

// BenchmarkDgemmNT is BenchmarkSgemmNT in float64, at the shapes of DGF's covers (128
// points against 1000 centres) and nearest-neighbour distances (128 x 7129).
func BenchmarkDgemmNT(b *testing.B) {
	benchGemmNT(b, [][3]int{{128, 1000, 72}, {128, 7129, 72}},
		func(v []float64) []float64 { return v },
		func(im blas.Float64, m, n, k int, a, bb, c []float64) {
			im.Dgemm(blas.NoTrans, blas.Trans, m, n, k, 1, a, k, bb, k, 0, c, n)
		}, blas64.Implementation())
}

func benchGemmNT[T float, I any](b *testing.B, shapes [][3]int, conv func([]float64) []T, gemm func(im I, m, n, k int, a, bb, c []T), lib I) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, s := range shapes {
		m, n, k := s[0], s[1], s[2]
		a, bb, c := conv(randoms(r, m*k)), conv(randoms(r, n*k)), make([]T, m*n)
		for _, im := range []struct {
			name string
			impl any
		}{{"kernel", goKernels{}}, {"gonum", goKernels{}.Implementation}, {"openblas", lib}} {
			b.Run(fmt.Sprintf("%dx%dx%d/%s", m, n, k, im.name), func(b *testing.B) {
				if (im.name == "kernel" && !haveKernel) || (im.name == "openblas" && !Native()) {
					b.Skip("no AVX2/FMA, or no library loaded")
				}
				for i := 0; i < b.N; i++ {
					gemm(im.impl.(I), m, n, k, a, bb, c)
				}
				b.ReportMetric(2*float64(m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
			})
		}
	}
}
