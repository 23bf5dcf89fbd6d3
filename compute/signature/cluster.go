package signature

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// Merge is one step of a hierarchical clustering: clusters A < B (0..n-1 the items,
// n+i the cluster of step i) joined at distance Dist into a cluster of Size items, as a
// row of SciPy's linkage matrix.
type Merge struct {
	A, B int
	Dist float64
	Size int
}

// AverageLinkage clusters the rows of x by average linkage (UPGMA) on the distance
// 1 - Pearson r between rows: the closest two clusters are joined, the distance of the
// union to another cluster being the size-weighted mean of its parts' distances. The
// merges come in order of distance (average linkage is monotone), each naming the smaller cluster id first, as SciPy's
// linkage(method="average") on the same distances. A row of constant values is at
// distance 1 from every other (r taken as 0).
func AverageLinkage(x [][]float64) []Merge {
	n := len(x)
	if n < 2 {
		return nil
	}
	d := make([][]float64, n)
	for i := range d {
		d[i] = make([]float64, n)
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			r := stat.Correlation(x[i], x[j], nil)
			if math.IsNaN(r) {
				r = 0
			}
			d[i][j], d[j][i] = 1-r, 1-r
		}
	}
	return upgma(d)
}

// upgma joins the closest active clusters n-1 times; ties go to the pair (i, j), i < j,
// first in row order.
func upgma(d [][]float64) []Merge {
	n := len(d)
	id := make([]int, n)   // cluster id held in each slot
	size := make([]int, n) // its items
	active := make([]bool, n)
	for i := range id {
		id[i], size[i], active[i] = i, 1, true
	}
	var out []Merge
	for step := 0; step < n-1; step++ {
		bi, bj, best := -1, -1, math.Inf(1)
		for i := 0; i < n; i++ {
			if !active[i] {
				continue
			}
			for j := i + 1; j < n; j++ {
				if active[j] && d[i][j] < best {
					bi, bj, best = i, j, d[i][j]
				}
			}
		}
		out = append(out, Merge{A: min(id[bi], id[bj]), B: max(id[bi], id[bj]), Dist: best, Size: size[bi] + size[bj]})
		for k := 0; k < n; k++ { // the union takes slot bi
			if active[k] && k != bi && k != bj {
				v := (float64(size[bi])*d[bi][k] + float64(size[bj])*d[bj][k]) / float64(size[bi]+size[bj])
				d[bi][k], d[k][bi] = v, v
			}
		}
		active[bj] = false
		id[bi], size[bi] = n+step, size[bi]+size[bj]
	}
	return out // in order of distance already: average linkage never joins closer later
}

// LeafOrder is the order of the n items at the leaves of the tree of merges, left
// (A) before right (B) at every join, as SciPy's leaves_list.
func LeafOrder(merges []Merge) []int {
	n := len(merges) + 1
	if len(merges) == 0 {
		return []int{0}
	}
	var order []int
	var walk func(c int)
	walk = func(c int) {
		if c < n {
			order = append(order, c)
			return
		}
		m := merges[c-n]
		walk(m.A)
		walk(m.B)
	}
	walk(2*n - 2)
	return order
}
