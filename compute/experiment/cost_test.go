package experiment

import (
	"math"
	"testing"
	"time"

	"steadfast/compute/method"
	"steadfast/compute/synth"
)

// TestProgressWeighsUnitsByCost: with one cheap and one costly method, finishing the cheap
// method's rankings is a small share of the work (worked by hand: 3 rankings of 1 s and 3
// of 9 s, the cheap ones done: 3 / 30).
func TestProgressWeighsUnitsByCost(t *testing.T) {
	tasks := []task{{method: 0}, {method: 0}, {method: 0}, {method: 1}, {method: 1}, {method: 1}}
	c := &costs{prior: []float64{0, 0}, sum: []float64{0, 0}, done: []int{0, 0}, workers: 1}
	finished := make([]bool, len(tasks))
	if f, left := c.progress(tasks, finished); f != 0 || left != 0 {
		t.Fatalf("nothing measured: %v, %v; want unknown (0, 0)", f, left)
	}
	for i := 0; i < 3; i++ {
		finished[i] = true
		c.add(0, 1)
	}
	c.add(1, 9) // a ranking of the costly method measured, still running others
	f, left := c.progress(tasks, finished)
	if math.Abs(f-3.0/30) > 1e-12 || left != 27*time.Second {
		t.Errorf("share %v, left %v; want 0.1 and 27 s", f, left)
	}
}

// TestEstimateCountsGroupRankings: a 10 x 10 CV study with CGS makes 101 rankings (one on
// all samples), each of t = 10 DGF runs; F-statistic adds nothing to the estimate.
func TestEstimateCountsGroupRankings(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 60, 1, 0)
	cfg := Config{Protocol: CV10x10, Methods: []method.Spec{{Name: "fstat"}, {Name: "cgs"}}, Classifiers: []string{"svm"}}
	d, lines, err := Estimate(cfg, ds)
	if err != nil {
		t.Fatal(err)
	}
	n, p := ds.Dims()
	want := 101 * 10 * dgfSeconds(n*9/10, p) // 100 rankings on 9 folds of 10, one on all samples
	if len(lines) != 1 || math.Abs(d.Seconds()-want) > 0.2*want {
		t.Errorf("estimate %v (%v), want about %.1f s from CGS alone", d, lines, want)
	}
}

// TestDGFCostsFollowTheBenchmarks: the cost models stay within a factor of two of
// BenchmarkDGFReal and BenchmarkDGFGaussianReal on the real sets (compute/group, this
// machine: flat Colon 0.07 s, Leukemia 0.59 s, Chowdary 6.9 s; Gaussian 0.31, 2.1, 93 s).
func TestDGFCostsFollowTheBenchmarks(t *testing.T) {
	for _, c := range []struct {
		n, p           int
		flat, gaussian float64
	}{{62, 2000, 0.07, 0.31}, {72, 7129, 0.59, 2.1}, {104, 22283, 6.9, 93}} {
		if f := dgfSeconds(c.n, c.p); f < c.flat/2 || f > 2*c.flat {
			t.Errorf("flat %d x %d: model %.2f s, measured %.2f s", c.n, c.p, f, c.flat)
		}
		if g := gaussianDGFSeconds(c.n, c.p); g < c.gaussian/2 || g > 2*c.gaussian {
			t.Errorf("Gaussian %d x %d: model %.2f s, measured %.2f s", c.n, c.p, g, c.gaussian)
		}
	}
	gauss := map[string]float64{"gaussian": 1}
	if rankingSeconds("cgs", gauss, 72, 7129) <= rankingSeconds("cgs", nil, 72, 7129) {
		t.Error("a Gaussian CGS ranking is estimated no dearer than a flat one")
	}
}

// TestKMeansCostFollowsTheStudies: the K-means model stays within a factor of two of
// DRAGS 2008 studies with K-means (K = 100, 50 restarts; 31 rankings, two at a time on
// this machine's two cores, so a ranking's share is the study's time over 31): K-means
// alone on Colon 11.9 s and Leukemia 96.8 s (`steadfast run`, whole process), and on
// the Lung-sized set from Chowdary (181 x 12,000) with DRAGS and SVM-RFE, K-means's
// share of a 577 s study (929 s of rankings, two at a time): 15.0 s each.
func TestKMeansCostFollowsTheStudies(t *testing.T) {
	for _, c := range []struct {
		name     string
		n, p     int // training size (2/3 of the samples) and genes
		measured float64
	}{{"Colon", 41, 2000, 11.9 / 31}, {"Leukemia", 48, 7129, 96.8 / 31}, {"Lung-sized", 121, 12000, 15.0}} {
		if s := kmeansSeconds(c.n, c.p, 100, 50); s < c.measured/2 || s > 2*c.measured {
			t.Errorf("%s: model %.2f s a ranking, measured %.2f s", c.name, s, c.measured)
		}
	}
	ds, _ := synth.Generate(synth.D1k, 60, 1, 0)
	cfg := Config{Protocol: DRAGS2008, Methods: []method.Spec{{Name: "kmeans"}}, Classifiers: []string{"svm"}}
	if d, lines, err := Estimate(cfg, ds); err != nil || d == 0 || len(lines) != 1 {
		t.Errorf("a K-means study is estimated %v (%v, %v): K-means must count", d, lines, err)
	}
}
