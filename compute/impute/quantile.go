package impute

import (
	"math"
	"sort"
)

// doubleEps is C's DBL_EPSILON, preprocessCore's DOUBLE_EPS.
const doubleEps = 2.220446049250313e-16

// interpolated is preprocessCore's estimate of the value at the 1-based fractional
// position pos of the ascending values v: v at pos when pos is a whole number (within
// 4 DBL_EPSILON), else linear between its neighbours, the end values beyond them.
func interpolated(v []float64, pos float64) float64 {
	fl := math.Floor(pos + 4*doubleEps)
	frac := pos - fl
	if math.Abs(frac) <= 4*doubleEps {
		frac = 0
	}
	switch {
	case frac == 0:
		return v[int(math.Floor(fl+0.5))-1]
	case frac == 1:
		return v[int(math.Floor(fl+1.5))-1]
	}
	i := int(math.Floor(fl + 0.5))
	switch {
	case i < len(v) && i > 0:
		return (1-frac)*v[i-1] + frac*v[i]
	case i >= len(v):
		return v[len(v)-1]
	}
	return v[0]
}

// QuantileTarget is preprocessCore's normalize.quantiles.determine.target(x) (its
// unthreaded build) for the columns cols, each a sample's values of the same rows
// (NaN missing): for position i of rows, the mean over the columns of the column's
// i-th smallest value, a column with missing values estimated at position 1 + (m - 1)
// i / (rows - 1) of its m sorted values (interpolated). Each column needs two values.
func QuantileTarget(cols [][]float64, rows int) []float64 {
	target := make([]float64, rows)
	vals := make([]float64, 0, rows)
	nc := float64(len(cols))
	for _, col := range cols {
		vals = vals[:0]
		for _, v := range col {
			if !missing(v) {
				vals = append(vals, v)
			}
		}
		sort.Float64s(vals)
		if len(vals) == rows {
			for i, v := range vals {
				target[i] += v / nc
			}
			continue
		}
		for i := range target {
			pos := 1 + float64(len(vals)-1)*(float64(i)/float64(rows-1))
			target[i] += interpolated(vals, pos) / nc
		}
	}
	return target
}

// UseTarget writes into out col's values normalised to the ascending target, as
// preprocessCore's normalize.quantiles.use.target does one column: a complete column
// of len(target) values takes the target value of its rank (ties' mean rank; a rank
// ending in .5 the mean of the two target values); a column with missing values (NaN,
// left NaN) takes, for its value of rank r among its m values, the target at position
// 1 + (len(target) - 1) (r - 1) / (m - 1). One value takes the target's middle.
func UseTarget(col, target, out []float64) {
	idx := make([]int, 0, len(col))
	for i, v := range col {
		out[i] = math.NaN()
		if !missing(v) {
			idx = append(idx, i)
		}
	}
	sort.Slice(idx, func(a, b int) bool { return col[idx[a]] < col[idx[b]] })
	m := len(idx)
	complete := m == len(col) && m == len(target)
	for a := 0; a < m; {
		b := a
		for b+1 < m && col[idx[b+1]] == col[idx[a]] {
			b++
		}
		rank := float64(a+b+2) / 2 // R's rank of ties, 1-based
		var v float64
		switch {
		case complete && rank-math.Floor(rank) > 0.4:
			r := int(math.Floor(rank))
			v = 0.5 * (target[r-1] + target[r])
		case complete:
			v = target[int(math.Floor(rank))-1]
		case m == 1:
			v = interpolated(target, 1+float64(len(target)-1)/2)
		default:
			v = interpolated(target, 1+float64(len(target)-1)*((rank-1)/float64(m-1)))
		}
		for k := a; k <= b; k++ {
			out[idx[k]] = v
		}
		a = b + 1
	}
}

// stretch maps values outside a sample's kept proteins (the filter's others) as its
// quantile normalisation maps its kept ones: from the ascending observed values from
// to their normalised values to, linear between two of them, shifted beyond the ends.
type stretch struct{ from, to []float64 }

func newStretch(col, norm []float64) stretch {
	idx := make([]int, 0, len(col))
	for i, v := range col {
		if !missing(v) && !missing(norm[i]) {
			idx = append(idx, i)
		}
	}
	sort.Slice(idx, func(a, b int) bool { return col[idx[a]] < col[idx[b]] })
	s := stretch{from: make([]float64, len(idx)), to: make([]float64, len(idx))}
	for k, i := range idx {
		s.from[k], s.to[k] = col[i], norm[i]
	}
	return s
}

func (s stretch) at(v float64) float64 {
	n := len(s.from)
	switch {
	case missing(v) || n == 0:
		return math.NaN()
	case v <= s.from[0]:
		return s.to[0] + (v - s.from[0])
	case v >= s.from[n-1]:
		return s.to[n-1] + (v - s.from[n-1])
	}
	k := sort.SearchFloat64s(s.from, v) // from[k-1] < v <= from[k]
	if s.from[k] == v {
		return s.to[k]
	}
	t := (v - s.from[k-1]) / (s.from[k] - s.from[k-1])
	return s.to[k-1] + t*(s.to[k]-s.to[k-1])
}
