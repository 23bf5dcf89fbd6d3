package enrich

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func lines(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
}

// Over-representation on the shipped GO sets equals limma's goana (R 4.2.2, limma
// 3.54; testdata/goana_ref.R) with the same universe (every gene of the table) and
// selection (40 genes, 25 of antigen processing and presentation): for each of the 8,522 terms the same
// universe and selected counts, and P equal to goana's P.DE and R's phyper to 1e-10
// (relative).
func TestORAEqualsGoana(t *testing.T) {
	c := GO()
	if len(c.Sets) != 8522 || !strings.Contains(c.Source, "CC BY 4.0") {
		t.Fatalf("%d sets; source %q", len(c.Sets), c.Source)
	}
	r := ORA(c, lines(t, "selected.txt"), lines(t, "universe.txt"))
	if r.N != len(c.Genes) || r.Selected() != 40 {
		t.Fatalf("universe %d (want %d), selected %d", r.N, len(c.Genes), r.Selected())
	}
	byID := map[string]Term{}
	for _, term := range r.Terms {
		byID[term.Set.ID] = term
	}
	f, err := os.Open(filepath.Join("testdata", "goana.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for _, rec := range recs[1:] {
		term, ok := byID[rec[0]]
		if !ok {
			t.Fatalf("%s: not tested", rec[0])
		}
		m, _ := strconv.Atoi(rec[1])
		x, _ := strconv.Atoi(rec[2])
		if term.M != m || term.X != x {
			t.Fatalf("%s: %d in the set, %d selected; goana %d, %d", rec[0], term.M, term.X, m, x)
		}
		for _, s := range rec[3:5] {
			want, _ := strconv.ParseFloat(s, 64)
			if d := math.Abs(term.P-want) / math.Max(want, 1e-300); d > worst {
				worst = d
			}
			if math.Abs(term.P-want) > 1e-10*want {
				t.Errorf("%s: P %.17g, R %.17g", rec[0], term.P, want)
			}
		}
	}
	if len(recs)-1 != len(r.Terms) {
		t.Errorf("%d terms tested, goana %d", len(r.Terms), len(recs)-1)
	}
	t.Logf("largest relative difference from goana and phyper: %.2g; first term %s %s (P %.3g, q %.3g)", worst, r.Terms[0].Set.ID, r.Terms[0].Set.Name, r.Terms[0].P, r.Terms[0].Q)
}

// HyperUpper by hand: 2 or more of 3 marked among 4 drawn from 10 is
// (C(3,2)C(7,2) + C(3,3)C(7,1)) / C(10,4) = (63 + 7) / 210 = 1/3.
func TestHyperUpperByHand(t *testing.T) {
	if p := HyperUpper(2, 3, 10, 4); math.Abs(p-1.0/3) > 1e-14 { // log-gamma's rounding
		t.Errorf("P = %.17g, want 1/3", p)
	}
	if HyperUpper(0, 3, 10, 4) != 1 || HyperUpper(4, 3, 10, 4) != 0 {
		t.Error("the tails' ends")
	}
}
