package signature

import (
	"context"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/classify"
	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
)

// The locked k-TSP follows the study's rule for its number of pairs (Config.KTSPPairs):
// chosen by leave-one-out within the samples when 0, fixed otherwise. Its pairs are
// classify.KTSP's, fitted with that K on all samples of the signature's genes (Colon,
// F-statistic top 10, the values as read), and the rule says which way k was set.
func TestLockedKTSPIsTheStudysRule(t *testing.T) {
	study := colonStudy(t)
	ds := colonData(t)
	feats, err := Select(study, Choice{Method: 0, K: 10})
	if err != nil {
		t.Fatal(err)
	}
	x := dataset.SelectFeatures(ds.X, feats)
	for _, pairs := range []int{0, 3} {
		res := *study
		res.Config.KTSPPairs = pairs
		m, err := Lock(context.Background(), &res, ds, Choice{Method: 0, K: 10, Classifier: "ktsp"}, feats)
		if err != nil {
			t.Fatal(err)
		}
		k := classify.KTSP{K: pairs}
		if err := k.Fit(x, ds.Labels, 2); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(m.Pairs, k.Pairs) || !slices.Equal(m.PairLess, k.Less) || len(m.Pairs) == 0 {
			t.Errorf("ktspPairs %d: locked pairs %v voting %v, classify.KTSP's %v voting %v", pairs, m.Pairs, m.PairLess, k.Pairs, k.Less)
		}
		how := map[int]string{0: "chosen by leave-one-out cross-validation", 3: "(3 asked for)"}[pairs]
		if (pairs == 3 && len(m.Pairs) != 3) || !strings.Contains(m.Rule, how) {
			t.Errorf("ktspPairs %d: %d pairs, rule %q", pairs, len(m.Pairs), m.Rule)
		}
	}
}

// A k-TSP with no pair is not locked: when every pair keeps its order in both classes
// (here gene a < gene b in all four samples, Delta 0) the error says so and what to do.
func TestLockRefusesKTSPWithoutPairs(t *testing.T) {
	ds := &dataset.Dataset{Name: "flat", Features: []string{"a", "b"}, Classes: []string{"x", "y"},
		Samples: []string{"s1", "s2", "s3", "s4"}, Labels: []int{0, 0, 1, 1},
		X: mat.NewDense(4, 2, []float64{1, 2, 3, 5, 2, 4, 0, 9})}
	res := &experiment.Result{Config: experiment.Config{Seed: 1}, Methods: []experiment.MethodResult{{Label: "F-statistic"}}}
	_, err := Lock(context.Background(), res, ds, Choice{Method: 0, K: 2, Classifier: "ktsp"}, []int{0, 1})
	if err == nil || !strings.Contains(err.Error(), "no pair of the 2 genes is ordered differently") {
		t.Errorf("locked a k-TSP without pairs: %v", err)
	}
}
