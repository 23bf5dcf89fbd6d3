package fastblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// sgemmNT's sums are within float32 rounding of the exact ones: |c - a'b| <= (k+2) u
// sum|a_i b_i| (u = 2^-24; Higham, Accuracy and Stability, eq. 3.5: any order of
// summation), the exact sums taken in float64 (exact here: the products of two float32s
// and up to 200 of their sums fit). Shapes cover both ways round, k below, at and above
// multiples of 8, rows and columns not filling a tile, more than a chunk of columns,
// and strides wider than the rows.
func TestKernelProductWithinRounding(t *testing.T) {
	if !haveKernel {
		t.Skip("this processor has no AVX2/FMA: gonum's Go BLAS does the products (tested by gonum)")
	}
	r := rand.New(rand.NewPCG(3, 4))
	shapes := [][3]int{{1, 1, 1}, {3, 4, 8}, {2, 5, 7}, {5, 3, 9}, {32, 7129, 72}, {512, 512, 104},
		{300, 257, 62}, {7, 600, 16}, {600, 7, 17}, {4, 4, 200}}
	for trial := 0; trial < 40; trial++ {
		shapes = append(shapes, [3]int{1 + r.IntN(40), 1 + r.IntN(300), 1 + r.IntN(120)})
	}
	for _, s := range shapes {
		m, n, k := s[0], s[1], s[2]
		lda, ldb, ldc := k+r.IntN(3), k+r.IntN(3), n+r.IntN(3)
		a, b := randoms32(r, lda*(m-1)+k), randoms32(r, ldb*(n-1)+k)
		c := randoms32(r, ldc*(m-1)+n) // overwritten where C is, left alone between rows
		c0 := append([]float32(nil), c...)
		goKernels{}.Sgemm(blas.NoTrans, blas.Trans, m, n, k, 1, a, lda, b, ldb, 0, c, ldc)
		for i := 0; i < m; i++ {
			for j := 0; j < ldc && i*ldc+j < len(c); j++ {
				if j >= n {
					if c[i*ldc+j] != c0[i*ldc+j] {
						t.Fatalf("%dx%dx%d: C[%d][%d] beyond the columns was written", m, n, k, i, j)
					}
					continue
				}
				exact, abs := 0.0, 0.0
				for l := 0; l < k; l++ {
					p := float64(a[i*lda+l]) * float64(b[j*ldb+l])
					exact += p
					abs += math.Abs(p)
				}
				if d := math.Abs(float64(c[i*ldc+j]) - exact); d > float64(k+2)*0x1p-24*abs {
					t.Fatalf("%dx%dx%d: C[%d][%d] = %g, exact %g: off by %g, bound %g", m, n, k, i, j, c[i*ldc+j], exact, d, float64(k+2)*0x1p-24*abs)
				}
			}
		}
	}
}

// Products other than C = A B' are gonum's own, bit for bit.
func TestKernelLeavesOtherProductsToGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	a, b := randoms32(r, 6*5), randoms32(r, 5*4)
	want, got := make([]float32, 6*4), make([]float32, 6*4)
	goKernels{}.Implementation.Sgemm(blas.NoTrans, blas.NoTrans, 6, 4, 5, 1, a, 5, b, 4, 0, want, 4)
	goKernels{}.Sgemm(blas.NoTrans, blas.NoTrans, 6, 4, 5, 1, a, 5, b, 4, 0, got, 4)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("element %d: %g, gonum %g", i, got[i], want[i])
		}
	}
}

func randoms32(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// BenchmarkSgemmNT times C = A B' at the shapes of DGF on Leukemia (72 samples): a block
// of pairs (512 x 512), a block of points screened against every gene (32 x 7129), a
// hub's ring (256 x 900), with the kernel and with gonum's Go BLAS.
func BenchmarkSgemmNT(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, s := range [][3]int{{512, 512, 72}, {32, 7129, 72}, {7129, 32, 72}, {256, 900, 72}} {
		m, n, k := s[0], s[1], s[2]
		a, bb, c := randoms32(r, m*k), randoms32(r, n*k), make([]float32, m*n)
		for _, im := range []struct {
			name string
			gemm func()
		}{
			{"kernel", func() { goKernels{}.Sgemm(blas.NoTrans, blas.Trans, m, n, k, 1, a, k, bb, k, 0, c, n) }},
			{"gonum", func() { goKernels{}.Implementation.Sgemm(blas.NoTrans, blas.Trans, m, n, k, 1, a, k, bb, k, 0, c, n) }},
			{"openblas", func() { blas32.Implementation().Sgemm(blas.NoTrans, blas.Trans, m, n, k, 1, a, k, bb, k, 0, c, n) }},
		} {
			b.Run(fmt.Sprintf("%dx%dx%d/%s", m, n, k, im.name), func(b *testing.B) {
				if (im.name == "kernel" && !haveKernel) || (im.name == "openblas" && !Native()) {
					b.Skip("no AVX2/FMA, or no library loaded")
				}
				for i := 0; i < b.N; i++ {
					im.gemm()
				}
				b.ReportMetric(2*float64(m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
			})
		}
	}
}
