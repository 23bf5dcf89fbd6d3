package score

import (
	"bufio"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/synth"
)

func colon(t testing.TB) *dataset.Dataset {
	t.Helper()
	path := filepath.Join("..", "..", "..", "shared", "data", "colon.csv")
	ds, err := dataset.ReadFile(path, dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	dataset.Standardize(ds.X)
	return ds
}

// TestFStatColonMatchesSklearn compares every F value and the whole order with
// sklearn.feature_selection.f_classif (testdata/make_reference.py has the command).
func TestFStatColonMatchesSklearn(t *testing.T) {
	ds := colon(t)
	fh, err := os.Open("testdata/colon_fclassif.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	ref := map[string]float64{}
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		v, _ := strconv.ParseFloat(f[1], 64)
		ref[f[0]] = v
	}
	rk, err := FStat{}.Rank(context.Background(), ds.X, ds.Labels, len(ds.Classes), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ref) != len(ds.Features) {
		t.Fatalf("reference has %d features, data %d", len(ref), len(ds.Features))
	}
	for j, name := range ds.Features {
		if want := ref[name]; math.Abs(rk.Score[j]-want) > 1e-9*math.Max(1, want) {
			t.Errorf("F(%s) = %.12g, sklearn %.12g", name, rk.Score[j], want)
		}
	}
	for pos := 1; pos < len(rk.Order); pos++ {
		a, b := ref[ds.Features[rk.Order[pos-1]]], ref[ds.Features[rk.Order[pos]]]
		if a < b-1e-9*b {
			t.Fatalf("order differs from sklearn at rank %d", pos+1)
		}
	}
	// sklearn's best: Hsa.8147 with F = 39.8127 (testdata)
	if ds.Features[rk.Order[0]] != "Hsa.8147" {
		t.Errorf("best feature %s", ds.Features[rk.Order[0]])
	}
}

func TestFStatByHand(t *testing.T) {
	// classes A = {1, 2, 3}, B = {5, 6, 7}: means 2, 6, grand mean 4.
	// between = 3*4 + 3*4 = 24 over 1 df; within = 2 + 2 = 4 over 4 df; F = 24 / 1 = 24.
	x := mat.NewDense(6, 2, []float64{1, 7, 2, 7, 3, 7, 5, 7, 6, 7, 7, 7})
	f := FScores(x, []int{0, 0, 0, 1, 1, 1}, 2)
	if math.Abs(f[0]-24) > 1e-12 || f[1] != 0 {
		t.Errorf("F = %v, want [24 0]", f)
	}
}

// TestSVMRFERanksInformativeFirst: in synthSmall only feature 0 carries the class;
// SVM-RFE must keep it to the last round.
func TestSVMRFERanksInformativeFirst(t *testing.T) {
	x, y := synthSmall()
	for _, rfe := range []SVMRFE{{Step: 0.1}, {Halve: true}} {
		rk, err := rfe.Rank(context.Background(), x, y, 2, dataset.Rand(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		if rk.Order[0] != 0 {
			t.Errorf("%+v: best is %d", rfe, rk.Order[0])
		}
		seen := map[int]bool{}
		for pos, j := range rk.Order {
			if seen[j] {
				t.Fatalf("feature %d ranked twice", j)
			}
			seen[j] = true
			if pos > 0 && rk.Score[j] > rk.Score[rk.Order[pos-1]] {
				t.Fatalf("scores not decreasing along the order at %d", pos)
			}
		}
	}
}

func BenchmarkFStatLung(b *testing.B) {
	x, y := lungSized(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		FScores(x, y, 2)
	}
}

func BenchmarkSVMRFELung(b *testing.B) {
	x, y := lungSized(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := (SVMRFE{Step: 0.1}).Rank(context.Background(), x, y, 2, dataset.Rand(1, uint64(i))); err != nil {
			b.Fatal(err)
		}
	}
}

// lungSized is a z-scored D5k-like set of Lung's size (12533 x 181); -short keeps it small.
func lungSized(b testing.TB) (*mat.Dense, []int) {
	n, p := 181, 12533
	if testing.Short() {
		n, p = 60, 500
	}
	ds := synth.Benchmark(n, p)
	return ds.X, ds.Labels
}

func BenchmarkInfoGainLung(b *testing.B) {
	x, y := lungSized(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := (InfoGain{}).Rank(context.Background(), x, y, 2, dataset.Rand(1)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReliefFLung(b *testing.B) {
	x, y := lungSized(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := (ReliefF{K: 10}).Rank(context.Background(), x, y, 2, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEnsembleRFELung(b *testing.B) {
	x, y := lungSized(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := (EnsembleRFE{RFE: SVMRFE{Step: 0.1}, B: 40}).Rank(context.Background(), x, y, 2, dataset.Rand(1)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStabilitySelectionLung(b *testing.B) {
	x, y := lungSized(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := (StabilitySelection{B: 100, Lambdas: 30, Ratio: 0.05}).Rank(context.Background(), x, y, 2, dataset.Rand(1)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBootstrapWrapperLung(b *testing.B) {
	x, y := lungSized(b)
	_, p := x.Dims()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := (BootstrapWrapper{Ne: p}).Rank(context.Background(), x, y, 2, dataset.Rand(1)); err != nil {
			b.Fatal(err)
		}
	}
}

func TestEnsembleRFEIndependentOfThreads(t *testing.T) {
	x, y := synthSmall()
	rank := func(procs int) Ranking {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		rk, err := (EnsembleRFE{RFE: SVMRFE{Step: 0.2}, B: 6}).Rank(context.Background(), x, y, 2, dataset.Rand(4))
		if err != nil {
			t.Fatal(err)
		}
		return rk
	}
	a := rank(1)
	if !reflect.DeepEqual(a, rank(3)) {
		t.Error("ensemble SVM-RFE depends on the number of threads")
	}
	if a.Order[0] != 0 { // feature 0 carries the class (synthSmall)
		t.Errorf("best feature %d", a.Order[0])
	}
}

// synthSmall is 60 samples x 30 features where only feature 0 carries the class.
func synthSmall() (*mat.Dense, []int) {
	r := dataset.Rand(3, 0)
	return planted(r, 60, 30, 0, func(y int) float64 { return float64(2*y-1)*2 + 0.3*r.NormFloat64() })
}

// planted draws n samples of two alternating classes and p standard normal features,
// then sets feature j of each sample to signal(its class); signal may draw from r.
func planted(r *rand.Rand, n, p, j int, signal func(y int) float64) (*mat.Dense, []int) {
	x := mat.NewDense(n, p, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		y[i] = i % 2
		for f := 0; f < p; f++ {
			x.Set(i, f, r.NormFloat64())
		}
		x.Set(i, j, signal(y[i]))
	}
	return x, y
}

// TestHalvingStopsAtFifty: with Halve, SVM-RFE halves the features until exactly 50
// remain, then drops one at a time (the DRAGS paper's schedule; 127 had gone 63 -> 32).
// Sizes worked by hand: 2000 -> 1000 -> 500 -> 250 -> 125 -> 63 -> 50 -> 49.
func TestHalvingStopsAtFifty(t *testing.T) {
	s := SVMRFE{Halve: true}
	var sizes []int
	for n := 2000; n > 48; n -= s.dropCount(n) {
		sizes = append(sizes, n)
	}
	want := []int{2000, 1000, 500, 250, 125, 63, 50, 49}
	if !slices.Equal(sizes, want) {
		t.Errorf("sizes %v, want %v", sizes, want)
	}
}
