package enrich

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
)

// gds102 is GDS507's 22,645 probes (log2) over 102 arrays: its 17 six times, each copy
// with a little Gaussian noise (seeded), and their classes.
func gds102(b *testing.B) (*dataset.Dataset, *mat.Dense, []int) {
	ds, err := dataset.ReadFile(filepath.Join("..", "dataset", "testdata", "geo", "GDS507.soft.gz"), dataset.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ds, _ = dataset.Preprocess(ds, dataset.Prep{Log2: true})
	n, p := ds.Dims()
	x := mat.NewDense(6*n, p, nil)
	r := rand.New(rand.NewPCG(1, 2))
	var labels []int
	for k := 0; k < 6; k++ {
		for i := 0; i < n; i++ {
			for j := 0; j < p; j++ {
				x.Set(k*n+i, j, ds.X.At(i, j)+0.1*r.NormFloat64())
			}
			labels = append(labels, ds.Labels[i])
		}
	}
	return ds, x, labels
}

// BenchmarkORAAllGO tests 50 genes against all 8,522 shipped GO sets over GDS507's
// measured genes (the issue asks under a second).
func BenchmarkORAAllGO(b *testing.B) {
	ds, _, _ := gds102(b)
	sel := ds.Symbols[:200]
	for b.Loop() {
		ORA(GO(), sel, ds.Symbols)
	}
}

// BenchmarkCameraAllGO runs camera over every GO set with a measured gene on 22,645
// probes x 102 arrays (the issue asks under 10 seconds).
func BenchmarkCameraAllGO(b *testing.B) {
	ds, x, labels := gds102(b)
	c := GO()
	u := NewUniverse(c, nil)
	rows := map[int][]int{}
	for j, s := range ds.Symbols {
		if i, ok := u.Gene(s); ok {
			rows[i] = append(rows[i], j)
		}
	}
	var index [][]int
	for _, s := range c.Sets {
		var set []int
		for _, g := range s.Genes {
			set = append(set, rows[g]...)
		}
		if len(set) > 0 {
			index = append(index, set)
		}
	}
	for b.Loop() {
		if _, err := Camera(x, labels, index); err != nil {
			b.Fatal(err)
		}
	}
}
