package cli

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRankLogCPMRanksFilteredGenesLast: rank --log-cpm ranks the genes edgeR's
// filterByExpr drops after every gene it keeps, as its note says and as a run's
// ranking on all samples does (it had ranked 51 dropped genes among Bottomly's top
// 200). The counts and filterByExpr's choice are edgeR 3.40's
// (compute/counts/testdata/edger_ref.R: counts.csv, keep.csv).
func TestRankLogCPMRanksFilteredGenesLast(t *testing.T) {
	src := filepath.Join("..", "compute", "counts", "testdata")
	read := func(name string) [][]string {
		f, err := os.Open(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	counts, keepRows := read("counts.csv"), read("keep.csv")
	kept := map[string]bool{}
	for _, r := range keepRows[1:] {
		kept[r[0]] = r[1] == "TRUE"
	}
	class := []string{"class"}
	for _, s := range counts[0][1:] {
		class = append(class, s[strings.LastIndex(s, "_")+1:])
	}
	counts[0][0] = "gene"
	dir := t.TempDir()
	path := filepath.Join(dir, "counts.csv")
	f, _ := os.Create(path)
	w := csv.NewWriter(f)
	w.WriteAll(append(counts, class))
	f.Close()
	code, out, errs := runMain(t, []string{"rank", "--data", path, "--method", "fstat", "--log-cpm"}, 2*time.Minute)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	nKept := 0
	for _, k := range kept {
		if k {
			nKept++
		}
	}
	for i, l := range lines {
		gene := strings.Split(l, "\t")[1]
		if kept[gene] != (i < nKept) {
			t.Fatalf("rank %d: %s, kept by filterByExpr %v; the %d kept genes come first", i+1, gene, kept[gene], nKept)
		}
	}
	if !strings.Contains(errs, "ranked last") {
		t.Errorf("the note: %s", errs)
	}
}
