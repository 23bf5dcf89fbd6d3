package impute

import (
	"context"
	"fmt"
	"math"
	"sync"
)

// noOverlap is impute's distance between two proteins measured in no common sample.
const noOverlap = 1e10

// knn is impute.knn's neighbour search fitted on the training samples: the normalised
// training values x[s][j] of the universe's proteins, those of the kept proteins with
// at most trunc(rowmax n) missing (retained) the candidates, each protein's nearest
// found once and kept.
type knn struct {
	x        [][]float64
	k        int
	retained []int // universe indices, ascending
	self     []int // self[j]: j's place in retained, -1 when not retained
	mu       sync.Mutex
	cache    map[int][]int
	ctx      context.Context // once it ends, no more searches
}

// newKNN checks impute.knn's colmax (no training sample may miss more than colmax of
// the kept proteins) and marks over (more than trunc(rowmax n) missing: imputed by the
// sample's mean) every protein of the universe.
func newKNN(x [][]float64, kept []int, p int, o Options, samples []string) (*knn, []bool, error) {
	n := len(x)
	limit := int(math.Trunc(o.RowMax * float64(n)))
	miss := make([]int, p)
	for s, row := range x {
		lost := 0
		for j, v := range row {
			if missing(v) {
				miss[j]++
			}
		}
		for _, j := range kept {
			if missing(row[j]) {
				lost++
			}
		}
		if float64(lost) > o.ColMax*float64(len(kept)) {
			return nil, nil, fmt.Errorf("sample %q misses %d of the %d proteins kept (%.0f%%), more than the %.0f%% impute.knn accepts (colmax); leave the sample out, or choose another imputation", samples[s], lost, len(kept), 100*float64(lost)/float64(len(kept)), 100*o.ColMax)
		}
	}
	over := make([]bool, p)
	k := &knn{x: x, k: o.K, self: make([]int, p), cache: map[int][]int{}}
	for j := range over {
		over[j] = miss[j] > limit
		k.self[j] = -1
	}
	for _, j := range kept {
		if !over[j] {
			k.self[j] = len(k.retained)
			k.retained = append(k.retained, j)
		}
	}
	return k, over, nil
}

// neighbours are protein j's nearest retained proteins, as impute's Fortran knnimp
// finds them: the distance to each is the mean squared difference over the training
// samples where both are measured (1e10 for none), the k + 1 smallest taken in order,
// ties to the earlier protein, and the first of them (j itself, for a retained j)
// dropped; a protein not retained takes the k smallest.
func (k *knn) neighbours(j int) []int {
	k.mu.Lock()
	defer k.mu.Unlock()
	if nb, ok := k.cache[j]; ok {
		return nb
	}
	if k.ctx != nil && k.ctx.Err() != nil {
		return nil
	}
	m := k.k
	if k.self[j] >= 0 {
		m++
	}
	m = min(m, len(k.retained))
	if m == 0 {
		k.cache[j] = nil
		return nil
	}
	best := make([]int, 0, m) // places in retained, nearest first
	dist := make([]float64, 0, m)
	for r, c := range k.retained {
		sum, cnt := 0.0, 0
		for _, row := range k.x {
			a, b := row[j], row[c]
			if missing(a) || missing(b) {
				continue
			}
			sum += (a - b) * (a - b)
			cnt++
		}
		d := noOverlap
		if cnt > 0 {
			d = sum / float64(cnt)
		}
		if len(best) == m && d >= dist[m-1] {
			continue
		}
		at := len(best)
		for at > 0 && d < dist[at-1] {
			at--
		}
		if len(best) < m {
			best, dist = append(best, 0), append(dist, 0)
		}
		copy(best[at+1:], best[at:len(best)-1])
		copy(dist[at+1:], dist[at:len(dist)-1])
		best[at], dist[at] = r, d
	}
	if k.self[j] >= 0 && len(best) > 0 {
		best = best[1:]
	}
	nb := make([]int, len(best))
	for i, r := range best {
		nb[i] = k.retained[r]
	}
	k.cache[j] = nb
	return nb
}

// sampleMean is impute's column mean: the mean of the sample's values (norm, over the
// universe) of the retained proteins it has, in their order.
func sampleMean(norm []float64, retained []int) float64 {
	sum, cnt := 0.0, 0
	for _, j := range retained {
		if v := norm[j]; !missing(v) {
			sum += v
			cnt++
		}
	}
	if cnt == 0 {
		return math.NaN()
	}
	return sum / float64(cnt)
}

// average is the mean of the sample's values of the proteins nb it has (impute's
// misave), in nb's order; NaN when it has none.
func average(norm []float64, nb []int) float64 {
	sum, cnt := 0.0, 0
	for _, c := range nb {
		if v := norm[c]; !missing(v) {
			sum += v
			cnt++
		}
	}
	if cnt == 0 {
		return math.NaN()
	}
	return sum / float64(cnt)
}
