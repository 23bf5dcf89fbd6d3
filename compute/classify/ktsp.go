package classify

import (
	"fmt"
	"sort"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/rstat"
)

// KTSPMaxPairs is the most disjoint pairs k-TSP votes with (odd, so votes never tie).
const KTSPMaxPairs = 9

// KTSP is the k top-scoring-pairs classifier of two classes (Geman et al. 2004; Tan et
// al. 2005). For genes i < j, p_c(i,j) is the share of class c's training samples with
// x_i < x_j; the pair's score is Delta = |p_0 - p_1|, ties broken by the rank score
// Gamma = |mean_0(r_i - r_j) - mean_1(r_i - r_j)|, r a gene's rank within its sample
// among the genes given. The pairs are taken best first, each gene in one pair at
// most, up to K = the largest odd number <= min(KTSPMaxPairs, p/2). A pair votes for
// the class in which x_i < x_j is more frequent when x_i < x_j holds in the sample, else
// for the other; the class of most votes wins. It compares genes within each sample, so
// any increasing transform of a sample's values (another platform's scale) changes
// nothing: it needs no scaling and predicts one sample alone.
type KTSP struct {
	Pairs [][2]int // the genes of each pair (columns of the data given)
	Less  []int    // the class a pair votes for when x_i < x_j
}

// Fit chooses the pairs from the training samples x (rows) of classes y (0 or 1).
func (k *KTSP) Fit(x *mat.Dense, y []int, classes int) error {
	if classes != 2 {
		return fmt.Errorf("k-TSP compares two classes; this study has %d (choose another classifier)", classes)
	}
	n, p := x.Dims()
	if p < 2 {
		return fmt.Errorf("k-TSP needs two genes at least, not %d", p)
	}
	ranks := make([][]float64, n)
	for s := 0; s < n; s++ {
		ranks[s] = rstat.Ranks(x.RawRowView(s))
	}
	var nc [2]float64
	for _, c := range y {
		nc[c]++
	}
	if nc[0] == 0 || nc[1] == 0 {
		return fmt.Errorf("k-TSP needs training samples of both classes")
	}
	type scored struct {
		i, j         int
		delta, gamma float64
		less         int
	}
	var all []scored
	for i := 0; i < p; i++ {
		for j := i + 1; j < p; j++ {
			var less, rd [2]float64
			for s := 0; s < n; s++ {
				row := x.RawRowView(s)
				if row[i] < row[j] {
					less[y[s]]++
				}
				rd[y[s]] += ranks[s][i] - ranks[s][j]
			}
			p0, p1 := less[0]/nc[0], less[1]/nc[1]
			sc := scored{i: i, j: j, delta: abs(p0 - p1), gamma: abs(rd[0]/nc[0] - rd[1]/nc[1])}
			if p1 > p0 {
				sc.less = 1
			}
			all = append(all, sc)
		}
	}
	sort.SliceStable(all, func(a, b int) bool {
		if all[a].delta != all[b].delta {
			return all[a].delta > all[b].delta
		}
		return all[a].gamma > all[b].gamma
	})
	K := min(KTSPMaxPairs, p/2)
	if K%2 == 0 {
		K--
	}
	used := make([]bool, p)
	k.Pairs, k.Less = nil, nil
	for _, sc := range all {
		if len(k.Pairs) == K {
			break
		}
		if used[sc.i] || used[sc.j] {
			continue
		}
		used[sc.i], used[sc.j] = true, true
		k.Pairs = append(k.Pairs, [2]int{sc.i, sc.j})
		k.Less = append(k.Less, sc.less)
	}
	return nil
}

// PredictScores returns each sample's class and its scores: the share of the pairs'
// votes for each class.
func (k *KTSP) PredictScores(x *mat.Dense) ([]int, [][]float64) {
	n, _ := x.Dims()
	pred := make([]int, n)
	scores := make([][]float64, n)
	for s := 0; s < n; s++ {
		pred[s], scores[s] = k.Vote(x.RawRowView(s))
	}
	return pred, scores
}

// Vote classifies one sample's values v (the genes given at Fit).
func (k *KTSP) Vote(v []float64) (int, []float64) {
	votes := []float64{0, 0}
	for p, pr := range k.Pairs {
		c := k.Less[p]
		if !(v[pr[0]] < v[pr[1]]) {
			c = 1 - c
		}
		votes[c] += 1 / float64(len(k.Pairs))
	}
	if votes[1] > votes[0] {
		return 1, votes
	}
	return 0, votes
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
