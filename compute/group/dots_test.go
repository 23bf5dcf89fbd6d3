package group

import (
	"math/rand/v2"
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
