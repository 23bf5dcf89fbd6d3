package study

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/method"
	"steadfast/compute/rstat"
	"steadfast/compute/signature"
)

// noiseSet is n samples of p independent standard normal genes in two classes of n/2:
// no gene carries any signal.
func noiseSet(n, p int, seed uint64) *dataset.Dataset {
	r := rand.New(rand.NewPCG(seed, 0x6e6f697365))
	x := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			x.Set(i, j, r.NormFloat64())
		}
	}
	ds := &dataset.Dataset{Name: fmt.Sprintf("noise-%d", seed), X: x, Classes: []string{"a", "b"}}
	for i := 0; i < n; i++ {
		ds.Labels = append(ds.Labels, i%2)
		ds.Samples = append(ds.Samples, "s"+strconv.Itoa(i+1))
	}
	for j := 0; j < p; j++ {
		ds.Features = append(ds.Features, "g"+strconv.Itoa(j+1))
	}
	return ds
}

// envInt reads a whole number from the environment, def when unset.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// BenchmarkAdviceOnNoise measures, on data without signal (n = 60, 2,000 genes of pure
// noise, two classes of 30; the F-statistic and SVM-ONE under 10 x 10-fold CV, the
// linear SVM), what the advice's choice does to the numbers: the mean plain AUC of the
// chosen signature (optimistic: the choice is made on the resamples that score it),
// the mean nested AUC (the choice made again inside each training set: it should be
// 0.50), and the share of sets whose permutation test (the choice repeated in every
// permutation, STEADFAST_NOISE_PERMS permutations) rejects at 0.05 (it should be 0.05).
// STEADFAST_NOISE_SETS sets (default 10; the README's figures used 100).
func BenchmarkAdviceOnNoise(b *testing.B) {
	sets, perms := envInt("STEADFAST_NOISE_SETS", 10), envInt("STEADFAST_NOISE_PERMS", 19)
	for b.Loop() {
		var plain, nested []float64
		rejected := 0
		for s := 0; s < sets; s++ {
			ds := noiseSet(60, 2000, uint64(s+1))
			cfg := experiment.DefaultConfig()
			cfg.Methods, cfg.Classifiers, cfg.Seed = []method.Spec{{Name: "fstat"}, {Name: "svmone"}}, []string{"svm"}, uint64(s+1)
			res, err := Run(context.Background(), cfg, ds, nil)
			if err != nil {
				b.Fatal(err)
			}
			m, k, _ := signature.Advice(res, "svm")
			sig, err := BuildSignature(context.Background(), res, ds, signature.Choice{Method: m, K: k, Classifier: "svm"}, "")
			if err != nil {
				b.Fatal(err)
			}
			if err := sig.Nest(context.Background(), res, ds, nil); err != nil {
				b.Fatal(err)
			}
			perm, err := Permute(context.Background(), res, ds, sig, perms, uint64(s+1), nil)
			if err != nil {
				b.Fatal(err)
			}
			plain, nested = append(plain, sig.CV.MeanAUC), append(nested, sig.Nested.MeanAUC)
			if perm.P <= 0.05 {
				rejected++
			}
		}
		mp, sp := meanSE(plain)
		mn, sn := meanSE(nested)
		b.ReportMetric(mp, "plainAUC")
		b.ReportMetric(mn, "nestedAUC")
		b.ReportMetric(float64(rejected)/float64(sets), "rejected")
		b.Logf("%d noise sets: plain AUC of the advice's choice %.3f +/- %.3f (SE), nested %.3f +/- %.3f; permutation test (%d permutations, the choice repeated) rejects %d at 0.05",
			sets, mp, sp, mn, sn, perms, rejected)
	}
}

// meanSE is the mean of v and its standard error.
func meanSE(v []float64) (mean, se float64) {
	for _, x := range v {
		mean += x / float64(len(v))
	}
	for _, x := range v {
		se += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(se / float64(len(v)-1) / float64(len(v)))
}

// BenchmarkPermutationTestOnNoise measures the permutation test's rejection rate at
// 0.05 on data without signal, the advice choosing method and k on the observed labels
// and again on every permuted one: STEADFAST_NOISE_SETS sets (default 40; the README's
// figure used 500) of n = 40 (two classes of 20) and 200 genes of pure noise, the
// F-statistic and SVM-ONE, 3 x 5-fold CV at k = 1, 2, 5, 10, 20, the linear SVM, 19
// permutations a set (p <= 0.05 only when the observed statistic exceeds all 19). A
// valid test rejects 5% (within the 95% Wilson interval printed beside it).
func BenchmarkPermutationTestOnNoise(b *testing.B) {
	sets := envInt("STEADFAST_NOISE_SETS", 40)
	for b.Loop() {
		rejected, advised := 0, 0
		for s := 0; s < sets; s++ {
			ds := noiseSet(40, 200, uint64(1000+s))
			cfg := experiment.DefaultConfig()
			cfg.Methods, cfg.Classifiers, cfg.Seed = []method.Spec{{Name: "fstat"}, {Name: "svmone"}}, []string{"svm"}, uint64(s+1)
			cfg.Repeats, cfg.Folds, cfg.Ks = 3, 5, []int{1, 2, 5, 10, 20}
			res, err := Run(context.Background(), cfg, ds, nil)
			if err != nil {
				b.Fatal(err)
			}
			m, k, _ := signature.Advice(res, "svm")
			sig, err := BuildSignature(context.Background(), res, ds, signature.Choice{Method: m, K: k, Classifier: "svm"}, "")
			if err != nil {
				b.Fatal(err)
			}
			if sig.Advised {
				advised++
			}
			perm, err := Permute(context.Background(), res, ds, sig, 19, uint64(s+1), nil)
			if err != nil {
				b.Fatal(err)
			}
			if perm.P <= 0.05 {
				rejected++
			}
		}
		rate := float64(rejected) / float64(sets)
		lo, hi := rstat.Wilson(rate, float64(sets), 1.959964)
		b.ReportMetric(rate, "rejected")
		b.Logf("%d noise sets (%d advised): the permutation test rejects %d at 0.05, %.3f (95%% Wilson CI %.3f-%.3f)", sets, advised, rejected, rate, lo, hi)
	}
}
