package plots

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/experiment"
	"steadfast/compute/signature"
)

// A two-gene linear model worked by hand (d = z1 - z2, z = x with means 0 and sds 1)
// applied to six samples: the ROC figure's table is the cohort's curve (AUC 8/9: one
// negative above one positive) then the cross-validated curve; the heatmap labels the
// samples by the model's class where the cohort's class was mapped ("Tumour" to
// tumor); both figures export in every format.
func TestValidationFigures(t *testing.T) {
	m := &signature.Model{Classes: []string{"normal", "tumor"}, Positive: 1, Classifier: "svm",
		Config: experiment.Config{ZScore: true}, Genes: []signature.ModelGene{{ID: "g1"}, {ID: "g2"}},
		Mean: []float64{0, 0}, SD: []float64{1, 1}, W: [][]float64{{1, -1}}, B: []float64{0},
		CV: &signature.CVSummary{Repetitions: 2, MeanAUC: 0.9, MinAUC: 0.85, MaxAUC: 0.95, Curve: [][2]float64{{0, 0.5}, {1, 1}}}}
	x := mat.NewDense(6, 2, []float64{3, 0, 2, 0, 0.5, 0, 0, 1, 1, 0, 0, 2})
	c := &signature.Cohort{Name: "c.csv", X: x, Samples: []string{"a", "b", "c", "d", "e", "f"},
		Classes: []string{"Tumour", "Tumour", "Tumour", "normal", "normal", "normal"}, Features: []string{"g1", "g2"}}
	v, err := signature.Apply(m, c, signature.ApplyOptions{Map: map[string]string{"Tumour": "tumor"}})
	if err != nil {
		t.Fatal(err)
	}
	// decision values 3, 2, 0.5 (tumours) and -1, 1, -2 (normals): 8 of 9 pairs ordered
	if a := v.Metrics.AUC.AUC; a != 8.0/9 {
		t.Fatalf("AUC %v, want 8/9", a)
	}
	figs := ValidationFigures(v)
	if len(figs) != 2 || figs[0].Name != "validation-roc" || figs[1].Name != "validation-heatmap" {
		t.Fatalf("figures %d", len(figs))
	}
	rows := figs[0].Table
	if rows[1][0] != "cohort" || rows[len(rows)-1][0] != "cross-validated mean" || !strings.Contains(figs[0].Title, "tumor positive") {
		t.Errorf("ROC table from %v to %v, title %q", rows[1], rows[len(rows)-1], figs[0].Title)
	}
	if classes, labels := validationClasses(v); strings.Join(classes, ",") != "tumor,normal" || labels[0] != 0 || labels[5] != 1 {
		t.Errorf("heatmap classes %q, labels %v", classes, labels)
	}
	size, _ := NewExportOptions(12, 9, "cm", 100)
	for _, f := range figs {
		paths, err := Export(f, t.TempDir(), Formats, size)
		if err != nil || len(paths) != len(Formats)+1 {
			t.Errorf("%s: %v, %v", f.Name, paths, err)
		}
		for _, path := range paths {
			if filepath.Ext(path) == "" {
				t.Errorf("%s: %s", f.Name, path)
			}
		}
	}
}

// The cohort heatmap of a cohort of 20,000 samples (the two-gene model above) shows 300
// of them, each class in proportion (two thirds tumours here: 200 and 100), evenly spaced
// through its samples, and says so in its title; the CSV behind it holds those 300. It
// had clustered all 20,000 (an n x n distance matrix: over 10 minutes at 3.3 GB).
func TestCohortHeatmapOfManySamples(t *testing.T) {
	m := &signature.Model{Classes: []string{"normal", "tumor"}, Positive: 1, Classifier: "svm",
		Config: experiment.Config{ZScore: true}, Genes: []signature.ModelGene{{ID: "g1"}, {ID: "g2"}},
		Mean: []float64{0, 0}, SD: []float64{1, 1}, W: [][]float64{{1, -1}}, B: []float64{0}}
	const n = 20000
	x := mat.NewDense(n, 2, nil)
	c := &signature.Cohort{Name: "big.csv", X: x, Features: []string{"g1", "g2"}}
	for i := range n {
		x.Set(i, 0, float64(i%7))
		x.Set(i, 1, float64(i%5))
		c.Samples = append(c.Samples, fmt.Sprintf("s%d", i))
		c.Classes = append(c.Classes, map[bool]string{true: "tumor", false: "normal"}[i%3 != 0])
	}
	v, err := signature.Apply(m, c, signature.ApplyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	heat := validationHeatmap(v)
	if got := len(heat.Table[0]) - 1; got != 300 {
		t.Fatalf("%d samples in the heatmap", got)
	}
	tumours := 0
	for _, h := range heat.Table[0][1:] {
		if strings.HasSuffix(h, "(tumor)") {
			tumours++
		}
	}
	if tumours != 200 || !strings.Contains(heat.Title, "300 of 20,000 samples") {
		t.Errorf("%d tumours of 300; title %q", tumours, heat.Title)
	}
	if got := evenlyByClass([]int{0, 0, 0, 0, 1, 1, 1, 1, 1, 1}, 2, 5); fmt.Sprint(got) != "[0 2 4 6 8]" {
		t.Errorf("5 of 4 + 6 samples: %v", got) // quotas 2 and 3: samples 0, 2 of the first; 4, 6, 8 of the second
	}
}
