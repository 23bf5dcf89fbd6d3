package impute

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// proteus reads ../shared/data/proteus_proteomics.csv: its runs' unlogged LFQ
// intensities (NaN empty), their classes (0 A, 1 B), names and the proteins' names.
func proteus(t testing.TB) (rows [][]float64, labels []int, samples, features []string) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "..", "shared", "data", "proteus_proteomics.csv"))
	if err != nil {
		t.Fatalf("the Proteus example is needed: %v", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	features = recs[0][2:]
	for _, r := range recs[1:] {
		samples = append(samples, r[0])
		labels = append(labels, map[string]int{"A": 0, "B": 1}[r[1]])
		row := make([]float64, len(features))
		for j, s := range r[2:] {
			row[j] = math.NaN()
			if s != "" {
				if row[j], err = strconv.ParseFloat(s, 64); err != nil {
					t.Fatal(err)
				}
			}
		}
		rows = append(rows, row)
	}
	return rows, labels, samples, features
}

// refMatrix reads an R matrix written by impute_ref.R: proteins as rows, runs as
// columns; NA is NaN.
func refMatrix(t testing.TB, name string) (rowNames, colNames []string, x [][]float64) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	colNames = recs[0][1:]
	for _, r := range recs[1:] {
		rowNames = append(rowNames, r[0])
		row := make([]float64, len(r)-1)
		for j, s := range r[1:] {
			if s = strings.TrimSpace(s); s == "NA" {
				row[j] = math.NaN()
			} else if row[j], err = strconv.ParseFloat(s, 64); err != nil {
				t.Fatal(err)
			}
		}
		x = append(x, row)
	}
	return rowNames, colNames, x
}

func lines(t testing.TB, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

// checkEqual compares Fitted f's training values (every sample of rows, the kept
// proteins) with R's matrix ref (proteins x samples) to tol, R's value first corrected
// by fix (nil: none) for protein j (universe index) in sample s.
func checkEqual(t *testing.T, f *Fitted, features []string, ref string, tol float64, fix func(j, s int) float64) {
	t.Helper()
	names, _, want := refMatrix(t, ref)
	kept := f.Kept()
	if len(kept) != len(names) {
		t.Fatalf("%d proteins kept, R keeps %d", len(kept), len(names))
	}
	out := make([]float64, len(features))
	worst := 0.0
	for s := range want[0] {
		f.Train(s, out)
		for k, j := range kept {
			if features[j] != names[k] {
				t.Fatalf("kept protein %d is %s, R's %s", k+1, features[j], names[k])
			}
			w, g := want[k][s], out[j]
			if fix != nil {
				w += fix(j, s)
			}
			if math.IsNaN(w) != math.IsNaN(g) {
				t.Fatalf("%s, run %d: %v, R %v", names[k], s+1, g, w)
			}
			if !math.IsNaN(w) {
				worst = math.Max(worst, math.Abs(g-w))
			}
		}
	}
	if worst > tol {
		t.Errorf("largest difference from R's %s: %.3g (tolerance %g)", ref, worst, tol)
	}
	t.Logf("%s: %d proteins x %d runs, largest difference from R %.3g", ref, len(kept), len(want[0]), worst)
}

// TestKNNEqualsImputeKnn: the valid-value filter and KNN on the Proteus runs equal
// impute::impute.knn(k = 10, rowmax = 0.5, colmax = 0.8, maxp = all rows) of R's
// filtered log2 matrix (testdata/impute_ref.R) to 1e-8; 19 proteins have more than half
// their values missing and take the run's mean, as R's do. One known difference: R's
// mean of the first run (column) counts the first retained protein's value there as 0
// (impute 1.72.3's mean.miss sets x[imiss] <- 0 with imiss an integer 0/1 matrix, which
// indexes element 1), so R's values imputed by that run's mean lie below ours by that
// value over the number of values averaged; the test adds it back and then asks 1e-8.
func TestKNNEqualsImputeKnn(t *testing.T) {
	rows, labels, samples, features := proteus(t)
	f, err := Fit(rows, labels, 2, samples, features, Options{Log2: true, Impute: KNN})
	if err != nil {
		t.Fatal(err)
	}
	over := 0
	for _, j := range f.Kept() {
		if f.over[j] {
			over++
		}
	}
	if over != 19 { // R: "19 rows with more than 50 % entries missing"
		t.Errorf("%d kept proteins imputed by the run's mean, R 19", over)
	}
	first := f.retained[0]
	values, shift := 0, 0.0
	for _, j := range f.retained {
		if !math.IsNaN(rows[0][j]) {
			values++
		}
	}
	if !math.IsNaN(rows[0][first]) {
		shift = math.Log2(rows[0][first]) / float64(values)
	}
	norm := f.centred(f.scaled(rows[0]))
	byMean := func(j, s int) float64 { // R's value is ours less shift where the first run's mean was taken
		if s != 0 || !math.IsNaN(rows[0][j]) || !f.over[j] && !math.IsNaN(average(norm, f.neighbours(j))) {
			return 0
		}
		return shift
	}
	shifted := 0
	for _, j := range f.Kept() {
		if byMean(j, 0) != 0 {
			shifted++
		}
	}
	t.Logf("R's mean of run 1 is ours less %.4g (a shift of %d of its imputed values)", shift, shifted)
	checkEqual(t, f, features, "knn.csv", 1e-8, byMean)
}

// TestQuantileEqualsPreprocessCore: quantile normalisation of the filtered log2 Proteus
// runs, missing values kept, equals preprocessCore's normalize.quantiles to 1e-10; the
// target of ten training runs and the four test runs mapped to it equal
// normalize.quantiles.determine.target and normalize.quantiles.use.target; a complete
// matrix with ties equals normalize.quantiles (testdata/impute_ref.R).
func TestQuantileEqualsPreprocessCore(t *testing.T) {
	rows, labels, samples, features := proteus(t)
	f, err := Fit(rows, labels, 2, samples, features, Options{Log2: true, Normalize: Quantile, Impute: None})
	if err != nil {
		t.Fatal(err)
	}
	checkEqual(t, f, features, "quantile.csv", 1e-10, nil)

	at := map[string]int{}
	for i, s := range samples {
		at[s] = i
	}
	col := func(s string) []float64 {
		scaled := f.scaled(rows[at[s]])
		return f.pick(scaled)
	}
	var train [][]float64
	for _, s := range []string{"A-1", "A-2", "A-3", "A-4", "A-5", "B-1", "B-2", "B-3", "B-4", "B-5"} {
		train = append(train, col(s))
	}
	target := QuantileTarget(train, len(f.Kept()))
	worst := 0.0
	for i, s := range lines(t, "target.csv") {
		w, _ := strconv.ParseFloat(s, 64)
		worst = math.Max(worst, math.Abs(target[i]-w))
	}
	_, tests, use := refMatrix(t, "use.csv")
	out := make([]float64, len(target))
	for c, s := range tests {
		UseTarget(col(s), target, out)
		for k := range out {
			if math.IsNaN(use[k][c]) != math.IsNaN(out[k]) {
				t.Fatalf("%s, protein %d: %v, R %v", s, k+1, out[k], use[k][c])
			}
			if !math.IsNaN(out[k]) {
				worst = math.Max(worst, math.Abs(out[k]-use[k][c]))
			}
		}
	}
	if worst > 1e-10 {
		t.Errorf("training target and test runs differ from R by %.3g", worst)
	}
	t.Logf("the target of ten runs and four runs mapped to it: largest difference from R %.3g", worst)

	_, _, in := refMatrix(t, "ties_in.csv")
	_, _, want := refMatrix(t, "ties.csv")
	cols := make([][]float64, len(in[0]))
	for c := range cols {
		for r := range in {
			cols[c] = append(cols[c], in[r][c])
		}
	}
	tt := QuantileTarget(cols, len(in))
	for c, x := range cols {
		UseTarget(x, tt, out[:len(x)])
		for r := range x {
			if math.Abs(out[r]-want[r][c]) > 1e-12 {
				t.Errorf("ties: row %d, column %d: %v, R %v", r+1, c+1, out[r], want[r][c])
			}
		}
	}
}
