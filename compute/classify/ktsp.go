package classify

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/rstat"
)

// KTSPMaxPairs is the most pairs k-TSP's inner cross-validation tries: the largest odd
// k below Tan et al.'s k_max = 10.
const KTSPMaxPairs = 9

// KTSP is the k top-scoring-pairs classifier of two classes (Geman et al. 2004; Tan et
// al. 2005). For genes i < j and the n_c training samples of class c, H_c = Σ_c
// [2·1(x_i < x_j) + 1(x_i = x_j)] (a tie counts half to each order, as in switchBox, so
// the pair's score does not depend on which gene is i) and S_c = Σ_c 2(r_i − r_j), r a
// gene's mid-rank within its sample among the genes given. The pair's score is Delta =
// |H_0/n_0 − H_1/n_1|/2 = |P(x_i < x_j | 0) − P(x_i < x_j | 1)| and its rank score Gamma =
// |S_0/n_0 − S_1/n_1|/2 = |mean_0(r_i − r_j) − mean_1(r_i − r_j)| (Tan et al.'s Γ); both
// share the denominator 2 n_0 n_1, so they are compared exactly as the integers
// |H_0 n_1 − H_1 n_0| and |S_0 n_1 − S_1 n_0|: the larger Delta first, then the larger
// Gamma, then the lower (i, j) (the better-ranked genes, the columns being in the
// ranking's order; only identical scores, such as duplicate probes', reach it). The
// pairs are taken best first, each gene in one pair at most, while Delta > 0 (a pair of
// Delta 0 tells the classes nothing), up to k pairs; when fewer have Delta > 0 (or the
// genes hold fewer disjoint pairs), the largest odd number of them, so that votes do
// not tie.
//
// K = 0 chooses k by cross-validation within the training samples alone, as Tan et al.
// 2005 do (odd k below their k_max = 10): leave-one-out over the samples, for each k = 1,
// 3, ..., KTSPMaxPairs the errors of the k-TSPs fitted without the sample left out, and
// the k of fewest errors, the smallest on a tie (with fewer than 2 samples of a class, k
// = KTSPMaxPairs). Leave-one-out has no random folds: the choice is a function of the
// training data. A positive odd K fixes k.
//
// A pair votes for Less[p] when x_i < x_j, for the other class when x_i > x_j, half for
// each when x_i = x_j; the class of most votes wins (class 0 on a tie). With no pair
// (every Delta 0) every sample gets Majority. It compares genes within each sample, so
// any increasing transform of a sample's values (another platform's scale) changes
// nothing: it needs no scaling and predicts one sample alone.
type KTSP struct {
	K        int      // pairs to vote with: 0 chooses k by leave-one-out CV; else odd
	Pairs    [][2]int // the genes of each pair (columns of the data given), best first
	Less     []int    // the class a pair votes for when x_i < x_j
	Majority int      // the class given when no pair votes: the larger training class (0 on a tie)
	// CVErrors are, after Fit with K = 0, the leave-one-out errors with 1, 3, ...,
	// KTSPMaxPairs pairs (nil when a class has fewer than 2 samples or K > 0).
	CVErrors []int
}

// Fit chooses the pairs from the training samples x (rows) of classes y (0 or 1).
func (k *KTSP) Fit(x *mat.Dense, y []int, classes int) error {
	if classes != 2 {
		return fmt.Errorf("k-TSP compares two classes; this study has %d (choose another classifier)", classes)
	}
	if k.K < 0 || (k.K > 0 && k.K%2 == 0) {
		return fmt.Errorf("k-TSP's number of pairs must be odd, so that votes never tie (0 chooses it by cross-validation), not %d", k.K)
	}
	st, err := newPairStats(x, y)
	if err != nil {
		return err
	}
	want := k.K
	k.CVErrors = nil
	if want == 0 {
		want = KTSPMaxPairs
		if st.n[0] >= 2 && st.n[1] >= 2 {
			k.CVErrors = st.looErrors(KTSPMaxPairs)
			best := 0
			for i, e := range k.CVErrors {
				if e < k.CVErrors[best] {
					best = i
				}
			}
			want = 2*best + 1
		}
	}
	k.Pairs, k.Less = st.top(-1, false, want)
	k.Majority = 0
	if st.n[1] > st.n[0] {
		k.Majority = 1
	}
	return nil
}

// pairStats are the training samples x, y's class counts H_c of every pair i < j (in
// the order i, then j; see KTSP) and each gene's class sums of doubled mid-ranks, whose
// differences are the pairs' S_c.
type pairStats struct {
	x    *mat.Dense
	y    []int
	p    int
	n    [2]int64
	r2   [][]int64  // each sample's mid-ranks, doubled (integers)
	rsum [2][]int64 // Σ_c r2 of each gene
	h    [][2]int32 // H_c of each pair
}

func newPairStats(x *mat.Dense, y []int) (*pairStats, error) {
	n, p := x.Dims()
	if p < 2 {
		return nil, fmt.Errorf("k-TSP needs two genes at least, not %d", p)
	}
	st := &pairStats{x: x, y: y, p: p}
	for _, c := range y {
		st.n[c]++
	}
	if st.n[0] == 0 || st.n[1] == 0 {
		return nil, fmt.Errorf("k-TSP needs training samples of both classes")
	}
	// |S_0 n_1 − S_1 n_0| <= 4(p−1) n_0 n_1 must fit int64, H_c <= 2 n_c int32.
	if float64(n)*float64(n)*float64(p) > 1e18 || n > math.MaxInt32/2 {
		return nil, fmt.Errorf("k-TSP of %d samples and %d genes is beyond its exact arithmetic", n, p)
	}
	// Genes as columns of the samples' doubled ranks (their order is the values'), class
	// 0's samples first: each pair's counts in one pass, without branches.
	cols := make([][]int32, p)
	for j := range cols {
		cols[j] = make([]int32, 0, n)
	}
	st.r2 = make([][]int64, n)
	st.rsum = [2][]int64{make([]int64, p), make([]int64, p)}
	for _, c := range []int{0, 1} {
		for smp := 0; smp < n; smp++ {
			if y[smp] != c {
				continue
			}
			r := make([]int64, p)
			for j, v := range rstat.Ranks(x.RawRowView(smp)) {
				r[j] = int64(2 * v) // a mid-rank is a multiple of 1/2: exact
				st.rsum[c][j] += r[j]
				cols[j] = append(cols[j], int32(r[j]))
			}
			st.r2[smp] = r
		}
	}
	n0 := int(st.n[0])
	st.h = make([][2]int32, p*(p-1)/2)
	q := 0
	for i := 0; i < p; i++ {
		ci := cols[i]
		for j := i + 1; j < p; j++ {
			cj := cols[j][:n]
			var h0, h1 int64
			for s := 0; s < n0; s++ {
				h0 += 1 + sign(int64(cj[s])-int64(ci[s]))
			}
			for s := n0; s < n; s++ {
				h1 += 1 + sign(int64(cj[s])-int64(ci[s]))
			}
			st.h[q] = [2]int32{int32(h0), int32(h1)}
			q++
		}
	}
	return st, nil
}

// lessHalves is 2 when a < b, 1 when a = b, else 0.
func lessHalves(a, b float64) int32 {
	switch {
	case a < b:
		return 2
	case a == b:
		return 1
	}
	return 0
}

// top takes up to want (odd) disjoint pairs best first while Delta > 0, an odd number of
// them (see KTSP), fitted without the training sample drop (none when -1), and the class
// each votes for when x_i < x_j. It compares d = H_0 n_1 − H_1 n_0 (Delta's numerator,
// signed) and g = |S_0 n_1 − S_1 n_0|. With switchBox, g is switchBox's rank score
// instead, sign(d)(S_1 − S_0): its CalculateSignedScoreCore adds (ΣA − ΣB)/(n_A n_B) of
// the rank differences, a difference of sums where Tan et al.'s Γ (and switchBox's own
// comment, E(X_j − X_i)) is one of means; the two agree when n_0 = n_1. For the tests
// that compare with it.
func (st *pairStats) top(drop int, switchBox bool, want int) (pairs [][2]int, less []int) {
	n, rs := st.n, st.rsum
	var row []float64
	c := 0
	if drop >= 0 {
		c = st.y[drop]
		n[c]--
		row = st.x.RawRowView(drop)
		rs[c] = slices.Clone(rs[c])
		for j, r := range st.r2[drop] {
			rs[c][j] -= r
		}
	}
	used := make([]bool, st.p)
	for len(pairs) < want {
		best, bi, bj := false, 0, 0
		var bd, bad, bg int64
		q := 0
		for i := 0; i < st.p; i++ {
			if used[i] {
				q += st.p - 1 - i
				continue
			}
			for j := i + 1; j < st.p; j, q = j+1, q+1 {
				if used[j] {
					continue
				}
				h := st.h[q]
				if drop >= 0 {
					h[c] -= lessHalves(row[i], row[j])
				}
				d := int64(h[0])*n[1] - int64(h[1])*n[0]
				ad := abs64(d)
				if best && ad < bad {
					continue
				}
				s0, s1 := rs[0][i]-rs[0][j], rs[1][i]-rs[1][j]
				g := abs64(s0*n[1] - s1*n[0])
				if switchBox {
					g = sign(d) * (s1 - s0)
				}
				if !best || ad > bad || g > bg {
					best, bi, bj, bd, bad, bg = true, i, j, d, ad, g
				}
			}
		}
		if !best || bd == 0 {
			break
		}
		used[bi], used[bj] = true, true
		pairs = append(pairs, [2]int{bi, bj})
		if bd > 0 { // x_i < x_j more often in class 0
			less = append(less, 0)
		} else {
			less = append(less, 1)
		}
	}
	if m := len(pairs); m%2 == 0 && m > 0 {
		pairs, less = pairs[:m-1], less[:m-1]
	}
	return pairs, less
}

// looErrors are leave-one-out's errors over the training samples with 1, 3, ..., kmax
// pairs: each sample classified by the k-TSP fitted on the others.
func (st *pairStats) looErrors(kmax int) []int {
	errs := make([]int, (kmax+1)/2)
	n, _ := st.x.Dims()
	for smp := 0; smp < n; smp++ {
		pairs, less := st.top(smp, false, kmax)
		fold := KTSP{Pairs: pairs, Less: less}
		nc := st.n
		nc[st.y[smp]]--
		if nc[1] > nc[0] {
			fold.Majority = 1
		}
		row := st.x.RawRowView(smp)
		for e := range errs {
			fold.Pairs, fold.Less = pairs[:min(2*e+1, len(pairs))], less[:min(2*e+1, len(pairs))]
			if c, _ := fold.Vote(row); c != st.y[smp] {
				errs[e]++
			}
		}
	}
	return errs
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

// Vote classifies one sample's values v (the genes given at Fit): each pair's vote (half
// to each class when its two values are equal), the class of most votes (class 0 on a
// tie), and the shares of the votes; Majority with all the share when there is no pair.
func (k *KTSP) Vote(v []float64) (int, []float64) {
	if len(k.Pairs) == 0 {
		votes := []float64{0, 0}
		votes[k.Majority] = 1
		return k.Majority, votes
	}
	var half [2]int // votes in halves: exact
	for p, pr := range k.Pairs {
		c := k.Less[p]
		switch a, b := v[pr[0]], v[pr[1]]; {
		case a < b:
			half[c] += 2
		case a > b:
			half[1-c] += 2
		default:
			half[0]++
			half[1]++
		}
	}
	all := float64(2 * len(k.Pairs))
	votes := []float64{float64(half[0]) / all, float64(half[1]) / all}
	if half[1] > half[0] {
		return 1, votes
	}
	return 0, votes
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// sign is −1, 0 or 1, without branches.
func sign(x int64) int64 {
	return x>>63 | int64(uint64(-x)>>63)
}
