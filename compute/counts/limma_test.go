package counts

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLimmaEqualsLimma: Limma on the Proteus runs' filtered log2 LFQ intensities
// imputed by impute.knn (2,928 proteins x 14 runs, ../impute/testdata/knn.csv) equals
// limma 3.54's eBayes(lmFit(y, model.matrix(~condition))) (testdata/limma_ref.R): the
// moderated t, its p, the log2 fold change B vs A and the average to 1e-8, the prior
// degrees of freedom and variance to 1e-8.
func TestLimmaEqualsLimma(t *testing.T) {
	recs := readCSV(t, "../../impute/testdata/knn.csv")
	n := len(recs[0]) - 1
	x := make([][]float64, n)
	group := make([]int, n)
	for s := range n {
		if strings.HasPrefix(recs[0][s+1], "B") {
			group[s] = 1
		}
		for _, r := range recs[1:] {
			v, err := strconv.ParseFloat(strings.TrimSpace(r[s+1]), 64)
			if err != nil {
				t.Fatal(err)
			}
			x[s] = append(x[s], v)
		}
	}
	m, err := Limma(x, group)
	if err != nil {
		t.Fatal(err)
	}
	want := readCSV(t, "limma_proteus.csv")
	if len(want)-1 != len(m.T) {
		t.Fatalf("%d proteins, R %d", len(m.T), len(want)-1)
	}
	worst := 0.0
	for j, r := range want[1:] {
		if r[0] != recs[j+1][0] {
			t.Fatalf("protein %d: %s, R %s", j+1, recs[j+1][0], r[0])
		}
		for c, got := range []float64{m.LogFC[j], m.AveExpr[j], m.T[j], m.P[j]} {
			w, _ := strconv.ParseFloat(r[c+1], 64)
			worst = math.Max(worst, math.Abs(got-w)/math.Max(1, math.Abs(w)))
		}
	}
	prior := strings.Fields(readText(t, "limma_proteus_prior.txt"))
	d0, _ := strconv.ParseFloat(prior[0], 64)
	s0, _ := strconv.ParseFloat(prior[1], 64)
	worst = math.Max(worst, math.Max(math.Abs(m.DFPrior-d0), math.Abs(m.S2Prior-s0)))
	if worst > 1e-8 {
		t.Errorf("largest difference from limma: %.3g", worst)
	}
	t.Logf("%d proteins: largest difference from limma %.3g (d0 %.6g, s0^2 %.6g)", len(m.T), worst, m.DFPrior, m.S2Prior)
}

func readText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
