package group

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// TestDots4IsFloatsDot: the four dot products of dots4 are floats.Dot's bit for bit, for
// lengths 1..13 (every remainder modulo four) and Chowdary's 104, on values of mixed
// magnitude and sign where the order of addition shows in the last bits.
func TestDots4IsFloatsDot(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	v := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = r.NormFloat64() * float64(int(1)<<r.IntN(30))
		}
		return x
	}
	for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 104} {
		for trial := 0; trial < 50; trial++ {
			a := v(n)
			b := [4][]float64{v(n), v(n), v(n), v(n)}
			var got [4]float64
			dots4(a, &b, &got)
			for k := range got {
				if want := floats.Dot(b[k], a); got[k] != want {
					t.Fatalf("n = %d, row %d: %x, want floats.Dot's %x", n, k, got[k], want)
				}
			}
		}
	}
}

// TestUnplacedIsTheScreen: the features unplaced lists are exactly those the screen's
// definition leaves undecided, not both est - e >= lo and est + e <= hi with est =
// (||x_a||^2 + ||x_b||^2) - 2 c in float64, for every length 1..13 and 300: values drawn
// near both bounds (and on them), and a NaN.
func TestUnplacedIsTheScreen(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const lo, hi, e = 10.0, 30.0, 0.5
	for _, m := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 300} {
		sp := &space{points: points{norm: make([]float64, m+1)}}
		c := make([]float32, m)
		sp.norm[0] = 20
		for i := range c {
			sp.norm[i+1] = 20
			target := []float64{lo + e, hi - e, lo, hi, 20, 5, 40}[r.IntN(7)] + float64(r.IntN(3)-1)*1e-6
			c[i] = float32((40 - target) / 2)
		}
		if m == 300 {
			c[17] = float32(math.NaN())
		}
		got := sp.unplaced(0, 1, c, lo, hi, e, make([]int32, m))
		var want []int32
		for i, v := range c {
			if est := sp.norm[0] + sp.norm[i+1] - 2*float64(v); !(est-e >= lo && est+e <= hi) {
				want = append(want, int32(i+1))
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("m = %d: unplaced %v, want %v", m, got, want)
		}
	}
}

// TestNearerOfIsTheScreen: the features nearerOf lists are exactly those the
// bandwidth's screen keeps, not both lower >= wa and lower >= wb[b] with lower =
// ((||x_a||^2 + ||x_b||^2) - 2 c) - e in float64, for every length 1..13 and 300: lower
// drawn on, just above and just below both thresholds, wb[b] +Inf for some, and a NaN.
func TestNearerOfIsTheScreen(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const wa, e = 10.0, 0.5
	for _, m := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 300} {
		sp := &space{points: points{norm: make([]float64, m+1)}}
		wb := make([]float64, m+1)
		c := make([]float32, m)
		sp.norm[0] = 20
		for i := range c {
			sp.norm[i+1] = 20
			wb[i+1] = []float64{wa, 5, 15, math.Inf(1)}[r.IntN(4)]
			target := []float64{wa, wb[i+1], 5, 15, 30}[r.IntN(5)] + e + float64(r.IntN(3)-1)*1e-6
			c[i] = float32((40 - target) / 2)
		}
		if m == 300 {
			c[17] = float32(math.NaN())
		}
		got := sp.nearerOf(0, 1, c, wa, wb, e, make([]int32, m))
		var want []int32
		for i, v := range c {
			if lower := sp.norm[0] + sp.norm[i+1] - 2*float64(v) - e; !(lower >= wa && lower >= wb[i+1]) {
				want = append(want, int32(i+1))
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("m = %d: nearerOf %v, want %v", m, got, want)
		}
		if m == 300 && (len(want) < 30 || len(want) > 270) {
			t.Fatalf("m = 300: %d of 300 listed; the draws should put some on each side", len(want))
		}
	}
}
