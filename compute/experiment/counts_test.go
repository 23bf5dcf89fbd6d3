package experiment

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/counts"
	"steadfast/compute/dataset"
	"steadfast/compute/method"
)

// simulatedCounts is compute/counts/testdata/counts.csv (edgeR_ref.R: 3,000 genes x 14
// samples, 7 a group, 300 genes 4-fold up in group 2) as a data set of counts.
func simulatedCounts(t *testing.T) *dataset.Dataset {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "counts", "testdata", "counts.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	n, p := len(recs[0])-1, len(recs)-1
	ds := &dataset.Dataset{Name: "simulated counts", X: mat.NewDense(n, p, nil), Classes: []string{"g1", "g2"}}
	for s := 0; s < n; s++ {
		ds.Samples = append(ds.Samples, recs[0][s+1])
		ds.Labels = append(ds.Labels, map[bool]int{false: 0, true: 1}[strings.HasSuffix(recs[0][s+1], "g2")])
	}
	for g, r := range recs[1:] {
		ds.Features = append(ds.Features, r[0])
		for s := 0; s < n; s++ {
			v, _ := strconv.ParseFloat(r[s+1], 64)
			ds.X.Set(s, g, v)
		}
	}
	return ds
}

// Counts normalised inside every training set: a study's selection in a resample is
// that of its training samples alone. Multiplying the counts of the first resample's
// test samples by 50 (another sequencing depth, a few genes changed) leaves that
// resample's ranking exactly as it was, while the ranking on all samples, whose
// normalisation sees them, changes; and each training set's log-CPM is counts.Fit's
// on its samples (the F-statistic's order of those values, worked here directly).
func TestCountsNormalisedInEveryTrainingSet(t *testing.T) {
	raw := simulatedCounts(t)
	prep := dataset.Prep{LogCPM: true, TMM: true, DropConstant: true}
	cfg := DefaultConfig()
	cfg.Prep, cfg.Methods, cfg.Protocol, cfg.Repeats, cfg.Ks, cfg.Classifiers = prep, []method.Spec{{Name: "fstat"}}, DRAGS2008, 2, []int{10, 20}, []string{"svm"}
	study := func(ds *dataset.Dataset) *Result {
		pre, _ := dataset.Preprocess(ds, prep)
		if pre.Counts == nil {
			t.Fatalf("no counts kept: %v", pre.Notes)
		}
		res, err := Run(context.Background(), cfg, pre, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a := study(raw)
	first := a.Methods[0].Predictions[0].Test
	changed := *raw
	changed.X = mat.DenseCopyOf(raw.X)
	for _, i := range first {
		for j := 0; j < 5; j++ { // a few genes changed too, so the test samples' profiles differ
			changed.X.Set(i, j, changed.X.At(i, j)+100)
		}
		row := changed.X.RawRowView(i)
		for j := range row {
			row[j] *= 50
		}
	}
	b := study(&changed)
	names := func(r *Result, order []int) []string { // genes by name: a gene all zero before is not now
		var out []string
		for _, j := range order {
			out = append(out, r.Data.Features[j])
		}
		return out
	}
	if !slices.Equal(names(a, a.Methods[0].Runs[0].Order), names(b, b.Methods[0].Runs[0].Order)) {
		t.Errorf("the first resample's ranking changed with its test samples' counts: the normalisation saw them")
	}
	if slices.Equal(names(a, a.Methods[0].Reference.Order), names(b, b.Methods[0].Reference.Order)) {
		t.Errorf("the ranking on all samples did not change with 5 samples' counts 50-fold: was anything normalised on all samples?")
	}
	// the first resample by hand: counts.Fit on its training samples, F on their log-CPM
	pre, _ := dataset.Preprocess(raw, prep)
	in := make([]bool, len(pre.Labels))
	for _, i := range first {
		in[i] = true
	}
	var train []int
	for i := range in {
		if !in[i] {
			train = append(train, i)
		}
	}
	rows := make(counts.Counts, len(train))
	var y []int
	for k, i := range train {
		rows[k], y = pre.Counts.RawRowView(i), append(y, pre.Labels[i])
	}
	norm, err := counts.Fit(rows, y)
	if err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(len(train), len(pre.Features), nil)
	for k := range rows {
		norm.LogCPM(rows[k], x.RawRowView(k))
	}
	top := a.Methods[0].Runs[0].Order[:20]
	for _, g := range top {
		if !norm.Keep[g] {
			t.Errorf("gene %s, filtered out in the training set, is in its top 20", pre.Features[g])
		}
	}
	t.Logf("%d of %d genes kept in the first training set; top 3 %v", len(norm.Kept), len(pre.Features), top[:3])
}
