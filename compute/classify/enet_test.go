package classify

import (
	"context"
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

// realSet reads a shared data set (failing the test when it is missing), its classes in
// alphabetical order (R's factor levels); with log2 its values below 1 are raised to 1
// and logged, as the R references do.
func realSet(t testing.TB, file string, log2 bool) *dataset.Dataset {
	t.Helper()
	ds, err := dataset.ReadFile(filepath.Join("..", "..", "..", "shared", "data", file), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	// classes in R's factor order (alphabetical), as the references' levels
	sorted := slices.Clone(ds.Classes)
	slices.Sort(sorted)
	for i, y := range ds.Labels {
		ds.Labels[i] = slices.Index(sorted, ds.Classes[y])
	}
	ds.Classes = sorted
	if log2 {
		n, p := ds.X.Dims()
		for i := 0; i < n; i++ {
			for j := 0; j < p; j++ {
				ds.X.Set(i, j, math.Log2(math.Max(ds.X.At(i, j), 1)))
			}
		}
	}
	return ds
}

// firstGenes is the first k columns of ds's values.
func firstGenes(ds *dataset.Dataset, k int) *mat.Dense {
	idx := make([]int, k)
	for i := range idx {
		idx[i] = i
	}
	return dataset.SelectFeatures(ds.X, idx)
}

// singleProbes is the first k genes of ds without a duplicate probe: none named X_dupN,
// none X with an X_dup1 (Colon's duplicated probes are nearly equal columns, along which
// the lasso's split is not unique), as glmnet_ref.R chooses them.
func singleProbes(ds *dataset.Dataset, k int) *mat.Dense {
	var idx []int
	for j, f := range ds.Features {
		if len(idx) < k && !strings.Contains(f, "_dup") && !slices.Contains(ds.Features, f+"_dup1") {
			idx = append(idx, j)
		}
	}
	return dataset.SelectFeatures(ds.X, idx)
}

// readRef reads a reference CSV of testdata without its header.
func readRef(t *testing.T, name string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows[1:]
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// glmnetCase is one path of glmnet_path.csv: per lambda index (0-based) its lambda,
// deviance ratio and values[model][feature] (feature 0 the intercept, -i sample i's
// probability).
type glmnetCase struct {
	lambda, dev []float64
	value       []map[[2]int]float64
}

func readGlmnetPaths(t *testing.T) map[string]*glmnetCase {
	out := map[string]*glmnetCase{}
	for _, r := range readRef(t, "glmnet_path.csv") {
		c := out[r[0]]
		if c == nil {
			c = &glmnetCase{}
			out[r[0]] = c
		}
		l, _ := strconv.Atoi(r[1])
		for len(c.lambda) < l {
			c.lambda, c.dev = append(c.lambda, atof(t, r[2])), append(c.dev, atof(t, r[3]))
			c.value = append(c.value, map[[2]int]float64{})
		}
		k, _ := strconv.Atoi(r[4])
		j, _ := strconv.Atoi(r[5])
		c.value[l-1][[2]int{k, j}] = atof(t, r[6])
	}
	return out
}

// TestENetEqualsGlmnet compares ENet's paths with glmnet 4.1-6's on Colon (binomial;
// 40 genes without duplicate probes, alpha 1, 0.5, 0; all 2000 genes, alpha 1 and 0.5, n < p) and SRBCT
// (multinomial, 30 genes, alpha 0, 0.5 and 1), both solved to thresh 1e-13
// (testdata/glmnet_ref.R): the same number of lambdas (glmnet's early end), every lambda
// to 1e-9 relative, every deviance ratio to 1e-8, every coefficient and intercept to
// 1e-6 (absolute, on the original scale), and for the multinomial fits every training
// sample's probabilities to 1e-6. The multinomial coefficients are compared where the
// deviance ratio is at most 0.95: beyond, near separation, the coefficients are fixed
// only to about 1e-5 by either solver (glmnet's own intercept of BL moves by 9e-5
// between thresh 1e-13 and 1e-16 at alpha 0.5, lambda 89), while the probabilities
// agree; the lasso's multinomial coefficients are not unique (any shift of a gene's
// coefficients over the classes within their median interval), so only its
// probabilities are compared.
func TestENetEqualsGlmnet(t *testing.T) {
	ref := readGlmnetPaths(t)
	colon, srbct := realSet(t, "colon.csv", true), realSet(t, "srbct.csv", false)
	cases := []struct {
		name    string
		x       *mat.Dense
		ds      *dataset.Dataset
		alpha   float64
		classes int
	}{
		{"colon40_a1", singleProbes(colon, 40), colon, 1, 2},
		{"colon40_a05", singleProbes(colon, 40), colon, 0.5, 2},
		{"colon40_a0", singleProbes(colon, 40), colon, 0, 2},
		{"colon2000_a1", colon.X, colon, 1, 2},
		{"colon2000_a05", colon.X, colon, 0.5, 2},
		{"srbct30_a0", firstGenes(srbct, 30), srbct, 0, 4},
		{"srbct30_a05", firstGenes(srbct, 30), srbct, 0.5, 4},
		{"srbct30_a1", firstGenes(srbct, 30), srbct, 1, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := ref[c.name]
			if want == nil {
				t.Fatalf("no reference %s", c.name)
			}
			got, err := ENet{Alpha: c.alpha, Thresh: 1e-13, MaxPasses: 1e7}.Path(context.Background(), c.x, c.ds.Labels, c.classes)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Lambda) != len(want.lambda) {
				t.Fatalf("%d lambdas, glmnet %d", len(got.Lambda), len(want.lambda))
			}
			worst, worstP := 0.0, 0.0
			for l := range want.lambda {
				if d := math.Abs(got.Lambda[l]-want.lambda[l]) / want.lambda[l]; d > 1e-9 {
					t.Fatalf("lambda %d: %g, glmnet %g", l+1, got.Lambda[l], want.lambda[l])
				}
				if d := math.Abs(got.DevRatio[l] - want.dev[l]); d > 1e-8 {
					t.Errorf("lambda %d: deviance ratio %.12g, glmnet %.12g", l+1, got.DevRatio[l], want.dev[l])
				}
				if c.classes > 2 { // the probabilities of every sample, to 1e-6
					n, _ := c.x.Dims()
					eta, p, q := make([]float64, 4), make([]float64, 4), make([]float64, 4)
					for i := 0; i < n; i++ {
						for k := range eta {
							eta[k] = got.A0[l][k] + dot(got.Beta[l][k], c.x.RawRowView(i))
						}
						softmax(eta, p)
						if c.name == "srbct30_a1" {
							if i >= 10 {
								break
							}
							for k := range q {
								q[k] = want.value[l][[2]int{k, -(i + 1)}]
							}
						} else {
							for k := range eta {
								eta[k] = want.value[l][[2]int{k, 0}]
								for j, v := range c.x.RawRowView(i) {
									eta[k] += want.value[l][[2]int{k, j + 1}] * v
								}
							}
							softmax(eta, q)
						}
						for k := range p {
							worstP = math.Max(worstP, math.Abs(p[k]-q[k]))
							if math.Abs(p[k]-q[k]) > 1e-6 {
								t.Fatalf("lambda %d sample %d class %d: probability %.10g, glmnet %.10g", l+1, i+1, k, p[k], q[k])
							}
						}
					}
					if c.name == "srbct30_a1" || want.dev[l] > 0.95 {
						continue
					}
				}
				for k := range got.Beta[l] {
					for j := 0; j <= len(got.Beta[l][k]); j++ {
						g := got.A0[l][k]
						if j > 0 {
							g = got.Beta[l][k][j-1]
						}
						w := want.value[l][[2]int{k, j}]
						d := math.Abs(g - w)
						worst = math.Max(worst, d)
						if d > 1e-6 {
							t.Fatalf("lambda %d model %d feature %d: %.10g, glmnet %.10g", l+1, k, j, g, w)
						}
					}
				}
			}
			t.Logf("%d lambdas, largest difference %.2g in coefficients, %.2g in probabilities", len(want.lambda), worst, worstP)
		})
	}
}

// TestLogitCVEqualsCvGlmnet compares the inner cross-validation with cv.glmnet's (glmnet
// 4.1-6, thresh 1e-13, the same folds: testdata/glmnet_ref.R): cvm and cvsd at every
// lambda to 1e-6 relative, and lambda.min and lambda.1se.
func TestLogitCVEqualsCvGlmnet(t *testing.T) {
	if raceDetector {
		t.Skip("runs in the suite's pass without the race detector (scripts/test.sh)")
	}
	colon, srbct := realSet(t, "colon.csv", true), realSet(t, "srbct.csv", false)
	ref := map[string][][]string{}
	for _, r := range readRef(t, "glmnet_cv.csv") {
		ref[r[0]] = append(ref[r[0]], r)
	}
	cases := []struct {
		name     string
		x        *mat.Dense
		ds       *dataset.Dataset
		alpha    float64
		classes  int
		misclass bool
	}{
		{"cv_colon40_a0_dev", singleProbes(colon, 40), colon, 0, 2, false},
		{"cv_colon40_a1_dev", singleProbes(colon, 40), colon, 1, 2, false},
		{"cv_colon40_a1_class", singleProbes(colon, 40), colon, 1, 2, true},
		{"cv_srbct30_a05_dev", firstGenes(srbct, 30), srbct, 0.5, 4, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := c.x
			want := ref[c.name]
			// the folds of glmnet_ref.R: dealt in sample order, class by class
			fold := make([]int, len(c.ds.Labels))
			next := 0
			for cl := 0; cl < c.classes; cl++ {
				for i, y := range c.ds.Labels {
					if y == cl {
						fold[i] = next % 10
						next++
					}
				}
			}
			folds := make([]dataset.Split, 10)
			for i, f := range fold {
				for g := range folds {
					if g == f {
						folds[g].Test = append(folds[g].Test, i)
					} else {
						folds[g].Train = append(folds[g].Train, i)
					}
				}
			}
			l := Logit{Alpha: c.alpha, Thresh: 1e-13, Misclass: c.misclass}
			o := ENet{Alpha: c.alpha, Thresh: 1e-13, MaxPasses: 1e7}
			full, err := o.Path(context.Background(), x, c.ds.Labels, c.classes)
			if err != nil {
				t.Fatal(err)
			}
			if len(full.Lambda) != len(want) {
				t.Fatalf("%d lambdas, cv.glmnet %d", len(full.Lambda), len(want))
			}
			cvm, cvsd, err := l.crossValidate(context.Background(), o, x, c.ds.Labels, c.classes, full.Lambda, folds)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range want {
				wm, ws := atof(t, r[3]), atof(t, r[4])
				if math.Abs(cvm[i]-wm) > 1e-6*math.Max(wm, 1e-3) || math.Abs(cvsd[i]-ws) > 1e-6*math.Max(ws, 1e-3) {
					t.Errorf("lambda %d (%g): cvm %.10g cvsd %.10g, cv.glmnet %.10g %.10g", i+1, full.Lambda[i], cvm[i], cvsd[i], wm, ws)
				}
			}
			lmin, l1se := full.Lambda[ChooseLambda(cvm, cvsd, false)], full.Lambda[ChooseLambda(cvm, cvsd, true)]
			if w := atof(t, want[0][5]); math.Abs(lmin-w) > 1e-9*w {
				t.Errorf("lambda.min %g, cv.glmnet %g", lmin, w)
			}
			if w := atof(t, want[0][6]); math.Abs(l1se-w) > 1e-9*w {
				t.Errorf("lambda.1se %g, cv.glmnet %g", l1se, w)
			}
		})
	}
}

// TestLogitEqualsSklearn compares the plain L2 fit (alpha 0, lambda = 1/(n C), no
// standardisation) with scikit-learn 1.2.1's LogisticRegression(penalty="l2", C, lbfgs,
// tol 1e-12) on Colon (two classes, C = 0.01, 1, 100) and SRBCT (multinomial, C = 0.1,
// 10): every coefficient and intercept to 1e-6 of the largest in size
// (testdata/logit_sklearn.py; scikit-learn's newton-cg to a gradient of at most 1e-6).
// Ours is solved to thresh 1e-20: glmnet's rule measures one pass's change, and on
// unstandardised correlated genes the passes converge slowly (at 1e-15 a coefficient
// was still 7e-6 off).
func TestLogitEqualsSklearn(t *testing.T) {
	colon, srbct := realSet(t, "colon.csv", true), realSet(t, "srbct.csv", false)
	type key struct {
		c    string
		C    float64
		k, j int
	}
	want := map[key]float64{}
	for _, r := range readRef(t, "logit_sklearn.csv") {
		k, _ := strconv.Atoi(r[2])
		j, _ := strconv.Atoi(r[3])
		want[key{r[0], atof(t, r[1]), k, j}] = atof(t, r[4])
	}
	cases := []struct {
		name    string
		x       *mat.Dense
		ds      *dataset.Dataset
		C       float64
		classes int
	}{
		{"colon40", singleProbes(colon, 40), colon, 0.01, 2},
		{"colon40", singleProbes(colon, 40), colon, 1, 2},
		{"colon40", singleProbes(colon, 40), colon, 100, 2},
		{"srbct30", firstGenes(srbct, 30), srbct, 0.1, 4},
		{"srbct30", firstGenes(srbct, 30), srbct, 10, 4},
	}
	for _, c := range cases {
		n, p := c.x.Dims()
		l := Logit{Alpha: 0, Lambda: 1 / (float64(n) * c.C), Raw: true, Thresh: 1e-20, MaxPasses: 1e9}
		if err := l.Fit(context.Background(), c.x, c.ds.Labels, c.classes, nil); err != nil {
			t.Fatal(err)
		}
		big, worst := 0.0, 0.0
		for k := range l.W {
			for j := 0; j <= p; j++ {
				big = math.Max(big, math.Abs(want[key{c.name, c.C, k, j}]))
			}
		}
		for k := range l.W {
			for j := 0; j <= p; j++ {
				got := l.B[k]
				if j > 0 {
					got = l.W[k][j-1]
				}
				w := want[key{c.name, c.C, k, j}]
				worst = math.Max(worst, math.Abs(got-w)/big)
				if math.Abs(got-w) > 1e-6*big {
					t.Errorf("%s C = %g model %d feature %d: %.10g, scikit-learn %.10g", c.name, c.C, k, j, got, w)
				}
			}
		}
		t.Logf("%s C = %g: largest difference %.2g of the largest coefficient (%.3g)", c.name, c.C, worst, big)
	}
}

// TestENetEntryEqualsGlmnet: the lambda at which each of Colon's 2000 genes first has a
// non-zero coefficient on the lasso and elastic-net paths (the elastic-net path
// ranker's order) is glmnet's (glmnet_path.csv); the genes that never enter agree too.
func TestENetEntryEqualsGlmnet(t *testing.T) {
	ref := readGlmnetPaths(t)
	colon := realSet(t, "colon.csv", true)
	for _, c := range []struct {
		name  string
		alpha float64
	}{{"colon2000_a1", 1}, {"colon2000_a05", 0.5}} {
		step, size, err := ENet{Alpha: c.alpha, Thresh: 1e-13, MaxPasses: 1e7}.Entry(context.Background(), colon.X, colon.Labels, 2)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]int, len(step))
		for j := range want {
			want[j] = -1
			for l := range ref[c.name].lambda {
				if _, ok := ref[c.name].value[l][[2]int{0, j + 1}]; ok {
					want[j] = l
					break
				}
			}
		}
		entered := 0
		for j := range step {
			if step[j] != want[j] {
				t.Fatalf("%s gene %d enters at lambda %d, glmnet's at %d", c.name, j+1, step[j], want[j])
			}
			if step[j] >= 0 {
				entered++
				if !(size[j] > 0) {
					t.Errorf("%s gene %d: size %g where it enters", c.name, j+1, size[j])
				}
			}
		}
		t.Logf("%s: %d genes enter, at the same lambdas as glmnet's", c.name, entered)
	}
}
