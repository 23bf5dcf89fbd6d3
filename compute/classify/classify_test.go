package classify

import (
	"bufio"
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/synth"
)

// colon40 is Colon's first 40 genes, z-scored, with the data set (for its labels); it
// skips the test when the shared data are missing.
func colon40(t *testing.T) (*mat.Dense, *dataset.Dataset) {
	t.Helper()
	ds, err := dataset.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "colon.csv"), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	idx := make([]int, 40)
	for i := range idx {
		idx[i] = i
	}
	x := dataset.SelectFeatures(ds.X, idx)
	dataset.Standardize(x)
	return x, ds
}

// TestLinearSVMMatchesSklearn compares weights and bias with scikit-learn's LinearSVC
// (squared hinge, regularised bias, tol 1e-10) on z-scored Colon, first 40 genes, to 1e-7
// of the largest weight (Newton solves it exactly); the references and
// their command are in testdata/.
func TestLinearSVMMatchesSklearn(t *testing.T) {
	x, ds := colon40(t)
	fh, err := os.Open("testdata/colon40_linearsvc.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		head := strings.Fields(sc.Text())
		C, _ := strconv.ParseFloat(head[1], 64)
		bias, _ := strconv.ParseFloat(head[3], 64)
		sc.Scan()
		var want []float64
		for _, f := range strings.Split(sc.Text(), "\t") {
			v, _ := strconv.ParseFloat(f, 64)
			want = append(want, v)
		}
		m := LinearSVM{Params: SVMParams{C: C, Tol: 1e-8, MaxIter: 100000}, Exact: true}
		if err := m.Fit(context.Background(), x, ds.Labels, 2, dataset.Rand(1)); err != nil {
			t.Fatal(err)
		}
		if !m.Converged {
			t.Errorf("C = %g: not converged in %d passes", C, m.Iter)
		}
		maxW := 0.0
		for _, v := range want {
			maxW = math.Max(maxW, math.Abs(v))
		}
		for j, v := range want {
			if math.Abs(m.W[0][j]-v) > 1e-7*maxW {
				t.Errorf("C = %g: w[%d] = %.6f, sklearn %.6f", C, j, m.W[0][j], v)
			}
		}
		if math.Abs(m.B[0]-bias) > 1e-7*math.Max(1, math.Abs(bias)) {
			t.Errorf("C = %g: bias %.6f, sklearn %.6f", C, m.B[0], bias)
		}
	}
}

func TestLinearSVMSeparatesAndMulticlass(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 200, 5, 0)
	dataset.Standardize(ds.X)
	m := LinearSVM{}
	if err := m.Fit(context.Background(), ds.X, ds.Labels, 2, dataset.Rand(1)); err != nil {
		t.Fatal(err)
	}
	if acc := Accuracy(m.Predict(ds.X), ds.Labels); acc < 0.99 {
		t.Errorf("training accuracy %.3f on separable data (p > n)", acc)
	}
	// three well-separated blobs in 2-D, one-vs-rest: every training point classified right
	x := mat.NewDense(9, 2, []float64{0, 0, 0.2, 0.1, 0.1, 0.3, 5, 5, 5.2, 5.1, 4.9, 5.3, 0, 6, 0.2, 6.1, 0.1, 5.8})
	y := []int{0, 0, 0, 1, 1, 1, 2, 2, 2}
	if err := m.Fit(context.Background(), x, y, 3, dataset.Rand(1)); err != nil {
		t.Fatal(err)
	}
	if len(m.W) != 3 || Accuracy(m.Predict(x), y) != 1 {
		t.Errorf("multi-class: %d models, accuracy %.2f", len(m.W), Accuracy(m.Predict(x), y))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := m.Fit(ctx, ds.X, ds.Labels, 2, dataset.Rand(1)); err == nil {
		t.Error("a cancelled fit returned no error")
	}
}

// A sample of weight m must fit as m copies of it: the primal objectives are the same,
// so at a tight tolerance the weights agree (both losses; Colon's first 40 genes, a
// bootstrap draw with seed 3).
func TestLinearSVMSampleWeightEqualsCopies(t *testing.T) {
	x, ds := colon40(t)
	n, _ := x.Dims()
	r := dataset.Rand(3)
	draw := make([]int, n)
	count := make([]int, n)
	for i := range draw {
		draw[i] = r.IntN(n)
		count[draw[i]]++
	}
	var rows []int
	var weight []float64
	for i, c := range count {
		if c > 0 {
			rows = append(rows, i)
			weight = append(weight, float64(c))
		}
	}
	if len(rows) == n {
		t.Fatal("the draw has no repeated sample; pick another seed")
	}
	for _, loss := range []Loss{SquaredHinge, Hinge} {
		p := SVMParams{C: 0.5, Loss: loss, Tol: 1e-10, MaxIter: 200000}
		xc, yc := dataset.SelectSamples(x, ds.Labels, draw)
		copies := LinearSVM{Params: p}
		if err := copies.Fit(context.Background(), xc, yc, 2, dataset.Rand(1)); err != nil {
			t.Fatal(err)
		}
		xw, yw := dataset.SelectSamples(x, ds.Labels, rows)
		weighted := LinearSVM{Params: p, SampleWeight: weight}
		if err := weighted.Fit(context.Background(), xw, yw, 2, dataset.Rand(1)); err != nil {
			t.Fatal(err)
		}
		if !copies.Converged || !weighted.Converged {
			t.Fatalf("%s: not converged", loss)
		}
		for j, v := range copies.W[0] {
			if math.Abs(weighted.W[0][j]-v) > 1e-5 {
				t.Errorf("%s: w[%d] = %.7f weighted, %.7f with copies", loss, j, weighted.W[0][j], v)
			}
		}
		if math.Abs(weighted.B[0]-copies.B[0]) > 1e-5 {
			t.Errorf("%s: bias %.7f weighted, %.7f with copies", loss, weighted.B[0], copies.B[0])
		}
	}
}
func TestKNNByHand(t *testing.T) {
	// training points on a line: 0 (A), 1 (A), 10 (B), 11 (B), 12 (B)
	x := mat.NewDense(5, 1, []float64{0, 1, 10, 11, 12})
	y := []int{0, 0, 1, 1, 1}
	q := mat.NewDense(3, 1, []float64{2, 9, 5.4})
	k1 := KNN{K: 1}
	k1.Fit(x, y, 2)
	// 2 -> nearest 1 (A); 9 -> 10 (B); 5.4 -> 1 (dist 4.4) beats 10 (4.6): A
	if got := k1.Predict(q); got[0] != 0 || got[1] != 1 || got[2] != 0 {
		t.Errorf("1-NN %v", got)
	}
	k3 := KNN{K: 3}
	k3.Fit(x, y, 2)
	// 2 -> {1, 0, 10}: A A B -> A; 5.4 -> {1, 0, 10}: A
	if got := k3.Predict(q); got[0] != 0 || got[1] != 1 || got[2] != 0 {
		t.Errorf("3-NN %v", got)
	}
}

func BenchmarkLinearSVMLung(b *testing.B) {
	n, p := 181, 12533
	if testing.Short() {
		n, p = 60, 500
	}
	ds := synth.Benchmark(n, p)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := LinearSVM{}
		if err := m.Fit(context.Background(), ds.X, ds.Labels, 2, dataset.Rand(1, uint64(i))); err != nil {
			b.Fatal(err)
		}
	}
}

// Newton's method in the primal and dual coordinate descent solve the same squared-hinge
// problem: on Colon's first 40 genes, with sample weights (a bootstrap's counts, seed 3)
// and without, at C = 0.01, 1 and 100, dual CD at tolerance 1e-10 agrees with Newton to
// 1e-7, and Newton's weights satisfy the optimality condition w = 2 sum_A C_i m_i y_i z_i
// to 1e-9 (worked from the objective in primalNewton's comment).
func TestPrimalNewtonEqualsDualCD(t *testing.T) {
	x, ds := colon40(t)
	n, d := x.Dims()
	y := make([]float64, n)
	for i, l := range ds.Labels {
		y[i] = float64(2*l - 1)
	}
	r := dataset.Rand(3)
	counts := make([]float64, n)
	for range n {
		counts[r.IntN(n)]++
	}
	for i := range counts {
		counts[i] += 0.5 // keep every sample, with unequal weights
	}
	for _, weight := range [][]float64{nil, counts} {
		for _, C := range []float64{0.01, 1, 100} {
			wn, bn, it, ok, err := primalNewton(context.Background(), x, y, weight, C)
			if err != nil || !ok {
				t.Fatalf("C = %g: Newton not converged in %d steps (%v)", C, it, err)
			}
			p := SVMParams{C: C, Loss: SquaredHinge, Tol: 1e-10, MaxIter: 2_000_000}
			wd, bd, _, ok, err := dualCD(context.Background(), x, y, weight, p, dataset.Rand(1))
			if err != nil || !ok {
				t.Fatalf("C = %g: dual CD not converged (%v)", C, err)
			}
			scale := 1 + floats.Norm(wd, math.Inf(1))
			for j := range wn {
				if math.Abs(wn[j]-wd[j]) > 1e-7*scale {
					t.Errorf("C = %g weighted %v: w[%d] Newton %.10f, dual CD %.10f", C, weight != nil, j, wn[j], wd[j])
				}
			}
			if math.Abs(bn-bd) > 1e-7*scale {
				t.Errorf("C = %g weighted %v: bias Newton %.10f, dual CD %.10f", C, weight != nil, bn, bd)
			}
			// optimality: w - 2 sum_A C_i m_i y_i z_i = 0, the bias likewise
			g := append(slices.Clone(wn), bn)
			for i := range n {
				ci := C
				if weight != nil {
					ci *= weight[i]
				}
				row := x.RawRowView(i)
				if m := 1 - y[i]*(floats.Dot(wn, row)+bn); m > 0 {
					floats.AddScaled(g[:d], -2*ci*m*y[i], row)
					g[d] -= 2 * ci * m * y[i]
				}
			}
			if worst := floats.Norm(g, math.Inf(1)); worst > 1e-9*(1+2*C*float64(n)) {
				t.Errorf("C = %g weighted %v: gradient %.3g at Newton's solution", C, weight != nil, worst)
			}
		}
	}
}

// Newton's solution does not depend on the order of the samples (dual CD's passes do):
// Colon's first 40 genes with the rows reversed give the same weights to 1e-12.
func TestPrimalNewtonSampleOrder(t *testing.T) {
	x, ds := colon40(t)
	n, _ := x.Dims()
	rev := make([]int, n)
	for i := range rev {
		rev[i] = n - 1 - i
	}
	xr, yr := dataset.SelectSamples(x, ds.Labels, rev)
	a, b := LinearSVM{Exact: true}, LinearSVM{Exact: true}
	if err := a.Fit(context.Background(), x, ds.Labels, 2, dataset.Rand(1)); err != nil {
		t.Fatal(err)
	}
	if err := b.Fit(context.Background(), xr, yr, 2, dataset.Rand(1)); err != nil {
		t.Fatal(err)
	}
	for j := range a.W[0] {
		if math.Abs(a.W[0][j]-b.W[0][j]) > 1e-12 {
			t.Errorf("w[%d]: %.15f, %.15f with the rows reversed", j, a.W[0][j], b.W[0][j])
		}
	}
}
