package plots

import (
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
)

// BenchmarkSignatureHeatmap clusters and draws the heatmap of 50 Chowdary genes across
// its 104 arrays at 1200 x 900 pixels (the issue asks under 0.2 s).
func BenchmarkSignatureHeatmap(b *testing.B) {
	ds, err := dataset.ReadFile(filepath.Join("..", "..", "shared", "data", "chowdary.csv"), dataset.Options{})
	if err != nil {
		b.Fatalf("real data missing (../shared/data): %v", err)
	}
	var genes []string
	var values [][]float64
	for j := 0; j < 50; j++ {
		genes = append(genes, ds.Features[j])
		values = append(values, mat.Col(nil, j, ds.X))
	}
	for b.Loop() {
		f := SignatureHeatmap("heat", genes, ds.Samples, ds.Classes, ds.Labels, values)
		if _, err := Render(f, 1200, 900, 96); err != nil {
			b.Fatal(err)
		}
	}
}
