package harmonize

import (
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// readMatrix reads a CSV written by R's write.csv (gzipped when .gz): its row names,
// column names and values.
func readMatrix(t *testing.T, name string) (rows, cols []string, x [][]float64) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(zr).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cols = recs[0][1:]
	for _, r := range recs[1:] {
		rows = append(rows, r[0])
		var v []float64
		for _, s := range r[1:] {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			v = append(v, f)
		}
		x = append(x, v)
	}
	return rows, cols, x
}

// batches reads which batch each sample of name's data is in.
func batches(t *testing.T, name string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range recs[1:] {
		out[r[0]] = r[1]
	}
	return out
}

// ComBat with the reference batch equals sva 3.46's ComBat(dat, batch, mod = NULL,
// ref.batch = 5) on 200 genes of the bladderbatch vignette data (testdata/combat_sva.R)
// to 1e-8, in its four variants (parametric or not, mean-only or not), for a batch of 18
// arrays and one of 4, the values as sva's CSV holds them (15 significant digits).
func TestComBatEqualsSva(t *testing.T) {
	for _, other := range []int{2, 3} {
		genes, samples, x := readMatrix(t, fmt.Sprintf("bladder_ref5_batch%d.csv.gz", other))
		of := batches(t, fmt.Sprintf("bladder_ref5_batch%d_batches.csv", other))
		var refCols, batchCols []int
		for j, s := range samples {
			if of[s] == "5" {
				refCols = append(refCols, j)
			} else {
				batchCols = append(batchCols, j)
			}
		}
		ref, batch := make([][]float64, len(x)), make([][]float64, len(x))
		for g, row := range x {
			for _, j := range refCols {
				ref[g] = append(ref[g], row[j])
			}
			for _, j := range batchCols {
				batch[g] = append(batch[g], row[j])
			}
		}
		for _, v := range []struct {
			name string
			o    Options
		}{{"parametric", Options{}}, {"nonparametric", Options{NonParametric: true}}, {"parametric-mean", Options{MeanOnly: true}}, {"nonparametric-mean", Options{NonParametric: true, MeanOnly: true}}} {
			_, _, want := readMatrix(t, fmt.Sprintf("combat_%s_batch%d.csv.gz", v.name, other))
			got, fit, err := ComBat(ref, batch, v.o)
			if err != nil {
				t.Fatal(err)
			}
			worst := 0.0
			for g := range want {
				for i := range want[g] {
					if d := math.Abs(got[g][i]-want[g][i]) / math.Max(1, math.Abs(want[g][i])); d > worst {
						worst = d
					}
					if d := math.Abs(got[g][i] - want[g][i]); d > 1e-8*math.Max(1, math.Abs(want[g][i])) {
						t.Fatalf("%s, batch %d: gene %s sample %d: %.15g, sva %.15g", v.name, other, genes[g], i, got[g][i], want[g][i])
					}
				}
			}
			t.Logf("%s, batch %d (%d arrays): largest relative difference from sva %.2g; %d genes unadjusted", v.name, other, len(batchCols), worst, len(fit.Unadjusted))
		}
	}
}

// The reference batch's values are what ComBat maps the batch onto: a batch that is
// the reference shifted and scaled per gene comes back near the reference's mean and
// spread (exactly for MeanOnly's mean, up to the shrinkage), and bad input is refused.
func TestComBatShiftedCopy(t *testing.T) {
	ref := [][]float64{{1, 2, 3, 4, 5, 6}, {10, 12, 9, 11, 13, 8}, {0.5, 0.1, 0.9, 0.4, 0.2, 0.7}}
	batch := make([][]float64, len(ref))
	for g, row := range ref {
		for _, v := range row {
			batch[g] = append(batch[g], 3*v+100)
		}
	}
	got, _, err := ComBat(ref, batch, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for g := range ref {
		mr, _ := meanVarN(ref[g])
		mg, _ := meanVarN(got[g])
		if math.Abs(mr-mg) > 0.05*math.Max(1, math.Abs(mr)) {
			t.Errorf("gene %d: reference mean %g, adjusted %g", g, mr, mg)
		}
	}
	if _, _, err := ComBat(ref, [][]float64{{1}, {2}}, Options{}); err == nil {
		t.Error("a batch of 2 genes for 3 accepted")
	}
	if _, _, err := ComBat(ref, [][]float64{{1, math.NaN()}, {2, 3}, {4, 5}}, Options{}); err == nil {
		t.Error("a NaN accepted")
	}
}
