package stability

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"
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
	got := newTopPair(a, b, 4).valuesAt([]int{4}, sim)[0]
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
	e, err := Expected(context.Background(), 0, p, ks, 20000, rand.New(rand.NewPCG(1, 2)), none)
	if err != nil {
		t.Fatal(err)
	}
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

// The expectations are the same bits on one goroutine and on several: the pairs are
// drawn in turn and their values added in the order drawn.
func TestExpectedDoesNotDependOnWorkers(t *testing.T) {
	const p = 300
	sim := func(f, g int) float64 { // similar neighbours, as correlated probes are
		if d := f - g; d < 0 && d > -3 || d >= 0 && d < 3 {
			return 1 - 0.02*float64(max(d, -d))
		}
		return 0
	}
	ks := []int{1, 2, 3, 5, 8, 13, 21, 34, 50}
	one, err := Expected(context.Background(), 1, p, ks, 500, rand.New(rand.NewPCG(3, 4)), sim)
	if err != nil {
		t.Fatal(err)
	}
	four, err := Expected(context.Background(), 4, p, ks, 500, rand.New(rand.NewPCG(3, 4)), sim)
	if err != nil {
		t.Fatal(err)
	}
	for ki := range ks {
		for m := range one[ki] {
			if one[ki][m] != four[ki][m] {
				t.Fatalf("k = %d, %s: %v on one goroutine, %v on four", ks[ki], AdjustedMeasures[m].Name, one[ki][m], four[ki][m])
			}
		}
	}
	if one[len(ks)-1][0] == 0 {
		t.Error("no similar pairs drawn: the test does not exercise the measures")
	}
}

// valuesAfresh is topPair.valuesAt for one k as stabm's definitions read, computed
// afresh: the reference valuesAt must equal bit for bit.
func (tp topPair) valuesAfresh(k int, sim func(i, j int) float64) []float64 {
	var onlyA, onlyB []int // positions in a and b
	for i := 0; i < k; i++ {
		if tp.posInB[i] >= k {
			onlyA = append(onlyA, i)
		}
	}
	for j := 0; j < k; j++ {
		if tp.posInA[j] >= k {
			onlyB = append(onlyB, j)
		}
	}
	c := float64(k - len(onlyA))
	// the similar pairs between A and B
	type edge struct {
		i, j int // indices into onlyA, onlyB
		s    float64
	}
	var edges []edge
	rowHit, colHit := make([]bool, len(onlyA)), make([]bool, len(onlyB))
	rowSum, colSum := make([]float64, len(onlyA)), make([]float64, len(onlyB))
	rowN, colN := make([]int, len(onlyA)), make([]int, len(onlyB))
	for ii, i := range onlyA {
		for jj, j := range onlyB {
			if s := sim(i, j); s >= AdjustedThreshold {
				edges = append(edges, edge{ii, jj, s})
				rowHit[ii], colHit[jj] = true, true
				rowSum[ii] += s
				colSum[jj] += s
				rowN[ii]++
				colN[jj]++
			}
		}
	}
	o12, o21 := count(rowHit), count(colHit)
	mean12, mean21 := 0.0, 0.0
	for ii := range rowSum {
		if rowN[ii] > 0 {
			mean12 += rowSum[ii] / float64(rowN[ii])
		}
	}
	for jj := range colSum {
		if colN[jj] > 0 {
			mean21 += colSum[jj] / float64(colN[jj])
		}
	}
	// greedy matching: most similar pair first (ties by position in a, then in b)
	sort.SliceStable(edges, func(x, y int) bool { return edges[x].s > edges[y].s })
	usedA, usedB := make([]bool, len(onlyA)), make([]bool, len(onlyB))
	greedy := 0
	adj := make([][]int, len(onlyA))
	for _, e := range edges {
		adj[e.i] = append(adj[e.i], e.j)
		if !usedA[e.i] && !usedB[e.j] {
			usedA[e.i], usedB[e.j] = true, true
			greedy++
		}
	}
	// Zucknick: x over all of V_i (and V_j), y over the other side's own features
	zu := 0.0 // a[i] and b[j] differ here: one of them is in only one top k
	for i := 0; i < k; i++ {
		for _, j := range onlyB {
			if s := sim(i, j); s >= AdjustedThreshold {
				zu += s
			}
		}
	}
	for j := 0; j < k; j++ {
		for _, i := range onlyA {
			if s := sim(i, j); s >= AdjustedThreshold {
				zu += s
			}
		}
	}
	kf := float64(k)
	return []float64{
		c + math.Min(float64(o12), float64(o21)),
		c + math.Min(mean12, mean21),
		c + float64(greedy),
		c + float64(maxMatching(adj, len(onlyB))),
		(c + float64(o12+o21)/2) / kf,
		(c + zu/kf) / (2*kf - c),
	}
}

// valuesAt equals the measures computed afresh for each k, bit for bit, on rankings
// that share features and hold runs of similar ones (as correlated probes do), with
// ties in similarity.
func TestValuesAtEqualsAfresh(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 300; trial++ {
		const p = 120
		maxK := 1 + r.IntN(50)
		a, b := sample(p, maxK, r), sample(p, maxK, r)
		if trial%2 == 0 { // b shares a's first features in another order
			copy(b, a[:r.IntN(maxK+1)])
			r.Shuffle(maxK, func(i, j int) { b[i], b[j] = b[j], b[i] })
			b = dedupe(b, p, r)
		}
		sim := func(i, j int) float64 {
			f, g := a[i], b[j]
			d := max(f-g, g-f)
			switch {
			case d == 0:
				return 1
			case d < 4:
				return 1 - 0.025*float64(d) // 0.975, 0.95, 0.925: ties between pairs
			}
			return 0.3
		}
		var ks []int
		for k := 1; k <= maxK; k++ {
			if k == maxK || r.IntN(2) == 0 {
				ks = append(ks, k)
			}
		}
		tp := newTopPair(a, b, maxK)
		got := tp.valuesAt(ks, sim)
		for ki, k := range ks {
			want := tp.valuesAfresh(k, sim)
			for m := range want {
				if got[ki][m] != want[m] {
					t.Fatalf("trial %d, k = %d, %s: %v, afresh %v", trial, k, AdjustedMeasures[m].Name, got[ki][m], want[m])
				}
			}
		}
	}
}

// dedupe replaces repeated features of s by unused ones, so s is a selection again.
func dedupe(s []int, p int, r *rand.Rand) []int {
	seen := map[int]bool{}
	for i, f := range s {
		for seen[f] {
			f = r.IntN(p)
		}
		seen[f], s[i] = true, f
	}
	return s
}
