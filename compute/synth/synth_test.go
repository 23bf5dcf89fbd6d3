package synth

import (
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

func TestD1kStructure(t *testing.T) {
	ds, truth := Generate(D1k, 1000, 9, 0)
	n, p := ds.Dims()
	if n != 1000 || p != 1000 {
		t.Fatalf("%d x %d", n, p)
	}
	size := map[int]int{}
	relevant := 0
	for j, g := range truth.Group {
		size[g]++
		if truth.Relevant[j] {
			relevant++
		}
	}
	if len(size) != 100 {
		t.Fatalf("%d groups", len(size))
	}
	for g, s := range size {
		if s < 5 || s > 15 {
			t.Errorf("group %d has %d members, outside 10 +- 5", g, s)
		}
	}
	counts := ds.ClassCounts()
	if counts[0] != 500 || counts[1] != 500 {
		t.Errorf("classes %v, want balanced", counts)
	}
	// members of one group correlate r_a r_b in expectation with r in (0.71, 0.95), so
	// (0.5, 0.9); features of different groups do not (SPEC section 8).
	col := func(j int) []float64 { return mat.Col(nil, j, ds.X) }
	within, between := 0.0, 0.0
	pairs := 0
	for j := 0; j+1 < p && pairs < 200; j++ {
		if truth.Group[j] == truth.Group[j+1] {
			r := stat.Correlation(col(j), col(j+1), nil)
			if r < 0.4 || r > 0.97 {
				t.Errorf("within-group r = %.2f", r)
			}
			within += r
			pairs++
		}
	}
	for j := 0; j+20 < p && j < 2000; j += 20 {
		if truth.Group[j] != truth.Group[j+20] {
			between = max(between, stat.Correlation(col(j), col(j+20), nil))
		}
	}
	if within/float64(pairs) > 0.8 || within/float64(pairs) < 0.55 || between > 0.15 {
		t.Errorf("mean within-group r %.2f, largest between-group r %.2f", within/float64(pairs), between)
	}
	if relevant < 50 || relevant > 150 {
		t.Errorf("%d relevant features in 10 groups", relevant)
	}
	// part 1 is an independent sample of the same structure
	test, truth2 := Generate(D1k, 10, 9, 1)
	if test.X.At(0, 0) == ds.X.At(0, 0) || truth2.Group[999] != truth.Group[999] {
		t.Error("part 1 should share the structure and not the samples")
	}
}
