package counts

import (
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func readCSV(t *testing.T, name string) [][]string {
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
	return recs
}

// simulated reads testdata/counts.csv (written by testdata/edger_ref.R) as samples x
// genes, with each sample's group.
func simulated(t *testing.T) (Counts, []int) {
	recs := readCSV(t, "counts.csv")
	n := len(recs[0]) - 1
	c := make(Counts, n)
	var group []int
	for s := 0; s < n; s++ {
		g, _ := strconv.Atoi(recs[0][s+1][strings.LastIndex(recs[0][s+1], "g")+1:])
		group = append(group, g)
		for _, r := range recs[1:] {
			v, err := strconv.ParseFloat(r[s+1], 64)
			if err != nil {
				t.Fatal(err)
			}
			c[s] = append(c[s], v)
		}
	}
	return c, group
}

// TMM factors, the genes kept and log-CPM equal edgeR 3.40's calcNormFactors,
// filterByExpr(group =) and cpm(log = TRUE, prior.count = 2) on 3,000 simulated genes x
// 14 samples (testdata/edger_ref.R): the factors to 1e-10, the same 1,646 genes kept,
// log-CPM to 1e-10.
func TestCountsEqualEdgeR(t *testing.T) {
	c, group := simulated(t)
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	lib := c.LibSizes()
	f, _ := c.TMM(lib)
	for s, r := range readCSV(t, "tmm.csv")[1:] {
		want, _ := strconv.ParseFloat(r[2], 64)
		if math.Abs(f[s]-want) > 1e-10 {
			t.Errorf("sample %s: TMM %.17g, edgeR %.17g", r[0], f[s], want)
		}
	}
	keep := c.FilterByExpr(lib, group)
	kept := 0
	for g, r := range readCSV(t, "keep.csv")[1:] {
		if keep[g] != (r[1] == "TRUE") {
			t.Errorf("%s: kept %v, edgeR %s", r[0], keep[g], r[1])
		}
		if keep[g] {
			kept++
		}
	}
	if kept != 1646 {
		t.Errorf("%d genes kept, edgeR 1646", kept)
	}
	lc := c.LogCPM(lib, f, 2)
	for g, r := range readCSV(t, "logcpm.csv")[1:] {
		for s := range c {
			want, _ := strconv.ParseFloat(strings.TrimSpace(r[s+1]), 64)
			if math.Abs(lc[s][g]-want) > 1e-10 {
				t.Fatalf("%s sample %d: log-CPM %.17g, edgeR %.17g", r[0], s+1, lc[s][g], want)
			}
		}
	}
	if err := (Counts{{1, -2}}).Check(); err == nil {
		t.Error("a negative count accepted")
	}
}

// Norm fitted on ten training samples of the simulated counts (1-5, 8-12) equals edgeR
// 3.40 on those samples alone (testdata/norm_ref.R: filterByExpr, calcNormFactors and
// cpm(log = TRUE, prior.count = 2) after keep.lib.sizes = FALSE), and a held-out sample
// normalised against the frozen reference alone equals edgeR's own TMM of it against
// that reference (edgeR:::.calcFactorTMM) over the training scale, to 1e-10: the genes
// kept, the library sizes, the factors and every log-CPM value of the kept genes.
func TestNormEqualsEdgeROnTrainingSamples(t *testing.T) {
	c, group := simulated(t)
	train, test := []int{0, 1, 2, 3, 4, 7, 8, 9, 10, 11}, []int{5, 6, 12, 13}
	var tc Counts
	var tg []int
	for _, s := range train {
		tc, tg = append(tc, c[s]), append(tg, group[s])
	}
	n, err := Fit(tc, tg)
	if err != nil {
		t.Fatal(err)
	}
	for g, r := range readCSV(t, "norm_keep.csv")[1:] {
		if n.Keep[g] != (r[1] == "TRUE") {
			t.Fatalf("%s: kept %v, edgeR %s", r[0], n.Keep[g], r[1])
		}
	}
	order := append(append([]int{}, train...), test...)
	for i, r := range readCSV(t, "norm_factors.csv")[1:] {
		lib, f := n.Factor(c[order[i]])
		wantLib, _ := strconv.ParseFloat(strings.TrimSpace(r[1]), 64)
		wantF, _ := strconv.ParseFloat(strings.TrimSpace(r[2]), 64)
		if lib != wantLib || math.Abs(f-wantF) > 1e-10 {
			t.Errorf("%s (%s): library %v factor %.17g, edgeR %v %.17g", r[0], r[3], lib, f, wantLib, wantF)
		}
	}
	rows := readCSV(t, "norm_logcpm.csv")
	out := make([]float64, len(c[0]))
	for i, s := range order {
		n.LogCPM(c[s], out)
		for k, r := range rows[1:] {
			g := n.Kept[k]
			if r[0] != fmt.Sprintf("gene%04d", g+1) {
				t.Fatalf("row %d is %s, kept gene %d", k, r[0], g+1)
			}
			want, _ := strconv.ParseFloat(strings.TrimSpace(r[i+1]), 64)
			if math.Abs(out[g]-want) > 1e-10 {
				t.Fatalf("%s %s: log-CPM %.17g, edgeR %.17g", rows[0][i+1], r[0], out[g], want)
			}
		}
	}
}

// Voom's moderated statistics equal limma 3.54's voom, lmFit and eBayes (design ~
// group, topTable of the group coefficient) on the simulated counts after filterByExpr
// and TMM (testdata/voom_ref.R): for every kept gene logFC, AveExpr and t to 1e-8
// relative, p to 1e-8 relative, and the prior's df and s0^2 to 1e-8.
func TestVoomEqualsLimma(t *testing.T) {
	c, group := simulated(t)
	for s := range group {
		group[s]-- // 1, 2 -> 0, 1
	}
	n, err := Fit(c, group)
	if err != nil {
		t.Fatal(err)
	}
	kept := make(Counts, len(c))
	lib := make([]float64, len(c))
	for s, row := range c {
		kept[s] = n.Pick(row)
		l, f := n.Factor(row)
		lib[s] = l * f
	}
	m, err := Voom(kept, lib, group)
	if err != nil {
		t.Fatal(err)
	}
	rel := func(a, b float64) float64 { return math.Abs(a-b) / math.Max(math.Abs(b), 1e-300) }
	b, _ := os.ReadFile(filepath.Join("testdata", "voom_prior.txt"))
	var d0, s0 float64
	fmt.Sscan(string(b), &d0, &s0)
	if rel(m.DFPrior, d0) > 1e-8 || rel(m.S2Prior, s0) > 1e-8 {
		t.Errorf("prior df %.12g s0^2 %.12g, limma %.12g %.12g", m.DFPrior, m.S2Prior, d0, s0)
	}
	rows := readCSV(t, "voom.csv")[1:]
	if len(rows) != len(n.Kept) {
		t.Fatalf("%d genes, limma %d", len(n.Kept), len(rows))
	}
	worst := 0.0
	for k, r := range rows {
		want := make([]float64, 4)
		for i := range want {
			want[i], _ = strconv.ParseFloat(strings.TrimSpace(r[i+1]), 64)
		}
		for i, got := range []float64{m.LogFC[k], m.AveExpr[k], m.T[k], m.P[k]} {
			worst = math.Max(worst, rel(got, want[i]))
			if rel(got, want[i]) > 1e-8 {
				t.Fatalf("%s statistic %d: %.15g, limma %.15g", r[0], i, got, want[i])
			}
		}
	}
	t.Logf("largest relative difference %.2g over %d genes", worst, len(rows))
}

// On real RNA-seq counts (testdata/pickrell2k.tsv.gz: 2,028 genes of Pickrell et al.'s
// 69 lymphoblastoid cell lines, 40 female and 29 male; testdata/pickrell_ref.R) the
// genes filterByExpr keeps, each library size and TMM factor equal edgeR 3.40's (to
// 1e-10), and voom/lmFit/eBayes's statistics of male against female limma 3.54's (to
// 1e-8 relative), with the Y-chromosome genes (RPS4Y1, DDX3Y) and XIST at the top.
func TestCountsAndVoomOnPickrell(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "pickrell2k.tsv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	sex := strings.Split(lines[1], "\t")[1:]
	n := len(sex)
	group := make([]int, n)
	for s, v := range sex {
		group[s] = map[string]int{"female": 0, "male": 1}[v]
	}
	c := make(Counts, n)
	var genes []string
	for _, l := range lines[2:] {
		f := strings.Split(l, "\t")
		genes = append(genes, f[0])
		for s := range n {
			v, err := strconv.ParseFloat(f[s+1], 64)
			if err != nil {
				t.Fatal(err)
			}
			c[s] = append(c[s], v)
		}
	}
	norm, err := Fit(c, group)
	if err != nil {
		t.Fatal(err)
	}
	keptRef, _ := os.ReadFile(filepath.Join("testdata", "pickrell_keep.txt"))
	if want := strings.Fields(string(keptRef)); !slices.Equal(dataPick(genes, norm.Kept), want) {
		t.Fatalf("%d genes kept, edgeR %d (or others)", len(norm.Kept), len(want))
	}
	kept := make(Counts, n)
	lib := make([]float64, n)
	for s, r := range readCSV(t, "pickrell_norm.csv")[1:] {
		l, fac := norm.Factor(c[s])
		wantL, _ := strconv.ParseFloat(strings.TrimSpace(r[1]), 64)
		wantF, _ := strconv.ParseFloat(strings.TrimSpace(r[2]), 64)
		if l != wantL || math.Abs(fac-wantF) > 1e-10 {
			t.Errorf("%s: library %v factor %.15g, edgeR %v %.15g", r[0], l, fac, wantL, wantF)
		}
		kept[s], lib[s] = norm.Pick(c[s]), l*fac
	}
	m, err := Voom(kept, lib, group)
	if err != nil {
		t.Fatal(err)
	}
	rel := func(a, b float64) float64 { return math.Abs(a-b) / math.Max(math.Abs(b), 1e-300) }
	pb, _ := os.ReadFile(filepath.Join("testdata", "pickrell_prior.txt"))
	var d0, s0 float64
	fmt.Sscan(string(pb), &d0, &s0)
	if rel(m.DFPrior, d0) > 1e-8 || rel(m.S2Prior, s0) > 1e-8 {
		t.Errorf("prior df %.12g s0^2 %.12g, limma %.12g %.12g", m.DFPrior, m.S2Prior, d0, s0)
	}
	best, bestP := "", 1.0
	for k, r := range readCSV(t, "pickrell_voom.csv")[1:] {
		for i, got := range []float64{m.LogFC[k], m.AveExpr[k], m.T[k], m.P[k]} {
			want, _ := strconv.ParseFloat(strings.TrimSpace(r[i+1]), 64)
			if rel(got, want) > 1e-8 {
				t.Fatalf("%s statistic %d: %.15g, limma %.15g", r[0], i, got, want)
			}
		}
		if m.P[k] < bestP {
			best, bestP = r[0], m.P[k]
		}
	}
	if !slices.Contains([]string{"ENSG00000129824", "ENSG00000067048", "ENSG00000229807", "ENSG00000012817", "ENSG00000183878", "ENSG00000198692"}, best) {
		t.Errorf("the most significant gene is %s (p %.3g), not a sex-chromosome gene", best, bestP)
	}
}

func dataPick(s []string, idx []int) []string {
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = s[j]
	}
	return out
}
