package experiment

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/method"
	"steadfast/compute/synth"
)

func smallConfig() Config {
	cfg := DefaultConfig()
	cfg.Ks = []int{1, 5, 10, 20}
	cfg.Repeats = 2
	return cfg
}

func TestRunIsDeterministicAcrossWorkers(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 60, 2, 0)
	var results []*Result
	for _, w := range []int{1, 2, 5} {
		cfg := smallConfig()
		cfg.Workers = w
		res, err := Run(context.Background(), cfg, ds, nil)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
	}
	for i := 1; i < len(results); i++ {
		a, b := results[0].Methods, results[i].Methods
		for m := range a {
			a[m].Seconds, b[m].Seconds = 0, 0
			a[m].PredictSeconds, b[m].PredictSeconds = 0, 0
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("results with %d workers differ from 1 worker", results[i].Config.Workers)
		}
	}
	res := results[0]
	if len(res.Methods) != 2 || len(res.Methods[0].Runs) != 20 {
		t.Fatalf("%d methods, %d runs; want 2 and 2 x 10", len(res.Methods), len(res.Methods[0].Runs))
	}
	for _, m := range res.Methods {
		for _, s := range m.Stability {
			if s.SimID < 0 || s.SimID > 1 || s.SS > s.SimID+1e-12 {
				t.Errorf("%s k=%d: Sim_ID %v, S_S %v (S_S <= Dice always)", m.Label, s.K, s.SimID, s.SS)
			}
		}
		for _, c := range res.Config.Classifiers {
			if len(m.Accuracy[c]) != 4 {
				t.Errorf("%s %s: %d accuracy points", m.Label, c, len(m.Accuracy[c]))
			}
		}
	}
}

func TestProtocolsShapes(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 80, 3, 0)
	for _, tc := range []struct {
		p    Protocol
		runs int
		mode Mode
	}{
		{DRAGS2008, 30, Reference}, // 10 x 3 splits
		{Kalousis, 100, Pairwise},  // 10 outer x 10 inner
	} {
		cfg := DefaultConfig()
		cfg.Protocol, cfg.Ks = tc.p, []int{5, 10}
		cfg.Methods = []method.Spec{{Name: "fstat"}}
		res, err := Run(context.Background(), cfg, ds, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.p, err)
		}
		m := res.Methods[0]
		if len(m.Runs) != tc.runs || res.Config.Mode != tc.mode {
			t.Errorf("%s: %d runs in mode %s", tc.p, len(m.Runs), res.Config.Mode)
		}
		if len(m.Accuracy["svm"]) != 2 {
			t.Errorf("%s: no accuracy", tc.p)
		}
	}
}

func TestReferenceModeComparesWithAllSamples(t *testing.T) {
	// Every resample of a 2-class set whose feature 0 separates perfectly ranks 0 first,
	// as does the all-sample ranking: reference Sim_ID at k = 1 is exactly 1.
	ds, _ := synth.Generate(synth.D1k, 60, 4, 0)
	for i, l := range ds.Labels {
		ds.X.Set(i, 0, float64(l)*100+float64(i%3))
	}
	cfg := DefaultConfig()
	cfg.Methods = []method.Spec{{Name: "fstat"}}
	cfg.Protocol, cfg.Mode, cfg.Ks = DRAGS2008, Reference, []int{1}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Methods[0].Stability[0].SimID; got != 1 {
		t.Errorf("Sim_ID at k=1 = %v", got)
	}
	// with the one separating feature every classifier is right on every test sample
	for _, c := range cfg.Classifiers {
		if a := res.Methods[0].Accuracy[c][0]; a.Mean != 1 || a.SD != 0 {
			t.Errorf("%s accuracy at k=1: %+v", c, a)
		}
	}
	if res.Methods[0].Reference.Order[0] != 0 || res.Methods[0].Top[0].Feature != 0 || res.Methods[0].Top[0].Frequency != 1 {
		t.Errorf("top feature %+v", res.Methods[0].Top[0])
	}
}

// TestCancelStops: a study cancelled while it runs returns context.Canceled, and no
// unit reports progress after Run has returned (nothing goes on in the background). The
// two-minute limit only guards against a hang; speed is for benchmarks.
func TestCancelStops(t *testing.T) {
	ds := synth.Benchmark(100, 4000)
	cfg := DefaultConfig()
	cfg.Methods = []method.Spec{{Name: "svmrfe", Params: map[string]float64{"step": 0.01}}}
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int64
	started := make(chan struct{}, 1)
	go func() {
		<-started
		time.Sleep(300 * time.Millisecond)
		cancel()
	}()
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, cfg, ds, func(p Progress) {
			calls.Add(1)
			select {
			case started <- struct{}{}:
			default:
			}
		})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("Run still going two minutes after cancel: a hang")
	}
	after := calls.Load()
	time.Sleep(500 * time.Millisecond)
	if n := calls.Load(); n != after {
		t.Errorf("%d progress reports after Run returned", n-after)
	}
}

func TestBadDataIsRefused(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 12, 4, 0)
	cfg := DefaultConfig() // 10-fold CV needs 10 samples per class; this set has 6
	if _, err := Run(context.Background(), cfg, ds, nil); err == nil {
		t.Error("a class smaller than the folds was accepted")
	}
	cfg.Ks = []int{5000}
	ds, _ = synth.Generate(synth.D1k, 40, 4, 0)
	if _, err := Run(context.Background(), cfg, ds, nil); err == nil {
		t.Error("k larger than p accepted")
	}
}

func BenchmarkStudySVMRFE10x10Lung(b *testing.B) { benchStudy(b, 0) }

// BenchmarkStudySVMRFE10x10LungOneWorker is the same study on one goroutine, as
// scikit-learn's liblinear runs.
func BenchmarkStudySVMRFE10x10LungOneWorker(b *testing.B) { benchStudy(b, 1) }

func benchStudy(b *testing.B, workers int) {
	n, p := 181, 12533
	if testing.Short() {
		n, p = 60, 500
	}
	ds := synth.Benchmark(n, p)
	cfg := DefaultConfig()
	cfg.Methods = []method.Spec{{Name: "svmrfe"}}
	cfg.Classifiers = []string{"svm"}
	cfg.ZScore = true
	cfg.Workers = workers
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Run(context.Background(), cfg, ds, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func TestKalousisFullGridSaves(t *testing.T) {
	// the Kalousis grid runs to p: 10, 15, ..., 1000 on D1k
	ds, _ := synth.Generate(synth.D1k, 60, 6, 0)
	cfg := DefaultConfig()
	cfg.Protocol = Kalousis
	cfg.Methods = []method.Spec{{Name: "fstat"}}
	cfg.Classifiers = []string{"1nn"}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := res.Methods[0].Stability
	if len(st) != 199 || st[len(st)-1].K != 1000 {
		t.Fatalf("%d points up to k = %d", len(st), st[len(st)-1].K)
	}
	// all 1000 features selected by every run: identical sets
	if last := st[len(st)-1]; last.SimID != 1 || last.SS != 1 {
		t.Errorf("k = p: Sim_ID %v, S_S %v", last.SimID, last.SS)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Errorf("result does not encode: %v", err)
	}
}

func TestNormalizedAUCByHand(t *testing.T) {
	// (0.5 + 1)/2 and (1 + 1)/2 over two unit steps scaled to [0, 1]: (0.75 + 1) / 2 = 0.875
	if got := NormalizedAUC([]float64{0.5, 1, 1}); got != 0.875 {
		t.Errorf("AUC = %v", got)
	}
	if NormalizedAUC([]float64{0.7}) != 0.7 || NormalizedAUC(nil) != 0 {
		t.Error("edge cases")
	}
}

func TestLearningCurveOfASeparatingFeature(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 60, 9, 0)
	for i, l := range ds.Labels {
		ds.X.Set(i, 5, float64(l)*10+float64(i%4))
	}
	curve, err := LearningCurve(context.Background(), ds.X, ds.Labels, 2, []int{5, 0, 1}, 3, dataset.Rand(1))
	if err != nil {
		t.Fatal(err)
	}
	// feature 5 alone separates the classes: 3-NN is right on every fold
	if len(curve) != 3 || curve[0] != 1 {
		t.Errorf("curve %v", curve)
	}
}

// McNemarP against R 4's mcnemar.test (continuity correction), e.g.
//
//	Rscript -e 'mcnemar.test(matrix(c(30, 2, 10, 30), 2))$p.value'   # b = 10, c = 2
func TestMcNemarPMatchesR(t *testing.T) {
	for _, c := range []struct {
		b, c int
		p    float64
	}{{10, 2, 0.0433081428107919}, {25, 14, 0.109314576208667}, {5, 5, 1}, {0, 7, 0.0233422020128909}, {3, 1, 0.617075077451974}, {120, 95, 0.101675105316685}} {
		if got := McNemarP(c.b, c.c); math.Abs(got-c.p) > 1e-12 {
			t.Errorf("McNemarP(%d, %d) = %.15g, R %.15g", c.b, c.c, got, c.p)
		}
	}
	if McNemarP(0, 0) != 1 {
		t.Error("no discordant cases must give p = 1")
	}
}

// Two copies of one method never differ; F against SVM-RFE does, and the discordant
// counts agree with the pooled accuracies: (OnlyA - OnlyB) / cases = acc_A - acc_B.
func TestComparisonsPairTheSameCases(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 60, 3, 0)
	cfg := smallConfig()
	cfg.Methods = []method.Spec{{Name: "fstat"}, {Name: "fstat"}, {Name: "svmrfe"}}
	cfg.Classifiers = []string{"svm", "1nn"}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := 2 * 4 * 3; len(res.Comparisons) != want {
		t.Fatalf("%d comparisons, want %d (classifiers x ks x pairs)", len(res.Comparisons), want)
	}
	cases := float64(cfg.Repeats * 60)
	differs := false
	for _, c := range res.Comparisons {
		if c.A == 0 && c.B == 1 && (c.OnlyA != 0 || c.OnlyB != 0 || c.P != 1) {
			t.Errorf("a method against itself: %+v", c)
		}
		if c.OnlyA+c.OnlyB > 0 {
			differs = true
		}
		// folds of 6 samples each: the mean of fold accuracies is the pooled accuracy
		ka := indexOfK(res.Methods[c.A].Accuracy[c.Classifier], c.K)
		diff := res.Methods[c.A].Accuracy[c.Classifier][ka].Mean - res.Methods[c.B].Accuracy[c.Classifier][ka].Mean
		if got := float64(c.OnlyA-c.OnlyB) / cases; math.Abs(got-diff) > 1e-9 {
			t.Errorf("%+v: discordant difference %.4f, accuracy difference %.4f", c, got, diff)
		}
	}
	if !differs {
		t.Error("F and SVM-RFE never disagreed on a test sample")
	}
}

func indexOfK(pts []AccuracyPoint, k int) int {
	for i, p := range pts {
		if p.K == k {
			return i
		}
	}
	return -1
}

// The synthetic study: F's top 10 on D1k find the relevant groups more often with more
// samples (CGS 2009 Fig. 3's trend), and accuracy is measured on the independent test
// set: every fold's accuracy is a count over its 500 samples, so the mean over the 100
// folds times 50,000 is a whole number.
func TestSyntheticStudy(t *testing.T) {
	s := SyntheticStudy{Preset: synth.D1k, Sizes: []int{40, 300}, TestSize: 500, K: 10, Methods: []method.Spec{{Name: "fstat"}}, Seed: 3}
	var last Progress
	res, err := s.Run(context.Background(), func(p Progress) { last = p })
	if err != nil {
		t.Fatal(err)
	}
	if last.Done != last.Total || last.Total != 2*101 {
		t.Errorf("progress ended at %+v", last)
	}
	p40, p300 := res.Precision[0][0], res.Precision[0][1]
	if !(p300 > p40 && p300 >= 0.9) {
		t.Errorf("precision %.3f at n = 40, %.3f at n = 300", p40, p300)
	}
	for si := range s.Sizes {
		a := res.Accuracy[0][si]
		if c := a * 50000; math.Abs(c-math.Round(c)) > 1e-6 || a < 0.5 || a > 1 {
			t.Errorf("n = %d: test accuracy %.5f is not a mean of counts over 500 test samples", s.Sizes[si], a)
		}
		if sim := res.SimID[0][si]; sim <= 0 || sim > 1 {
			t.Errorf("Sim_ID %v", sim)
		}
	}
	t.Logf("precision %.3f / %.3f, Sim_ID %.3f / %.3f, accuracy %.3f / %.3f", p40, p300, res.SimID[0][0], res.SimID[0][1], res.Accuracy[0][0], res.Accuracy[0][1])
}

// Cancelled while its second size runs, the study returns the first size's results (as
// the full study computed them) with the cancellation; the Sample size tool shows them
// rather than throwing them away.
func TestSyntheticStudyCancelledKeepsFinishedSizes(t *testing.T) {
	s := SyntheticStudy{Preset: synth.D1k, Sizes: []int{40, 60, 80}, TestSize: 100, K: 10, Methods: []method.Spec{{Name: "fstat"}}, Seed: 3}
	full, err := SyntheticStudy{Preset: s.Preset, Sizes: []int{40}, TestSize: 100, K: 10, Methods: s.Methods, Seed: 3}.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := s.Run(ctx, func(p Progress) {
		if p.Stage == "n = 60" {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || res == nil {
		t.Fatalf("cancelled at n = 60: %v, result %v", err, res)
	}
	if !slices.Equal(res.Study.Sizes, []int{40}) || len(res.Precision[0]) != 1 ||
		res.Precision[0][0] != full.Precision[0][0] || res.SimID[0][0] != full.SimID[0][0] || res.Accuracy[0][0] != full.Accuracy[0][0] {
		t.Errorf("kept sizes %v: precision %v Sim_ID %v accuracy %v; the study of n = 40 alone gave %v %v %v",
			res.Study.Sizes, res.Precision, res.SimID, res.Accuracy, full.Precision, full.SimID, full.Accuracy)
	}
	// cancelled before any size finished: nothing to show
	ctx2, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if res, err := s.Run(ctx2, nil); res != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled at once: %v, %v", res, err)
	}
}

// Nogueira's Phi of fixed-size selections equals the Kuncheva index averaged over all
// pairs, (|S_i n S_j| p - k^2) / (k (p - k)) (Nogueira et al. 2018, section 4): checked on
// every k of a run, with the interval around Phi.
func TestPhiEqualsMeanKunchevaIndex(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 60, 4, 0)
	cfg := smallConfig()
	cfg.Methods = []method.Spec{{Name: "fstat"}}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	runs := res.Methods[0].Runs
	p := 1000.0
	for _, s := range res.Methods[0].Stability {
		k := float64(s.K)
		sum, n := 0.0, 0
		for i := range runs {
			for j := i + 1; j < len(runs); j++ {
				in := map[int]bool{}
				for _, f := range runs[i].Order[:s.K] {
					in[f] = true
				}
				r := 0.0
				for _, f := range runs[j].Order[:s.K] {
					if in[f] {
						r++
					}
				}
				sum += (r*p - k*k) / (k * (p - k))
				n++
			}
		}
		if ki := sum / float64(n); math.Abs(s.Phi-ki) > 1e-9 {
			t.Errorf("k = %d: Phi %.12f, mean Kuncheva index %.12f", s.K, s.Phi, ki)
		}
		if !(s.PhiLow <= s.Phi && s.Phi <= s.PhiHigh) || s.PhiHigh-s.PhiLow <= 0 {
			t.Errorf("k = %d: interval [%v, %v] around %v", s.K, s.PhiLow, s.PhiHigh, s.Phi)
		}
	}
}

// TestMIDSPaperSetting: in the paper setting every resample ranks within the MIDS of
// all samples; in the default setting each training set has its own MIDS, so some
// resample's top features fall outside the all-sample one.
func TestMIDSPaperSetting(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 60, 8, 0)
	outside := func(paper float64) (int, *Result) {
		cfg := DefaultConfig()
		cfg.Repeats, cfg.Ks, cfg.Classifiers = 1, []int{5}, []string{"1nn"}
		cfg.Methods = []method.Spec{{Name: "fstat+mids", Params: map[string]float64{"epsilon": 0.3, "paper": paper}}}
		res, err := Run(context.Background(), cfg, ds, nil)
		if err != nil {
			t.Fatal(err)
		}
		x := mat.DenseCopyOf(ds.X)
		dataset.Standardize(x)
		fitted, err := method.FitAllSamples(context.Background(), cfg.Methods[0], x)
		if err != nil {
			t.Fatal(err)
		}
		all := fitted.([]int)
		in := map[int]bool{}
		for _, j := range all {
			in[j] = true
		}
		n := 0
		for _, r := range res.Methods[0].Runs {
			for _, j := range r.Order[:min(len(all), len(r.Order))] {
				if !in[j] {
					n++
				}
			}
		}
		return n, res
	}
	n, res := outside(1)
	if n != 0 {
		t.Errorf("paper setting: %d top features outside the all-sample MIDS", n)
	}
	if !strings.Contains(res.Methods[0].Label, "leaks test folds") {
		t.Errorf("label %q does not say the setting leaks", res.Methods[0].Label)
	}
	if n, _ := outside(0); n == 0 {
		t.Error("default setting: every training set's top features lie in the all-sample MIDS")
	}
	cfg := DefaultConfig()
	cfg.TopVariance = 100
	cfg.Methods = []method.Spec{{Name: "svmrfe+mids", Params: map[string]float64{"paper": 1}}}
	if _, err := cfg.Resolved(1000); err == nil {
		t.Error("the paper setting was accepted with topVariance")
	}
}

func TestRepeatedGenes(t *testing.T) {
	d := DataInfo{Features: []string{"a", "b", "c", "d", "e", "f"}, Symbols: []string{"TP53", "DDR1", "TP53", "", "DDR1", "DDR1"}}
	// counted by hand: DDR1 at 1, 4, 5; TP53 at 0, 2; feature 3 has no symbol
	if got := d.RepeatedGenes([]int{0, 1, 2, 3, 4, 5}); got != "DDR1 ×3, TP53 ×2" {
		t.Errorf("got %q", got)
	}
	if got := d.RepeatedGenes([]int{0, 1, 3}); got != "" {
		t.Errorf("no repeated gene, got %q", got)
	}
	if got := (DataInfo{Features: d.Features}).RepeatedGenes([]int{0, 2}); got != "" {
		t.Errorf("without symbols, got %q", got)
	}
}

func TestDistinctLabels(t *testing.T) {
	ms := []MethodResult{
		{Label: "DRAGS", Spec: method.Spec{Name: "drags", Params: map[string]float64{"densest": 50}}},
		{Label: "DRAGS", Spec: method.Spec{Name: "drags"}},
		{Label: "F-statistic", Spec: method.Spec{Name: "fstat"}},
		{Label: "F-statistic", Spec: method.Spec{Name: "fstat"}},
	}
	distinctLabels(ms)
	var got []string
	for _, m := range ms {
		got = append(got, m.Label)
	}
	if want := "DRAGS (densest 50)|DRAGS|F-statistic|F-statistic #2"; strings.Join(got, "|") != want {
		t.Errorf("labels %q, want %q", strings.Join(got, "|"), want)
	}
}

// TestCancelDuringSummary: a study cancelled once its rankings are done stops in the
// summary (the all-pairs pass of the similarity-adjusted measures takes seconds on a
// 22,283-gene set) instead of finishing it.
func TestCancelDuringSummary(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 40, 9, 0)
	cfg := DefaultConfig()
	cfg.Methods, cfg.Repeats, cfg.Classifiers = []method.Spec{{Name: "fstat"}}, 1, []string{"1nn"}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := Run(ctx, cfg, ds, func(p Progress) {
		if p.Done == p.Total {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled after the rankings: %v, want context.Canceled", err)
	}
}

// TestFewGroupsAreReported: DRAGS on 40 features in about 10 groups cannot fill k = 20
// with groups; the result says how few it found (counted from the rankings' groups), and
// a method that found enough, or a single-feature method, says nothing.
func TestFewGroupsAreReported(t *testing.T) {
	ds, _ := synth.Generate(synth.Sized(40), 30, 5, 0)
	cfg := DefaultConfig()
	cfg.Protocol, cfg.Repeats, cfg.Ks, cfg.Classifiers = DRAGS2008, 2, []int{2, 5, 20}, []string{"1nn"}
	cfg.Methods = []method.Spec{{Name: "drags"}, {Name: "fstat"}}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	dr := res.Methods[0]
	if dr.FewestGroups == nil {
		t.Fatal("no note of DRAGS's few groups")
	}
	fewest := len(dr.Reference.Groups)
	for _, r := range dr.Runs {
		fewest = min(fewest, len(r.Groups))
	}
	if *dr.FewestGroups != fewest || fewest >= 20 {
		t.Errorf("fewest %d, the runs' groups say %d", *dr.FewestGroups, fewest)
	}
	if !strings.Contains(dr.FewGroupsNote(), "filled with single features by F") {
		t.Errorf("note %q", dr.FewGroupsNote())
	}
	if res.Methods[1].FewestGroups != nil {
		t.Error("the F-statistic has a note of groups")
	}
}

// BenchmarkStudyFStatChowdary is the cheapest study on the largest real set: the
// F-statistic under 10 x 10 CV on Chowdary's 22,283 genes, where the stability
// summary (matched measures, similarity-adjusted catalogue and its expectations) weighs
// most against the rankings. Issue 25 measured 6.2 s for it, the catalogue doubling it.
func BenchmarkStudyFStatChowdary(b *testing.B) {
	ds := readShared(b, "chowdary.csv")
	cfg := DefaultConfig()
	cfg.Methods = []method.Spec{{Name: "fstat"}}
	cfg.Classifiers = []string{"svm"}
	cfg.ZScore = true
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Run(context.Background(), cfg, ds, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// The out-of-fold scores kept for ROC curves agree with the accuracies: in every
// resample the class of largest score is the one predicted, so the accuracies counted
// from them, averaged over the resamples, are the study's (linear SVM, 1-NN and 3-NN on
// two classes: no ties in the vote). Every sample is tested once in each repetition.
func TestPredictionsAgreeWithAccuracy(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 40, 3, 0)
	cfg := smallConfig()
	cfg.Methods = []method.Spec{{Name: "fstat"}}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	mr := res.Methods[0]
	if len(mr.Predictions) != 2*10 || !slices.Equal(res.Data.Labels, ds.Labels) {
		t.Fatalf("%d predictions, labels kept %v", len(mr.Predictions), res.Data.Labels != nil)
	}
	ks := res.Config.AccuracyKs()
	for _, cl := range res.Config.Classifiers {
		for ki, k := range ks {
			sum := 0.0
			tested := map[int]int{}
			for _, pr := range mr.Predictions {
				right := 0
				for i, s := range pr.Test {
					sc := pr.Scores[cl][ki][2*i : 2*i+2]
					pred := 0
					if sc[1] > sc[0] {
						pred = 1
					}
					if pred == ds.Labels[s] {
						right++
					}
					tested[pr.Repeat*1000+s]++
				}
				sum += float64(right) / float64(len(pr.Test))
			}
			if got, want := sum/float64(len(mr.Predictions)), mr.Accuracy[cl][ki].Mean; math.Abs(got-want) > 1e-12 {
				t.Errorf("%s, k = %d: accuracy from the scores %.6f, the study's %.6f", cl, k, got, want)
			}
			if len(tested) != 2*40 {
				t.Errorf("%d (repetition, sample) pairs tested, want 80 once each", len(tested))
			}
		}
	}
}
