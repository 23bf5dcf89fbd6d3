package group

import (
	"context"
	"reflect"
	"testing"
	"time"

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
