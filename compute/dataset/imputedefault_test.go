package dataset

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"steadfast/compute/impute"
)

// blankedLeukemia writes into dir a copy of the real leukemia.gct (and its CLS) with
// the cells testdata/knn/leukemia_knn.csv names written NA, and returns its path and
// R's impute.knn value of each blanked cell (feature, sample).
func blankedLeukemia(t *testing.T, dir string) (string, map[[2]string]float64) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "knn", "leukemia_knn.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := map[[2]string]float64{}
	for _, r := range recs[1:] {
		v, err := strconv.ParseFloat(r[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		want[[2]string{r[0], r[1]}] = v
	}
	b, err := os.ReadFile(shared(t, "leukemia.gct"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	head := strings.Split(strings.TrimRight(lines[2], "\r"), "\t")
	blanked := 0
	for i := 3; i < len(lines); i++ {
		cells := strings.Split(strings.TrimRight(lines[i], "\r"), "\t")
		for j := 2; j < len(cells) && j < len(head); j++ {
			if _, ok := want[[2]string{cells[0], head[j]}]; ok {
				cells[j], blanked = "NA", blanked+1
			}
		}
		lines[i] = strings.Join(cells, "\t")
	}
	if blanked != len(want) {
		t.Fatalf("blanked %d cells of the %d leukemia_knn.csv names", blanked, len(want))
	}
	path := filepath.Join(dir, "leukemia.gct")
	cls, err := os.ReadFile(shared(t, "leukemia.cls"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "leukemia.cls"), cls, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, want
}

// TestArrayMissingCellsTakeKNN: the real leukemia.gct with 7 cells written NA is not
// refused for minprob, which the user never chose: its missing cells are imputed by
// knn, the default for values not from mass spectrometry, with a note naming knn and the
// count; the imputed values equal R's impute::impute.knn(k = 10, rowmax = 0.5, colmax =
// 0.8, maxp = all rows) of the same matrix (testdata/knn/knn_ref.R) to 1e-8.
func TestArrayMissingCellsTakeKNN(t *testing.T) {
	path, want := blankedLeukemia(t, t.TempDir())
	raw, err := ReadFile(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := DefaultImpute(raw); got != impute.KNN {
		t.Errorf("the default imputation of an array is %q, want knn", got)
	}
	ds, _, err := PreprocessContext(context.Background(), raw, Prep{DropConstant: true})
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	notes := strings.Join(ds.Notes, "\n")
	for _, w := range []string{"imputation of the 7 missing values: no method chosen, so knn (impute.knn", "7 of 513,288 values missing"} {
		if !strings.Contains(notes, w) {
			t.Errorf("the notes lack %q:\n%s", w, notes)
		}
	}
	col := map[string]int{}
	for j, f := range ds.Features {
		col[f] = j
	}
	worst, compared := 0.0, 0
	for i, s := range ds.Samples {
		for f, j := range col {
			w, ok := want[[2]string{f, s}]
			if !ok {
				continue
			}
			worst, compared = math.Max(worst, math.Abs(ds.X.At(i, j)-w)), compared+1
		}
	}
	if compared != len(want) || worst > 1e-8 {
		t.Errorf("%d of %d cells compared; largest difference from R's impute.knn: %.3g", compared, len(want), worst)
	}
	t.Logf("7 blanked cells, largest difference from R's impute.knn %.3g", worst)
}

// TestSeriesMatrixNullCellsTakeKNN: a real GEO series matrix (GSE781 on GPL97, MAS5
// values, unlogged: ../geo/testdata) with three cells written null, as GEO writes a
// missing value, is read and preprocessed without log2: knn fills them, with its note,
// where the minprob default refused the unlogged values.
func TestSeriesMatrixNullCellsTakeKNN(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "geo", "testdata", "GSE781-GPL97_series_matrix.txt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(b, []byte("\n"))
	table := 0
	for i, l := range lines {
		if bytes.HasPrefix(l, []byte("!series_matrix_table_begin")) {
			table = i + 2 // the header, then the first probe
		}
	}
	for _, at := range [][2]int{{0, 1}, {50, 3}, {9000, 17}} {
		cells := bytes.Split(lines[table+at[0]], []byte("\t"))
		cells[at[1]] = []byte("null")
		lines[table+at[0]] = bytes.Join(cells, []byte("\t"))
	}
	path := filepath.Join(t.TempDir(), "GSE781-GPL97_series_matrix.txt")
	if err := os.WriteFile(path, bytes.Join(lines, []byte("\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	raw, err := ReadFile(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := Summarize(raw); s.MissingCells != 3 || !s.Unlogged {
		t.Fatalf("%d missing cells (want 3), unlogged %v (want true)", s.MissingCells, s.Unlogged)
	}
	ds, _, err := PreprocessContext(context.Background(), raw, Prep{DropConstant: true})
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	notes := strings.Join(ds.Notes, "\n")
	if !strings.Contains(notes, "imputation of the 3 missing values: no method chosen, so knn (impute.knn") || strings.Contains(notes, "minprob draws") {
		t.Errorf("the notes do not say knn filled the 3 missing values:\n%s", notes)
	}
	if s := Summarize(ds); s.MissingCells != 0 {
		t.Errorf("%d values still missing", s.MissingCells)
	}
	// minprob, chosen, still refuses unlogged values, naming what to do
	if _, _, err := PreprocessContext(context.Background(), raw, Prep{DropConstant: true, Impute: impute.MinProb}); err == nil || !strings.Contains(err.Error(), "choose log2") {
		t.Errorf("minprob on unlogged values: %v", err)
	}
}

// TestMaxQuantMissingValuesTakeMinProb: MaxQuant's proteinGroups.txt of the Proteus
// example is mass spectrometry: its missing values (below detection) take minprob by
// default, with a note saying so.
func TestMaxQuantMissingValuesTakeMinProb(t *testing.T) {
	raw, err := ReadFile(shared(t, "proteus_proteinGroups.txt.gz"), Options{DesignPath: shared(t, "proteus_metadata.txt")})
	if err != nil {
		t.Fatal(err)
	}
	if got := DefaultImpute(raw); got != impute.MinProb {
		t.Errorf("the default imputation of a MaxQuant table is %q, want minprob", got)
	}
	ds, _, err := PreprocessContext(context.Background(), raw, Prep{Log2: true, DropConstant: true})
	if err != nil {
		t.Fatal(err)
	}
	// 10,916 missing values: TestReadMaxQuant's count of the same table
	if notes := strings.Join(ds.Notes, "\n"); !strings.Contains(notes, "imputation of the 10,916 missing values: no method chosen, so minprob (Perseus") {
		t.Errorf("the notes do not say minprob:\n%s", notes)
	}
}
