package group

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"steadfast/compute/dataset"
)

// realSets are the real arrays in ../shared/data that the group methods are judged on.
var realSets = []string{"colon.csv", "srbct.csv", "lymphoma.csv", "leukemia.gct", "chowdary.csv"}

// realZ reads one of ../shared/data's sets and z-scores it; a missing file fails the test
// or benchmark (never a silent skip).
func realZ(tb testing.TB, file string) *dataset.Dataset {
	tb.Helper()
	ds, err := dataset.ReadFile(filepath.Join("..", "..", "..", "shared", "data", file), dataset.Options{})
	if err != nil {
		tb.Fatalf("real data missing (../shared/data): %v", err)
	}
	dataset.Standardize(ds.X)
	return ds
}

// BenchmarkDGFReal runs DGF (K = 5, flat kernel) on every real set.
func BenchmarkDGFReal(b *testing.B) {
	for _, f := range realSets {
		b.Run(f, func(b *testing.B) { benchDGF(b, realZ(b, f).X, DGFParams{}) })
	}
}

// BenchmarkPairwiseProduct times the product behind all pairwise distances on Chowdary,
// X X' for its 22,283 genes over 104 samples (2 p^2 n flops), in float32 blocks on all
// cores as DGF's pass over the pairs does it (each block pair once: half the flops), and
// reports the rate: the floor any DGF on this machine stays above.
func BenchmarkPairwiseProduct(b *testing.B) {
	ds := realZ(b, "chowdary.csv")
	sp := newSpace(ds.X)
	p, n := sp.pt.Dims()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := sp.pairs(context.Background(), func(w, i0, i1, j0, j1 int, c []float32) {}); err != nil {
			b.Fatal(err)
		}
	}
	half := float64(p) * float64(p+pairBlock) * float64(n) // flops of the block pairs i <= j
	b.ReportMetric(half*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
	b.ReportMetric(2*float64(p)*float64(p)*float64(n)/(half*float64(b.N)/b.Elapsed().Seconds()), "s/full-product")
}

// BenchmarkDGFOverProduct times, in turn and in one run, DGF on Chowdary and the
// float32 product behind its pairwise distances (as BenchmarkPairwiseProduct), and
// reports DGF's time as a multiple of one full 2 p^2 n product at the rate measured:
// how far DGF sits above the floor of any exact method that looks at every pair.
func BenchmarkDGFOverProduct(b *testing.B) {
	ds := realZ(b, "chowdary.csv")
	sp := newSpace(ds.X)
	p, n := sp.pt.Dims()
	var dgf, prod time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := DGF(context.Background(), ds.X, DGFParams{}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if err := sp.pairs(context.Background(), func(w, i0, i1, j0, j1 int, c []float32) {}); err != nil {
			b.Fatal(err)
		}
		dgf, prod = dgf+t1.Sub(t0), prod+time.Since(t1)
	}
	half := float64(p) * float64(p+pairBlock) * float64(n) // flops of the block pairs i <= j
	full := prod.Seconds() * 2 * float64(p) * float64(p) * float64(n) / half
	b.ReportMetric(dgf.Seconds()/float64(b.N), "s/DGF")
	b.ReportMetric(full/float64(b.N), "s/full-product")
	b.ReportMetric(dgf.Seconds()/full, "DGF/product")
	b.ReportMetric(half*float64(b.N)/prod.Seconds()/1e9, "GFLOPS")
}

// BenchmarkCGSReal runs CGS (t = 10) on Leukemia and Chowdary.
func BenchmarkCGSReal(b *testing.B) {
	for _, f := range []string{"leukemia.gct", "chowdary.csv"} {
		b.Run(f, func(b *testing.B) {
			ds := realZ(b, f)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := (CGS{Bootstraps: 10}).Groups(context.Background(), ds.X, ds.Labels, len(ds.Classes), dataset.Rand(1, 100)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCorrelationGraphReal builds MIDS's correlation graph (|r| > 0.6) on every
// real set; the MIDS search on it is timed apart.
func BenchmarkCorrelationGraphReal(b *testing.B) {
	for _, f := range realSets {
		b.Run(f, func(b *testing.B) {
			ds := realZ(b, f)
			b.ResetTimer()
			var g Graph
			for i := 0; i < b.N; i++ {
				var err error
				if g, err = CorrelationGraph(context.Background(), ds.X, 0.6); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(g.Edges()), "edges")
		})
	}
}

// BenchmarkDGFGaussianReal runs DGF with Gaussian weights (K = 5) on every real set.
func BenchmarkDGFGaussianReal(b *testing.B) {
	for _, f := range realSets {
		b.Run(f, func(b *testing.B) { benchDGF(b, realZ(b, f).X, DGFParams{Gaussian: true}) })
	}
}

// BenchmarkMIDSReal finds the MIDS at epsilon 0.6 (graph and relaxation) on every real set.
func BenchmarkMIDSReal(b *testing.B) {
	for _, f := range realSets {
		b.Run(f, func(b *testing.B) {
			x := realZ(b, f).X
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				g, err := CorrelationGraph(context.Background(), x, 0.6)
				if err != nil {
					b.Fatal(err)
				}
				g.MIDS()
			}
		})
	}
}

// BenchmarkSimilaritySumReal sums |r| > 0.9 over every pair of Chowdary's genes, the
// pass the similarity-adjusted stability measures make once per study.
func BenchmarkSimilaritySumReal(b *testing.B) {
	x := realZ(b, "chowdary.csv").X
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := SimilaritySum(context.Background(), x, 0.9)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(s, "sum")
	}
}

// BenchmarkKMeansReal clusters Leukemia's genes as a DRAGS 2008 study does (K = 100,
// 50 restarts).
func BenchmarkKMeansReal(b *testing.B) {
	ds := realZ(b, "leukemia.gct")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := (KMeans{Clusters: 100, Restarts: 50}).Groups(context.Background(), ds.X, ds.Labels, len(ds.Classes), dataset.Rand(1, 100)); err != nil {
			b.Fatal(err)
		}
	}
}
