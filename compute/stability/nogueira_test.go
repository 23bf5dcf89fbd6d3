package stability

import (
	"math"
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
