package stability

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestSetMeasuresByHand(t *testing.T) {
	a, b := []int{1, 2, 3, 4}, []int{3, 4, 5, 6}
	// |A ∩ B| = 2: Dice = 2*2/8 = 0.5; Tanimoto = 2/6
	if got := SimID(a, b); got != 0.5 {
		t.Errorf("SimID = %v", got)
	}
	if got := Tanimoto(a, b); math.Abs(got-1.0/3) > 1e-15 {
		t.Errorf("Tanimoto = %v", got)
	}
	if SimID(nil, nil) != 1 || SimID(a, nil) != 0 || Tanimoto(a, a) != 1 {
		t.Error("edge cases")
	}
}

func TestCorrelationsByHand(t *testing.T) {
	// ranks (1,2,3,4) vs (2,1,4,3): sum d^2 = 4, S_R = 1 - 6*4/(4*15) = 0.6
	if got := Spearman([]float64{1, 2, 3, 4}, []float64{2, 1, 4, 3}); math.Abs(got-0.6) > 1e-15 {
		t.Errorf("Spearman = %v", got)
	}
	if got := Pearson([]float64{1, 2, 3}, []float64{2, 4, 6}); math.Abs(got-1) > 1e-15 {
		t.Errorf("Pearson = %v", got)
	}
	if got := Pearson([]float64{1, 1, 1}, []float64{2, 4, 6}); got != 0 {
		t.Errorf("Pearson of a constant = %v", got)
	}
	// ties: scores (5, 5, 1) give ranks {1, 2} in seeded random order and 3
	r := Ranks([]float64{5, 5, 1}, rand.New(rand.NewPCG(1, 2)))
	if r[2] != 3 || r[0]+r[1] != 3 || r[0] == r[1] {
		t.Errorf("Ranks with ties = %v", r)
	}
}

func bruteForce(w [][]float64) float64 {
	rows, cols := len(w), len(w[0])
	best := 0.0
	used := make([]bool, cols)
	var rec func(i int, s float64)
	rec = func(i int, s float64) {
		if i == rows {
			best = math.Max(best, s)
			return
		}
		rec(i+1, s) // row i unmatched
		for j := 0; j < cols; j++ {
			if !used[j] {
				used[j] = true
				rec(i+1, s+w[i][j])
				used[j] = false
			}
		}
	}
	rec(0, 0)
	return best
}

// TestMatchingNeverBeatenByBruteForce is the property test of the issue: on random small
// weight matrices of every shape up to 6 x 6, the Hungarian matching equals the best of
// all matchings and is a valid matching.
func TestMatchingNeverBeatenByBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 0))
	for trial := 0; trial < 400; trial++ {
		rows, cols := 1+r.IntN(6), 1+r.IntN(6)
		w := make([][]float64, rows)
		for i := range w {
			w[i] = make([]float64, cols)
			for j := range w[i] {
				w[i][j] = r.Float64()
				if r.IntN(4) == 0 {
					w[i][j] = 0
				}
			}
		}
		match, total := MaxWeightMatching(w)
		want := bruteForce(w)
		if math.Abs(total-want) > 1e-9 {
			t.Fatalf("trial %d (%dx%d): Hungarian %v, brute force %v", trial, rows, cols, total, want)
		}
		used := map[int]bool{}
		sum := 0.0
		for i, j := range match {
			if j < 0 {
				continue
			}
			if used[j] {
				t.Fatalf("column %d matched twice", j)
			}
			used[j] = true
			sum += w[i][j]
		}
		if math.Abs(sum-total) > 1e-9 {
			t.Fatalf("reported total %v, matching sums to %v", total, sum)
		}
	}
}

func TestGroupMeasuresByHand(t *testing.T) {
	g1 := [][]int{{1, 2}, {3, 4}}
	g2 := [][]int{{3, 4, 5}, {1, 2}}
	// best matching: {1,2}-{1,2} (1) and {3,4}-{3,4,5} (2*2/5 = 0.8): (1 + 0.8)/2 = 0.9
	if got := SimIDM(g1, g2); math.Abs(got-0.9) > 1e-12 {
		t.Errorf("Sim_ID^M = %v", got)
	}
	c1 := [][]float64{{1, 2, 3}, {1, 0, 1}}
	c2 := [][]float64{{3, 2, 1}}
	// |r| of (1,2,3) with (3,2,1) is 1, of (1,0,1) with (3,2,1) is 0; one pair matched: 1
	if got := SimVM(c1, c2); math.Abs(got-1) > 1e-12 {
		t.Errorf("Sim_V^M = %v", got)
	}
}

func TestTopKOverlapsMatchesDirectCount(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for trial := 0; trial < 200; trial++ {
		p := 2 + r.IntN(40)
		a, b := r.Perm(p), r.Perm(p)
		var ks []int
		for k := 1; k <= p; k++ {
			if r.IntN(3) == 0 || k == p {
				ks = append(ks, k)
			}
		}
		got := TopKOverlaps(a, b, ks)
		for i, k := range ks {
			if want := intersect(a[:k], b[:k]); got[i] != want {
				t.Fatalf("p=%d k=%d: %d, direct count %d", p, k, got[i], want)
			}
		}
	}
}
