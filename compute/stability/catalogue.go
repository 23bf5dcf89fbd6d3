package stability

import (
	"math"
	"sort"
)

// Notation of the set measures (Bommert & Lang 2021, stabm): m selections V_1..V_m of
// p features; h_j the number of selections holding feature j; q = sum_j h_j; for two
// selections of sizes a = |V_i| and b = |V_j|, c = |V_i ∩ V_j| and e = ab/p, the overlap
// expected of two random selections of those sizes.

// SetMeasure is a stability measure of feature selections. A pairwise measure is the
// mean of Pair over the pairs compared; a global one is computed from all m selections
// at once (Global). Min and Max bound its values.
type SetMeasure struct {
	Name     string // stabm's name in lower case (OmicsMarkeR's for kuncheva, pof, canberra)
	Label    string
	Source   string // where it is defined
	Min, Max float64
	Pair     func(a, b, c, p float64) float64
	Global   func(g GlobalCounts) float64
	// Ranked measures compare whole top-k rankings, not sets: see CanberraTopK.
	Ranked bool
}

// GlobalCounts are the counts of m selections that the global measures use.
type GlobalCounts struct {
	M, P, Q  float64 // selections, features, sum of sizes
	Union    float64 // |V_1 ∪ ... ∪ V_m|
	SumHLogH float64 // sum_j h_j log2 h_j
	SumHH1   float64 // sum_j h_j (h_j - 1)
}

// SetMeasures is the catalogue: stabm's measures that need no feature similarities, and
// Kuncheva's, POF and Canberra of OmicsMarkeR. For selections of one size k, kappa,
// phi, unadjusted, wald and kuncheva all equal (c - k^2/p) / (k - k^2/p) (lustgarten too
// while 2k <= p), and dice, ochiai and pof equal c/k.
var SetMeasures = []SetMeasure{
	{Name: "davis", Label: "Davis", Source: "Davis et al. 2006 (stabm, penalty 0): sum_j h_j / (m |V|)", Min: 0, Max: 1,
		Global: func(g GlobalCounts) float64 { return g.Q / (g.M * g.Union) }},
	{Name: "dice", Label: "Dice", Source: "Dice 1945: 2c / (a + b)", Min: 0, Max: 1,
		Pair: func(a, b, c, p float64) float64 { return 2 * c / (a + b) }},
	{Name: "hamming", Label: "Hamming", Source: "Dunne et al. 2002: (c + p - a - b + c) / p", Min: 0, Max: 1,
		Pair: func(a, b, c, p float64) float64 { return (2*c + p - a - b) / p }},
	{Name: "jaccard", Label: "Jaccard", Source: "Jaccard 1901: c / (a + b - c)", Min: 0, Max: 1,
		Pair: func(a, b, c, p float64) float64 { return c / (a + b - c) }},
	{Name: "kappa", Label: "Kappa", Source: "Carletta 1996: (c - e) / ((a + b)/2 - e)", Min: -1, Max: 1,
		Pair: func(a, b, c, p float64) float64 { e := a * b / p; return ratio(c-e, (a+b)/2-e) }},
	{Name: "lustgarten", Label: "Lustgarten", Source: "Lustgarten et al. 2009: (c - e) / (min(a, b) - max(0, a + b - p))", Min: -1, Max: 1,
		Pair: func(a, b, c, p float64) float64 { return ratio(c-a*b/p, math.Min(a, b)-math.Max(0, a+b-p)) }},
	{Name: "nogueira", Label: "Nogueira", Source: "Nogueira et al. 2018: 1 - (1/p) sum_j (m/(m-1)) (h_j/m)(1 - h_j/m) / ((q/(mp))(1 - q/(mp)))", Min: -1, Max: 1,
		Global: nogueiraGlobal},
	{Name: "novovicova", Label: "Novovičová", Source: "Novovičová et al. 2009: sum_{j in V} h_j log2 h_j / (q log2 m)", Min: 0, Max: 1,
		Global: func(g GlobalCounts) float64 { return ratio(g.SumHLogH, g.Q*math.Log2(g.M)) }},
	{Name: "ochiai", Label: "Ochiai", Source: "Ochiai 1957: c / sqrt(ab)", Min: 0, Max: 1,
		Pair: func(a, b, c, p float64) float64 { return c / math.Sqrt(a*b) }},
	{Name: "phi", Label: "Phi coefficient", Source: "Nogueira & Brown 2016: (c - e) / sqrt(a(1 - a/p) b(1 - b/p))", Min: -1, Max: 1,
		Pair: func(a, b, c, p float64) float64 { return ratio(c-a*b/p, math.Sqrt(a*(1-a/p)*b*(1-b/p))) }},
	{Name: "somol", Label: "Somol", Source: "Somol & Novovičová 2010: (sum_j h_j (h_j - 1) / (q (m-1)) - cmin) / (cmax - cmin)", Min: 0, Max: 1,
		Global: somol},
	{Name: "unadjusted", Label: "Unadjusted", Source: "Bommert & Rahnenführer 2020: (c - e) / (sqrt(ab) - e)", Min: -1, Max: 1,
		Pair: func(a, b, c, p float64) float64 { e := a * b / p; return ratio(c-e, math.Sqrt(a*b)-e) }},
	{Name: "wald", Label: "Wald", Source: "Wald et al. 2013: (c - e) / (min(a, b) - e)", Min: -1, Max: 1, // down to 1 - p for tiny selections; -k/(p - k) at least for top k <= p/2
		Pair: func(a, b, c, p float64) float64 { e := a * b / p; return ratio(c-e, math.Min(a, b)-e) }},
	{Name: "kuncheva", Label: "Kuncheva", Source: "Kuncheva 2007: (c p - k^2) / (k (p - k)) for a = b = k", Min: -1, Max: 1,
		Pair: func(a, b, c, p float64) float64 { return ratio(c*p-a*b, a*(p-a)) }},
	{Name: "pof", Label: "POF", Source: "Shi et al. 2005 (OmicsMarkeR pof): c / a", Min: 0, Max: 1,
		Pair: func(a, b, c, p float64) float64 { return c / a }},
	{Name: "canberra", Label: "Canberra distance (0: the same ranking)", Source: "Jurman et al. 2008: sum_j |t1 - t2| / (t1 + t2), t = min(rank, k + 1), divided by k (0: the same top k in the same order)",
		Min: 0, Max: 2, Ranked: true},
}

// ratio is n/d, and 1 where d is 0 (the selections leave nothing to vary: all of p, or empty).
func ratio(n, d float64) float64 {
	if d == 0 {
		return 1
	}
	return n / d
}

func nogueiraGlobal(g GlobalCounts) float64 {
	kbar := g.Q / g.M
	denom := kbar / g.P * (1 - kbar/g.P)
	// sum_j h_j/m (1 - h_j/m) = (q - sum h_j^2 / m) / m, and sum h_j^2 = SumHH1 + q
	spread := (g.Q - (g.SumHH1+g.Q)/g.M) / g.M
	return 1 - ratio(g.M/(g.M-1)*spread/g.P, denom)
}

func somol(g GlobalCounts) float64 {
	q, m, p := g.Q, g.M, g.P
	qp, qm := math.Mod(q, p), math.Mod(q, m)
	cmin := (q*q - p*(q-qp) - qp*qp) / (p * q * (m - 1))
	cmax := (qm*qm + q*(m-1) - qm*m) / (q * (m - 1))
	return ratio(g.SumHH1/(q*(m-1))-cmin, cmax-cmin)
}

// CanberraTopK is Jurman et al.'s Canberra distance of two rankings with location
// parameter k + 1, divided by k: (1/k) sum_j |t1_j - t2_j| / (t1_j + t2_j) with
// t_j = min(rank of j, k + 1) (ranks from 1), over the features in either top k. a and
// b are the rankings (best first), rankA and rankB their inverses (rank of each feature).
func CanberraTopK(a, b, rankA, rankB []int, k int) float64 {
	cut := func(r int) float64 { return float64(min(r, k+1)) }
	sum := 0.0
	for i, j := range a[:k] {
		t1, t2 := float64(i+1), cut(rankB[j])
		sum += math.Abs(t1-t2) / (t1 + t2)
	}
	for i, j := range b[:k] {
		if rankA[j] > k { // not counted above
			t1, t2 := float64(k+1), float64(i+1)
			sum += (t1 - t2) / (t1 + t2)
		}
	}
	return sum / float64(k)
}

// inverse returns the rank (from 1) of each feature in order.
func inverse(order []int) []int {
	r := make([]int, len(order))
	for i, j := range order {
		r[j] = i + 1
	}
	return r
}

// SetCurves computes every measure of SetMeasures at each k of ks over the top-k
// selections of orders (ks ascending): pairwise measures averaged over pairs (indices into orders,
// -1 standing for ref), global ones over all of orders. out[measure][ki].
func SetCurves(orders [][]int, ref []int, pairs [][2]int, p int, ks []int) map[string][]float64 {
	at := func(i int) []int {
		if i < 0 {
			return ref
		}
		return orders[i]
	}
	out := make(map[string][]float64, len(SetMeasures))
	for _, m := range SetMeasures {
		out[m.Name] = make([]float64, len(ks))
	}
	pf := float64(p)
	ranks := map[int][]int{}
	rankOf := func(i int) []int {
		if ranks[i] == nil {
			ranks[i] = inverse(at(i))
		}
		return ranks[i]
	}
	if len(pairs) > 0 {
		for _, pr := range pairs {
			a, b := at(pr[0]), at(pr[1])
			ra, rb := rankOf(pr[0]), rankOf(pr[1])
			common := TopKOverlaps(a, b, ks)
			for ki, k := range ks {
				kf, c := float64(k), float64(common[ki])
				for _, m := range SetMeasures {
					switch {
					case m.Pair != nil:
						out[m.Name][ki] += m.Pair(kf, kf, c, pf)
					case m.Ranked:
						out[m.Name][ki] += CanberraTopK(a, b, ra, rb, k)
					}
				}
			}
		}
		for _, m := range SetMeasures {
			if m.Pair != nil || m.Ranked {
				for ki := range ks {
					out[m.Name][ki] /= float64(len(pairs))
				}
			}
		}
	}
	for ki, g := range globalCounts(orders, p, ks) {
		for _, m := range SetMeasures {
			if m.Global != nil {
				out[m.Name][ki] = m.Global(g)
			}
		}
	}
	return out
}

// globalCounts returns the counts of the top-k selections of orders for each k of ks,
// in one pass over the prefixes (each feature's h_j grows as it joins a selection).
func globalCounts(orders [][]int, p int, ks []int) []GlobalCounts {
	out := make([]GlobalCounts, len(ks))
	if len(orders) < 2 {
		for i := range out {
			out[i] = GlobalCounts{M: 1, P: float64(p)}
		}
		return out
	}
	byK := make([]int, len(ks))
	for i := range byK {
		byK[i] = i
	}
	sort.SliceStable(byK, func(a, b int) bool { return ks[byK[a]] < ks[byK[b]] })
	h := make([]float64, p)
	g := GlobalCounts{M: float64(len(orders)), P: float64(p)}
	next := 0
	for k := 1; next < len(ks); k++ {
		for _, o := range orders {
			j := o[k-1]
			if h[j] == 0 {
				g.Union++
			} else {
				g.SumHLogH -= h[j] * math.Log2(h[j])
			}
			g.SumHH1 += 2 * h[j] // (h+1)h - h(h-1)
			h[j]++
			g.SumHLogH += h[j] * math.Log2(h[j])
			g.Q++
		}
		for next < len(ks) && ks[byK[next]] == k {
			out[byK[next]] = g
			next++
		}
	}
	return out
}

// LookupSetMeasure returns the catalogue's measure called name.
func LookupSetMeasure(name string) (SetMeasure, bool) {
	for _, m := range SetMeasures {
		if m.Name == name {
			return m, true
		}
	}
	return SetMeasure{}, false
}
