package classify

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// KNN is the k-nearest-neighbour classifier with Euclidean distance. A tie in the vote
// goes to the tied class whose member is nearest.
type KNN struct {
	K       int
	x       *mat.Dense
	y       []int
	classes int
}

// Fit stores the training rows.
func (k *KNN) Fit(x *mat.Dense, y []int, classes int) { k.x, k.y, k.classes = x, y, classes }

// Predict returns the majority class among the K nearest training rows of each row of x.
func (k *KNN) Predict(x *mat.Dense) []int {
	pred, _ := k.PredictScores(x)
	return pred
}

// PredictScores returns Predict's classes and, for each row, the share of its K nearest
// training rows in each class (the score a ROC curve of k-NN ranks by).
func (k *KNN) PredictScores(x *mat.Dense) ([]int, [][]float64) {
	n, _ := x.Dims()
	m, _ := k.x.Dims()
	K := min(max(k.K, 1), m)
	out := make([]int, n)
	type nb struct {
		d float64
		i int
	}
	nbs := make([]nb, m)
	votes := make([]int, k.classes)
	scores := make([][]float64, n)
	for i := range out {
		v := x.RawRowView(i)
		for t := 0; t < m; t++ {
			u := k.x.RawRowView(t)
			s := 0.0
			for j, a := range v {
				d := a - u[j]
				s += d * d
			}
			nbs[t] = nb{s, t}
		}
		sort.Slice(nbs, func(a, b int) bool {
			if nbs[a].d != nbs[b].d {
				return nbs[a].d < nbs[b].d
			}
			return nbs[a].i < nbs[b].i
		})
		clear(votes)
		for _, b := range nbs[:K] {
			votes[k.y[b.i]]++
		}
		best := 0
		for c := range votes {
			if votes[c] > best {
				best = votes[c]
			}
		}
		out[i] = -1
		for _, b := range nbs[:K] { // nearest among the tied winners
			if votes[k.y[b.i]] == best {
				out[i] = k.y[b.i]
				break
			}
		}
		scores[i] = make([]float64, k.classes)
		for c, v := range votes {
			scores[i][c] = float64(v) / float64(K)
		}
	}
	return out, scores
}

// Accuracy is the share of predictions equal to the truth.
func Accuracy(pred, truth []int) float64 {
	if len(truth) == 0 {
		return math.NaN()
	}
	ok := 0
	for i := range pred {
		if pred[i] == truth[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(truth))
}

// MinMaxScale scales every column of train to [0,1] by its range on train, and the
// same columns of others by that range (values outside it go below 0 or above 1), as
// Weka's Normalize filter and IBk's distance do: x' = (x - min) / (max - min); a column
// constant on train becomes 0.
func MinMaxScale(train *mat.Dense, others ...*mat.Dense) {
	n, d := train.Dims()
	for j := 0; j < d; j++ {
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := 0; i < n; i++ {
			v := train.At(i, j)
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		scale := func(m *mat.Dense) {
			rows, _ := m.Dims()
			for i := 0; i < rows; i++ {
				if hi > lo {
					m.Set(i, j, (m.At(i, j)-lo)/(hi-lo))
				} else {
					m.Set(i, j, 0)
				}
			}
		}
		scale(train)
		for _, o := range others {
			if o != nil {
				scale(o)
			}
		}
	}
}
