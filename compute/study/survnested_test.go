package study

import (
	"context"
	"math"
	"strings"
	"testing"

	"steadfast/compute/signature"
)

// The nested C of the advice's choice on outcomes with no signal averages 0.5: DLBCL
// CHOP's first 1,000 genes with the patients' (time, event) pairs shuffled (10 sets;
// the Cox score test at k = 10, 20, 30 under 2 x 5-fold CV, the advice made again in
// each of the 10 outer training sets). The tolerance is 3 standard errors of the mean
// of the 10 sets' nested C (their SD / sqrt(10)), a 0.3% two-sided miss under the
// null; the SD itself must be under 0.06 (a held-out C of ~36 patients with ~21
// events varies by ~0.06 per fold, less averaged over 10). The headline is the nested
// C, first in metrics.csv, and a choice given by hand has the plain C as its headline,
// said to be given.
func TestSurvivalNestedCOnNoise(t *testing.T) {
	ctx := context.Background()
	const sets = 10
	var cs []float64
	for set := range sets {
		ds := dlbclGenes(t, 1000, true, uint64(300+set))
		res := survivalStudy(t, ds, 2, 5, []int{10, 20, 30}, 0)
		m, k, ok := signature.Advice(res, "cox")
		if !ok {
			t.Fatal("no advice")
		}
		sig, err := BuildSurvivalSignature(ctx, res, ds, signature.Choice{Method: m, K: k}, SurvivalOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := sig.Nest(ctx, res, ds, nil); err != nil {
			t.Fatal(err)
		}
		n := sig.Nested
		if len(n.Choices) != 10 || n.InnerFolds != 5 || len(n.Pooled) != 2 {
			t.Fatalf("set %d: %d outer training sets, %d inner folds, %d repetitions", set, len(n.Choices), n.InnerFolds, len(n.Pooled))
		}
		cs = append(cs, n.C.Mean)
		if set > 0 {
			continue
		}
		h := sig.Headline()
		rows := sig.MetricsTable()
		if h.Estimate != signature.HeadlineNested || rows[1][0] != "c_index_headline" || rows[1][1] != num(n.C.Mean) || !strings.HasPrefix(rows[2][1], "nested cross-validated Harrell's C") {
			t.Errorf("headline %+v, metrics.csv begins %v %v", h, rows[1], rows[2])
		}
		if perf := sig.Performance(); !strings.HasPrefix(perf, "Headline: the nested cross-validated Harrell's C") || !strings.Contains(perf, "(optimistic)") {
			t.Errorf("the first sentence: %q", perf)
		}
		given, err := BuildSurvivalSignature(ctx, res, ds, signature.Choice{Method: 0, K: otherK(k)}, SurvivalOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if g := given.Headline(); given.Advised || g.Estimate != signature.HeadlineGiven || g.C != given.CV.C || !strings.Contains(given.Performance(), "method and k as given") {
			t.Errorf("a given choice: advised %v, headline %+v, %q", given.Advised, g, given.Performance())
		}
	}
	mean, ss := 0.0, 0.0
	for _, c := range cs {
		mean += c / sets
	}
	for _, c := range cs {
		ss += (c - mean) * (c - mean)
	}
	sd := math.Sqrt(ss / (sets - 1))
	if tol := 3 * sd / math.Sqrt(sets); math.Abs(mean-0.5) > tol || sd > 0.06 {
		t.Errorf("the nested C on shuffled outcomes averages %.4f (SD %.4f over %d sets; tolerance %.4f)", mean, sd, sets, tol)
	}
	t.Logf("nested C on shuffled DLBCL outcomes: mean %.4f, SD %.4f over %d sets: %v", mean, sd, sets, cs)
}

// otherK is a k of 10, 20 and 30 other than k: a choice not the advice's.
func otherK(k int) int {
	if k == 10 {
		return 20
	}
	return 10
}
