package experiment

import (
	"bufio"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/classify"
	"steadfast/compute/dataset"
)

// TestWekaClassifiersMatchWeka: wekasvm and weka1nn trained on Colon's first 30 genes and
// first 40 samples predict the other 22 samples as Weka 3.6.14's SMO and IBk at their
// defaults do (compute/classify/testdata/weka_reference.sh made colon30_weka.tsv). SMO
// leaves its bias unregularised and Steadfast's SVM regularises it with w (LIBLINEAR's
// way), so at most one of the 22 may differ. IBk widens its attribute ranges with every
// test sample it classifies (addInstanceInfo), so its scaling sees the test samples in
// the order given; weka1nn scales by the training samples alone, as the issue asks
// (3 of the 22 differ). With IBk's widening replayed here, the same distance and tie
// rule give all 22 of Weka's predictions.
func TestWekaClassifiersMatchWeka(t *testing.T) {
	ds, err := dataset.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "colon.csv"), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	want := wekaPredictions(t)
	sel := make([]int, 30)
	for j := range sel {
		sel[j] = j
	}
	train, test := make([]int, 40), make([]int, 22)
	for i := range train {
		train[i] = i
	}
	for i := range test {
		test[i] = 40 + i
	}
	xtr, ytr := dataset.SelectSamples(ds.X, ds.Labels, train)
	xte, _ := dataset.SelectSamples(ds.X, ds.Labels, test)
	for _, tc := range []struct {
		cl, weka string
		allowed  int
	}{{"wekasvm", "weka.classifiers.functions.SMO", 1}, {"weka1nn", "weka.classifiers.lazy.IBk", 3}} {
		pred, _, err := predict(context.Background(), tc.cl, Config{}, xtr, ytr, xte, sel, len(ds.Classes), rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		differ := 0
		for i, c := range pred {
			if ds.Classes[c] != want[tc.weka][i] {
				differ++
			}
		}
		if differ > tc.allowed {
			t.Errorf("%s: %d of 22 predictions differ from Weka's %s", tc.cl, differ, tc.weka)
		}
	}
}

// TestIBkWideningReplayed: 1-NN on Colon's 30 genes with each test sample's ranges
// widened by the test samples up to it, as IBk does, gives Weka's 22 predictions.
func TestIBkWideningReplayed(t *testing.T) {
	ds, err := dataset.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "colon.csv"), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	want := wekaPredictions(t)["weka.classifiers.lazy.IBk"]
	for i := 0; i < 22; i++ {
		seen := make([]int, 40+i+1) // training samples, then the test samples so far
		for k := range seen {
			seen[k] = k
		}
		x, _ := dataset.SelectSamples(ds.X, ds.Labels, seen)
		x = dataset.SelectFeatures(x, firstN(30))
		ranges := mat.DenseCopyOf(x)
		classify.MinMaxScale(ranges) // the ranges over all of seen
		tr := ranges.Slice(0, 40, 0, 30).(*mat.Dense)
		te := ranges.Slice(40+i, 41+i, 0, 30).(*mat.Dense)
		m := classify.KNN{K: 1}
		m.Fit(tr, ds.Labels[:40], 2)
		if got := ds.Classes[m.Predict(te)[0]]; got != want[i] {
			t.Errorf("test sample %d: %s, Weka %s", i+1, got, want[i])
		}
	}
}

func firstN(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// wekaPredictions reads colon30_weka.tsv: classifier -> the 22 predicted classes.
func wekaPredictions(t *testing.T) map[string][]string {
	f, err := os.Open(filepath.Join("..", "classify", "testdata", "colon30_weka.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 3 {
			t.Fatalf("line %q", sc.Text())
		}
		if i, err := strconv.Atoi(f[1]); err != nil || i != len(out[f[0]])+1 {
			t.Fatalf("line %q out of order", sc.Text())
		}
		out[f[0]] = append(out[f[0]], f[2])
	}
	if len(out) != 2 || len(out["weka.classifiers.lazy.IBk"]) != 22 {
		t.Fatalf("reference holds %d classifiers", len(out))
	}
	return out
}
