package stability

import "math"

// MaxWeightMatching returns a maximum-weight matching of the complete bipartite graph
// with weights w[i][j] >= 0 (rows one side, columns the other, any shape): match[i] is
// the column matched to row i or -1, and total is the matched weight. It is the
// Hungarian algorithm (shortest augmenting paths with potentials), O(n^2 m).
func MaxWeightMatching(w [][]float64) (match []int, total float64) {
	rows := len(w)
	if rows == 0 {
		return nil, 0
	}
	cols := len(w[0])
	transposed := rows > cols
	if transposed { // the algorithm wants rows <= cols
		t := make([][]float64, cols)
		for j := range t {
			t[j] = make([]float64, rows)
			for i := range w {
				t[j][i] = w[i][j]
			}
		}
		w, rows, cols = t, cols, rows
	}
	maxW := 0.0
	for _, r := range w {
		for _, v := range r {
			maxW = math.Max(maxW, v)
		}
	}
	// minimise cost = maxW - w; 1-based arrays as in the classic formulation
	cost := func(i, j int) float64 { return maxW - w[i-1][j-1] }
	u, v := make([]float64, rows+1), make([]float64, cols+1)
	p, way := make([]int, cols+1), make([]int, cols+1) // p[j] = row matched to column j
	minv, used := make([]float64, cols+1), make([]bool, cols+1)
	for i := 1; i <= rows; i++ {
		augment(i, cols, cost, u, v, p, way, minv, used)
	}
	rowMatch := make([]int, rows)
	for i := range rowMatch {
		rowMatch[i] = -1
	}
	for j := 1; j <= cols; j++ {
		if p[j] > 0 {
			rowMatch[p[j]-1] = j - 1
			total += w[p[j]-1][j-1]
		}
	}
	if !transposed {
		return rowMatch, total
	}
	match = make([]int, cols) // original rows = transposed columns
	for i := range match {
		match[i] = -1
	}
	for i, j := range rowMatch {
		if j >= 0 {
			match[j] = i
		}
	}
	return match, total
}

// SimM is the DRAGS group similarity: the maximum-weight matching between the groups of
// two selections with edge weights weight(i, j), divided by the matching's size
// min(|G1|, |G2|). Empty selections give 0 unless both are empty (1).
func SimM(n1, n2 int, weight func(i, j int) float64) float64 {
	if n1 == 0 || n2 == 0 {
		if n1 == n2 {
			return 1
		}
		return 0
	}
	w := make([][]float64, n1)
	for i := range w {
		w[i] = make([]float64, n2)
		for j := range w[i] {
			w[i][j] = weight(i, j)
		}
	}
	_, total := MaxWeightMatching(w)
	return total / float64(min(n1, n2))
}

// SimIDM is Sim_ID^M: groups matched with the Dice similarity of their member sets.
func SimIDM(g1, g2 [][]int) float64 {
	return SimM(len(g1), len(g2), func(i, j int) float64 { return SimID(g1[i], g2[j]) })
}

// SimVM is Sim_V^M: groups matched with |Pearson r| between their centres c1[i], c2[j]
// (the mean profile of each group over the samples; a single feature's own profile).
func SimVM(c1, c2 [][]float64) float64 {
	return SimM(len(c1), len(c2), func(i, j int) float64 { return math.Abs(Pearson(c1[i], c2[j])) })
}

// NestedSimM is SimM of the leading k x k block of the square weight matrix w for each
// k of ks (ascending, each at most len(w)): out[i] = total(k) / k with total(k) the
// maximum-weight matching of rows and columns 0..k-1. One run of the Hungarian
// algorithm grows the problem a row and a column at a time: the new column's potential
// is v = min over the rows so far of (cost - u), which keeps every reduced cost
// nonnegative and the matching optimal, and the new row is then added by one shortest
// augmenting path, O(k^2). All K blocks cost O(K^3) instead of the O(K^4) of
// matching each afresh. The matched weights are summed column by column, as
// MaxWeightMatching sums them.
func NestedSimM(w [][]float64, ks []int) []float64 {
	out := make([]float64, len(ks))
	if len(ks) == 0 {
		return out
	}
	n := ks[len(ks)-1]
	cost := func(i, j int) float64 { return -w[i-1][j-1] } // 1-based, minimised
	u, v := make([]float64, n+1), make([]float64, n+1)
	p, way := make([]int, n+1), make([]int, n+1) // p[j]: row matched to column j
	minv, used := make([]float64, n+1), make([]bool, n+1)
	next := 0
	for k := 1; k <= n; k++ {
		v[k] = math.Inf(1) // the new column, unmatched: the largest feasible potential
		for i := 1; i < k; i++ {
			v[k] = math.Min(v[k], cost(i, k)-u[i])
		}
		if k == 1 {
			v[k] = 0
		}
		augment(k, k, cost, u, v, p, way, minv, used)
		if k == ks[next] {
			total := 0.0
			for j := 1; j <= k; j++ {
				total += w[p[j]-1][j-1]
			}
			out[next] = total / float64(k)
			next++
		}
	}
	return out
}

// augment adds row i to the assignment over columns 1..cols by one shortest augmenting
// path with potentials u, v (the inner step of the Hungarian algorithm; arrays 1-based,
// index 0 the path's root).
func augment(i, cols int, cost func(i, j int) float64, u, v []float64, p, way []int, minv []float64, used []bool) {
	p[0] = i
	j0 := 0
	for j := 0; j <= cols; j++ {
		minv[j] = math.Inf(1)
		used[j] = false
	}
	for {
		used[j0] = true
		i0 := p[j0]
		delta, j1 := math.Inf(1), 0
		for j := 1; j <= cols; j++ {
			if used[j] {
				continue
			}
			cur := cost(i0, j) - u[i0] - v[j]
			if cur < minv[j] {
				minv[j], way[j] = cur, j0
			}
			if minv[j] < delta {
				delta, j1 = minv[j], j
			}
		}
		for j := 0; j <= cols; j++ {
			if used[j] {
				u[p[j]] += delta
				v[j] -= delta
			} else {
				minv[j] -= delta
			}
		}
		j0 = j1
		if p[j0] == 0 {
			break
		}
	}
	for j0 != 0 {
		j1 := way[j0]
		p[j0] = p[j1]
		j0 = j1
	}
}
