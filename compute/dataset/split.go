package dataset

import "math/rand/v2"

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
	splits := make([]Split, k)
	for f := range splits {
		splits[f].Fold = f
		for i := range labels {
			if fold[i] == f {
				splits[f].Test = append(splits[f].Test, i)
			} else {
				splits[f].Train = append(splits[f].Train, i)
			}
		}
	}
	return splits
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
