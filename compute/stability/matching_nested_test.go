package stability

import (
	"math/rand/v2"
	"testing"
)

// NestedSimM gives, for every leading block, what SimM gives for it afresh: bit for bit
// when the optimum is unique (continuous random weights), and the same optimum within
// rounding when ties allow several (0/1 weights, as Sim_ID^M of single features has,
// and repeated columns, as duplicated probes give).
func TestNestedSimMEqualsSimMOfEachBlock(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n := 1 + r.IntN(50)
		kind := trial % 3
		w := make([][]float64, n)
		for i := range w {
			w[i] = make([]float64, n)
			for j := range w[i] {
				switch kind {
				case 0:
					w[i][j] = r.Float64()
				case 1:
					w[i][j] = float64(r.IntN(4) / 3) // mostly 0, some 1
				case 2:
					w[i][j] = float64(r.IntN(5)) / 4
				}
			}
		}
		if kind == 2 && n > 3 { // two identical columns
			for i := range w {
				w[i][n-1] = w[i][1]
			}
		}
		var ks []int
		for k := 1; k <= n; k++ {
			if k == n || r.IntN(3) > 0 {
				ks = append(ks, k)
			}
		}
		got := NestedSimM(w, ks)
		for ki, k := range ks {
			want := SimM(k, k, func(i, j int) float64 { return w[i][j] })
			if kind == 0 && got[ki] != want || abs(got[ki]-want) > 1e-12 {
				t.Fatalf("trial %d (kind %d), k = %d of %d: nested %v, afresh %v", trial, kind, k, n, got[ki], want)
			}
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// BenchmarkNestedSimM matches every leading block of a 50 x 50 matrix, as a study does
// for each pair of selections at k = 1..50, against matching each block afresh.
func BenchmarkNestedSimM(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	w := make([][]float64, 50)
	for i := range w {
		w[i] = make([]float64, 50)
		for j := range w[i] {
			w[i][j] = r.Float64()
		}
	}
	ks := make([]int, 50)
	for i := range ks {
		ks[i] = i + 1
	}
	b.Run("nested", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			NestedSimM(w, ks)
		}
	})
	b.Run("afresh", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, k := range ks {
				SimM(k, k, func(i, j int) float64 { return w[i][j] })
			}
		}
	})
}
