package survival

import (
	"context"
	"testing"
)

// The elastic-net Cox path with glmnet's automatic lambdas, as testdata/coxnet_bench.R
// times glmnet on the same data (issue 53 asks for 3x glmnet's time at most). Side by
// side, from the repository root:
//
//	go test -run '^$' -bench 'CoxNet(DLBCL|AML)' -benchtime 10x ./compute/survival/ && Rscript compute/survival/testdata/coxnet_bench.R
//
// Measured so on the 2-core machine (load about 2), glmnet given the columns in the
// visiting order (the same steps): DLBCL alpha 1 427 ms (glmnet 908 ms, 0.47x), alpha
// 0.5 476 ms (706, 0.67x); AML alpha 1 265 ms (506, 0.52x), alpha 0.5 259 ms (420,
// 0.62x). BenchmarkCoxNetCV (DLBCL, 10 folds, one goroutine): 4.3 s.

func benchmarkCoxNet(b *testing.B, file string, alpha float64) {
	d := coxnetRead(b, file)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := (CoxNet{Alpha: alpha}).Path(context.Background(), d.time, d.event, d.x); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCoxNetDLBCL: DLBCL CHOP, 181 samples x 3,833 probe sets.
func BenchmarkCoxNetDLBCL(b *testing.B) {
	b.Run("alpha=1", func(b *testing.B) { benchmarkCoxNet(b, "dlbcl_chop_survival.csv", 1) })
	b.Run("alpha=0.5", func(b *testing.B) { benchmarkCoxNet(b, "dlbcl_chop_survival.csv", 0.5) })
}

// BenchmarkCoxNetAML: AML, 116 samples x 6,283 clones.
func BenchmarkCoxNetAML(b *testing.B) {
	b.Run("alpha=1", func(b *testing.B) { benchmarkCoxNet(b, "aml_survival.csv", 1) })
	b.Run("alpha=0.5", func(b *testing.B) { benchmarkCoxNet(b, "aml_survival.csv", 0.5) })
}

// BenchmarkCoxNetCV: cv.glmnet's 10-fold cross-validation on DLBCL (11 paths), on one
// goroutine.
func BenchmarkCoxNetCV(b *testing.B) {
	d := coxnetRead(b, "dlbcl_chop_survival.csv")
	folds := make([]int, len(d.time))
	for i := range folds {
		folds[i] = i % 10
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := (CoxNet{Alpha: 1, Workers: 1}).CV(context.Background(), d.time, d.event, d.x, folds); err != nil {
			b.Fatal(err)
		}
	}
}
