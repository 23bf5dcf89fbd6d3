package group

import (
	"bufio"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
)

// groupKeys returns each group's members, renamed through name and sorted, as strings.
func groupKeys(groups []Group, name func(int) int) map[string]int {
	out := map[string]int{}
	for _, g := range groups {
		ids := make([]int, len(g.Members))
		for i, j := range g.Members {
			ids[i] = name(j)
		}
		sort.Ints(ids)
		out[fmtInts(ids)]++
	}
	return out
}

func fmtInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}

// TestDGFGroupsEqualSklearn: on real arrays DGF's groups are exactly scikit-learn
// MeanShift's (every gene within h of each peak; testdata/make_meanshift_groups.py).
func TestDGFGroupsEqualSklearn(t *testing.T) {
	for _, set := range []string{"colon.csv", "leukemia.gct"} {
		ds := realZ(t, set)
		fh, err := os.Open("testdata/" + strings.Split(set, ".")[0] + "_meanshift_groups.txt")
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<22)
		for sc.Scan() {
			want[sc.Text()]++
		}
		fh.Close()
		res, err := DGF(context.Background(), ds.X, DGFParams{})
		if err != nil {
			t.Fatal(err)
		}
		got := groupKeys(res.Groups, func(j int) int { return j })
		// scikit-learn's peaks with the same members count once on both sides
		for k := range got {
			got[k] = 1
		}
		for k := range want {
			want[k] = 1
		}
		if !reflect.DeepEqual(got, want) {
			missing, extra := 0, 0
			for k := range want {
				if got[k] == 0 {
					missing++
				}
			}
			for k := range got {
				if want[k] == 0 {
					extra++
				}
			}
			t.Errorf("%s: %d groups, scikit-learn %d: %d of theirs missing, %d of ours extra", set, len(got), len(want), missing, extra)
		}
	}
}

// TestDGFOnRealDataIndependentOfOrderAndThreads: Colon with its genes shuffled, on one
// thread and on four, gives the same groups.
// The Gaussian kernel too.
func TestDGFOnRealDataIndependentOfOrderAndThreads(t *testing.T) {
	ds := realZ(t, "colon.csv")
	_, p := ds.Dims()
	perm := rand.New(rand.NewPCG(5, 6)).Perm(p)
	for _, gaussian := range []bool{false, true} {
		run := func(x *mat.Dense, procs int) DGFResult {
			old := runtime.GOMAXPROCS(procs)
			defer runtime.GOMAXPROCS(old)
			res, err := DGF(context.Background(), x, DGFParams{Eliminate: true, Gaussian: gaussian})
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		a := run(ds.X, 1)
		b := run(dataset.SelectFeatures(ds.X, perm), 4)
		ka := groupKeys(a.Groups, func(j int) int { return j })
		kb := groupKeys(b.Groups, func(j int) int { return perm[j] })
		if !reflect.DeepEqual(ka, kb) {
			t.Errorf("gaussian %v: %d groups in order on 1 thread, %d shuffled on 4, not the same", gaussian, len(a.Groups), len(b.Groups))
		}
	}
}

// TestScreenerNeverMisjudges: the float32 screen decides ||y - x_k||^2 <= r2 exactly as
// the float64 distance does, also for radii placed on the distances themselves; so does
// the estimate where it says it is sure.
func TestScreenerNeverMisjudges(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(40, 300, nil)
	for i := 0; i < 40; i++ {
		for j := 0; j < 300; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	for j := 1; j < 300; j += 3 { // near-duplicates
		for i := 0; i < 40; i++ {
			x.Set(i, j, x.At(i, j-1)+1e-7*rng.NormFloat64())
		}
	}
	dataset.Standardize(x)
	sp := newSpace(x)
	ys := [][]float64{sp.pt.RawRowView(0), sp.pt.RawRowView(7)}
	err := sp.screenRows(context.Background(), ys, []int{0, 1}, func(s int, sc screener) {
		for k := 0; k < sp.len(); k++ {
			// radii on the distance, at the edges of the band the estimate leaves open,
			// and far from both
			est := sc.yy - 2*sc.value(k, sc.g[k])
			for _, r2 := range []float64{sc.exact(k), sc.exact(k) * (1 + 1e-15), sc.exact(k) * (1 - 1e-15),
				est + sc.err*(1-1e-6), est - sc.err*(1-1e-6), 40, 80} {
				want := sc.exact(k) <= r2
				if got := sc.within(k, r2); got != want {
					t.Fatalf("point %d, feature %d, r2 %v: screened %v, exact %v", s, k, r2, got, want)
				}
				c := sc.cut(r2)
				mid, wide := c.band()
				if in, sure := c.estimate(sc.value(k, sc.g[k]), mid, wide); sure && in != want {
					t.Fatalf("point %d, feature %d, r2 %v: estimated %v (sure), exact %v", s, k, r2, in, want)
				}
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestConsensusEqualsFeatureLinkage: CGS's node-level clustering equals average linkage
// on the feature-level co-occurrence, on random runs with overlapping and missing groups,
// and on runs shaped like DGF's (features in one group or none, a few in two).
func TestConsensusEqualsFeatureLinkage(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 400; trial++ {
		p, runs := 4+rng.IntN(30), 1+rng.IntN(10)
		var all [][]Group
		w := Cooccurrence{P: p, Runs: runs, Count: map[uint64]uint16{}}
		for r := 0; r < runs; r++ {
			var groups []Group
			if trial%2 == 0 {
				groups = randomOverlapping(rng, p)
			} else {
				groups = randomPartition(rng, p)
			}
			seen := map[uint64]bool{}
			for _, g := range groups {
				for a, i := range g.Members {
					for _, j := range g.Members[a+1:] {
						k := uint64(i)*uint64(p) + uint64(j)
						if !seen[k] {
							seen[k] = true
							w.Count[k]++
						}
					}
				}
			}
			all = append(all, groups)
		}
		want := AverageLinkage(w, 0.5)
		got := consensus(p, all, 0.5)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: consensus %v, feature-level %v", trial, got, want)
		}
	}
}

// randomOverlapping returns up to 5 groups, each holding every feature with chance 1/3.
func randomOverlapping(rng *rand.Rand, p int) []Group {
	var groups []Group
	for g := 0; g < 1+rng.IntN(5); g++ {
		var m []int
		for j := 0; j < p; j++ {
			if rng.IntN(3) == 0 {
				m = append(m, j)
			}
		}
		if len(m) > 0 {
			groups = append(groups, Group{Members: m})
		}
	}
	return groups
}

// randomPartition puts every feature in one of 3 groups or none (chance 1/4), and one in
// twenty in a second group too.
func randomPartition(rng *rand.Rand, p int) []Group {
	m := make([][]int, 3)
	for j := 0; j < p; j++ {
		if rng.IntN(4) == 0 {
			continue
		}
		g := rng.IntN(3)
		m[g] = append(m[g], j)
		if rng.IntN(20) == 0 {
			m[(g+1)%3] = append(m[(g+1)%3], j)
		}
	}
	var groups []Group
	for _, mem := range m {
		if len(mem) > 0 {
			sort.Ints(mem)
			groups = append(groups, Group{Members: mem})
		}
	}
	return groups
}

// TestHubRingHoldsTheBand: a hub's ring holds every feature whose distance from the centre
// lies within margin of h, also features exactly on the band's edges (a ring that misses
// one would let a point near the hub count it on the wrong side of h).
func TestHubRingHoldsTheBand(t *testing.T) {
	ds := realZ(t, "colon.csv")
	sp := newSpace(ds.X)
	ys := [][]float64{sp.pt.RawRowView(0)}
	err := sp.screenRows(context.Background(), ys, []int{0}, func(_ int, sc screener) {
		// h and margin put the band's edges on the 30th and 300th nearest distances
		d := make([]float64, sp.len())
		for k := range d {
			d[k] = sc.exact(k)
		}
		sorted := append([]float64(nil), d...)
		sort.Float64s(sorted)
		lo, hi := math.Sqrt(sorted[30]), math.Sqrt(sorted[300])
		ms := &shifter{sp: sp, h: (lo + hi) / 2}
		hb := ms.hubFromScan(sc, 0, (hi-lo)/2)
		inRing := map[int32]bool{}
		for _, k := range hb.ring {
			inRing[k] = true
		}
		for k, v := range d {
			if v >= sorted[30] && v <= sorted[300] && !inRing[int32(k)] {
				t.Fatalf("feature %d at distance %v, inside the band [%v, %v], is not in the ring", k, math.Sqrt(v), lo, hi)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDGFRejectsMissingValues: a NaN in the data is an error naming the feature, not a
// crash or groups of NaN.
func TestDGFRejectsMissingValues(t *testing.T) {
	ds := realZ(t, "colon.csv")
	x := mat.DenseCopyOf(ds.X)
	x.Set(3, 41, math.NaN())
	_, err := DGF(context.Background(), x, DGFParams{})
	if err == nil || !strings.Contains(err.Error(), "feature 42") || !strings.Contains(err.Error(), "missing") {
		t.Errorf("error %v, want one naming feature 42 and missing values", err)
	}
}

// TestBootstrapPointsKeepGroups: DGF on a bootstrap sample's distinct samples, each
// scaled by the root of its count, finds the groups it finds on the sample with its
// repeats, in the same order, on three real sets (h to 1e-9: DGF rounds its points to
// about 3e-11).
func TestBootstrapPointsKeepGroups(t *testing.T) {
	for _, f := range []string{"colon.csv", "srbct.csv", "lymphoma.csv"} {
		ds := realZ(t, f)
		n, _ := ds.X.Dims()
		r := rand.New(rand.NewPCG(5, 6))
		idx := make([]int, n)
		for i := range idx {
			idx[i] = r.IntN(n)
		}
		repeated, _ := dataset.SelectSamples(ds.X, ds.Labels, idx)
		dataset.Standardize(repeated)
		compact := bootstrapPoints(ds.X, ds.Labels, idx)
		if rows, _ := compact.Dims(); rows >= n {
			t.Fatalf("%s: %d rows for %d samples: repeats not folded", f, rows, n)
		}
		want, err := DGF(context.Background(), repeated, DGFParams{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := DGF(context.Background(), compact, DGFParams{})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.H-want.H) > 1e-9*want.H || len(got.Groups) != len(want.Groups) {
			t.Fatalf("%s: h %v vs %v, %d vs %d groups", f, got.H, want.H, len(got.Groups), len(want.Groups))
		}
		for i := range want.Groups {
			if !slices.Equal(got.Groups[i].Members, want.Groups[i].Members) {
				t.Fatalf("%s: group %d: %v on the repeats, %v on the distinct samples", f, i, want.Groups[i].Members, got.Groups[i].Members)
			}
		}
	}
}

// TestDRAGSIndependentOfColumnOrder: DRAGS ranks the same genes, in the same order, on
// Colon with its columns shuffled (groups of one or two genes tie on correlation; the
// tie goes by F and profile, never by position).
func TestDRAGSIndependentOfColumnOrder(t *testing.T) {
	ds := realZ(t, "colon.csv")
	_, p := ds.X.Dims()
	perm := rand.New(rand.NewPCG(9, 9)).Perm(p)
	rk, err := DRAGS{}.Rank(context.Background(), ds.X, ds.Labels, len(ds.Classes), nil)
	if err != nil {
		t.Fatal(err)
	}
	shuffled, err := DRAGS{}.Rank(context.Background(), dataset.SelectFeatures(ds.X, perm), ds.Labels, len(ds.Classes), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		if got := perm[shuffled.Order[i]]; got != rk.Order[i] {
			t.Fatalf("rank %d: %s in file order, %s with shuffled columns", i+1, ds.Features[rk.Order[i]], ds.Features[got])
		}
	}
}

// TestJoinedPathsEqualDirectMeanShift follows every feature's mean shift on Colon
// directly (members by exact distance, mean of the exact sum, stop below 1e-3 h or at
// maxIter steps) and checks that the shifter, which lets a trajectory that reaches a
// point already evaluated follow the earlier path, ends each one at the same point with
// the same density and the same number of steps. Small step limits make followers whose
// joined path runs past the limit, which must be taken up again on their own.
func TestJoinedPathsEqualDirectMeanShift(t *testing.T) {
	sp, h := colonSpace(t)
	p, n := sp.pt.Dims()
	tol := 1e-3 * h
	for _, maxIter := range []int{2, 4, 100} {
		ms := newShifter(sp, h, false)
		rounds, err := ms.run(context.Background(), maxIter, tol)
		if err != nil {
			t.Fatal(err)
		}
		released, followers, most := 0, 0, 0
		for s := range ms.tr {
			if ms.tr[s].alone {
				released++
			}
			if ms.tr[s].leader >= 0 {
				followers++
			}
		}
		for s := 0; s < p; s++ {
			y := slices.Clone(sp.pt.RawRowView(s))
			count, steps := 0, 0
			for steps < maxIter {
				sum := make([]float64, n)
				yy := dot(y, y)
				count = 0
				for k := 0; k < p; k++ {
					d := sp.dist2(y, yy, k)
					if steps == 0 {
						d = sp.pairDist(s, k)
						if k == s {
							d = 0
						}
					}
					if d <= h*h {
						count++
						floats.Add(sum, sp.pt.RawRowView(k))
					}
				}
				for i := range sum {
					sum[i] /= float64(count)
				}
				steps++
				stop := math.Sqrt(dist2(sum, y)) < tol
				y = sum
				if stop {
					break
				}
			}
			most = max(most, steps)
			gy, gc := ms.point(s)
			if !slices.Equal(gy, y) || gc != count || ms.totalSteps(s) != steps {
				t.Fatalf("maxIter %d, feature %d: shifter ends after %d steps with density %d, direct after %d with %d (same point: %v)",
					maxIter, s, ms.totalSteps(s), gc, steps, count, slices.Equal(gy, y))
			}
		}
		if rounds != most {
			t.Errorf("maxIter %d: %d rounds reported, the longest path takes %d", maxIter, rounds, most)
		}
		t.Logf("maxIter %d: %d followers, %d taken up again on their own", maxIter, followers, released)
		if maxIter == 4 && released == 0 {
			t.Errorf("maxIter 4: no follower was taken up again; the test does not reach that case")
		}
	}
}

// TestGaussianPathsEqualDirectMeanShift follows every tenth of Colon's 2000 features by
// direct mean shift with Gaussian weights, y <- sum_k w_k x_k / sum_k w_k over the
// features within h, w_k = exp(-||y - x_k||^2 / (2 (h/2)^2)), adding the terms in the
// points' lexicographic order: every end point (bitwise), density and step count equals
// the shifter's. And the groups are real ones: about as many as the flat kernel finds
// (633), where the kernel cut at 2h found 23 on Colon and none on SRBCT.
func TestGaussianPathsEqualDirectMeanShift(t *testing.T) {
	sp, h := colonSpace(t)
	p, n := sp.pt.Dims()
	tol, maxIter := 1e-3*h, 100
	ms := newShifter(sp, h, true)
	if _, err := ms.run(context.Background(), maxIter, tol); err != nil {
		t.Fatal(err)
	}
	order := make([]int, p)
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int { return slices.Compare(sp.pt.RawRowView(a), sp.pt.RawRowView(b)) })
	for s := 0; s < p; s += 10 {
		y := slices.Clone(sp.pt.RawRowView(s))
		count, steps := 0, 0
		for steps < maxIter {
			next := make([]float64, n)
			yy := dot(y, y)
			wsum := 0.0
			count = 0
			for _, k := range order {
				if d := sp.dist2(y, yy, k); d <= h*h {
					w := math.Exp(-d / (2 * (h / 2) * (h / 2)))
					wsum += w
					floats.AddScaled(next, w, sp.pt.RawRowView(k))
					count++
				}
			}
			floats.Scale(1/wsum, next)
			steps++
			stop := math.Sqrt(dist2(next, y)) < tol
			y = next
			if stop {
				break
			}
		}
		gy, gc := ms.point(s)
		if !slices.Equal(gy, y) || gc != count || ms.totalSteps(s) != steps {
			t.Fatalf("feature %d: shifter ends after %d steps with density %d, direct after %d with %d (same point: %v)",
				s, ms.totalSteps(s), gc, steps, count, slices.Equal(gy, y))
		}
	}
	res, err := DGF(context.Background(), realZ(t, "colon.csv").X, DGFParams{Gaussian: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Groups) < 500 || len(res.Groups) > 800 {
		t.Errorf("%d Gaussian groups on Colon; the flat kernel finds 633", len(res.Groups))
	}
}

// colonSpace is z-scored Colon as DGF's space, with its bandwidth (K = 5).
func colonSpace(t *testing.T) (*space, float64) {
	t.Helper()
	sp := newSpace(realZ(t, "colon.csv").X)
	h, err := sp.bandwidth(context.Background(), DGFParams{K: 5})
	if err != nil {
		t.Fatal(err)
	}
	return sp, h
}

// TestSelfNeighbourBandwidth: with the feature its own first neighbour (the DRAGS
// paper's reading), the mean over its K nearest is the sum over its K-1 nearest others
// divided by K, so h_self(K) = (K-1)/K h(K-1) exactly (worked from the definitions); on
// Colon h(5) = 3.99 and h_self(5) = 3.14, the figures issue 24 reports from its own
// scikit-learn re-implementation.
func TestSelfNeighbourBandwidth(t *testing.T) {
	sp := newSpace(realZ(t, "colon.csv").X)
	h := func(prm DGFParams) float64 {
		v, err := sp.bandwidth(context.Background(), prm)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	h4, h5, self5 := h(DGFParams{K: 4}), h(DGFParams{K: 5}), h(DGFParams{K: 5, SelfNeighbour: true})
	if d := self5 - 0.8*h4; math.Abs(d) > 1e-12*h4 {
		t.Errorf("h_self(5) = %.15g, 4/5 h(4) = %.15g", self5, 0.8*h4)
	}
	if math.Abs(h5-3.99) > 0.005 || math.Abs(self5-3.14) > 0.005 {
		t.Errorf("h(5) = %.4f (want 3.99), h_self(5) = %.4f (want 3.14)", h5, self5)
	}
	if v := h(DGFParams{K: 1, SelfNeighbour: true}); v != 0 {
		t.Errorf("h_self(1) = %g; the paper: \"when K=1, the bandwidth will be zero\"", v)
	}
}
