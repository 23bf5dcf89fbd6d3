package survival

import (
	"context"
	"math"
	"slices"
	"testing"
)

// TestCoxNetRankerEntryMatchesGlmnet: ranked by entry, the genes that enter glmnet's
// path (testdata/coxnet_ref.R) come first, each with the lambda of its glmnet entry step
// (1e-12 relative), by decreasing entry lambda; genes entering at the same lambda (glmnet
// gives them no order) by decreasing |standardised coefficient| there; the others by
// decreasing gradient at the last solution.
func TestCoxNetRankerEntryMatchesGlmnet(t *testing.T) {
	for _, c := range coxnetCases {
		t.Run(c.ref, func(t *testing.T) {
			d, path := coxnetPathOf(t, c.set, c.alpha)
			ref := coxnetReadRef(t, c.ref)
			_, p := d.x.Dims()
			var rk CoxNetRanking
			rk.Order, rk.Entry, _ = CoxNetRanker{CoxNet: CoxNet{Alpha: c.alpha}}.order(path, 0, coxnetIdentity(p))
			lam := ref.vals["lambda"]
			entry := ref.pairs["entry"]
			shared, groups := 0, 0
			for i, j := range rk.Order {
				step, in := entry[d.genes[j]]
				if in != (i < len(entry)) {
					t.Fatalf("rank %d: %s, entering glmnet's path %v", i+1, d.genes[j], in)
				}
				if in && coxnetRelDiff(rk.Entry[j], lam[int(step)], 0) > 1e-12 {
					t.Fatalf("%s enters at %v, glmnet at %v", d.genes[j], rk.Entry[j], lam[int(step)])
				}
				if i == 0 {
					continue
				}
				prev := rk.Order[i-1]
				switch {
				case in && rk.Entry[j] > rk.Entry[prev]:
					t.Fatalf("rank %d: %s enters at a larger lambda than %s before it", i+1, d.genes[j], d.genes[prev])
				case in && rk.Entry[j] == rk.Entry[prev]:
					shared++
					if rk.Entry[j] != rk.Entry[rk.Order[max(i-2, 0)]] || i == 1 {
						groups++
					}
					b := math.Abs(path.Beta(int(step))[j]) * path.SD[j]
					bp := math.Abs(path.Beta(int(step))[prev]) * path.SD[prev]
					if b > bp {
						t.Fatalf("rank %d: %s has a larger |coefficient| than %s entering at the same lambda", i+1, d.genes[j], d.genes[prev])
					}
				case !in && i > len(entry) && path.Gradient[j] > path.Gradient[prev]:
					t.Fatalf("rank %d: %s has a larger gradient than %s", i+1, d.genes[j], d.genes[prev])
				}
			}
			t.Logf("%d genes enter, at glmnet's lambdas; %d of them share their entry lambda with the gene before (%d lambdas where several enter), ordered by |standardised coefficient|", len(entry), shared, groups)
		})
	}
}

// TestCoxNetRankerCoefMatchesGlmnet: ranked by |coefficient| at a lambda between two of
// the path's (DLBCL, alpha 1), the coefficients are glmnet's coef(fit, s) (1e-7 of the
// largest) and the genes of non-zero coefficient come first by decreasing |coefficient|
// sd, the others in the entry order.
func TestCoxNetRankerCoefMatchesGlmnet(t *testing.T) {
	d, path := coxnetPathOf(t, "dlbcl_chop_survival.csv", 1)
	ref := coxnetReadRef(t, "coxnet_dlbcl_a1.txt")
	s, want := ref.vals["interp"][0], ref.pairs["interp"]
	rk, err := CoxNetRanker{CoxNet: CoxNet{Alpha: 1}, By: CoxNetAt, At: s}.Rank(context.Background(), d.time, d.event, d.x, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rk.Lambda != s {
		t.Errorf("lambda %v, asked %v", rk.Lambda, s)
	}
	dif := coxnetCompareCoef(rk.Coef, want, d.genes)
	if dif > 1e-7 {
		t.Errorf("coefficients differ by %.2g of the largest", dif)
	}
	_, p := d.x.Dims()
	entry, _, _ := CoxNetRanker{}.order(path, 0, coxnetIdentity(p))
	for i, j := range rk.Order {
		if _, ok := want[d.genes[j]]; ok != (i < len(want)) {
			t.Fatalf("rank %d: %s, of non-zero coefficient %v", i+1, d.genes[j], ok)
		}
		if i == 0 {
			continue
		}
		prev := rk.Order[i-1]
		if i < len(want) && math.Abs(rk.Coef[j])*path.SD[j] > math.Abs(rk.Coef[prev])*path.SD[prev] {
			t.Fatalf("rank %d: %s has a larger |coefficient| sd than %s", i+1, d.genes[j], d.genes[prev])
		}
		if i > len(want) && slices.Index(entry, j) < slices.Index(entry, prev) {
			t.Fatalf("rank %d: %s enters before %s", i+1, d.genes[j], d.genes[prev])
		}
	}
	t.Logf("%d genes of non-zero coefficient at lambda %.4g first; coefficients within %.2g of glmnet's largest", len(want), rk.Lambda, dif)
}

// TestCoxNetRankerCV: ranked at lambda.min or lambda.1se, the lambda and coefficients are
// those of CoxNet.CV with the same folds (whose equality with cv.glmnet
// TestCoxNetCVMatchesCvGlmnet checks).
func TestCoxNetRankerCV(t *testing.T) {
	time, event, x := coxnetSynth(100, 150, 9)
	folds := make([]int, len(time))
	for i := range folds {
		folds[i] = i % 4
	}
	cv, err := CoxNet{Alpha: 0.5}.CV(context.Background(), time, event, x, folds)
	if err != nil {
		t.Fatal(err)
	}
	for by, l := range map[CoxNetBy]int{CoxNetMin: cv.Min, CoxNet1SE: cv.OneSE} {
		rk, err := CoxNetRanker{CoxNet: CoxNet{Alpha: 0.5}, By: by, Folds: folds}.Rank(context.Background(), time, event, x, nil)
		if err != nil {
			t.Fatal(err)
		}
		if rk.Lambda != cv.Path.Lambda[l] || !slices.Equal(rk.Coef, cv.Path.Beta(l)) {
			t.Errorf("by %d: lambda %v and its coefficients, cross-validation's %v", by, rk.Lambda, cv.Path.Lambda[l])
		}
	}
	if cv.Min == cv.OneSE {
		t.Errorf("lambda.min = lambda.1se (step %d): the test shows nothing", cv.Min)
	}
}

func coxnetIdentity(p int) []int {
	id := make([]int, p)
	for j := range id {
		id[j] = j
	}
	return id
}
