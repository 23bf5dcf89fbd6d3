package group

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"steadfast/compute/score"
)

// representativeByCorrelation returns the member with the highest mean correlation to the
// other members (DRAGS); x is z-scored, so r_ij = x_i'x_j / (n-1), and the sum over the
// others is x_i'(T - x_i) with T the members' total: O(m n), not O(m^2 n). Ties (both
// members of a pair, always) go as in best.
func representativeByCorrelation(ps points, members []int, f []float64) int {
	_, n := ps.pt.Dims()
	total := make([]float64, n)
	for _, j := range members {
		floats.Add(total, ps.pt.RawRowView(j))
	}
	return best(ps, members, f, func(i int) float64 {
		xi := ps.pt.RawRowView(i)
		return dot(xi, total) - dot(xi, xi)
	})
}

// representativeByCentre returns the member nearest the mean of the members' profiles;
// ties go as in best.
func representativeByCentre(ps points, members []int, f []float64) int {
	_, n := ps.pt.Dims()
	c := make([]float64, n)
	for _, j := range members {
		for i, v := range ps.pt.RawRowView(j) {
			c[i] += v
		}
	}
	for i := range c {
		c[i] /= float64(len(members))
	}
	cc := dot(c, c)
	return best(ps, members, f, func(j int) float64 { return -ps.dist2(c, cc, j) })
}

// best returns the member with the largest score; scores within 1e-9 of the largest
// magnitude tie (sums in another order differ by rounding), and ties go to the larger
// F, then to the larger profile in lexical order, so the choice depends on the
// features alone, never on their order in the file.
func best(ps points, members []int, f []float64, score func(j int) float64) int {
	s := make([]float64, len(members))
	top, scale := math.Inf(-1), 0.0
	for i, j := range members {
		s[i] = score(j)
		top = math.Max(top, s[i])
		scale = math.Max(scale, math.Abs(s[i]))
	}
	tol := 1e-9 * scale
	b := -1
	for i, j := range members {
		if s[i] < top-tol {
			continue
		}
		if b < 0 || before(ps, f, j, b) {
			b = j
		}
	}
	return b
}

// before reports whether feature a goes before feature b when all else ties: larger F
// first, then the larger profile in lexical order, then the smaller index (only for
// features with identical values, which no rule can tell apart).
func before(ps points, f []float64, a, b int) bool {
	if f[a] != f[b] {
		return f[a] > f[b]
	}
	if c := slices.Compare(ps.pt.RawRowView(a), ps.pt.RawRowView(b)); c != 0 {
		return c > 0
	}
	return a < b
}

// groupRanking turns ranked groups into a Ranking: their representatives first (a group
// whose representative is already listed is skipped), then every other feature by F,
// equal F in the seeded random order of r (score.TieOrder). Score = relevance + (max F
// + 1) for representatives, F for the rest, so scores follow the order.
func groupRanking(groups []Group, f []float64, r *rand.Rand) score.Ranking {
	p := len(f)
	maxF := 0.0
	for _, v := range f {
		maxF = math.Max(maxF, math.Min(v, 1e15))
	}
	rk := score.Ranking{Score: make([]float64, p)}
	used := make([]bool, p)
	for _, g := range groups {
		if used[g.Representative] {
			continue
		}
		used[g.Representative] = true
		rk.Order = append(rk.Order, g.Representative)
		rk.Groups = append(rk.Groups, g.Members)
		rk.Relevance = append(rk.Relevance, math.Min(g.Relevance, 1e15))
		rk.Score[g.Representative] = math.Min(g.Relevance, 1e15) + maxF + 1
	}
	var rest []int
	for j := 0; j < p; j++ {
		if !used[j] {
			rest = append(rest, j)
			rk.Score[j] = math.Min(f[j], 1e15)
		}
	}
	tie := score.TieOrder(p, r)
	sort.Slice(rest, func(a, b int) bool {
		if f[rest[a]] != f[rest[b]] {
			return f[rest[a]] > f[rest[b]]
		}
		return tie[rest[a]] < tie[rest[b]]
	})
	rk.Order = append(rk.Order, rest...)
	return rk
}

// DRAGS selects dense groups by relevance (Yu, Ding, Loscalzo 2008): DGF's groups, limited
// to the Densest most dense ones when Densest > 0, ranked by the mean F of their members;
// representative = the member most correlated on average with the others.
type DRAGS struct {
	DGF     DGFParams
	Densest int
	// Fixed, when set, are the groups' members (densest first) found beforehand, on all
	// samples: DGF is not run and only relevances and representatives come from x.
	Fixed [][]int
}

// Rank implements score.Ranker.
func (d DRAGS) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (score.Ranking, error) {
	groups, err := d.Groups(ctx, x, y, classes)
	if err != nil {
		return score.Ranking{}, err
	}
	return groupRanking(groups, score.FScores(x, y, classes), r), nil
}

// Groups returns DRAGS's ranked groups.
func (d DRAGS) Groups(ctx context.Context, x *mat.Dense, y []int, classes int) ([]Group, error) {
	groups, err := d.dense(ctx, x)
	if err != nil {
		return nil, err
	}
	if d.Densest > 0 && len(groups) > d.Densest {
		groups = groups[:d.Densest]
	}
	f := score.FScores(x, y, classes)
	ps := newPoints(x)
	for i := range groups {
		g := &groups[i]
		g.Relevance = meanF(f, g.Members)
		g.Representative = representativeByCorrelation(ps, g.Members, f)
	}
	sortByRelevance(ps, f, groups)
	return groups, nil
}

// dense returns the dense groups, densest first: DGF's on x, or the Fixed ones.
func (d DRAGS) dense(ctx context.Context, x *mat.Dense) ([]Group, error) {
	if d.Fixed == nil {
		res, err := DGF(ctx, x, d.DGF)
		return res.Groups, err
	}
	groups := make([]Group, len(d.Fixed))
	for i, m := range d.Fixed {
		groups[i] = Group{Members: slices.Clone(m), Density: len(m), Representative: -1}
	}
	return groups, nil
}

// sortByRelevance orders groups by decreasing relevance, ties as their representatives
// go in before.
func sortByRelevance(ps points, f []float64, groups []Group) {
	sort.SliceStable(groups, func(a, b int) bool {
		if groups[a].Relevance != groups[b].Relevance {
			return groups[a].Relevance > groups[b].Relevance
		}
		return before(ps, f, groups[a].Representative, groups[b].Representative)
	})
}

// meanF is the mean F of the members (F capped at 1e15), summed in increasing order so
// that it does not depend on the members' order.
func meanF(f []float64, members []int) float64 {
	v := make([]float64, len(members))
	for i, j := range members {
		v[i] = math.Min(f[j], 1e15)
	}
	slices.Sort(v)
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// closestToCentre returns the c members nearest the mean of members' profiles,
// ascending by index; ties at the cut go as in best (larger F first).
func closestToCentre(ps points, members []int, f []float64, c int) []int {
	_, n := ps.pt.Dims()
	centre := make([]float64, n)
	for _, j := range members {
		floats.Add(centre, ps.pt.RawRowView(j))
	}
	floats.Scale(1/float64(len(members)), centre)
	cc := dot(centre, centre)
	byDist := slices.Clone(members)
	d := make(map[int]float64, len(members))
	for _, j := range members {
		d[j] = ps.dist2(centre, cc, j)
	}
	sort.SliceStable(byDist, func(a, b int) bool {
		if d[byDist[a]] != d[byDist[b]] {
			return d[byDist[a]] < d[byDist[b]]
		}
		return before(ps, f, byDist[a], byDist[b])
	})
	out := byDist[:c]
	slices.Sort(out)
	return out
}

// DensestGroups ranks DGF's groups by density, densest first (DRAGS Fig. 2: the
// stability of DGF's groups themselves, before relevance); representative = the member
// most correlated on average with the others, as in DRAGS.
type DensestGroups struct {
	DGF DGFParams
}

// Rank implements score.Ranker.
func (d DensestGroups) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (score.Ranking, error) {
	res, err := DGF(ctx, x, d.DGF)
	if err != nil {
		return score.Ranking{}, err
	}
	f := score.FScores(x, y, classes)
	ps := newPoints(x)
	groups := res.Groups // densest first, ties by the peak's coordinates
	for i := range groups {
		groups[i].Representative = representativeByCorrelation(ps, groups[i].Members, f)
		groups[i].Relevance = float64(groups[i].Density)
	}
	return groupRanking(groups, f, r), nil
}
