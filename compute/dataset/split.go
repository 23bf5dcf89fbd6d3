package dataset

import (
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
)

// Rand returns the random stream of one unit of work (a resample, a bootstrap):
// PCG seeded by the user's seed and the unit's index, so results never depend on
// which goroutine runs the unit.
func Rand(seed uint64, unit ...uint64) *rand.Rand {
	s2 := uint64(0x9e3779b97f4a7c15)
	for _, u := range unit {
		s2 = (s2 ^ u) * 0xbf58476d1ce4e5b9
		s2 ^= s2 >> 31
	}
	return rand.New(rand.NewPCG(seed, s2))
}

// Split is one train/test partition of sample indices.
type Split struct {
	Repeat int   `json:"repeat"`
	Fold   int   `json:"fold"`
	Train  []int `json:"train"`
	Test   []int `json:"test"`
}

// StratifiedFolds deals the samples of each class, shuffled, round-robin into k folds
// (continuing the deal across classes, so fold sizes differ by at most one) and returns
// the k train/test splits.
func StratifiedFolds(labels []int, k int, r *rand.Rand) []Split {
	byClass := map[int][]int{}
	maxC := 0
	for i, l := range labels {
		byClass[l] = append(byClass[l], i)
		maxC = max(maxC, l)
	}
	fold := make([]int, len(labels))
	next := 0
	for c := 0; c <= maxC; c++ {
		idx := byClass[c]
		r.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		for _, i := range idx {
			fold[i] = next % k
			next++
		}
	}
	return splitsOf(fold, k)
}

// Subset maps indices into a subset back to the indices of the whole set: out[i] = of[idx[i]].
func Subset(of []int, idx []int) []int {
	out := make([]int, len(idx))
	for i, j := range idx {
		out[i] = of[j]
	}
	return out
}

// Labels returns y at the positions idx.
func Labels(y []int, idx []int) []int { return Subset(y, idx) }

// GroupedFolds splits samples into k folds keeping each group (groups[i], the sample's
// group; "" a group of its own) in one fold, the classes spread as evenly as the groups
// allow: the groups, shuffled by r, are dealt largest first, each to the fold whose
// squared distance from the even share, sum over classes c of (count_c - n_c/k)^2,
// grows least with it; ties to the fold with fewer samples, then the first. Without a
// group of two or more samples it is StratifiedFolds with the same r.
func GroupedFolds(labels []int, groups []string, k int, r *rand.Rand) []Split {
	of := map[string][]int{}
	var names []string
	for i, g := range groups {
		if g == "" {
			g = "\x00" + strconv.Itoa(i) // a sample of no group is a group alone
		}
		if _, ok := of[g]; !ok {
			names = append(names, g)
		}
		of[g] = append(of[g], i)
	}
	if len(names) == len(labels) {
		return StratifiedFolds(labels, k, r)
	}
	r.Shuffle(len(names), func(a, b int) { names[a], names[b] = names[b], names[a] })
	sort.SliceStable(names, func(a, b int) bool { return len(of[names[a]]) > len(of[names[b]]) })
	nc := 0
	for _, l := range labels {
		nc = max(nc, l+1)
	}
	total := make([]float64, nc)
	for _, l := range labels {
		total[l]++
	}
	counts := make([][]float64, k)
	sizes := make([]int, k)
	for f := range counts {
		counts[f] = make([]float64, nc)
	}
	fold := make([]int, len(labels))
	for _, g := range names {
		add := make([]float64, nc)
		for _, i := range of[g] {
			add[labels[i]]++
		}
		best, bestCost := 0, math.Inf(1)
		for f := 0; f < k; f++ {
			cost := 0.0 // the change in the fold's squared distance from the even share
			for c := range add {
				even := total[c] / float64(k)
				after, before := counts[f][c]+add[c]-even, counts[f][c]-even
				cost += after*after - before*before
			}
			if cost < bestCost || cost == bestCost && sizes[f] < sizes[best] {
				best, bestCost = f, cost
			}
		}
		for c := range add {
			counts[best][c] += add[c]
		}
		sizes[best] += len(of[g])
		for _, i := range of[g] {
			fold[i] = best
		}
	}
	return splitsOf(fold, k)
}

// splitsOf makes the k splits of samples assigned to folds: fold f's samples its test
// samples, the others its training samples, in sample order.
func splitsOf(fold []int, k int) []Split {
	splits := make([]Split, k)
	for f := range splits {
		splits[f].Fold = f
		for i, of := range fold {
			if of == f {
				splits[f].Test = append(splits[f].Test, i)
			} else {
				splits[f].Train = append(splits[f].Train, i)
			}
		}
	}
	return splits
}

// Folds are GroupedFolds when groups are given, else StratifiedFolds.
func Folds(labels []int, groups []string, k int, r *rand.Rand) []Split {
	if groups != nil {
		return GroupedFolds(labels, groups, k, r)
	}
	return StratifiedFolds(labels, k, r)
}
