package experiment

import (
	"context"
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
	partial := make([]float64, len(tasks))
	if f, left := c.progress(tasks, finished, partial, 0); f != 0 || left != 0 {
		t.Fatalf("nothing measured: %v, %v; want unknown (0, 0)", f, left)
	}
	for i := 0; i < 3; i++ {
		finished[i] = true
		c.add(0, 1)
	}
	c.add(1, 9) // a ranking of the costly method measured, still running others
	f, left := c.progress(tasks, finished, partial, 0)
	if math.Abs(f-3.0/30) > 1e-12 || left != 27*time.Second {
		t.Errorf("share %v, left %v; want 0.1 and 27 s", f, left)
	}
}

// TestProgressCountsRunningShares: the time left comes from the cost models before any
// ranking is measured, and a running ranking's reported share counts as done (worked by
// hand: two rankings with a prior of 10 s each, a share of a study on two workers, so 20 s
// a ranking; then one measured at 30 s).
func TestProgressCountsRunningShares(t *testing.T) {
	tasks := []task{{method: 0}, {method: 0}}
	c := &costs{prior: []float64{10}, sum: []float64{0}, done: []int{0}, workers: 2}
	finished := make([]bool, 2)
	partial := make([]float64, 2)
	check := func(what string, wantF float64, wantLeft time.Duration) {
		t.Helper()
		if f, left := c.progress(tasks, finished, partial, 0); math.Abs(f-wantF) > 1e-12 || left != wantLeft {
			t.Errorf("%s: share %v, left %v; want %v and %v", what, f, left, wantF, wantLeft)
		}
	}
	check("at the start", 0, 20*time.Second) // the estimate: the sum of the priors
	partial[0] = 0.5
	check("half of one done", 10.0/40, 15*time.Second)
	finished[0], partial[1] = true, 0.5
	c.add(0, 30)
	check("one done in 30 s, half of the other", 45.0/60, 7500*time.Millisecond)
	// a method without a cost model, nothing measured: units weigh the same (a quarter
	// of one of two: 1/8), the time left unknown
	noPrior := []task{{method: 0}, {method: 1}}
	c = &costs{prior: []float64{10, 0}, sum: []float64{0, 0}, done: []int{0, 0}, workers: 2}
	if f, left := c.progress(noPrior, make([]bool, 2), []float64{0, 0.25}, 0); f != 0.125 || left != 0 {
		t.Errorf("a method without a cost model, nothing measured: %v, %v; want 0.125 and unknown (0)", f, left)
	}
}

// TestCGSStudyReportsWithinRankings: a CGS ranking reports after each bootstrap, so the
// share done moves between finished rankings, never backwards, and the time left is
// known from the start (CGS has a cost model).
func TestCGSStudyReportsWithinRankings(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 40, 2, 0)
	cfg := Config{Protocol: CV10x10, Repeats: 1, Folds: 2, ZScore: true, Seed: 1, Workers: 2,
		Methods: []method.Spec{{Name: "cgs", Params: map[string]float64{"t": 4}}}, Classifiers: []string{"svm"}}
	var reports []Progress
	if _, err := Run(context.Background(), cfg, ds, func(p Progress) { reports = append(reports, p) }); err != nil {
		t.Fatal(err)
	}
	if len(reports) == 0 || reports[0].Left <= 0 {
		t.Fatalf("first report %+v: want the time left from CGS's cost model", reports)
	}
	within := 0
	for i := 1; i < len(reports); i++ {
		a, b := reports[i-1], reports[i]
		if b.Fraction < a.Fraction || b.Done < a.Done {
			t.Errorf("report %d went back: %+v after %+v", i, b, a)
		}
		if b.Done == a.Done && b.Fraction > a.Fraction {
			within++
		}
	}
	// 3 rankings (2 folds and all samples) of 4 bootstraps each: 3 reports within each
	if within < 9 {
		t.Errorf("%d reports within rankings of %d in all, want at least 9: %+v", within, len(reports), reports)
	}
	if last := reports[len(reports)-1]; last.Done != last.Total || last.Fraction != 1 {
		t.Errorf("last report %+v, want every ranking done", last)
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
