package stability

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAdjustedValuesByHand: a = (0 1 2 3), b = (0 4 5 6); similar pairs (>= 0.9)
// 1~4 0.95, 1~5 0.92, 2~4 0.91, 0~5 0.93; 3~6 0.5 is not similar. Worked by hand from
// stabm's definitions: c = 1; A = {1, 2, 3}, B = {4, 5, 6}.
func TestAdjustedValuesByHand(t *testing.T) {
	a, b := []int{0, 1, 2, 3}, []int{0, 4, 5, 6}
	s := map[[2]int]float64{{1, 4}: 0.95, {1, 5}: 0.92, {2, 4}: 0.91, {0, 5}: 0.93, {3, 6}: 0.5}
	sim := func(i, j int) float64 {
		f, g := a[i], b[j]
		if f == g {
			return 1
		}
		if v, ok := s[[2]int{f, g}]; ok {
			return v
		}
		return s[[2]int{g, f}]
	}
	want := map[string]float64{
		"intersectioncount":  1 + 2,                               // 1 and 2 have partners in B; 4 and 5 in A
		"intersectionmean":   1 + math.Min(0.935+0.91, 0.93+0.92), // row means (0.95+0.92)/2, 0.91; column means (0.95+0.91)/2, 0.92
		"intersectiongreedy": 1 + 1,                               // 1-4 first; 1-5 and 2-4 then blocked
		"intersectionmbm":    1 + 2,                               // 1-5, 2-4
		"yu":                 (1 + (2+2)/2.0) / 4,
		"zucknick":           (1 + (0.93+0.95+0.92+0.91)/4 + (0.95+0.91+0.92)/4) / 7,
	}
	got := newTopPair(a, b, 4).values(4, sim)
	for m, am := range AdjustedMeasures {
		if math.Abs(got[m]-want[am.Name]) > 1e-12 {
			t.Errorf("%s: I = %v, by hand %v", am.Name, got[m], want[am.Name])
		}
	}
}

// TestAdjustedEqualsUnadjustedWithoutSimilarities: with no similar features the
// corrected intersection measures are stabm's Unadjusted, (c - k^2/p) / (k - k^2/p),
// whose expectation k^2/p the random estimate must approach.
func TestAdjustedEqualsUnadjustedWithoutSimilarities(t *testing.T) {
	const p = 40
	none := func(f, g int) float64 {
		if f == g {
			return 1
		}
		return 0
	}
	ks := []int{2, 5, 10}
	e := Expected(p, ks, 20000, rand.New(rand.NewPCG(1, 2)), none)
	for ki, k := range ks {
		want := float64(k*k) / p
		if math.Abs(e[ki][3]-want) > 0.05*want {
			t.Errorf("k = %d: E[I_MBM] = %v, exactly k^2/p = %v", k, e[ki][3], want)
		}
	}
	a := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	b := []int{0, 1, 2, 13, 14, 15, 16, 17, 18, 19}
	curves := NewAdjustedCurves(ks)
	curves.Add(a, b, func(i, j int) float64 { return none(a[i], b[j]) })
	exact := make([][]float64, len(ks))
	for ki, k := range ks {
		exact[ki] = make([]float64, len(AdjustedMeasures))
		for m := range exact[ki] {
			exact[ki][m] = float64(k*k) / p
		}
	}
	v := curves.Values(exact)
	un, _ := LookupSetMeasure("unadjusted")
	for ki, k := range ks {
		c := float64(TopKOverlaps(a, b, ks)[ki])
		want := un.Pair(float64(k), float64(k), c, p)
		for _, name := range []string{"intersectioncount", "intersectionmean", "intersectiongreedy", "intersectionmbm"} {
			if math.Abs(v[name][ki]-want) > 1e-12 {
				t.Errorf("k = %d: %s = %v, unadjusted %v", k, name, v[name][ki], want)
			}
		}
	}
}
