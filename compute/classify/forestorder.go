package classify

import (
	"cmp"
	"hash/fnv"
	"math"
	"slices"
)

// canonicalOrder orders the columns by a hash of their values (FNV-1a of the float64
// bits), then by the values themselves: an order that is the same whatever order the
// columns come in, so that a forest's random draws of genes, and with them the forest,
// do not depend on the order of the genes. Equal columns keep their given order.
func canonicalOrder(cols [][]float64) []int {
	keys := make([]uint64, len(cols))
	var b [8]byte
	for j, c := range cols {
		h := fnv.New64a()
		for _, v := range c {
			bits := math.Float64bits(v)
			for k := range b {
				b[k] = byte(bits >> (8 * k))
			}
			h.Write(b[:])
		}
		keys[j] = h.Sum64()
	}
	order := make([]int, len(cols))
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(keys[a], keys[b]); c != 0 {
			return c
		}
		return slices.Compare(cols[a], cols[b])
	})
	return order
}

// pickColumns is cols in the order given.
func pickColumns(cols [][]float64, order []int) [][]float64 {
	out := make([][]float64, len(order))
	for i, j := range order {
		out[i] = cols[j]
	}
	return out
}

// toColumns maps a tree grown on the columns in canonical order, and its importances,
// back to the columns' own indices: column i of the order is column order[i].
func toColumns(t *Tree, o *treeOut, order []int) {
	for i, f := range t.Feature {
		if f >= 0 {
			t.Feature[i] = int32(order[f])
		}
	}
	for k, j := range o.impF {
		o.impF[k] = int32(order[j])
	}
	for k, j := range o.permF {
		o.permF[k] = int32(order[j])
	}
}
