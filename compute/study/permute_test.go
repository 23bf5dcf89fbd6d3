package study

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/method"
	"steadfast/compute/signature"
	"steadfast/compute/synth"
)

// colonSignature runs the F-statistic under DRAGS 2008 at k = 10 (linear SVM) on Colon
// (log2), with its labels shuffled when shuffle is set, and builds its signature.
func colonSignature(t *testing.T, shuffle bool) (*experiment.Result, *dataset.Dataset, *Signature) {
	t.Helper()
	ds, err := Open(filepath.Join("..", "..", "..", "shared", "data", "colon.csv"), dataset.Options{}, dataset.Prep{Log2: true, DropConstant: true})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	if shuffle {
		ds.Labels = slices.Clone(ds.Labels)
		r := rand.New(rand.NewPCG(7, 7))
		r.Shuffle(len(ds.Labels), func(a, b int) { ds.Labels[a], ds.Labels[b] = ds.Labels[b], ds.Labels[a] })
	}
	cfg := experiment.DefaultConfig()
	cfg.Methods, cfg.Protocol, cfg.Ks, cfg.Classifiers = []method.Spec{{Name: "fstat"}}, experiment.DRAGS2008, []int{10}, []string{"svm"}
	cfg.Prep = dataset.Prep{Log2: true, DropConstant: true}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := BuildSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 10, Classifier: "svm"}, "tumor")
	if err != nil {
		t.Fatal(err)
	}
	return res, ds, sig
}

// The permutation test finds Colon's signature real (p < 0.05 with 24 permutations:
// none of the permuted studies reaches its AUC, so p = 1/25) and a study of Colon with
// shuffled labels not (p > 0.05); every permuted AUC is counted, and progress reaches
// the end. Seeds fixed.
func TestPermutationTest(t *testing.T) {
	for _, shuffled := range []bool{false, true} {
		res, ds, sig := colonSignature(t, shuffled)
		last := 0
		perm, err := Permute(context.Background(), res, ds, sig, 24, 1, func(done, total int) { last = done })
		if err != nil {
			t.Fatal(err)
		}
		if len(perm.AUCs) != 24 || last != 24 {
			t.Fatalf("%d AUCs, progress to %d", len(perm.AUCs), last)
		}
		if !shuffled && perm.P >= 0.05 || shuffled && perm.P <= 0.05 {
			t.Errorf("labels shuffled %v: observed AUC %.3f, p = %.3f; permuted AUCs %v", shuffled, perm.Observed, perm.P, perm.AUCs)
		}
		t.Logf("labels shuffled %v: observed AUC %.3f, p = %.3f", shuffled, perm.Observed, perm.P)
	}
}

// A class of two samples (a study of 2-fold CV allows it) is refused for a signature,
// naming the class: its model and estimate need three samples of every class.
func TestSignatureRefusesATwoSampleClass(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 30, 1, 0)
	ds.Labels = slices.Clone(ds.Labels)
	seen := 0
	for i, l := range ds.Labels {
		if l == 1 {
			if seen >= 2 {
				ds.Labels[i] = 0
			}
			seen++
		}
	}
	cfg := experiment.DefaultConfig()
	cfg.Methods, cfg.Protocol, cfg.Folds, cfg.Ks, cfg.Classifiers = []method.Spec{{Name: "fstat"}}, experiment.DRAGS2008, 2, []int{5}, []string{"svm"}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = BuildSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 5, Classifier: "svm"}, "")
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("class %q has 2 samples", ds.Classes[1])) {
		t.Errorf("a two-sample class: %v", err)
	}
}
