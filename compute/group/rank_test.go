package group

import (
	"context"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/synth"
)

func TestAverageLinkageByHand(t *testing.T) {
	// 5 features, 10 runs. W(0,1) = 0.9, W(1,2) = 0.8, W(0,2) = 0.2, W(3,4) = 0.4.
	// First merge {0,1} (0.9); then mean W({0,1}, 2) = (0.2 + 0.8)/2 = 0.5, not > 0.5: stop.
	// {3,4} never merge (0.4). Result: {0,1}, {2}, {3}, {4}.
	w := Cooccurrence{P: 5, Runs: 10, Count: map[uint64]uint16{0*5 + 1: 9, 1*5 + 2: 8, 0*5 + 2: 2, 3*5 + 4: 4}}
	got := AverageLinkage(w, 0.5)
	want := [][]int{{0, 1}, {2}, {3}, {4}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("clusters %v, want %v", got, want)
	}
	// with W(0,2) = 0.3 the mean is 0.55 > 0.5 and 2 joins
	w.Count[0*5+2] = 3
	if got := AverageLinkage(w, 0.5); !reflect.DeepEqual(got[0], []int{0, 1, 2}) {
		t.Errorf("clusters %v", got)
	}
}

// TestAverageLinkageExactAtThreshold: a mean of exactly 0.5 does not merge, although
// 0.4 + 0.8 + 0.3 summed in float64 and divided by 3 gives 0.5000000000000001 (worked by
// hand: {0,1,2} forms at W = 1, then its mean W to 3 is (4 + 8 + 3) / 30 = 0.5).
func TestAverageLinkageExactAtThreshold(t *testing.T) {
	w := Cooccurrence{P: 4, Runs: 10, Count: map[uint64]uint16{0*4 + 1: 10, 0*4 + 2: 10, 1*4 + 2: 10, 0*4 + 3: 4, 1*4 + 3: 8, 2*4 + 3: 3}}
	got := AverageLinkage(w, 0.5)
	if want := [][]int{{0, 1, 2}, {3}}; !reflect.DeepEqual(got, want) {
		t.Errorf("clusters %v, want %v", got, want)
	}
}

// On D1k the relevant groups drive the class: DRAGS's and CGS's top groups should be
// mostly relevant ones, each group inside one true group.
func TestGroupMethodsOnSyntheticData(t *testing.T) {
	ds, truth := synth.Generate(synth.D1k, 300, 21, 0)
	dataset.Standardize(ds.X)
	ctx := context.Background()
	// purity: at most maxMixed of a group's members come from other true groups
	check := func(name string, groups []Group, minRelevant int, maxMixed float64) {
		t.Helper()
		relevant := 0
		for _, g := range groups[:10] {
			if truth.Relevant[g.Representative] {
				relevant++
			}
			mixed := 0
			for _, j := range g.Members {
				if truth.Group[j] != truth.Group[g.Representative] {
					mixed++
				}
			}
			if float64(mixed) > maxMixed*float64(len(g.Members)) {
				t.Errorf("%s: group of %d mixes %d members of other true groups", name, len(g.Members), mixed)
			}
		}
		if relevant < minRelevant {
			t.Errorf("%s: %d of the top 10 groups are relevant", name, relevant)
		}
	}
	start := time.Now()
	dr, err := DRAGS{}.Groups(ctx, ds.X, ds.Labels, 2)
	if err != nil {
		t.Fatal(err)
	}
	check("DRAGS", dr, 6, 0.2)
	cg, err := CGS{Bootstraps: 10}.Groups(ctx, ds.X, ds.Labels, 2, dataset.Rand(1))
	if err != nil {
		t.Fatal(err)
	}
	check("CGS", cg, 6, 0.2)
	km, err := KMeans{Clusters: 100, Restarts: 5}.Groups(ctx, ds.X, ds.Labels, 2, dataset.Rand(1))
	if err != nil {
		t.Fatal(err)
	}
	check("k-means", km, 5, 0.5) // k-means merges neighbouring groups: a majority bound only
	t.Logf("DRAGS + CGS + k-means on D1k x 300: %v", time.Since(start))
	rk, err := CGS{Bootstraps: 3}.Rank(ctx, ds.X, ds.Labels, 2, dataset.Rand(2))
	if err != nil {
		t.Fatal(err)
	}
	_, p := ds.Dims()
	seen := map[int]bool{}
	for _, j := range rk.Order {
		seen[j] = true
	}
	if len(rk.Order) != p || len(seen) != p || len(rk.Groups) == 0 {
		t.Fatalf("ranking covers %d of %d features, %d groups", len(seen), p, len(rk.Groups))
	}
	for i, g := range rk.Groups {
		found := false
		for _, j := range g {
			found = found || j == rk.Order[i]
		}
		if !found {
			t.Fatalf("representative %d is not in its group", rk.Order[i])
		}
	}
}

func TestKNNCorrelationsByHand(t *testing.T) {
	// three features over 4 samples: f0 and f1 identical, f2 = -f0.
	// r(f0,f1) = 1, r(f0,f2) = -1. Nearest of f0: f1 (r 1), then f2 (r -1).
	x := matFromCols([][]float64{{1, -1, 1, -1}, {1, -1, 1, -1}, {-1, 1, -1, 1}})
	dataset.Standardize(x)
	got, err := KNNCorrelations(context.Background(), x, []int{1, 2}, false)
	if err != nil {
		t.Fatal(err)
	}
	// K=1: f0 -> 1, f1 -> 1, f2 -> -1 ; K=2: every feature (1 + -1)/2 = 0 for f0, f1; f2 -> -1
	want := [][]float64{{1, 1, -1}, {0, 0, -1}}
	for i := range want {
		for j := range want[i] {
			if d := got[i][j] - want[i][j]; d > 1e-12 || d < -1e-12 {
				t.Errorf("K=%d feature %d: %v, want %v", i+1, j, got[i][j], want[i][j])
			}
		}
	}
	// the paper's reading, the feature its own first neighbour (r = 1): K=1 -> 1 for all;
	// K=2 -> (1 + nearest other)/2: f0, f1 (1 + 1)/2 = 1, f2 (1 - 1)/2 = 0
	got, err = KNNCorrelations(context.Background(), x, []int{1, 2}, true)
	if err != nil {
		t.Fatal(err)
	}
	want = [][]float64{{1, 1, 1}, {1, 1, 0}}
	for i := range want {
		for j := range want[i] {
			if d := got[i][j] - want[i][j]; d > 1e-12 || d < -1e-12 {
				t.Errorf("self, K=%d feature %d: %v, want %v", i+1, j, got[i][j], want[i][j])
			}
		}
	}
}

func matFromCols(cols [][]float64) *mat.Dense {
	x := mat.NewDense(len(cols[0]), len(cols), nil)
	for j, c := range cols {
		for i, v := range c {
			x.Set(i, j, v)
		}
	}
	return x
}

// TestClosestToCentre: of five features (two samples: (0,0), (1,0), (0,1), (5,5),
// (-1,0)) the centre is (1, 1.2) and the squared distances 2.44, 1.44, 1.04, 30.44,
// 5.44 (worked by hand), so the three closest are features 0, 1 and 2.
func TestClosestToCentre(t *testing.T) {
	x := matFromCols([][]float64{{0, 0}, {1, 0}, {0, 1}, {5, 5}, {-1, 0}})
	ps := newPoints(x)
	got := closestToCentre(ps, []int{0, 1, 2, 3, 4}, make([]float64, 5), 3)
	if !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("closest %v, want [0 1 2]", got)
	}
}

// TestDensestGroupsRankByDensity: the DGF method lists Colon's groups densest first,
// as DGF found them, whatever their relevance.
func TestDensestGroupsRankByDensity(t *testing.T) {
	x := realZ(t, "colon.csv")
	rk, err := DensestGroups{DGF: DGFParams{K: 5, Eliminate: true}}.Rank(context.Background(), x.X, x.Labels, 2, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	res, _ := DGF(context.Background(), x.X, DGFParams{K: 5, Eliminate: true})
	if len(rk.Groups) < 20 {
		t.Fatalf("%d groups", len(rk.Groups))
	}
	for i := 1; i < len(rk.Groups); i++ {
		if len(rk.Groups[i]) > len(rk.Groups[i-1]) {
			t.Fatalf("group %d (%d members) after a smaller one (%d)", i+1, len(rk.Groups[i]), len(rk.Groups[i-1]))
		}
	}
	if !slices.Equal(rk.Groups[0], res.Groups[0].Members) {
		t.Error("the first group is not DGF's densest")
	}
}
