package stability

// Sechidis is Sechidis et al.'s (2020) stability of the top-k selections of orders for
// each k of ks (ascending), the similarity-adjusted Nogueira measure as stabm computes
// it:
//
//	Phi_C = 1 - tr(C S) / tr(C Sigma0),
//
// S the sample covariance (M - 1 denominator) of the M selections' 0/1 vectors over the
// p features, Sigma0 its value for random selections of k features (diagonal
// (k/p)(1 - k/p), off the diagonal (k^2 - k)/(p^2 - p) - k^2/p^2), and C the similarity
// matrix: 1 on the diagonal, sim(f, g) off it (0 below the threshold). sumC is the sum of
// all p x p entries of C. Without similar features it is Nogueira's Phi.
func Sechidis(orders [][]int, p int, ks []int, sim func(f, g int) float64, sumC float64) []float64 {
	out := make([]float64, len(ks))
	m := len(orders)
	if m < 2 || len(ks) == 0 {
		for i := range out {
			out[i] = 1
		}
		return out
	}
	maxK := ks[len(ks)-1]
	pos := map[int]int{} // feature -> index in union
	var union []int
	for _, o := range orders {
		for _, f := range o[:maxK] {
			if _, ok := pos[f]; !ok {
				pos[f] = len(union)
				union = append(union, f)
			}
		}
	}
	// rank[r][u]: rank of union feature u in run r (from 1), maxK+1 beyond the top maxK
	rank := make([][]int32, m)
	for r, o := range orders {
		rank[r] = make([]int32, len(union))
		for u := range rank[r] {
			rank[r][u] = int32(maxK + 1)
		}
		for i, f := range o[:maxK] {
			rank[r][pos[f]] = int32(i + 1)
		}
	}
	// h[u][k]: runs holding u in their top k, for k = 0..maxK
	within := func(ts []int32) []float64 {
		c := make([]float64, maxK+2)
		for _, t := range ts {
			c[t]++
		}
		for k := 1; k <= maxK+1; k++ {
			c[k] += c[k-1]
		}
		return c
	}
	h := make([][]float64, len(union))
	ts := make([]int32, m)
	for u := range union {
		for r := range rank {
			ts[r] = rank[r][u]
		}
		h[u] = within(ts)
	}
	mf, pf := float64(m), float64(p)
	cov := func(both, a, b float64) float64 { return mf / (mf - 1) * (both/mf - a*b/(mf*mf)) }
	trCS := make([]float64, len(ks))
	for ki, k := range ks {
		for u := range union {
			trCS[ki] += cov(h[u][k], h[u][k], h[u][k])
		}
	}
	// the similar pairs within the union, in a fixed order
	for a := range union {
		for b := a + 1; b < len(union); b++ {
			s := sim(union[a], union[b])
			if s == 0 {
				continue
			}
			for r := range rank {
				ts[r] = max(rank[r][a], rank[r][b])
			}
			hab := within(ts)
			for ki, k := range ks {
				trCS[ki] += 2 * s * cov(hab[k], h[a][k], h[b][k])
			}
		}
	}
	for ki, k := range ks {
		kf := float64(k)
		diag := kf / pf * (1 - kf/pf)
		off := (kf*kf-kf)/(pf*pf-pf) - kf*kf/(pf*pf)
		out[ki] = 1 - ratio(trCS[ki], pf*diag+off*(sumC-pf))
	}
	return out
}
