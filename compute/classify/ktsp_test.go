package classify

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
)

// k-TSP equals a reference written from the papers (testdata/ktsp_ref.py: NumPy, run
// with /usr/bin/python3) on Colon's 20 genes of largest F, log2, trained on the
// odd-numbered samples: the same nine pairs in the same order with the same class for
// x_i < x_j, and every sample's share of votes for tumour. Any increasing transform of
// each sample's values (another platform: 3 + 2 log2 x, or x^1.7) changes no vote.
func TestKTSPEqualsReference(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "ktsp_colon.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	ds, err := dataset.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "colon.csv"), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	ds, _ = dataset.Preprocess(ds, dataset.Prep{Log2: true})
	genes := recs[0][1:]
	var cols []int
	for _, g := range genes {
		cols = append(cols, slices.Index(ds.Features, g))
	}
	x := dataset.SelectFeatures(ds.X, cols)
	tumour := slices.Index(ds.Classes, "tumor")
	y := make([]int, len(ds.Labels)) // 1 = tumor, as the reference
	for i, l := range ds.Labels {
		if l == tumour {
			y[i] = 1
		}
	}
	var train []int
	for i := 0; i < len(y); i += 2 {
		train = append(train, i)
	}
	xt, yt := dataset.SelectSamples(x, y, train)
	var k KTSP
	if err := k.Fit(xt, yt, 2); err != nil {
		t.Fatal(err)
	}
	var wantPairs [][]string
	var wantVotes []float64
	for _, rec := range recs[1:] {
		switch rec[0] {
		case "pair":
			wantPairs = append(wantPairs, rec[1:])
		case "sample":
			v, _ := strconv.ParseFloat(rec[2], 64)
			wantVotes = append(wantVotes, v)
		}
	}
	if len(k.Pairs) != len(wantPairs) {
		t.Fatalf("%d pairs, the reference %d", len(k.Pairs), len(wantPairs))
	}
	for p, pr := range k.Pairs {
		less := map[int]string{0: "normal", 1: "tumor"}[k.Less[p]]
		if got := []string{genes[pr[0]], genes[pr[1]], less}; !slices.Equal(got, wantPairs[p]) {
			t.Errorf("pair %d: %q, the reference %q", p+1, got, wantPairs[p])
		}
	}
	_, scores := k.PredictScores(x)
	for i, s := range scores {
		if math.Abs(s[1]-wantVotes[i]) > 1e-12 {
			t.Errorf("sample %d: %g of the votes for tumour, the reference %g", i+1, s[1], wantVotes[i])
		}
	}
	n, p := x.Dims()
	for _, tr := range []func(float64) float64{func(v float64) float64 { return 3 + 2*math.Log2(v) }, func(v float64) float64 { return math.Pow(v, 1.7) }} {
		moved := mat.NewDense(n, p, nil)
		moved.Apply(func(_, _ int, v float64) float64 { return tr(v) }, x)
		_, ms := k.PredictScores(moved)
		for i := range ms {
			if ms[i][1] != scores[i][1] {
				t.Fatalf("sample %d: a monotone transform moved its votes from %g to %g", i+1, scores[i][1], ms[i][1])
			}
		}
	}
	if err := (&KTSP{}).Fit(xt, yt, 3); err == nil {
		t.Error("k-TSP fitted three classes")
	}
}
