package group

import (
	"context"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Group is a set of features with one representative.
type Group struct {
	Members        []int     `json:"members"` // feature indices, ascending
	Representative int       `json:"representative"`
	Density        int       `json:"density"` // DGF: features within h of the peak; others: size
	Relevance      float64   `json:"relevance"`
	peak           []float64 // DGF's density peak
}

// DGFParams configure the dense group finder. Zero values take the defaults: K = 5,
// flat kernel, no elimination, 100 iterations.
type DGFParams struct {
	K         int  // neighbours for the bandwidth, 2..25
	Gaussian  bool // Gaussian weights (sigma = h/2) on the features within h instead of equal ones
	Eliminate bool // drop groups whose peak's mean distance to its K nearest features (other than one it sits on) exceeds h
	// SelfNeighbour is the DRAGS paper's reading (§4.1: "when K=1, the bandwidth will be
	// zero"): a point is its own first neighbour, so the mean over its K nearest is the
	// sum over its K-1 nearest others divided by K, in the bandwidth and the elimination.
	SelfNeighbour bool
	MaxIter       int
}

// neighbours returns how many nearest others a mean distance sums over and what it
// divides by: K and K, or, with SelfNeighbour, K-1 and K (the point itself at 0).
func (p DGFParams) neighbours() (others int, divisor float64) {
	if p.SelfNeighbour {
		return p.K - 1, float64(p.K)
	}
	return p.K, float64(p.K)
}

// DGFResult is what DGF found.
type DGFResult struct {
	Groups []Group // by decreasing density, then by the peak's coordinates
	H      float64 // bandwidth
	Peaks  int     // unique peaks before elimination
	// Iterations is the most mean-shift steps any point took until it stopped.
	Iterations int
	// FullScans counts the evaluations that screened every feature (the rest screened
	// only a hub's ring).
	FullScans int64
}

// DGF finds the dense feature groups of x (n samples x p features, z-scored by the
// caller): every feature starts a mean shift y <- mean of the features within h of y
// (flat kernel), until the step is below 1e-3 h; the stationary points, densest first
// (density: the number of features whose mean the point is, as scikit-learn's MeanShift
// counts it), merge into the nearest earlier peak within h; a peak's group is every
// feature within h of it.
//
// Exact, and fast on real arrays: distances are screened by float32 matrix products with
// a guaranteed error bound and computed in float64 only where the bound cannot decide;
// the bandwidth and the first step come from one pass over the pairs each; later a point
// near a hub re-measures only the hub's ring (see hub); sums of members are exact (see
// space), so a mean depends on the set alone and trajectories that meet are followed once.
func DGF(ctx context.Context, x *mat.Dense, prm DGFParams) (DGFResult, error) {
	if prm.K <= 0 {
		prm.K = 5
	}
	if prm.MaxIter <= 0 {
		prm.MaxIter = 100
	}
	_, p := x.Dims()
	if p < 2 {
		return DGFResult{}, fmt.Errorf("DGF needs at least two features")
	}
	if j := firstNonFinite(x); j >= 0 {
		return DGFResult{}, fmt.Errorf("DGF: feature %d holds a missing or non-finite value (NaN or Inf); drop the incomplete features first (Data tab: drop features with missing values)", j+1)
	}
	sp := newSpace(x)
	h, err := sp.bandwidth(ctx, prm)
	if err != nil {
		return DGFResult{}, err
	}
	if h == 0 {
		return DGFResult{}, fmt.Errorf("DGF: bandwidth is 0 (features duplicate each other); drop duplicates first")
	}
	ms := newShifter(sp, h, prm.Gaussian)
	rounds, err := ms.run(ctx, prm.MaxIter, 1e-3*h)
	if err != nil {
		return DGFResult{}, err
	}
	peaks := findPeaks(ms, h)
	groups, err := sp.peakGroups(ctx, peaks, h, prm)
	if err != nil {
		return DGFResult{}, err
	}
	return DGFResult{Groups: groups, H: h, Peaks: len(peaks), Iterations: rounds, FullScans: ms.full.Load()}, nil
}

// kNearestScreened returns the sum of the distances from the screened point to its K
// nearest features, leaving out feature self and every feature at squared distance
// <= zero, divided by divisor (by divisor less the ones missing when fewer are found).
func kNearestScreened(sc screener, K int, divisor float64, self int, zero float64) float64 {
	p := sc.sp.len()
	// in u = ||x_k||^2/2 - g_k the estimate is yy + 2u, give or take err
	zeroU := (zero - sc.yy + sc.err) / 2 // u above it: certainly beyond zero
	top := make([]float64, 0, K+1)       // the K smallest u certainly counted
	for k := 0; k < p; k++ {
		u := sc.sp.half[k] - float64(sc.g[k])
		if k == self || u <= zeroU || (len(top) == K && u >= top[K-1]) {
			continue
		}
		i := sort.SearchFloat64s(top, u)
		top = append(top, 0)
		copy(top[i+1:], top[i:])
		top[i] = u
		top = top[:min(len(top), K)]
	}
	limit := math.Inf(1) // no feature nearer than the K-th has u above it
	if len(top) == K {
		limit = top[K-1] + sc.err
	}
	var d2 []float64
	for k := 0; k < p; k++ {
		if k == self {
			continue
		}
		if sc.sp.half[k]-float64(sc.g[k]) > limit {
			continue
		}
		if d := sc.exact(k); d > zero {
			d2 = append(d2, d)
		}
	}
	found := min(K, len(d2))
	if found == 0 {
		return 0
	}
	partialSort(d2, found)
	s := 0.0
	for _, v := range d2[:found] {
		s += math.Sqrt(v)
	}
	return s / (divisor - float64(K-found)) // fewer than K found: the mean of those
}

// stationary is one distinct stationary point of the mean shift.
type stationary struct {
	y       []float64
	yy      float64
	density int
}

// findPeaks sorts the distinct stationary points densest first (ties by coordinates,
// largest first as scikit-learn's MeanShift does, never by feature order) and keeps each
// one that has no earlier peak within h.
func findPeaks(ms *shifter, h float64) []stationary {
	var pts []stationary
	for s := range ms.tr {
		if ms.tr[s].leader >= 0 {
			continue // at its leader's point
		}
		y, d := ms.point(s)
		if d > 0 {
			pts = append(pts, stationary{y: y, yy: dot(y, y), density: d})
		}
	}
	sort.Slice(pts, func(a, b int) bool {
		sa, sb := &pts[a], &pts[b]
		if sa.density != sb.density {
			return sa.density > sb.density
		}
		for i := range sa.y {
			if sa.y[i] != sb.y[i] {
				return sa.y[i] > sb.y[i]
			}
		}
		return false
	})
	h2 := h * h
	var peaks []stationary
	var mat []float64 // the peaks' coordinates, row by row
	var bp blockProducts
	ys := make([][]float64, 0, blockRows)
	for b := 0; b < len(pts); b += blockRows {
		part := pts[b:min(b+blockRows, len(pts))]
		np := len(peaks)
		ys = ys[:0]
		for _, pt := range part {
			ys = append(ys, pt.y)
		}
		g := bp.of(ys, mat, np)
		for i, pt := range part {
			best, bestD := -1, h2
			consider := func(r int) {
				d := pt.yy + peaks[r].yy - 2*floats.Dot(pt.y, peaks[r].y)
				if d < bestD || (d == bestD && best >= 0 && r < best) {
					best, bestD = r, d
				}
			}
			for r := 0; r < np; r++ {
				est := pt.yy + peaks[r].yy - 2*g[i*np+r]
				if est-1e-10*(pt.yy+peaks[r].yy) <= bestD {
					consider(r)
				}
			}
			for r := np; r < len(peaks); r++ {
				consider(r)
			}
			if best < 0 || bestD >= h2 {
				peaks = append(peaks, pt)
				mat = append(mat, pt.y...)
			}
		}
	}
	return peaks
}

// peakGroups returns each peak's group, every feature within h of it, dropping (with
// prm.Eliminate) a group whose peak's mean distance to its K nearest features exceeds h.
func (sp *space) peakGroups(ctx context.Context, peaks []stationary, h float64, prm DGFParams) ([]Group, error) {
	groups := make([]Group, len(peaks))
	keep := make([]bool, len(peaks))
	rows := make([]int, len(peaks))
	ys := make([][]float64, len(peaks))
	for r := range peaks {
		rows[r], ys[r] = r, peaks[r].y
	}
	h2 := h * h
	err := sp.screenRows(ctx, ys, rows, func(r int, sc screener) {
		var members []int
		within := sc.cut(h2)
		for k := 0; k < sp.len(); k++ {
			if sc.inside(k, sc.value(k, sc.g[k]), within) {
				members = append(members, k)
			}
		}
		groups[r] = Group{Members: members, Density: len(members), Representative: -1, peak: peaks[r].y}
		keep[r] = len(members) > 0
		if prm.Eliminate {
			// the K nearest features of the peak, not counting one it sits on
			others, divisor := prm.neighbours()
			keep[r] = keep[r] && kNearestScreened(sc, others, divisor, -1, 1e-12*h2) <= h
		}
	})
	if err != nil {
		return nil, err
	}
	var out []Group
	for r, g := range groups {
		if keep[r] {
			out = append(out, g)
		}
	}
	return out, nil
}

// firstNonFinite returns the first feature (column) of x holding NaN or Inf, or -1.
func firstNonFinite(x *mat.Dense) int {
	n, _ := x.Dims()
	first := -1
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i) {
			if (math.IsNaN(v) || math.IsInf(v, 0)) && (first < 0 || j < first) {
				first = j
			}
		}
	}
	return first
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

func dist2(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		d := v - b[i]
		s += d * d
	}
	return s
}
