package study

import (
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/survival"
)

// A survival signature's nested C is saved with its NaNs (an outer split without a
// comparable pair, a repetition's C without its SE) as null and read back as NaN: JSON
// has no NaN, and json.Marshal refused the record, so Save run failed.
func TestSurvivalNestedJSONKeepsNaN(t *testing.T) {
	n := SurvivalNested{C: signature.CIndex{Mean: 0.61, Low: 0.52, High: 0.70, SE: 0.045, Resamples: 2, Repetitions: 1},
		OuterC: []float64{0.6, math.NaN(), 0.62}, Pooled: []survival.Concordance{{C: 0.6, SE: math.NaN(), Concordant: 10, Discordant: 4}},
		Repeats: []int{0}, Choices: []NestedChoice{{Method: "Cox score test", K: 10}, {Method: "Cox score test", K: 20}, {Method: "Cox score test", K: 10}}, InnerFolds: 5}
	b, err := json.Marshal(SignatureRecord{Choice: signature.Choice{K: 10, Classifier: "cox"}, SurvivalNested: &n})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"OuterC":[0.6,null,0.62]`) {
		t.Errorf("written %s", b)
	}
	var back SignatureRecord
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	got := back.SurvivalNested
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	if got == nil || got.C != n.C || !slices.EqualFunc(got.OuterC, n.OuterC, same) || !same(got.Pooled[0].SE, n.Pooled[0].SE) || got.Pooled[0].Concordant != 10 ||
		!slices.Equal(got.Choices, n.Choices) || got.InnerFolds != 5 || !slices.Equal(got.Repeats, n.Repeats) {
		t.Errorf("read back %+v, written %+v", got, n)
	}
}

// With a survival outcome the protocol's warning counts events, as the run's own check
// does (dataset.ValidateSurvival), and names no class: the first 12 patients of DLBCL
// CHOP (../shared/data) have 5 events (head -13 dlbcl_chop_survival.csv | cut -d, -f3 |
// sort | uniq -c: 7 zeros, 5 ones), too few for 10-fold CV; 5 folds fit.
func TestFitSpeaksOfEvents(t *testing.T) {
	ds, err := dataset.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "dlbcl_chop_survival.csv"), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	first := make([]int, 12)
	for i := range first {
		first[i] = i
	}
	small := subset(ds, first)
	cfg := experiment.DefaultSurvivalConfig()
	problem, most := Fit(cfg, small)
	if !strings.Contains(problem, "5 events in 12 patients: too few for 10-fold CV") || strings.Contains(problem, "class") || most != 5 {
		t.Errorf("%q, most %d", problem, most)
	}
}
