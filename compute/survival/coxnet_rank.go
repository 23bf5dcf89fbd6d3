package survival

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// CoxNetBy is what a CoxNetRanker ranks by.
type CoxNetBy int

const (
	CoxNetEntry CoxNetBy = iota // the order in which features enter the path
	CoxNetAt                    // |standardised coefficient| at the lambda At
	CoxNetMin                   // ... at cv.glmnet's lambda.min over Folds
	CoxNet1SE                   // ... at cv.glmnet's lambda.1se over Folds
)

// CoxNetRanker ranks features on the training samples by glmnet's elastic-net Cox path
// (CoxNet's automatic lambdas), as score.ENetPath ranks them for classes.
//
// CoxNetEntry: a feature whose coefficient becomes non-zero at a larger lambda ranks
// higher; features entering at the same lambda by their |standardised coefficient|
// |beta_j| sd_j there; the features that never enter before the path ends follow by how
// near they came, their Gradient at the last solution (a feature enters once it exceeds
// alpha lambda), constant features last. The other modes rank the features of non-zero
// coefficient at the chosen lambda by |beta_j| sd_j (the scale the penalty acts on,
// independent of each gene's units), then the others in the entry order. Exact ties in
// every mode by the caller's tie order, never by column index.
type CoxNetRanker struct {
	CoxNet
	By    CoxNetBy
	At    float64 // the lambda for CoxNetAt (coefficients by CoxNetPath.Coef)
	Folds []int   // each sample's fold, 0..K-1, for CoxNetMin and CoxNet1SE
}

// CoxNetRanking is a ranking of the features and what it was read from.
type CoxNetRanking struct {
	Order []int     // feature indices, best first
	Score []float64 // per feature, p - its position (the order only)
	// Entry is the largest lambda of the path at which each feature's coefficient is
	// non-zero (-1: none).
	Entry []float64
	// Lambda and Coef (original scale) are the lambda ranked at and the coefficients
	// there (By other than CoxNetEntry).
	Lambda float64
	Coef   []float64
	// Unconverged counts the paths (the whole set's and the folds') that ended before
	// glmnet's rules on the pass cap or a numerical error.
	Unconverged int
}

// Rank ranks the columns of x (training samples as rows) against time and event; tie
// (a permutation of the features, as score.TieOrder draws it; nil: column index) orders
// exact ties and is the path's Tie.
func (r CoxNetRanker) Rank(ctx context.Context, time []float64, event []bool, x *mat.Dense, tie []int) (CoxNetRanking, error) {
	_, p := x.Dims()
	if tie == nil {
		tie = make([]int, p)
		for j := range tie {
			tie[j] = j
		}
	}
	o := r.CoxNet
	o.Tie = tie
	var path *CoxNetPath
	var out CoxNetRanking
	switch r.By {
	case CoxNetEntry, CoxNetAt:
		var err error
		if path, err = o.Path(ctx, time, event, x); err != nil {
			return out, err
		}
		out.Lambda = r.At
	case CoxNetMin, CoxNet1SE:
		cv, err := o.CV(ctx, time, event, x, r.Folds)
		if err != nil {
			return out, err
		}
		path = cv.Path
		out.Unconverged += cv.Unconverged
		out.Lambda = path.Lambda[cv.Min]
		if r.By == CoxNet1SE {
			out.Lambda = path.Lambda[cv.OneSE]
		}
	default:
		return out, fmt.Errorf("unknown CoxNetBy %d", r.By)
	}
	if path.Note != "" {
		out.Unconverged++
	}
	out.Order, out.Entry, out.Coef = r.order(path, out.Lambda, tie)
	out.Score = make([]float64, p)
	for i, j := range out.Order {
		out.Score[j] = float64(p - i)
	}
	return out, nil
}

// order ranks the features of path (at lambda unless By is CoxNetEntry) and returns
// their entry lambdas and the coefficients at lambda.
func (r CoxNetRanker) order(path *CoxNetPath, lambda float64, tie []int) (order []int, entryLambda, coef []float64) {
	p := path.p
	step := path.Entry()
	place := make([]int, p) // place in path.active
	for k, j := range path.active {
		place[j] = k
	}
	entryLambda = make([]float64, p)
	size := make([]float64, p) // |standardised coefficient| at entry, else the gradient
	for j, l := range step {
		entryLambda[j] = -1
		if l >= 0 {
			entryLambda[j] = path.Lambda[l]
			size[j] = math.Abs(path.coef[l][place[j]]) * path.SD[j]
		} else {
			size[j] = path.Gradient[j]
		}
	}
	entry := make([]int, p)
	for j := range entry {
		entry[j] = j
	}
	slices.SortFunc(entry, func(a, b int) int {
		sa, sb := step[a], step[b]
		if (sa < 0) != (sb < 0) {
			return cmp.Compare(sb, sa) // entered before never entered
		}
		if sa != sb {
			return cmp.Compare(sa, sb)
		}
		if c := cmp.Compare(size[b], size[a]); c != 0 {
			return c
		}
		return cmp.Compare(tie[a], tie[b])
	})
	order = entry
	if r.By != CoxNetEntry {
		coef = path.Coef(lambda)
		for i, j := range entry {
			place[j] = i // now the place in the entry order
		}
		mag := make([]float64, p)
		for j, b := range coef {
			mag[j] = math.Abs(b) * path.SD[j]
		}
		order = slices.Clone(entry)
		slices.SortFunc(order, func(a, b int) int {
			if c := cmp.Compare(mag[b], mag[a]); c != 0 {
				return c
			}
			return cmp.Compare(place[a], place[b])
		})
	}
	return order, entryLambda, coef
}
