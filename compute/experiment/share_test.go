package experiment

import (
	"context"
	"reflect"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/method"
	"steadfast/compute/synth"
)

// TestMIDSVariantsShareEachTrainingSetsMIDS: a study with F-statistic + MIDS and
// SVM-RFE + MIDS at one epsilon computes each training set's MIDS once (31 sets for the
// all-sample ranking and DRAGS 2008's 30 splits, not 62), and every unit ranks and
// scores as it does when each unit finds its own. A third variant at another epsilon
// shares with no one.
func TestMIDSVariantsShareEachTrainingSetsMIDS(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 60, 3, 0)
	specs := []method.Spec{{Name: "fstat+mids"}, {Name: "svmrfe+mids"}, {Name: "relieff+mids", Params: map[string]float64{"epsilon": 0.7}}}
	cfg := DefaultConfig()
	cfg.Protocol, cfg.Classifiers, cfg.Methods, cfg.Workers = DRAGS2008, []string{"svm"}, specs, 3
	shared, d := runDesign(t, cfg, ds, true)
	if got := d.mids.computed.Load(); got != 31 {
		t.Errorf("%d MIDS computed for 31 training sets of two variants", got)
	}
	if len(d.mids.entries) != 0 {
		t.Errorf("%d shared sets kept after every user had them", len(d.mids.entries))
	}
	apart, _ := runDesign(t, cfg, ds, false)
	for i := range shared {
		if a, b := shared[i], apart[i]; !reflect.DeepEqual(a.order, b.order) || !reflect.DeepEqual(a.score, b.score) || !reflect.DeepEqual(a.acc, b.acc) {
			t.Fatalf("unit %d (%s): ranks differently with the MIDS shared", i, d.tasks[i].label)
		}
	}
}

// runDesign plans cfg on ds and runs every unit, returning their outputs and the
// design; without share, no MIDS is shared.
func runDesign(t *testing.T, cfg Config, ds *dataset.Dataset, share bool) ([]taskOut, *design) {
	t.Helper()
	d, err := newDesign(cfg, ds)
	if err != nil {
		t.Fatal(err)
	}
	if !share {
		d.mids = newSharedMIDS(nil)
	}
	outs := make([]taskOut, len(d.tasks))
	all := make([]int, len(d.tasks))
	for i := range all {
		all[i] = i
	}
	if err := d.compute(context.Background(), ds, nil, all, outs, nil); err != nil {
		t.Fatal(err)
	}
	return outs, d
}
