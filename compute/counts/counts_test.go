package counts

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
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
