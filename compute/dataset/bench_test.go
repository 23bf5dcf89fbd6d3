package dataset_test

import (
	"os"
	"path/filepath"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/synth"
)

func lungSize() (n, p int) {
	if testing.Short() {
		return 60, 500
	}
	return 181, 12533
}

// BenchmarkReadCSVLung reads a Lung-sized CSV (181 samples x 12533 features, ~18 MB).
func BenchmarkReadCSVLung(b *testing.B) {
	n, p := lungSize()
	ds, _ := synth.Generate(synth.Sized(p), n, 1, 0)
	path := filepath.Join(b.TempDir(), "lung.csv")
	fh, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := dataset.WriteCSV(fh, ds); err != nil {
		b.Fatal(err)
	}
	fh.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := dataset.ReadFile(path, dataset.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStandardizeLung(b *testing.B) {
	n, p := lungSize()
	ds, _ := synth.Generate(synth.Sized(p), n, 1, 0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dataset.Standardize(ds.X)
	}
}
