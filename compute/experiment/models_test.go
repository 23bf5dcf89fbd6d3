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

// Classifier parameters: a key or a value the classifier does not take is refused with
// the classifier's name and the range; a configuration saved before them (no
// classifierParams) reads as the defaults and writes without them; given ones survive
// JSON.
func TestClassifierParams(t *testing.T) {
	for _, bad := range []struct {
		params map[string]map[string]float64
		want   string
	}{
		{map[string]map[string]float64{"logit": {"alpha": 2}}, "alpha = 2 is outside 0..1"},
		{map[string]map[string]float64{"logit": {"beta": 1}}, `has no parameter "beta"`},
		{map[string]map[string]float64{"rf": {"trees": 0}}, "Trees = 0 is outside 1..10000"},
		{map[string]map[string]float64{"rf": {"trees": 2.5}}, "must be a whole number"},
		{map[string]map[string]float64{"svm": {"C": 2}}, `"svm" takes no parameters`},
	} {
		c := DefaultConfig()
		c.ClassifierParams = bad.params
		if _, err := c.Resolved(100); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%v: %v, want %q", bad.params, err, bad.want)
		}
	}
	var old Config // as a run saved before classifier parameters
	if err := json.Unmarshal([]byte(`{"protocol": "cv10x10", "classifiers": ["svm", "logit", "rf"], "methods": [{"name": "fstat"}]}`), &old); err != nil {
		t.Fatal(err)
	}
	if p := old.ClassifierValues("logit"); p["alpha"] != 0 || p["lambda"] != 0 || p["folds"] != 10 {
		t.Errorf("logistic regression's defaults: %v", p)
	}
	if p := old.ClassifierValues("rf"); p["trees"] != 500 || p["mtry"] != 0 || p["minNode"] != 1 {
		t.Errorf("the forest's defaults: %v", p)
	}
	if b, _ := json.Marshal(DefaultConfig()); strings.Contains(string(b), "classifierParams") {
		t.Errorf("the default configuration names classifierParams: %s", b)
	}
	c := DefaultConfig()
	c.ClassifierParams = map[string]map[string]float64{"logit": {"alpha": 0.5, "se1": 1}}
	b, _ := json.Marshal(c)
	var back Config
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back.ClassifierParams, c.ClassifierParams) {
		t.Errorf("read back %v (%v)", back.ClassifierParams, err)
	}
	if s := back.ClassifierSettings("logit"); !strings.Contains(s, "elastic-net logistic regression (alpha = 0.5)") || !strings.Contains(s, "lambda.1se") {
		t.Errorf("settings: %q", s)
	}
}

// A study with logistic regression and a random forest (on data with one separating
// feature, so that both rankers put it first) predicts well and gives every test sample
// probabilities (in [0, 1], summing to 1 over the classes), and
// the same results on 1 and 3 workers.
func TestLogitAndForestInStudy(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 60, 4, 0)
	for i, l := range ds.Labels { // feature 0 separates the classes
		ds.X.Set(i, 0, float64(l)*10+float64(i%3))
	}
	run := func(workers int) *Result {
		cfg := DefaultConfig()
		cfg.Methods, cfg.Ks, cfg.Repeats, cfg.Folds = []method.Spec{{Name: "fstat"}, {Name: "rfperm", Params: map[string]float64{"trees": 50}}}, []int{1, 5}, 1, 5
		cfg.Classifiers, cfg.Workers = []string{"logit", "rf"}, workers
		cfg.ClassifierParams = map[string]map[string]float64{"rf": {"trees": 100}}
		res, err := Run(context.Background(), cfg, ds, nil)
		if err != nil {
			t.Fatal(err)
		}
		for m := range res.Methods {
			res.Methods[m].Seconds, res.Methods[m].PredictSeconds = 0, 0
		}
		res.Seconds = 0
		return res
	}
	a := run(1)
	for _, mr := range a.Methods {
		for _, cl := range []string{"logit", "rf"} {
			if acc := mr.Accuracy[cl]; len(acc) != 2 || !(acc[1].Mean > 0.9) {
				t.Errorf("%s, %s: accuracy %+v", mr.Label, cl, acc)
			}
			for _, p := range mr.Predictions {
				for _, sc := range p.Scores[cl] {
					for i := 0; i < len(sc); i += 2 {
						if sc[i] < 0 || sc[i] > 1 || sc[i]+sc[i+1] < 1-1e-12 || sc[i]+sc[i+1] > 1+1e-12 {
							t.Fatalf("%s: scores %v", cl, sc[i:i+2])
						}
					}
				}
			}
		}
	}
	if b := run(3); !reflect.DeepEqual(a.Methods, b.Methods) {
		t.Error("logistic regression or the forest differs between 1 and 3 workers")
	}
}
