package group

import (
	"context"
	"path/filepath"
	"testing"

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
		b.Run(f, func(b *testing.B) {
			ds := realZ(b, f)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := DGF(context.Background(), ds.X, DGFParams{})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(res.Peaks), "peaks")
				b.ReportMetric(float64(res.Iterations), "rounds")
				b.ReportMetric(float64(res.FullScans), "fullscans")
			}
		})
	}
}
