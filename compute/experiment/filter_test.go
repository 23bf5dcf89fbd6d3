package experiment

import (
	"context"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"steadfast/compute/method"
	"steadfast/compute/synth"
)

// TestVarianceFilterInsideTraining: with topVariance = 30, the all-sample ranking's
// first 30 features are the 30 most variable on all samples (the filter is fitted on
// the samples ranked), the rest follow; topVariance at least p changes nothing.
func TestVarianceFilterInsideTraining(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 40, 1, 0)
	_, p := ds.Dims()
	cfg := DefaultConfig()
	cfg.Methods, cfg.Protocol, cfg.Classifiers, cfg.Ks = []method.Spec{{Name: "fstat"}}, DRAGS2008, []string{"svm"}, []int{5, 30, 60}
	plain, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.TopVariance = p
	same, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	same.Seconds, plain.Seconds = 0, 0
	for i := range same.Methods {
		same.Methods[i].Seconds, plain.Methods[i].Seconds = 0, 0
		same.Methods[i].PredictSeconds, plain.Methods[i].PredictSeconds = 0, 0
	}
	same.Config.TopVariance = 0
	if !reflect.DeepEqual(same.Methods[0].Reference, plain.Methods[0].Reference) || !reflect.DeepEqual(same.Methods[0].Stability, plain.Methods[0].Stability) {
		t.Error("topVariance = p changed the result")
	}
	cfg.TopVariance = 30
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := mostVariable(varianceOrder(ds.X, ds.Features), 30)
	got := slices.Clone(res.Methods[0].Reference.Order[:30])
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("the all-sample ranking's first 30: %v, the 30 most variable: %v", got, want)
	}
}

// TestSWOnlyForWeights: S_W, a correlation of weight vectors, is given for the
// F-statistic and null for SVM-RFE, whose scores only encode its elimination order
// (Kalousis et al. 2007 do not define it there).
func TestSWOnlyForWeights(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 40, 1, 0)
	cfg := DefaultConfig()
	cfg.Methods, cfg.Protocol, cfg.Classifiers, cfg.Ks = []method.Spec{{Name: "fstat"}, {Name: "svmrfe"}}, DRAGS2008, []string{"svm"}, []int{5, 10}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Methods[0].SW == nil || res.Methods[1].SW != nil {
		t.Errorf("S_W: F-statistic %v, SVM-RFE %v", res.Methods[0].SW, res.Methods[1].SW)
	}
	b, _ := json.Marshal(res.Methods[1])
	if !strings.Contains(string(b), `"sw":null`) {
		t.Error("SVM-RFE's S_W is not null in JSON")
	}
}

// TestStabilityTestUsesVariances: Nogueira's test between two methods at k equals
// CompareNogueira on their estimates (worked by hand for two points:
// Phi 0.8 and 0.5 with variances 0.01 and 0.02: T = -0.3 / sqrt(0.03) = -1.732,
// p = 2 (1 - Phi(1.732)) = 0.0833).
func TestStabilityTestUsesVariances(t *testing.T) {
	res := &Result{Methods: []MethodResult{
		{Stability: []StabilityPoint{{K: 10, Phi: 0.8, PhiVar: 0.01}}},
		{Stability: []StabilityPoint{{K: 10, Phi: 0.5, PhiVar: 0.02}}},
	}}
	pa, pb, p, ok := StabilityTest(res, 0, 1, 10)
	if !ok || pa != 0.8 || pb != 0.5 || math.Abs(p-0.0833) > 1e-3 {
		t.Errorf("%v %v p = %v, %v", pa, pb, p, ok)
	}
	if _, _, _, ok := StabilityTest(res, 0, 1, 20); ok {
		t.Error("a k off the grid was tested")
	}
}
