package dataset_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/synth"

	"github.com/xuri/excelize/v2"
	"gonum.org/v1/gonum/mat"
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

// BenchmarkReadChowdary reads the real 22,283-gene Chowdary set (../shared/data) as it
// is (CSV), gzipped, and as an Excel workbook with the genes as rows (a sheet holds at
// most 16,384 columns), each written once from the CSV.
func BenchmarkReadChowdary(b *testing.B) {
	src := filepath.Join("..", "..", "..", "shared", "data", "chowdary.csv")
	raw, err := os.ReadFile(src)
	if err != nil {
		b.Fatalf("real data missing (../shared/data): %v", err)
	}
	ds, err := dataset.ReadFile(src, dataset.Options{})
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	gz := filepath.Join(dir, "chowdary.csv.gz")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(raw)
	zw.Close()
	os.WriteFile(gz, buf.Bytes(), 0o644)
	xlsx := filepath.Join(dir, "chowdary.xlsx")
	if err := writeGenesAsRowsXLSX(xlsx, ds); err != nil {
		b.Fatal(err)
	}
	for _, path := range []string{gz, xlsx} {
		got, err := dataset.ReadFile(path, dataset.Options{})
		if err != nil || !mat.Equal(got.X, ds.X) || !slices.Equal(got.Features, ds.Features) || !slices.Equal(got.Labels, ds.Labels) {
			b.Fatalf("%s differs from the CSV (%v)", path, err)
		}
	}
	for _, path := range []string{src, gz, xlsx} {
		b.Run(filepath.Ext(path), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				got, err := dataset.ReadFile(path, dataset.Options{})
				if err != nil {
					b.Fatal(err)
				}
				if n, p := got.Dims(); n != 104 || p != 22283 {
					b.Fatalf("%d x %d", n, p)
				}
			}
		})
	}
}

// writeGenesAsRowsXLSX writes ds into a workbook, one gene per row, the class in the
// second row.
func writeGenesAsRowsXLSX(path string, ds *dataset.Dataset) error {
	wb := excelize.NewFile()
	sw, err := wb.NewStreamWriter("Sheet1")
	if err != nil {
		return err
	}
	n, p := ds.Dims()
	row := make([]any, n+1)
	row[0] = "gene"
	for i, s := range ds.Samples {
		row[i+1] = s
	}
	sw.SetRow("A1", row)
	row[0] = "class"
	for i, l := range ds.Labels {
		row[i+1] = ds.Classes[l]
	}
	sw.SetRow("A2", row)
	for j := 0; j < p; j++ {
		row[0] = ds.Features[j]
		for i := 0; i < n; i++ {
			row[i+1] = ds.X.At(i, j)
		}
		cell, _ := excelize.CoordinatesToCellName(1, j+3)
		if err := sw.SetRow(cell, row); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	return wb.SaveAs(path)
}
