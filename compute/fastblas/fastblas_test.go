package fastblas

import (
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// loaded returns the loaded library; the test machine (CI installs libopenblas-dev)
// must have one unless STEADFAST_BLAS=go asks for none.
func loaded(t *testing.T) *library {
	t.Helper()
	if os.Getenv("STEADFAST_BLAS") == "go" || !canLoad {
		t.Skip("STEADFAST_BLAS=go or a build that loads no library: nothing to compare")
	}
	lib, why := load("")
	if lib == nil {
		t.Fatalf("no BLAS library loaded (%s): install libopenblas0 (Debian: apt-get install libopenblas-dev)", why)
	}
	return lib
}

// The loaded library's products equal gonum's to rounding, for random shapes, every
// transposition, strided operands and beta != 0 (the reference is gonum's Go BLAS).
func TestLibraryMatchesGonum(t *testing.T) {
	lib := loaded(t)
	if err := lib.check(); err != nil {
		t.Fatal(err)
	}
	im := implementation{lib: lib}
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		m, n, k := 1+r.IntN(40), 1+r.IntN(40), 1+r.IntN(70)
		tA, tB := []blas.Transpose{blas.NoTrans, blas.Trans}[r.IntN(2)], []blas.Transpose{blas.NoTrans, blas.Trans}[r.IntN(2)]
		ra, ca, rb, cb := m, k, k, n
		if tA == blas.Trans {
			ra, ca = k, m
		}
		if tB == blas.Trans {
			rb, cb = n, k
		}
		lda, ldb, ldc := ca+r.IntN(3), cb+r.IntN(3), n+r.IntN(3)
		a, b := randoms(r, lda*(ra-1)+ca), randoms(r, ldb*(rb-1)+cb)
		c0 := randoms(r, ldc*(m-1)+n)
		want, got := append([]float64(nil), c0...), append([]float64(nil), c0...)
		gonum.Implementation{}.Dgemm(tA, tB, m, n, k, 0.7, a, lda, b, ldb, 0.3, want, ldc)
		im.Dgemm(tA, tB, m, n, k, 0.7, a, lda, b, ldb, 0.3, got, ldc)
		want32, got32 := toFloat32(c0), toFloat32(c0)
		gonum.Implementation{}.Sgemm(tA, tB, m, n, k, 0.7, toFloat32(a), lda, toFloat32(b), ldb, 0.3, want32, ldc)
		im.Sgemm(tA, tB, m, n, k, 0.7, toFloat32(a), lda, toFloat32(b), ldb, 0.3, got32, ldc)
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12*float64(k) || math.Abs(float64(got32[i]-want32[i])) > 1e-5*float64(k) {
				t.Fatalf("trial %d (%dx%dx%d %c%c): element %d: %g / %g, gonum %g / %g", trial, m, n, k, tA, tB, i, got[i], got32[i], want[i], want32[i])
			}
		}
	}
}

// Empty products go to gonum (which leaves C alone) instead of passing a nil pointer.
func TestEmptyProductsLeaveC(t *testing.T) {
	im := implementation{lib: loaded(t)}
	c := []float64{1, 2}
	im.Dgemm(blas.NoTrans, blas.NoTrans, 0, 2, 3, 1, nil, 3, make([]float64, 6), 2, 0, c, 2)
	if c[0] != 1 || c[1] != 2 {
		t.Errorf("C changed by an empty product: %v", c)
	}
}

// STEADFAST_BLAS=go keeps gonum's Go BLAS, and says so; a file that is no library is
// reported, not fatal.
func TestChoosingNoLibrary(t *testing.T) {
	if lib, why := load("go"); lib != nil || (canLoad && !strings.Contains(why, "STEADFAST_BLAS=go")) {
		t.Errorf("load(go) = %v, %q", lib, why)
	}
	if lib, why := load(os.Args[0] + ".missing"); lib != nil || (canLoad && why == "") {
		t.Errorf("a missing file loaded: %v, %q", lib, why)
	}
}

func randoms(r *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = r.NormFloat64()
	}
	return v
}

// Loading OpenBLAS asks it for no threads of its own (they would spin beside the
// goroutines that split the products): OPENBLAS_NUM_THREADS is 1 when the library
// loads, unless the user set it.
func TestOpenBLASStartsNoThreadPool(t *testing.T) {
	loaded(t)
	if got := os.Getenv("OPENBLAS_NUM_THREADS"); got != "1" {
		t.Errorf("OPENBLAS_NUM_THREADS = %q after loading, want 1 (the test runs without it set)", got)
	}
}
