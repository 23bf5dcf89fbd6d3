package stability

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// rows turns a binary selection matrix into index sets.
func rows(z [][]int) [][]int {
	var out [][]int
	for _, r := range z {
		var s []int
		for f, v := range r {
			if v == 1 {
				s = append(s, f)
			}
		}
		out = append(out, s)
	}
	return out
}

// References: testdata/nogueira_reference.py (the paper's formulas in numpy/scipy).
func TestNogueiraMatchesReference(t *testing.T) {
	a := rows([][]int{{1, 1, 1, 0, 0, 0, 0, 0, 0, 0}, {1, 1, 0, 1, 0, 0, 0, 0, 0, 0}, {1, 1, 1, 0, 0, 0, 0, 0, 0, 0},
		{1, 0, 1, 0, 1, 0, 0, 0, 0, 0}, {1, 1, 1, 0, 0, 0, 0, 0, 0, 1}, {0, 1, 1, 1, 0, 0, 0, 0, 0, 0}})
	b := rows([][]int{{1, 0, 0, 0, 0, 1, 0, 1, 0, 0}, {0, 1, 0, 0, 1, 0, 0, 0, 1, 0}, {0, 0, 1, 1, 0, 0, 0, 0, 0, 1},
		{1, 0, 0, 0, 0, 0, 1, 0, 1, 0}, {0, 0, 0, 1, 0, 1, 0, 0, 0, 1}, {0, 1, 1, 0, 0, 0, 1, 0, 0, 0}})
	near := func(what string, got, want float64) {
		if math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("%s = %.15g, reference %.15g", what, got, want)
		}
	}
	ea, eb := Nogueira(a, 10), Nogueira(b, 10)
	near("phi A", ea.Phi, 0.491655969191271)
	near("var A", ea.Var, 0.00939987054320499)
	lo, hi := ea.Interval(0.05)
	near("lower A", lo, 0.301631719129397)
	near("upper A", hi, 0.681680219253145)
	near("phi B", eb.Phi, -0.174603174603175)
	near("var B", eb.Var, 0.000933157899648201)
	tt, p := CompareNogueira(ea, eb)
	near("T", tt, -6.5543460928574)
	if math.Abs(p-5.58861845689762e-11) > 1e-15 {
		t.Errorf("p = %g, reference 5.58861845689762e-11", p)
	}
}

// By hand: identical sets are perfectly stable; {0,1} and {0,2} of 4 features have
// q = (1, .5, .5, 0), so Phi = 1 - 2 (0.5/4) / (0.5 x 0.5) = 0 and both phi_i = 0.5:
// variance 0.
func TestNogueiraByHand(t *testing.T) {
	if e := Nogueira([][]int{{0, 3}, {3, 0}, {0, 3}}, 9); e.Phi != 1 || e.Var > 1e-20 {
		t.Errorf("identical sets: %+v", e)
	}
	if e := Nogueira([][]int{{0, 1}, {0, 2}}, 4); math.Abs(e.Phi) > 1e-15 || math.Abs(e.Var) > 1e-15 {
		t.Errorf("{0,1}, {0,2}: %+v", e)
	}
	if e := Nogueira([][]int{{}, {}}, 5); e.Phi != 1 {
		t.Errorf("empty sets: %+v", e)
	}
}

// The one-pass curve equals Nogueira on every prefix, on random orders (30 trials).
func TestNogueiraCurveEqualsDirect(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for trial := 0; trial < 30; trial++ {
		p, m := 5+r.IntN(60), 2+r.IntN(12)
		orders := make([][]int, m)
		for i := range orders {
			// correlated orders: a shared preference plus noise, so counts vary
			w := make([]float64, p)
			for f := range w {
				w[f] = float64(f%7) + 3*r.Float64()
			}
			orders[i] = r.Perm(p)
			sort.Slice(orders[i], func(a, b int) bool { return w[orders[i][a]] < w[orders[i][b]] })
		}
		var ks []int
		for k := 1; k <= p; k += 1 + r.IntN(4) {
			ks = append(ks, k)
		}
		curve := NogueiraCurve(orders, p, ks)
		for ki, k := range ks {
			sets := make([][]int, m)
			for i, o := range orders {
				sets[i] = o[:k]
			}
			want := Nogueira(sets, p)
			if math.Abs(curve[ki].Phi-want.Phi) > 1e-9 || math.Abs(curve[ki].Var-want.Var) > 1e-9 {
				t.Fatalf("trial %d, k = %d of p = %d, M = %d: curve %+v, direct %+v", trial, k, p, m, curve[ki], want)
			}
		}
	}
}

// Kalousis's grid (10, 15, ..., p) at Lung size: 100 inner-CV rankings of 12,533 features.
func BenchmarkNogueiraCurveLung(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	p, m := 12533, 100
	orders := make([][]int, m)
	for i := range orders {
		orders[i] = r.Perm(p)
	}
	var ks []int
	for k := 10; k <= p; k += 5 {
		ks = append(ks, k)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		NogueiraCurve(orders, p, ks)
	}
}

// TestIntervalStopsAtOne: an estimate near 1 with a wide variance gets an interval that
// ends at 1 (worked by hand: 0.9 + 1.96 x 0.1 = 1.096 is cut to 1; the lower end stays
// 0.9 - 0.196 = 0.704).
func TestIntervalStopsAtOne(t *testing.T) {
	lo, hi := Estimate{Phi: 0.9, Var: 0.01}.Interval(0.05)
	if hi != 1 || math.Abs(lo-0.704) > 1e-3 {
		t.Errorf("interval %v .. %v", lo, hi)
	}
}
