package group

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/fastblas"
)

// kmeansCase is one K-means run of testdata/kmeans_golden.txt: what it ran and what the
// code before the rewrite gave.
type kmeansCase struct {
	file                 string
	K, restarts, closest int
	seed                 uint64
	ss                   map[string][]float64 // by product: openblas, go, gonum
	groups               []string             // "REP: MEMBERS", in rank order
}

func readKMeansGolden(t *testing.T) []*kmeansCase {
	t.Helper()
	f, err := os.Open("testdata/kmeans_golden.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []*kmeansCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch w := strings.Fields(line); {
		case strings.HasPrefix(line, "#"):
		case w[0] == "case":
			c := &kmeansCase{file: w[1], ss: map[string][]float64{}}
			if _, err := fmt.Sscan(strings.Join(w[2:], " "), &c.K, &c.restarts, &c.closest, &c.seed); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			cases = append(cases, c)
		case w[0] == "ss":
			for _, v := range w[2:] {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil {
					t.Fatalf("%q: %v", line, err)
				}
				cases[len(cases)-1].ss[w[1]] = append(cases[len(cases)-1].ss[w[1]], x)
			}
		default:
			cases[len(cases)-1].groups = append(cases[len(cases)-1].groups, line)
		}
	}
	if err := sc.Err(); err != nil || len(cases) == 0 {
		t.Fatalf("kmeans_golden.txt: %d cases, %v", len(cases), err)
	}
	return cases
}

// TestKMeansAsBeforeOnRealSets runs the cases of testdata/kmeans_golden.txt (written by
// the code before the rewrite, commit e1cc1d5) and wants the same groups in the same
// order and, on Go's products (STEADFAST_BLAS=go or gonum: the same bits on every
// machine), each restart's sum of squares bit for bit; OpenBLAS's bits depend on its
// version and the processor's kernel, so there within 1e-12 relative.
func TestKMeansAsBeforeOnRealSets(t *testing.T) {
	product := "openblas"
	switch {
	case fastblas.Kernel():
		product = "go"
	case !fastblas.Native():
		product = "gonum"
	}
	for _, c := range readKMeansGolden(t) {
		ds := realZ(t, c.file)
		km := KMeans{Clusters: c.K, Restarts: c.restarts, Closest: c.closest}
		_, ss, err := km.cluster(context.Background(), ds.X, newPoints(ds.X), dataset.Rand(c.seed), 3)
		if err != nil {
			t.Fatal(err)
		}
		want := c.ss[product]
		if len(ss) != len(want) {
			t.Fatalf("%s: %d restarts, want %d", c.file, len(ss), len(want))
		}
		for i := range ss {
			if ss[i] != want[i] && (product != "openblas" || math.Abs(ss[i]-want[i]) > 1e-12*want[i]) {
				t.Errorf("%s (%s): restart %d sum of squares %x, want %x", c.file, product, i, ss[i], want[i])
			}
		}
		groups, err := km.Groups(context.Background(), ds.X, ds.Labels, len(ds.Classes), dataset.Rand(c.seed))
		if err != nil {
			t.Fatal(err)
		}
		if len(groups) != len(c.groups) {
			t.Fatalf("%s: %d groups, want %d", c.file, len(groups), len(c.groups))
		}
		for i, g := range groups {
			if got := groupLine(g); got != c.groups[i] {
				t.Fatalf("%s: group %d is\n%s\nwant\n%s", c.file, i, got, c.groups[i])
			}
		}
	}
}

func groupLine(g Group) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d:", g.Representative)
	for _, m := range g.Members {
		fmt.Fprintf(&b, " %d", m)
	}
	return b.String()
}

// TestKMeansRefillsEmptyClusters: three copies each of two profiles and K = 4. By hand:
// k-means++ puts two centres on the two profiles and, all distances then 0, the other two
// on feature 0's profile; ties go to the first centre, so centres 2 and 3 are empty and
// move to the farthest features (all at 0: features 0 and 1), which leaves them empty
// again; the clusters are the two profiles' copies.
func TestKMeansRefillsEmptyClusters(t *testing.T) {
	a, b := []float64{1, -1, 0.5}, []float64{-2, 1, 1}
	x := mat.NewDense(3, 6, nil)
	for j := 0; j < 6; j++ {
		col := a
		if j%2 == 1 {
			col = b
		}
		x.SetCol(j, col)
	}
	groups, err := KMeans{Clusters: 4, Restarts: 3}.Groups(context.Background(), x, []int{0, 1, 1}, 2, dataset.Rand(5))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range groups {
		got = append(got, fmt.Sprint(g.Members))
	}
	if len(got) != 2 || !(got[0] == "[0 2 4]" && got[1] == "[1 3 5]" || got[0] == "[1 3 5]" && got[1] == "[0 2 4]") {
		t.Fatalf("groups %v, want [0 2 4] and [1 3 5]", got)
	}
}

// TestArgminDistFirstOfEquals: the four interleaved runs give the first c of the least d,
// as one run would: for every K up to 9 and every set of centres at the least distance
// (d = 2 there, 11 elsewhere), the lowest of the set.
func TestArgminDistFirstOfEquals(t *testing.T) {
	for K := 1; K <= 9; K++ {
		cross := make([]float64, K)
		cnorm := make([]float64, K)
		for set := 1; set < 1<<K; set++ {
			want := -1
			for c := range cnorm {
				cnorm[c] = 10
				if set&(1<<c) != 0 {
					cnorm[c] = 1
					if want < 0 {
						want = c
					}
				}
			}
			if b, d := argminDist(1, cross, cnorm); b != want || d != 2 {
				t.Fatalf("K = %d, least at %b: argmin %d (%g), want %d (2)", K, set, b, d, want)
			}
		}
	}
}

// TestCloserIsDist2: the distances of k-means++, sixteen (AVX2) or four at a time, are
// dist2's, bit for bit (Lymphoma: 4,026 genes, ten left after the blocks of sixteen,
// two after those of four).
func TestCloserIsDist2(t *testing.T) {
	x := realZ(t, "lymphoma.csv").X
	ps := newPoints(x)
	lr := newLloyd(x, ps, 1)
	c := ps.pt.RawRowView(17)
	for j := range lr.nearest {
		lr.nearest[j] = math.Inf(1)
	}
	lr.closer(c)
	for j, got := range lr.nearest {
		if want := dist2(ps.pt.RawRowView(j), c); got != want {
			t.Fatalf("feature %d: %x, want dist2's %x", j, got, want)
		}
	}
}

// TestKMeansDoesNotDependOnWorkers: Colon, K = 40, 12 restarts on one goroutine and on
// five give the same sums of squares and the same assignment.
func TestKMeansDoesNotDependOnWorkers(t *testing.T) {
	x := realZ(t, "colon.csv").X
	ps := newPoints(x)
	km := KMeans{Clusters: 40, Restarts: 12}
	a1, ss1, err1 := km.cluster(context.Background(), x, ps, dataset.Rand(9), 1)
	a5, ss5, err5 := km.cluster(context.Background(), x, ps, dataset.Rand(9), 5)
	if err1 != nil || err5 != nil {
		t.Fatal(err1, err5)
	}
	if !slices.Equal(ss1, ss5) || !slices.Equal(a1, a5) {
		t.Fatalf("one goroutine: sums %v; five: %v (assignments equal: %v)", ss1, ss5, slices.Equal(a1, a5))
	}
}
