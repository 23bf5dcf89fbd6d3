package group

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"
	"sync/atomic"

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

// DGFParams configure the dense group finder. Zero values take the defaults of SPEC
// section 2: K = 5, flat kernel, no elimination, 100 iterations.
type DGFParams struct {
	K         int  // neighbours for the bandwidth, 2..25
	Gaussian  bool // Gaussian kernel (sigma = h/2, cut at 2h) instead of the flat one
	Eliminate bool // drop groups whose peak's mean distance to its K nearest features (other than one it sits on) exceeds h
	MaxIter   int
}

// DGFResult is what DGF found.
type DGFResult struct {
	Groups []Group // by decreasing density, then by the peak's coordinates
	H      float64 // bandwidth
	Peaks  int     // unique peaks before elimination
	// Iterations is the number of synchronous mean-shift rounds until every point stopped.
	Iterations int
	// FullScans counts mean-shift steps or look-ups that left a seed's candidate list and
	// scanned every feature (kept exact, only slower).
	FullScans int64
}

// candidateFactor sets the radius of the candidate lists, R = candidateFactor * h, and
// maxCandidates their length (memory: at most p * maxCandidates * 8 bytes); a list cut
// short covers a smaller radius, which the look-ups respect.
const (
	candidateFactor = 2.0
	maxCandidates   = 512
)

// DGF finds the dense feature groups of x (n samples x p features, z-scored by the
// caller): every feature starts a mean shift y <- mean of the features within h of y
// (flat kernel), until the step is below 1e-3 h; the stationary points, densest first,
// merge into the nearest earlier peak within h; a peak's group is every feature within
// h of it. Distances come from blocked matrix products. Each feature keeps the list of
// features within 2h of it (at most maxCandidates, with the radius the list is complete
// to); a moving point is anchored at its nearest feature, and while its distance to the
// anchor plus the radius sought fits inside the anchor's list, only the list is looked at
// (exact, by the triangle inequality). Other points are batched into one matrix product
// per block against all features.
func DGF(ctx context.Context, x *mat.Dense, prm DGFParams) (DGFResult, error) {
	if prm.K <= 0 {
		prm.K = 5
	}
	if prm.MaxIter <= 0 {
		prm.MaxIter = 100
	}
	ps := newPoints(x)
	p := ps.len()
	if p < 2 {
		return DGFResult{}, fmt.Errorf("DGF needs at least two features")
	}
	h, _, err := ps.bandwidth(ctx, prm.K)
	if err != nil {
		return DGFResult{}, err
	}
	if h == 0 {
		return DGFResult{}, fmt.Errorf("DGF: bandwidth is 0 (features duplicate each other); drop duplicates first")
	}
	R := candidateFactor * h
	cand, candDist, covered, err := ps.neighbors(ctx, R, maxCandidates)
	if err != nil {
		return DGFResult{}, err
	}
	res := DGFResult{H: h}
	_, n := ps.pt.Dims()
	// A moving point y is anchored at a feature a with drift ||y - x_a||; while
	// drift + r <= R, every feature within r of y is in a's candidate list (triangle
	// inequality). The anchor follows y to its nearest feature.
	type stationary struct {
		y       []float64
		yy      float64
		anchor  int
		drift   float64 // ||y - x_anchor||
		density int
	}
	var scans atomic.Int64
	// within visits the features within radius r of y, anchored at a with drift; it
	// returns the nearest feature to y among those it looked at and its squared distance.
	within := func(y []float64, yy float64, a int, drift, r float64, visit func(k int, d2 float64)) (int, float64) {
		r2 := r * r
		near, nearD := a, math.Inf(1)
		look := func(k int) {
			d := ps.dist2(y, yy, k)
			if d < nearD || (d == nearD && k < near) {
				near, nearD = k, d
			}
			if d <= r2 {
				visit(k, d)
			}
		}
		if drift+r <= covered[a] {
			// only features within drift + r of the anchor can be within r of y
			look(a)
			limit := float32(drift + r)
			for i, k := range cand[a] {
				if candDist[a][i] > limit {
					break
				}
				look(int(k))
			}
			return near, nearD
		}
		scans.Add(1)
		for k := 0; k < p; k++ {
			look(k)
		}
		return near, nearD
	}
	sigma2 := (h / 2) * (h / 2)
	radius := h
	if prm.Gaussian {
		radius = R
	}
	weight := func(d2 float64) float64 {
		if prm.Gaussian {
			return math.Exp(-d2 / (2 * sigma2))
		}
		return 1
	}
	// Mean shift in synchronous rounds: points whose ball the candidate lists cover move
	// one by one; the others are batched, their distances to all features one matrix
	// product per block.
	ys := make([][]float64, p)
	anchor := make([]int, p)
	drift := make([]float64, p)
	active := make([]bool, p)
	for s := range ys {
		ys[s] = append([]float64(nil), ps.pt.RawRowView(s)...)
		anchor[s], active[s] = s, true
	}
	step := func(s int, visitAll func(visit func(k int, d2 float64)) (int, float64)) {
		next := make([]float64, n)
		wsum := 0.0
		near, _ := visitAll(func(k int, d2 float64) {
			w := weight(d2)
			wsum += w
			floats.AddScaled(next, w, ps.pt.RawRowView(k))
		})
		if wsum == 0 {
			active[s] = false
			return
		}
		floats.Scale(1/wsum, next)
		moved := math.Sqrt(dist2(next, ys[s]))
		ys[s] = next
		yy := dot(next, next)
		// re-anchor at the nearest feature seen (among those near the old point)
		anchor[s] = near
		drift[s] = math.Sqrt(ps.dist2(next, yy, near))
		if moved < 1e-3*h {
			active[s] = false
		}
	}
	for it := 0; it < prm.MaxIter; it++ {
		res.Iterations = it + 1
		var local, batch []int
		for s := 0; s < p; s++ {
			if !active[s] {
				continue
			}
			if drift[s]+radius <= covered[anchor[s]] {
				local = append(local, s)
			} else {
				batch = append(batch, s)
			}
		}
		if len(local)+len(batch) == 0 {
			break
		}
		err := forAll(ctx, len(local), func(i int) {
			s := local[i]
			y := ys[s]
			yy := dot(y, y)
			step(s, func(visit func(int, float64)) (int, float64) {
				return within(y, yy, anchor[s], drift[s], radius, visit)
			})
		})
		if err != nil {
			return DGFResult{}, err
		}
		scans.Add(int64(len(batch)))
		err = ps.distancesFrom(ctx, ys, batch, func(s int, d2 []float64) {
			step(s, func(visit func(int, float64)) (int, float64) {
				r2 := radius * radius
				near, nearD := 0, math.Inf(1)
				for k, d := range d2 {
					if d < nearD {
						near, nearD = k, d
					}
					if d <= r2 {
						visit(k, d)
					}
				}
				return near, nearD
			})
		})
		if err != nil {
			return DGFResult{}, err
		}
	}
	st := make([]stationary, p)
	err = forAll(ctx, p, func(s int) {
		y := ys[s]
		yy := dot(y, y)
		density := 0
		within(y, yy, anchor[s], drift[s], h, func(int, float64) { density++ })
		st[s] = stationary{y: y, yy: yy, anchor: anchor[s], drift: drift[s], density: density}
	})
	if err != nil {
		return DGFResult{}, err
	}
	// peaks: densest first; ties by the point's coordinates, largest first as scikit-learn's
	// MeanShift does, never by feature order
	order := make([]int, p)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool {
		sa, sb := &st[order[a]], &st[order[b]]
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
	var peaks []int          // seeds whose stationary point is a peak
	peakOf := make([]int, p) // seed -> peak index, -1 when not a peak seed
	for i := range peakOf {
		peakOf[i] = -1
	}
	maxDrift := 0.0
	for _, s := range order {
		cur := &st[s]
		best, bestD := -1, h*h
		consider := func(r int) {
			pk := &st[peaks[r]]
			d := cur.yy + pk.yy - 2*floats.Dot(cur.y, pk.y)
			if d < bestD || (d == bestD && best >= 0 && r < best) {
				best, bestD = r, d
			}
		}
		if cur.drift+maxDrift+h <= covered[cur.anchor] {
			// a peak within h of cur.y has its seed within h + both drifts of this seed
			for _, k := range cand[s] {
				if r := peakOf[k]; r >= 0 {
					consider(r)
				}
			}
			if r := peakOf[s]; r >= 0 {
				consider(r)
			}
		} else {
			scans.Add(1)
			for r := range peaks {
				consider(r)
			}
		}
		if best < 0 || bestD >= h*h {
			peakOf[s] = len(peaks)
			peaks = append(peaks, s)
			maxDrift = math.Max(maxDrift, cur.drift)
		}
	}
	res.Peaks = len(peaks)
	var knnScratch sync.Pool
	groups := make([]Group, len(peaks))
	keep := make([]bool, len(peaks))
	err = forAll(ctx, len(peaks), func(r int) {
		pk := &st[peaks[r]]
		var members []int
		within(pk.y, pk.yy, pk.anchor, pk.drift, h, func(k int, _ float64) { members = append(members, k) })
		sort.Ints(members)
		groups[r] = Group{Members: members, Density: len(members), Representative: -1, peak: pk.y}
		keep[r] = true
		if prm.Eliminate {
			s, _ := knnScratch.Get().([]float64)
			if s == nil {
				s = make([]float64, 0, p)
			}
			// the K nearest features of the peak, not counting a feature it sits on
			// (a lone feature's peak is the feature itself)
			var d2 []float64
			zero := 1e-12 * h * h
			within(pk.y, pk.yy, pk.anchor, pk.drift, covered[pk.anchor]-pk.drift, func(_ int, d float64) {
				if d > zero {
					d2 = append(d2, d)
				}
			})
			if len(d2) < prm.K {
				d2 = d2[:0]
				scans.Add(1)
				for k := 0; k < p; k++ {
					if d := ps.dist2(pk.y, pk.yy, k); d > zero {
						d2 = append(d2, d)
					}
				}
			}
			keep[r] = kNearestMean(d2, -1, prm.K, s) <= h
			knnScratch.Put(s[:0])
		}
	})
	if err != nil {
		return DGFResult{}, err
	}
	for r, g := range groups {
		if keep[r] && len(g.Members) > 0 {
			res.Groups = append(res.Groups, g)
		}
	}
	res.FullScans = scans.Load()
	return res, nil
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
