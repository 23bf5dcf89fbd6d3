package experiment

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"steadfast/compute/method"
	"steadfast/compute/synth"
)

// k-TSP needs a pair of genes: with it among the classifiers the accuracy grid starts at
// k = 2 (a 10 x 10-fold study's grid is 1..50), and a study with k-TSP on that protocol
// runs (it had stopped: "k-TSP needs two genes at least, not 1").
func TestKTSPAccuracyFromTwoGenes(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Classifiers = []string{"svm", "ktsp"}
	r, err := cfg.Resolved(100)
	if err != nil {
		t.Fatal(err)
	}
	if ks := r.AccuracyKs(); len(ks) == 0 || ks[0] != 2 {
		t.Errorf("accuracy ks %v, want from 2", ks)
	}
	ds, _ := synth.Generate(synth.D1k, 40, 1, 0)
	cfg.Repeats, cfg.Methods = 1, []method.Spec{{Name: "fstat"}}
	if _, err := Run(context.Background(), cfg, ds, nil); err != nil {
		t.Errorf("a 10-fold study with k-TSP: %v", err)
	}
}

// ktspPairs sets k-TSP's number of pairs: 0 (the default, omitted from the JSON)
// chooses it by leave-one-out in every training set, a positive odd number fixes it, and
// anything else is refused. With 1 pair every out-of-fold score is a share of one vote
// (0, 1/2 on equal values, or 1); with the default the study is the same on 1 worker as
// on 2 (leave-one-out has no random folds).
func TestKTSPPairsSetting(t *testing.T) {
	for _, bad := range []int{-1, 2, 10} {
		c := DefaultConfig()
		c.KTSPPairs = bad
		if _, err := c.Resolved(100); err == nil || !strings.Contains(err.Error(), "must be odd") {
			t.Errorf("ktspPairs %d: %v", bad, err)
		}
	}
	var c Config
	if err := json.Unmarshal([]byte(`{"ktspPairs": 3}`), &c); err != nil || c.KTSPPairs != 3 {
		t.Errorf(`{"ktspPairs": 3} read as %d (%v)`, c.KTSPPairs, err)
	}
	if b, _ := json.Marshal(DefaultConfig()); strings.Contains(string(b), "ktspPairs") {
		t.Errorf("the default config names ktspPairs: %s", b)
	}
	ds, _ := synth.Generate(synth.D1k, 40, 4, 0)
	run := func(pairs, workers int) *Result {
		cfg := DefaultConfig()
		cfg.Methods, cfg.Ks, cfg.Repeats, cfg.Classifiers = []method.Spec{{Name: "fstat"}}, []int{2, 10}, 1, []string{"ktsp"}
		cfg.KTSPPairs, cfg.Workers = pairs, workers
		res, err := Run(context.Background(), cfg, ds, nil)
		if err != nil {
			t.Fatal(err)
		}
		for m := range res.Methods {
			res.Methods[m].Seconds, res.Methods[m].PredictSeconds = 0, 0
		}
		return res
	}
	for _, p := range run(1, 0).Methods[0].Predictions {
		for _, sc := range p.Scores["ktsp"] {
			for _, v := range sc {
				if v != 0 && v != 0.5 && v != 1 {
					t.Fatalf("a score %g with one pair", v)
				}
			}
		}
	}
	if a, b := run(0, 1), run(0, 2); !reflect.DeepEqual(a.Methods, b.Methods) {
		t.Error("k-TSP with k chosen by leave-one-out differs between 1 and 2 workers")
	}
}
