package study

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/method"
	"steadfast/compute/synth"
)

func colon(t *testing.T) *dataset.Dataset {
	t.Helper()
	ds, err := Open(filepath.Join("..", "..", "..", "shared", "data", "colon.csv"), dataset.Options{}, dataset.Prep{DropConstant: true})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	return ds
}

// TestMIDSSweepOnColon: the MIDS tool on Colon finds 68 genes at |r| > 0.6 (the paper's
// Table 2 has 65), lists each of them with the genes it stands for, and gives at every
// epsilon the sizes MIDSAt (behind steadfast mids) gives.
func TestMIDSSweepOnColon(t *testing.T) {
	ds := colon(t)
	r, err := MIDSSweep(context.Background(), ds, MIDSEpsilons, 2, func(experiment.Progress) {})
	if err != nil {
		t.Fatal(err)
	}
	if r.MIDS[2] != 68 || len(r.Rows) != 68 || !strings.Contains(r.Summary, "MIDS 68 genes") {
		t.Fatalf("MIDS at 0.6: %d genes, %d rows, %q", r.MIDS[2], len(r.Rows), r.Summary)
	}
	for i, eps := range MIDSEpsilons {
		_, set, greedy, err := MIDSAt(context.Background(), ds, eps)
		if err != nil {
			t.Fatal(err)
		}
		if len(set) != r.MIDS[i] || len(greedy) != r.Greedy[i] {
			t.Errorf("at %g: sweep %d/%d, MIDSAt %d/%d", eps, r.MIDS[i], r.Greedy[i], len(set), len(greedy))
		}
	}
	if _, _, _, err := MIDSAt(context.Background(), ds, 1.5); err == nil {
		t.Error("epsilon 1.5 accepted")
	}
}

// TestKChooserSelfNeighbour: with the gene its own first neighbour, K = 1 gives every
// gene a mean correlation of exactly 1 (itself), and K = 2 the mean of 1 and its
// nearest other gene's correlation, that is (1 + the plain K = 1 value) / 2.
func TestKChooserSelfNeighbour(t *testing.T) {
	ds, _ := synth.Generate(synth.Sized(60), 30, 2, 0)
	plain, err := KChooser(context.Background(), ds, false)
	if err != nil {
		t.Fatal(err)
	}
	self, err := KChooser(context.Background(), ds, true)
	if err != nil {
		t.Fatal(err)
	}
	for j := range self.Values[0] {
		if self.Values[0][j] != 1 {
			t.Fatalf("gene %d at K = 1: %v", j, self.Values[0][j])
		}
		if d := self.Values[1][j] - (1+plain.Values[0][j])/2; d > 1e-12 || d < -1e-12 {
			t.Fatalf("gene %d at K = 2: %v, want %v", j, self.Values[1][j], (1+plain.Values[0][j])/2)
		}
	}
}

// TestStabilityTestsName: a two-method study says which is more stable at the grid's k.
func TestStabilityTestsName(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 40, 1, 0)
	cfg := experiment.DefaultConfig()
	cfg.Methods = []method.Spec{{Name: "fstat"}, {Name: "relieff"}}
	cfg.Protocol, cfg.Repeats, cfg.Classifiers = experiment.CV10x10, 1, []string{"1nn"}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := experiment.StabilityTests(res); !strings.Contains(got, "Nogueira's test at k = 10: F-statistic") || !strings.Contains(got, "more stable") {
		t.Errorf("%q", got)
	}
}
