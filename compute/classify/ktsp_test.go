package classify

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

// colonLog2 is Colon (../shared/data), log2 with values below 1 raised to 1, and its
// classes with 1 = tumor, as the references.
func colonLog2(t *testing.T) (*dataset.Dataset, []int) {
	t.Helper()
	ds, err := dataset.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "colon.csv"), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	ds, _ = dataset.Preprocess(ds, dataset.Prep{Log2: true})
	tumour := slices.Index(ds.Classes, "tumor")
	y := make([]int, len(ds.Labels))
	for i, l := range ds.Labels {
		if l == tumour {
			y[i] = 1
		}
	}
	return ds, y
}

func readCSV(t *testing.T, name string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// pairNames are a fit's pairs as "gene1 gene2 class-when-gene1<gene2".
func pairNames(pairs [][2]int, less []int, genes []string) []string {
	var out []string
	for p, pr := range pairs {
		out = append(out, genes[pr[0]]+" "+genes[pr[1]]+" "+[]string{"normal", "tumor"}[less[p]])
	}
	return out
}

// k-TSP equals a reference written from the papers in exact arithmetic
// (testdata/ktsp_ref.py: Python fractions, run with /usr/bin/python3) on Colon's 20
// genes of largest F, log2, trained on the odd-numbered samples: with k = 9 the same nine
// pairs in the same order with the same class for x_i < x_j and every sample's share of
// votes for tumour; with k chosen by leave-one-out the same errors for k = 1, 3, ..., 9
// (5, 8, 6, 5, 6: k = 1, the smaller of the two of 5 errors) and the same votes. Any
// increasing transform of each sample's values (another platform: 3 + 2 log2 x, or x^1.7)
// changes no vote.
func TestKTSPEqualsReference(t *testing.T) {
	recs := readCSV(t, "ktsp_colon.csv")
	ds, y := colonLog2(t)
	genes := recs[0][1:]
	var cols []int
	for _, g := range genes {
		cols = append(cols, slices.Index(ds.Features, g))
	}
	x := dataset.SelectFeatures(ds.X, cols)
	var train []int
	for i := 0; i < len(y); i += 2 {
		train = append(train, i)
	}
	xt, yt := dataset.SelectSamples(x, y, train)
	fixed, cv := KTSP{K: 9}, KTSP{}
	if err := fixed.Fit(xt, yt, 2); err != nil {
		t.Fatal(err)
	}
	if err := cv.Fit(xt, yt, 2); err != nil {
		t.Fatal(err)
	}
	var wantPairs []string
	var wantCV []int
	var wantK int
	var want9, wantK9 []float64
	for _, rec := range recs[1:] {
		switch rec[0] {
		case "pair":
			wantPairs = append(wantPairs, strings.Join(rec[1:], " "))
		case "cv":
			for _, s := range rec[1:] {
				e, _ := strconv.Atoi(s)
				wantCV = append(wantCV, e)
			}
		case "k":
			wantK, _ = strconv.Atoi(rec[1])
		case "sample":
			v, _ := strconv.ParseFloat(rec[2], 64)
			w, _ := strconv.ParseFloat(rec[4], 64)
			want9, wantK9 = append(want9, v), append(wantK9, w)
		}
	}
	if got := pairNames(fixed.Pairs, fixed.Less, genes); !slices.Equal(got, wantPairs) {
		t.Errorf("k = 9: pairs\n%q, the reference\n%q", got, wantPairs)
	}
	if fixed.CVErrors != nil || !slices.Equal(cv.CVErrors, wantCV) || len(cv.Pairs) != wantK {
		t.Errorf("leave-one-out errors %v choosing %d pairs, the reference %v and %d (fixed k: %v)", cv.CVErrors, len(cv.Pairs), wantCV, wantK, fixed.CVErrors)
	}
	if got := pairNames(cv.Pairs, cv.Less, genes); !slices.Equal(got, wantPairs[:min(wantK, len(wantPairs))]) {
		t.Errorf("k chosen: pairs %q, the reference's first %d", got, wantK)
	}
	for m, want := range map[*KTSP][]float64{&fixed: want9, &cv: wantK9} {
		_, scores := m.PredictScores(x)
		for i, s := range scores {
			if math.Abs(s[1]-want[i]) > 1e-12 {
				t.Errorf("%d pairs, sample %d: %g of the votes for tumour, the reference %g", len(m.Pairs), i+1, s[1], want[i])
			}
		}
		n, p := x.Dims()
		for _, tr := range []func(float64) float64{func(v float64) float64 { return 3 + 2*math.Log2(v) }, func(v float64) float64 { return math.Pow(v, 1.7) }} {
			moved := mat.NewDense(n, p, nil)
			moved.Apply(func(_, _ int, v float64) float64 { return tr(v) }, x)
			_, ms := m.PredictScores(moved)
			for i := range ms {
				if ms[i][1] != scores[i][1] {
					t.Fatalf("sample %d: a monotone transform moved its votes from %g to %g", i+1, scores[i][1], ms[i][1])
				}
			}
		}
	}
	if err := (&KTSP{}).Fit(xt, yt, 3); err == nil {
		t.Error("k-TSP fitted three classes")
	}
	for _, k := range []int{-1, 2, 8} {
		if err := (&KTSP{K: k}).Fit(xt, yt, 2); err == nil || !strings.Contains(err.Error(), "must be odd") {
			t.Errorf("k = %d: %v", k, err)
		}
	}
}

// k-TSP's pairs equal switchBox's SWAP.KTSP.Train (krange = 9, FilterFunc = NULL) on
// Colon, log2 (testdata/ktsp_switchbox.csv, from testdata/ktsp_switchbox.R: switchBox
// 1.43.0 built from source, R_LIBS=/tmp/rlib Rscript ktsp_switchbox.R): on 10 random
// sets of 15 normal and 15 tumour samples of all 2000 genes, the same nine pairs in the
// same order, each voting for the same class. On unequal classes switchBox breaks ties of
// Delta by its own rank score, a difference of the classes' rank sums over n_0 n_1 (not
// Tan et al.'s difference of means): with that score instead of Gamma, the pairs equal
// switchBox's on 10 random stratified halves (11 normal, 20 tumour) and on the 20 genes of
// ktsp_ref.py too, so Delta, its ties, the disjoint choice and the votes' direction are
// switchBox's. With Gamma they equal the exact reference on every set
// (testdata/ktsp_pairs.csv, from /usr/bin/python3 ktsp_ref.py: numpy int64).
func TestKTSPEqualsSwitchBox(t *testing.T) {
	ds, y := colonLog2(t)
	type fitCase struct{ name, train, genes string }
	var cases []fitCase
	sb := map[fitCase][]string{}
	for _, r := range readCSV(t, "ktsp_switchbox.csv")[1:] {
		c := fitCase{r[0], r[1], r[2]}
		if _, ok := sb[c]; !ok {
			cases = append(cases, c)
		}
		sb[c] = append(sb[c], r[4]+" "+r[5]+" normal") // (gene1, gene2) votes normal when gene1 < gene2
	}
	exact := map[string][]string{}
	for _, r := range readCSV(t, "ktsp_pairs.csv")[1:] {
		exact[r[0]+"/"+r[1]] = append(exact[r[0]+"/"+r[1]], strings.Join(r[3:], " "))
	}
	if len(cases) != 21 {
		t.Fatalf("%d cases in ktsp_switchbox.csv, not 21", len(cases))
	}
	differ := 0
	for _, c := range cases {
		cols := make([]int, len(ds.Features))
		for j := range cols {
			cols[j] = j
		}
		if c.genes != "all" {
			cols = cols[:0]
			for _, g := range strings.Fields(c.genes) {
				cols = append(cols, slices.Index(ds.Features, g))
			}
		}
		var train []int
		for _, s := range strings.Fields(c.train) {
			i, _ := strconv.Atoi(s)
			train = append(train, i-1)
		}
		x := dataset.SelectFeatures(ds.X, cols)
		xt, yt := dataset.SelectSamples(x, y, train)
		genes := make([]string, len(cols))
		for j, c := range cols {
			genes[j] = ds.Features[c]
		}
		st, err := newPairStats(xt, yt)
		if err != nil {
			t.Fatal(err)
		}
		sbPairs, sbLess := st.top(-1, true, 9)
		viaSB := orientAs(pairNames(sbPairs, sbLess, genes), sb[c])
		if !slices.Equal(viaSB, sb[c]) {
			t.Errorf("%s %s: with switchBox's rank score\n%q, switchBox\n%q", c.name, c.train, viaSB, sb[c])
		}
		m := KTSP{K: 9}
		if err := m.Fit(xt, yt, 2); err != nil {
			t.Fatal(err)
		}
		got := pairNames(m.Pairs, m.Less, genes)
		if c.name != "ref20" && !slices.Equal(got, exact[c.name+"/"+c.train]) {
			t.Errorf("%s %s: pairs\n%q, the exact reference\n%q", c.name, c.train, got, exact[c.name+"/"+c.train])
		}
		if c.name == "balanced" && !slices.Equal(orientAs(got, sb[c]), sb[c]) {
			t.Errorf("%s %s: pairs\n%q, switchBox\n%q", c.name, c.train, got, sb[c])
		}
		if c.name == "half" && !slices.Equal(orientAs(got, sb[c]), sb[c]) {
			differ++
		}
	}
	t.Logf("on %d of 10 halves of unequal classes switchBox's rank score chose other pairs or another order than Gamma", differ)
}

// orientAs writes each pair "a b class" as "b a other-class" when want has it so: the
// same pair voting the same way.
func orientAs(got, want []string) []string {
	out := slices.Clone(got)
	for i, g := range got {
		f := strings.Fields(g)
		other := map[string]string{"normal": "tumor", "tumor": "normal"}[f[2]]
		if flip := f[1] + " " + f[0] + " " + other; slices.Contains(want, flip) {
			out[i] = flip
		}
	}
	return out
}

// twoTies is the hand-worked case of 9 genes A B C D S1..S5 and 11 + 20 samples: A, B
// below 10, C at 25, D at 100 (above C) or 15 (below), the spacers S at 50..54 in every
// sample. A < B in 2 of class 0 and 1 of class 1; C < D in 9 of class 0 and 19 of class
// 1. So Delta(A,B) = |2/11 − 1/20| = 29/220 = |9/11 − 19/20| = Delta(C,D) = Delta(D,S)
// (D < S exactly when D < C), while in float64 2/11 − 1/20 exceeds 19/20 − 9/11 by 1e-16.
// Ranks: r_A − r_B = ∓1, so Gamma(A,B) = |7/11 − 18/20| = 58/220; r_C − r_D = −6 (C < D:
// ranks 3 and 9) or +1 (D < C: 4 and 3), so Gamma(C,D) = |−52/11 + 113/20| = 203/220, and
// Gamma(D,S_t) = 203/220 too. Every other pair keeps its order in all samples: Delta 0.
func twoTies() (*mat.Dense, []int) {
	x := mat.NewDense(31, 9, nil)
	y := make([]int, 31)
	for s := range y {
		c, i := 0, s // i: the sample's place within its class
		if s >= 11 {
			c, i = 1, s-11
		}
		y[s] = c
		a, b := 2.0, 1.0 // B < A
		if c == 0 && i < 2 || c == 1 && i < 1 {
			a, b = 1, 2
		}
		d := 100.0
		if c == 0 && i >= 9 || c == 1 && i >= 19 {
			d = 15
		}
		x.SetRow(s, []float64{a, b, 25, d, 50, 51, 52, 53, 54})
	}
	return x, y
}

// Delta's ties are exact and go to Gamma (hand-worked in twoTies): C-D (Gamma 203/220)
// beats A-B (58/220) though float64 ranks A-B's Delta higher and A-B comes first in the
// columns; C-D and D-S1 tie in both scores, and the lower (i, j) wins. C-D votes for
// class 1 when C < D (19/20 > 9/11). Only two disjoint pairs have Delta > 0 (C-D, then
// A-B), so three pairs asked for give one, the largest odd number. Reversing the columns
// moves only the choice among exact ties of both scores.
func TestKTSPExactTies(t *testing.T) {
	x, y := twoTies()
	m := KTSP{K: 3}
	if err := m.Fit(x, y, 2); err != nil {
		t.Fatal(err)
	}
	if want := [][2]int{{2, 3}}; !slices.Equal(m.Pairs, want) || !slices.Equal(m.Less, []int{1}) {
		t.Errorf("pairs %v voting %v when x_i < x_j; want %v voting [1]", m.Pairs, m.Less, want)
	}
	n, p := x.Dims()
	rev := mat.NewDense(n, p, nil)
	for j := 0; j < p; j++ {
		rev.SetCol(p-1-j, mat.Col(nil, j, x))
	}
	r := KTSP{K: 3}
	if err := r.Fit(rev, y, 2); err != nil {
		t.Fatal(err)
	}
	// Reversed, S5..S1 are columns 0..4, D 5, C 6, B 7, A 8: of the tied C-D (5, 6) and
	// D-S_t, D-S5 (0, 5) is now the lowest, voting for class 1 when S5 < D (as C < D).
	if want := [][2]int{{0, 5}}; !slices.Equal(r.Pairs, want) || !slices.Equal(r.Less, []int{1}) {
		t.Errorf("reversed columns: pairs %v voting %v; want %v voting [1]", r.Pairs, r.Less, want)
	}
}

// k-TSP stops at Delta = 0: with every pair's order the same in both classes it has no
// pair and gives every sample the larger training class (hand-worked: 3 of class 1
// against 2); a pair whose two values are equal in a sample gives each class half a
// vote, and a tie of votes goes to class 0.
func TestKTSPStopsAtDeltaZero(t *testing.T) {
	x := mat.NewDense(5, 3, []float64{1, 2, 3, 1, 2, 3, 2, 4, 6, 0, 1, 9, 5, 6, 7})
	y := []int{0, 0, 1, 1, 1}
	var m KTSP
	if err := m.Fit(x, y, 2); err != nil {
		t.Fatal(err)
	}
	if len(m.Pairs) != 0 || m.Majority != 1 || m.CVErrors == nil {
		t.Fatalf("pairs %v, majority %d, errors %v: want none, 1 and leave-one-out's", m.Pairs, m.Majority, m.CVErrors)
	}
	if c, v := m.Vote([]float64{3, 2, 1}); c != 1 || !slices.Equal(v, []float64{0, 1}) {
		t.Errorf("no pair: class %d, votes %v; want 1, [0 1]", c, v)
	}
	k := KTSP{Pairs: [][2]int{{0, 1}, {1, 2}, {0, 2}}, Less: []int{0, 1, 1}}
	// Pair 1: 5 = 5, half each; pair 2: 5 > 4, class 0; pair 3: 5 > 4, class 0: 2.5 to 0.5.
	if c, v := k.Vote([]float64{5, 5, 4}); c != 0 || !slices.Equal(v, []float64{2.5 / 3, 0.5 / 3}) {
		t.Errorf("class %d, votes %v; want 0, [2.5/3 0.5/3]", c, v)
	}
	k = KTSP{Pairs: [][2]int{{0, 1}}, Less: []int{1}}
	if c, v := k.Vote([]float64{7, 7}); c != 0 || !slices.Equal(v, []float64{0.5, 0.5}) {
		t.Errorf("a tied vote: class %d, votes %v; want 0, [0.5 0.5]", c, v)
	}
}

// k chosen by leave-one-out, hand-worked: 6 genes in three blocks of values (A, B below
// 10; C, D in 20..30; E, F in 40..50), so that only A-B, C-D and E-F have Delta > 0, and
// 4 + 4 samples. Class 0 has A < B, C < D, E < F except A > B in sample 1 and C > D in
// sample 2; class 1 the reverse except E < F in sample 5. Left out, sample 1 is
// classified by A-B (then Delta 1) alone wrongly, by A-B, E-F, C-D rightly 2 to 1; so
// sample 2 (C-D first), sample 5 (E-F first); the five others are right with 1 pair and
// with 3. Errors: 3 with k = 1, 0 with k = 3, 5, 7, 9 (three pairs only): k = 3.
func TestKTSPChoosesKByLeaveOneOut(t *testing.T) {
	x := mat.NewDense(8, 6, nil)
	y := []int{0, 0, 0, 0, 1, 1, 1, 1}
	for s := range y {
		less := [3]bool{y[s] == 0, y[s] == 0, y[s] == 0} // A < B, C < D, E < F
		switch s {
		case 0, 1:
			less[s] = false
		case 4:
			less[2] = true
		}
		row := []float64{1, 2, 21, 22, 41, 42}
		for b, l := range less {
			if !l {
				row[2*b], row[2*b+1] = row[2*b+1], row[2*b]
			}
		}
		x.SetRow(s, row)
	}
	var m KTSP
	if err := m.Fit(x, y, 2); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.CVErrors, []int{3, 0, 0, 0, 0}) || !slices.Equal(m.Pairs, [][2]int{{0, 1}, {2, 3}, {4, 5}}) || !slices.Equal(m.Less, []int{0, 0, 0}) {
		t.Errorf("errors %v, pairs %v voting %v; want [3 0 0 0 0], [[0 1] [2 3] [4 5]] voting [0 0 0]", m.CVErrors, m.Pairs, m.Less)
	}
	one := KTSP{K: 1}
	if err := one.Fit(x, y, 2); err != nil || !slices.Equal(one.Pairs, [][2]int{{0, 1}}) || one.CVErrors != nil {
		t.Errorf("k = 1: pairs %v, errors %v (%v); want [[0 1]], none", one.Pairs, one.CVErrors, err)
	}
}
