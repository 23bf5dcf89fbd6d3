package group

import (
	"bufio"
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/synth"
)

func colonZ(t testing.TB) *dataset.Dataset {
	t.Helper()
	ds, err := dataset.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "colon.csv"), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	dataset.Standardize(ds.X)
	return ds
}

// TestDGFMatchesSklearnMeanShift compares bandwidth, number of peaks and the 100 densest
// peaks with scikit-learn's MeanShift (testdata/make_meanshift_reference.py).
func TestDGFMatchesSklearnMeanShift(t *testing.T) {
	ds := colonZ(t)
	fh, err := os.Open("testdata/colon_meanshift.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<20)
	sc.Scan()
	wantH, _ := strconv.ParseFloat(strings.Fields(sc.Text())[1], 64)
	sc.Scan()
	wantPeaks, _ := strconv.Atoi(strings.Fields(sc.Text())[1])
	type peak struct {
		density int
		y       []float64
	}
	var ref []peak
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		d, _ := strconv.Atoi(f[0])
		var y []float64
		for _, s := range f[1:] {
			v, _ := strconv.ParseFloat(s, 64)
			y = append(y, v)
		}
		ref = append(ref, peak{d, y})
	}
	start := time.Now()
	res, err := DGF(context.Background(), ds.X, DGFParams{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("DGF on Colon: %v, %d peaks, %d full scans", time.Since(start), res.Peaks, res.FullScans)
	if math.Abs(res.H-wantH) > 1e-9*wantH {
		t.Errorf("h = %.12g, sklearn reference %.12g", res.H, wantH)
	}
	if res.Peaks != wantPeaks {
		t.Errorf("%d peaks, sklearn MeanShift %d", res.Peaks, wantPeaks)
	}
	// every reference peak has one of ours within 1% of h, with the same density
	for i, rp := range ref {
		best, bd := -1, math.Inf(1)
		for g, grp := range res.Groups {
			if d := math.Sqrt(dist2(grp.peak, rp.y)); d < bd {
				best, bd = g, d
			}
		}
		if bd > 0.01*res.H || res.Groups[best].Density != rp.density {
			t.Errorf("reference peak %d (density %d): nearest of ours at %.4f h, density %d", i, rp.density, bd/res.H, res.Groups[best].Density)
		}
	}
}

func TestDGFRecoversSyntheticGroups(t *testing.T) {
	ds, truth := synth.Generate(synth.D1k, 200, 11, 0)
	dataset.Standardize(ds.X)
	res, err := DGF(context.Background(), ds.X, DGFParams{Eliminate: true})
	if err != nil {
		t.Fatal(err)
	}
	// every dense group lies inside one true group, and the densest groups are large
	for _, g := range res.Groups {
		for _, j := range g.Members {
			if truth.Group[j] != truth.Group[g.Members[0]] {
				t.Fatalf("group mixes true groups %d and %d", truth.Group[j], truth.Group[g.Members[0]])
			}
		}
	}
	if len(res.Groups) < 50 || res.Groups[0].Density < 5 {
		t.Errorf("%d groups, densest has %d", len(res.Groups), res.Groups[0].Density)
	}
}

func TestDGFIndependentOfFeatureOrderAndWorkers(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 60, 12, 0)
	dataset.Standardize(ds.X)
	_, p := ds.Dims()
	perm := dataset.Rand(3).Perm(p)
	xp := dataset.SelectFeatures(ds.X, perm)
	a, err := DGF(context.Background(), ds.X, DGFParams{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := DGF(context.Background(), xp, DGFParams{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Groups) != len(b.Groups) {
		t.Fatalf("%d groups, %d after permuting features", len(a.Groups), len(b.Groups))
	}
	key := func(members []int, m []int) string {
		var names []string
		for _, j := range members {
			names = append(names, strconv.Itoa(m[j]))
		}
		sortStrings(names)
		return strings.Join(names, ",")
	}
	id := make([]int, p)
	for i := range id {
		id[i] = i
	}
	seen := map[string]int{}
	for _, g := range a.Groups {
		seen[key(g.Members, id)]++
	}
	for _, g := range b.Groups {
		seen[key(g.Members, perm)]--
	}
	for k, v := range seen {
		if v != 0 {
			t.Fatalf("group %s differs after permuting features", k)
		}
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func lungSized() (n, p int) {
	if testing.Short() {
		return 60, 500
	}
	return 181, 12533
}

// BenchmarkDGFLung runs DGF on the Lung-sized synthetic set written by
// `steadfast synth --features 12533 --samples 181 --seed 1` (the same generator).
func BenchmarkDGFLung(b *testing.B) {
	benchDGF(b, synth.Benchmark(lungSized()).X, DGFParams{})
}

// benchDGF times DGF (K = 5, flat kernel) on x and reports its peaks, rounds and full scans.
func benchDGF(b *testing.B, x *mat.Dense, prm DGFParams) {
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := DGF(context.Background(), x, prm)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Peaks), "peaks")
		b.ReportMetric(float64(res.Iterations), "rounds")
		b.ReportMetric(float64(res.FullScans), "fullscans")
	}
}

func BenchmarkCGSLung(b *testing.B) {
	ds := synth.Benchmark(lungSized())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := (CGS{Bootstraps: 10}).Groups(context.Background(), ds.X, ds.Labels, 2, dataset.Rand(1)); err != nil {
			b.Fatal(err)
		}
	}
}

func TestDGFSameGroupsWithOneOrManyThreads(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 80, 13, 0)
	dataset.Standardize(ds.X)
	run := func(procs int) DGFResult {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		res, err := DGF(context.Background(), ds.X, DGFParams{Eliminate: true})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(1), run(4)
	if len(a.Groups) != len(b.Groups) || a.H != b.H {
		t.Fatalf("%d groups (h %v) on 1 thread, %d (h %v) on 4", len(a.Groups), a.H, len(b.Groups), b.H)
	}
	for i := range a.Groups {
		if !reflect.DeepEqual(a.Groups[i].Members, b.Groups[i].Members) {
			t.Fatalf("group %d differs between 1 and 4 threads", i)
		}
	}
}
