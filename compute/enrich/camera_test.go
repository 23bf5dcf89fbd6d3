package enrich

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"steadfast/compute/dataset"
)

// Camera equals limma 3.54's camera(y, index, design ~ RCC, inter.gene.cor = 0.01) on
// GDS507 (22,645 probes, log2; testdata/camera_ref.R) for each of the 6,428 GO BP sets
// with a probe: the same number of genes and direction, P and FDR to 1e-8 (relative).
func TestCameraEqualsLimma(t *testing.T) {
	ds, err := dataset.ReadFile(filepath.Join("..", "dataset", "testdata", "geo", "GDS507.soft.gz"), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ds, _ = dataset.Preprocess(ds, dataset.Prep{Log2: true})
	rcc := 0
	for c, name := range ds.Classes {
		if name == "RCC" {
			rcc = c
		}
	}
	labels := make([]int, len(ds.Labels))
	for i, l := range ds.Labels {
		if l == rcc {
			labels[i] = 1
		}
	}
	bp := GO().Ontology("BP")
	rows := map[string][]int{}
	for j, s := range ds.Symbols {
		if s != "" {
			rows[s] = append(rows[s], j)
		}
	}
	var index [][]int
	var ids []string
	for _, s := range bp.Sets {
		var set []int
		for _, g := range s.Genes {
			set = append(set, rows[bp.Genes[g]]...)
		}
		if len(set) > 0 {
			index, ids = append(index, set), append(ids, s.ID)
		}
	}
	got, err := Camera(ds.X, labels, index)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]CameraSet{}
	for _, c := range got {
		byID[ids[c.Index]] = c
	}
	f, err := os.Open(filepath.Join("testdata", "camera.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs)-1 != len(got) {
		t.Fatalf("%d sets tested, limma %d", len(got), len(recs)-1)
	}
	worst := 0.0
	for _, r := range recs[1:] {
		c, ok := byID[r[0]]
		n, _ := strconv.Atoi(r[1])
		if !ok || c.NGenes != n || c.Direction != r[2] {
			t.Fatalf("%s: %+v; limma %q", r[0], c, r)
		}
		for k, v := range []float64{c.P, c.FDR} {
			want, _ := strconv.ParseFloat(r[3+k], 64)
			d := math.Abs(v-want) / math.Max(want, 1e-300)
			worst = math.Max(worst, d)
			if d > 1e-8 {
				t.Errorf("%s: %.17g, limma %.17g", r[0], v, want)
			}
		}
	}
	t.Logf("largest relative difference from limma: %.2g; the first set %s, P %.3g %s", worst, ids[got[0].Index], got[0].P, got[0].Direction)
}
