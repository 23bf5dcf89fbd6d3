package counts

import (
	"encoding/csv"
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
