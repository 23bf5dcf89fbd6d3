package stability

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// byHand reads testdata/catalogue_by_hand.txt, written by catalogue_by_hand.py (the
// formulas of stabm's and OmicsMarkeR's documentation on Python sets): one block of
// "name value" lines per case, each opened by a "#" line.
func byHand(t *testing.T) []map[string]float64 {
	f, err := os.Open("testdata/catalogue_by_hand.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			out = append(out, map[string]float64{})
			continue
		}
		name, v, _ := strings.Cut(line, " ")
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatal(err)
		}
		out[len(out)-1][name] = x
	}
	return out
}

func TestSetMeasuresOnStabmExample(t *testing.T) {
	want := byHand(t)[0]
	sets := [][]int{{1, 2, 3}, {1, 2, 3, 4}, {1, 2, 3, 4, 5}}
	const p = 10
	g := GlobalCounts{M: 3, P: p}
	h := map[int]float64{}
	for _, s := range sets {
		for _, j := range s {
			h[j]++
		}
	}
	for _, c := range h {
		g.Q += c
		g.Union++
		g.SumHLogH += c * math.Log2(c)
		g.SumHH1 += c * (c - 1)
	}
	for _, m := range SetMeasures {
		var got float64
		switch {
		case m.Global != nil:
			got = m.Global(g)
		case m.Pair != nil:
			if m.Name == "kuncheva" {
				continue // defined for equal sizes only: checked on the top-k cases
			}
			for _, pr := range [][2]int{{0, 1}, {0, 2}, {1, 2}} {
				a, b := sets[pr[0]], sets[pr[1]]
				got += m.Pair(float64(len(a)), float64(len(b)), float64(intersect(append([]int(nil), a...), append([]int(nil), b...))), p) / 3
			}
		default:
			continue
		}
		w, ok := want[m.Name]
		if !ok {
			t.Errorf("%s: no value by hand", m.Name)
		} else if math.Abs(got-w) > 1e-9 {
			t.Errorf("%s = %.10f, by hand %.10f", m.Name, got, w)
		}
	}
}

func TestSetCurvesOnTopK(t *testing.T) {
	orders := [][]int{{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}, {7, 6, 5, 4, 3, 2, 1, 0}, {0, 2, 4, 6, 1, 3, 5, 7}}
	var pairs [][2]int
	for i := range orders {
		for j := i + 1; j < len(orders); j++ {
			pairs = append(pairs, [2]int{i, j})
		}
	}
	ks := []int{1, 3, 5}
	got := SetCurves(orders, nil, pairs, 8, ks)
	hand := byHand(t)
	for ki, k := range ks {
		want := hand[map[int]int{1: 1, 3: 2, 5: 3}[k]]
		for _, m := range SetMeasures {
			if math.Abs(got[m.Name][ki]-want[m.Name]) > 1e-9 {
				t.Errorf("k = %d: %s = %.10f, by hand %.10f", k, m.Name, got[m.Name][ki], want[m.Name])
			}
		}
	}
	// Nogueira's global measure is the estimate NogueiraCurve gives
	for ki, e := range NogueiraCurve(orders, 8, ks) {
		if math.Abs(e.Phi-got["nogueira"][ki]) > 1e-12 {
			t.Errorf("k = %d: nogueira %v, NogueiraCurve %v", ks[ki], got["nogueira"][ki], e.Phi)
		}
	}
}
