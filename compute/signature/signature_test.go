package signature

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
)

// The expected values are in testdata, written by testdata/make_refs.py (SciPy 1.10.1,
// scikit-learn 1.2.1, R 4.2.2 with pROC 1.18.0: testdata/versions.txt) from the real
// Colon and SRBCT sets; the inputs are read here from ../../../shared/data the same way.

const sharedData = "../../../shared/data"

// table reads a CSV of numbers and names: its rows without the header.
func table(t *testing.T, name string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows[1:]
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// data reads a shared CSV (samples as rows, the class last) as columns of log2 values,
// values below 1 raised to 1 (Steadfast's log2), with the classes.
func data(t *testing.T, name string, log bool) (genes []string, cols [][]float64, class []string) {
	t.Helper()
	f, err := os.Open(filepath.Join(sharedData, name))
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	genes = rows[0][:len(rows[0])-1]
	cols = make([][]float64, len(genes))
	for _, r := range rows[1:] {
		for j := range genes {
			v := num(t, r[j])
			if log {
				v = math.Log2(math.Max(v, 1))
			}
			cols[j] = append(cols[j], v)
		}
		class = append(class, r[len(r)-1])
	}
	return genes, cols, class
}

// close reports whether a and b agree to a relative tolerance rel (absolute below 1).
func close(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// Welch's t and p equal SciPy's ttest_ind(equal_var=False), and BH's q equal R's
// p.adjust(method="BH") over all 2000 Colon genes, to 1e-9.
func TestWelchAndBHEqualSciPyAndR(t *testing.T) {
	genes, cols, class := data(t, "colon.csv", true)
	ref := table(t, "welch_colon.csv")
	p := make([]float64, len(genes))
	for j := range genes {
		var a, b []float64
		for i, c := range class {
			if c == "tumor" {
				a = append(a, cols[j][i])
			} else {
				b = append(b, cols[j][i])
			}
		}
		tv, _, pv := Welch(a, b)
		p[j] = pv
		if ref[j][0] != genes[j] || !close(tv, num(t, ref[j][1]), 1e-9) || !close(pv, num(t, ref[j][2]), 1e-9) {
			t.Fatalf("%s: t %.12g p %.12g; SciPy %s %s", genes[j], tv, pv, ref[j][1], ref[j][2])
		}
	}
	for j, qv := range BH(p) {
		if !close(qv, num(t, ref[j][3]), 1e-9) {
			t.Fatalf("%s: q %.12g; R %s", genes[j], qv, ref[j][3])
		}
	}
}

// ANOVA's F and p equal SciPy's f_oneway on SRBCT's four classes, to 1e-9.
func TestANOVAEqualsSciPy(t *testing.T) {
	genes, cols, class := data(t, "srbct.csv", false)
	var order []string
	seen := map[string]bool{}
	for _, c := range class {
		if !seen[c] {
			seen[c] = true
			order = append(order, c)
		}
	}
	for j, r := range table(t, "anova_srbct.csv") {
		groups := make([][]float64, len(order))
		for i, c := range class {
			for k, o := range order {
				if c == o {
					groups[k] = append(groups[k], cols[j][i])
				}
			}
		}
		f, p := ANOVA(groups)
		if r[0] != genes[j] || !close(f, num(t, r[1]), 1e-9) || !close(p, num(t, r[2]), 1e-8) {
			t.Errorf("%s: F %.12g p %.12g; SciPy %s %s", genes[j], f, p, r[1], r[2])
		}
	}
}

// The ROC points of Hsa.8147's log2 values rounded to one decimal (many ties) equal
// scikit-learn's roc_curve(drop_intermediate=False); its first threshold is max + 1
// where ours is +Inf.
func TestROCEqualsScikitLearn(t *testing.T) {
	genes, cols, class := data(t, "colon.csv", true)
	var s []float64
	var pos []bool
	for i, v := range cols[slices.Index(genes, "Hsa.8147")] {
		s = append(s, math.Round(v*10)/10)
		pos = append(pos, class[i] == "tumor")
	}
	got := ROC(s, pos)
	ref := table(t, "roc_colon_Hsa.8147.csv")
	if len(got) != len(ref) {
		t.Fatalf("%d points, scikit-learn %d", len(got), len(ref))
	}
	for i, r := range ref {
		g := got[i]
		if (i > 0 && !close(g.Threshold, num(t, r[0]), 1e-12)) || !close(g.FPR, num(t, r[1]), 1e-12) || !close(g.TPR, num(t, r[2]), 1e-12) {
			t.Errorf("point %d: %+v; scikit-learn %v", i, g, r)
		}
	}
}

// AUC, DeLong's variance and the 95% interval equal R's pROC on five Colon genes, as
// they are and rounded (ties), to 1e-12.
func TestDeLongEqualsPROC(t *testing.T) {
	genes, cols, class := data(t, "colon.csv", true)
	for _, r := range table(t, "delong_colon.csv") {
		name, rounded := r[0][:len(r[0])-2], r[0][len(r[0])-1] == '1'
		var s []float64
		var pos []bool
		for i, v := range cols[slices.Index(genes, name)] {
			if rounded {
				v = math.Round(v*10) / 10
			}
			s = append(s, v)
			pos = append(pos, class[i] == "tumor")
		}
		a := DeLong(s, pos)
		if !close(a.AUC, num(t, r[1]), 1e-12) || !close(a.Var, num(t, r[2]), 1e-12) || !close(a.Low, num(t, r[3]), 1e-12) || !close(a.High, num(t, r[4]), 1e-12) {
			t.Errorf("%s: %+v; pROC %v", r[0], a, r[1:])
		}
	}
}

// Average linkage on 1 - r equals SciPy's linkage(method="average") and its leaves_list,
// for 30 Colon genes over the 62 samples and for the samples over those genes.
func TestAverageLinkageEqualsSciPy(t *testing.T) {
	_, cols, _ := data(t, "colon.csv", true)
	genes := cols[:30]
	samples := make([][]float64, len(genes[0]))
	for i := range samples {
		for _, g := range genes {
			samples[i] = append(samples[i], g[i])
		}
	}
	for _, c := range []struct {
		name string
		rows [][]float64
	}{{"linkage_genes_colon30.csv", genes}, {"linkage_samples_colon30.csv", samples}} {
		ref := table(t, c.name)
		merges := AverageLinkage(c.rows)
		if len(merges) != len(ref)-1 {
			t.Fatalf("%s: %d merges, SciPy %d", c.name, len(merges), len(ref)-1)
		}
		for i, m := range merges {
			r := ref[i]
			if strconv.Itoa(m.A) != r[0] || strconv.Itoa(m.B) != r[1] || !close(m.Dist, num(t, r[2]), 1e-9) || strconv.Itoa(m.Size) != r[3] {
				t.Errorf("%s merge %d: %+v; SciPy %v", c.name, i, m, r)
			}
		}
		order := ref[len(ref)-1][1:]
		for i, leaf := range LeafOrder(merges) {
			if strconv.Itoa(leaf) != order[i] {
				t.Fatalf("%s: leaf order %v; SciPy %v", c.name, LeafOrder(merges), order)
			}
		}
	}
}

// The log2 fold change between the class means and the class higher in equal NumPy's
// on all 2000 Colon genes (log2 values), to 1e-12 (NumPy sums pairwise).
func TestFoldChangeEqualsNumPy(t *testing.T) {
	ds, err := dataset.ReadFile(filepath.Join(sharedData, "colon.csv"), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	ds, _ = dataset.Preprocess(ds, dataset.Prep{Log2: true})
	logged := ChooseScale(ds, true)
	for _, r := range table(t, "foldchange_colon.csv") {
		j := slices.Index(ds.Features, r[0])
		groups := byClass(ds, j)
		hi, lo := extremes(groups)
		fc := logged.FoldChange(groups[hi], groups[lo])
		if ds.Classes[hi] != r[1] || !close(fc, num(t, r[2]), 1e-12) {
			t.Fatalf("%s: higher in %s by %.15g; NumPy %s by %s", r[0], ds.Classes[hi], fc, r[1], r[2])
		}
		if back := logged.FoldChange(groups[lo], groups[hi]); back != -fc {
			t.Fatalf("%s: the other way round %.15g, not %.15g", r[0], back, -fc)
		}
	}
}

// TestFoldChangeScale: values logged before reading (none above 100, as RMA series
// matrices) give the difference of the means, not log2 of the ratio of log-scale
// means (which had given 1.13 for a difference of 5.88); unlogged intensities with
// values below zero (MAS4/MAS5) are floored at 20 first. Worked by hand with NumPy:
// np.log2(np.maximum([-50,10,30],20).mean()/np.maximum([100,200],20).mean()) =
// -2.6844981742720706; Hedges' g of [1,2,3] against [4,5,6,7] = J (2 - 5.5)/sqrt(1.4),
// J = 1 - 3/19: -2.4909809613051013.
func TestFoldChangeScale(t *testing.T) {
	rma := &dataset.Dataset{X: mat.NewDense(4, 1, []float64{11.2, 10.9, 5.1, 5.2}), Labels: []int{0, 0, 1, 1}, Classes: []string{"tumour", "normal"}}
	s := ChooseScale(rma, false)
	if !s.Logged || !strings.Contains(s.Why, "look logged") {
		t.Fatalf("RMA-like values: %+v", s)
	}
	if fc := s.FoldChange([]float64{11.2, 10.9}, []float64{5.1, 5.2}); math.Abs(fc-5.9) > 1e-12 {
		t.Errorf("logged: %g, want 5.9", fc)
	}
	mas := &dataset.Dataset{X: mat.NewDense(5, 1, []float64{-50, 10, 30, 100, 200}), Labels: []int{0, 0, 0, 1, 1}, Classes: []string{"a", "b"}}
	s = ChooseScale(mas, false)
	if s.Logged || s.Floor != 20 || !strings.Contains(s.Why, "raised to 20") {
		t.Fatalf("MAS5-like values: %+v", s)
	}
	if fc := s.FoldChange([]float64{-50, 10, 30}, []float64{100, 200}); math.Abs(fc+2.6844981742720706) > 1e-12 {
		t.Errorf("linear with a floor: %.17g", fc)
	}
	if g := HedgesG([]float64{1, 2, 3}, []float64{4, 5, 6, 7}); math.Abs(g+2.4909809613051013) > 1e-12 {
		t.Errorf("Hedges' g %.17g", g)
	}
	if g := HedgesG([]float64{1}, []float64{4, 5}); !math.IsNaN(g) {
		t.Errorf("Hedges' g of one value: %g", g)
	}
}

// TestANOVATinyP: a p far below 1e-16 is computed from the F distribution's survival
// function, not as 1 - CDF (which had floored it at 1.1e-16 and tied such genes in the
// FDR). SciPy 1.10.1: f_oneway(a, b, c) = (7170.589326454537, 1.7080051887541843e-30).
func TestANOVATinyP(t *testing.T) {
	a := []float64{1.0, 1.2, 0.9, 1.1, 1.05, 0.95, 1.15, 0.98}
	b := []float64{5.0, 5.3, 4.8, 5.1, 5.2, 4.9, 5.05, 4.95}
	c := []float64{9.0, 9.2, 8.9, 9.1, 9.05, 8.95, 9.1, 9.3}
	f, p := ANOVA([][]float64{a, b, c})
	if math.Abs(f-7170.589326454537) > 1e-9*7170 || math.Abs(p-1.7080051887541843e-30) > 1e-8*1.7080051887541843e-30 {
		t.Errorf("F %.16g p %.16g; SciPy 7170.589326454537 1.7080051887541843e-30", f, p)
	}
}

// Genes are matched across annotation vintages through the shipped alias table: a
// model's SEPT7 finds the cohort's SEPTIN7 and its MARCHF1 the cohort's MARCH1 (both by
// the current symbol), an exact symbol still matches as a symbol, and an alias of
// several current genes (C6ST) is named, not guessed.
func TestMatchGenesThroughAliases(t *testing.T) {
	m := &Model{Genes: []ModelGene{{ID: "p1", Symbol: "SEPT7"}, {ID: "p2", Symbol: "MARCHF1"}, {ID: "p3", Symbol: "TP53"}, {ID: "p4", Symbol: "C6ST"}}}
	got := MatchGenes(m, []string{"a", "b", "c", "d"}, []string{"SEPTIN7", "MARCH1", "TP53", "CHST1"})
	want := []struct{ by, cur, probe string }{{"alias", "SEPTIN7", "a"}, {"alias", "MARCHF1", "b"}, {"symbol", "", "c"}, {"", "", ""}}
	for g, w := range want {
		mt := got[g]
		if mt.By != w.by || mt.Current != w.cur || w.probe != "" && (len(mt.Probes) != 1 || mt.Probes[0] != w.probe) {
			t.Errorf("gene %s: by %q via %q, probes %q; want %q via %q, %q", mt.Symbol, mt.By, mt.Current, mt.Probes, w.by, w.cur, w.probe)
		}
	}
	if len(got[3].Ambiguous) < 2 {
		t.Errorf("C6ST is an alias of several genes; the match says %q", got[3].Ambiguous)
	}
}
