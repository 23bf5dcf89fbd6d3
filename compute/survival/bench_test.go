package survival

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkScoreTestDLBCL is the cox ranker's work on DLBCL: the score test of all
// 3,833 probes over the 181 CHOP patients.
func BenchmarkScoreTestDLBCL(b *testing.B) {
	s := readSet(b, "dlbcl_chop_survival.csv")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ScoreTests(s.o, s.x, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScoreTestDLBCLResample is one training fold of a 10-fold CV on DLBCL: 163
// of the 181 patients, picked by rows (no copy of the matrix).
func BenchmarkScoreTestDLBCLResample(b *testing.B) {
	s := readSet(b, "dlbcl_chop_survival.csv")
	rows := rand.New(rand.NewPCG(1, 1)).Perm(181)[:163]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ScoreTests(s.o, s.x, rows); err != nil {
			b.Fatal(err)
		}
	}
}

// wide is 200 R-CHOP patients (their own outcome) by 20,000 genes: the 3,833 probes
// tiled across the columns.
func wide(b *testing.B) (Outcome, *mat.Dense) {
	s := readSet(b, "dlbcl_rchop_survival.csv")
	const n, p = 200, 20000
	_, q := s.x.Dims()
	x := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		src := s.x.RawRowView(i)
		dst := x.RawRowView(i)
		for j := range dst {
			dst[j] = src[j%q]
		}
	}
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	return s.o.Subset(rows), x
}

// BenchmarkScoreTest20000x200 is the score test of 20,000 genes over 200 samples.
func BenchmarkScoreTest20000x200(b *testing.B) {
	o, x := wide(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ScoreTests(o, x, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnivariateCoxDLBCL fits all 3,833 univariate Cox models of DLBCL to
// convergence.
func BenchmarkUnivariateCoxDLBCL(b *testing.B) {
	s := readSet(b, "dlbcl_chop_survival.csv")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := UnivariateCox(s.o, s.x, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnivariateCox20000x200 fits 20,000 univariate Cox models over 200 samples.
func BenchmarkUnivariateCox20000x200(b *testing.B) {
	o, x := wide(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := UnivariateCox(o, x, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCox5DLBCL fits a 5-gene Cox model on DLBCL.
func BenchmarkCox5DLBCL(b *testing.B) {
	s := readSet(b, "dlbcl_chop_survival.csv")
	x := columns(s.x, []int{3, 50, 700, 1200, 3000})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Cox(s.o, x, CoxOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConcordanceDLBCL is Harrell's C with its standard error, then Uno's, on
// the 181 CHOP patients (a score per resample).
func BenchmarkConcordanceDLBCL(b *testing.B) {
	s := readSet(b, "dlbcl_chop_survival.csv")
	score := mat.Col(nil, 3, s.x)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Harrell(s.o, score); err != nil {
			b.Fatal(err)
		}
		if _, err := Uno(s.o, score, 5); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHarrell100k is Harrell's C with its standard error over 100,000 samples
// (O(n log n)).
func BenchmarkHarrell100k(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	o, x := simulate(rng, 100000, 0.7, 0.5)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Harrell(o, x); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTimeAUCDLBCL is the time-dependent AUC at 2 years with its standard error.
func BenchmarkTimeAUCDLBCL(b *testing.B) {
	s := readSet(b, "dlbcl_chop_survival.csv")
	score := mat.Col(nil, 3, s.x)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := TimeDependentAUC(s.o, score, 2); err != nil {
			b.Fatal(err)
		}
	}
}
