package study

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/survival"
)

// survDesign is one simulated setting of BenchmarkCIntervalCoverage: n patients, p
// standard normal genes (in blocks of block genes correlated rho when block > 0), the
// first of them with the log hazard ratios effects (per SD), exponential event times,
// uniform censoring that leaves the share censored of patients censored, the top k
// genes of the Cox score test under folds-fold CV x 10.
type survDesign struct {
	name       string
	n, p       int
	effects    []float64
	censored   float64
	block      int
	rho        float64
	folds, k   int
	truthTimes int // the locked model's true C is its C on this many new patients
}

// signalEffects are the informative genes' log hazard ratios: 5 at 0.4 and 10 at 0.3.
var signalEffects = []float64{0.4, 0.4, 0.4, 0.4, 0.4, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3}

// weakEffects are 5 genes at 0.4.
var weakEffects = signalEffects[:5]

func sd(name string, n int, effects []float64, censored float64, folds int) survDesign {
	return survDesign{name: name, n: n, p: 500, effects: effects, censored: censored, folds: folds, k: 10, truthTimes: 20000}
}

// survCoverageDesigns are the designs of BenchmarkCIntervalCoverage.
var survCoverageDesigns = []survDesign{
	sd("n 100, signal, 30% censored, 10 x 10-fold", 100, signalEffects, 0.3, 10),
	sd("n 100, signal, 60% censored, 10 x 10-fold", 100, signalEffects, 0.6, 10),
	sd("n 100, no signal, 30% censored, 10 x 10-fold", 100, nil, 0.3, 10),
	sd("n 100, no signal, 60% censored, 10 x 10-fold", 100, nil, 0.6, 10),
	sd("n 60, signal, 30% censored, 10 x 10-fold", 60, signalEffects, 0.3, 10),
	sd("n 60, signal, 60% censored, 10 x 10-fold", 60, signalEffects, 0.6, 10),
	sd("n 60, no signal, 30% censored, 10 x 10-fold", 60, nil, 0.3, 10),
	sd("n 200, signal, 30% censored, 10 x 10-fold", 200, signalEffects, 0.3, 10),
	sd("n 200, signal, 60% censored, 10 x 10-fold", 200, signalEffects, 0.6, 10),
	sd("n 200, no signal, 60% censored, 10 x 10-fold", 200, nil, 0.6, 10),
	sd("n 100, weak (5 at 0.4), 30% censored, 10 x 10-fold", 100, weakEffects, 0.3, 10),
	sd("n 100, signal, 30% censored, 5-fold x 10", 100, signalEffects, 0.3, 5),
	sd("n 100, signal, 60% censored, 5-fold x 10", 100, signalEffects, 0.6, 5),
	sd("n 60, signal, 30% censored, 5-fold x 10", 60, signalEffects, 0.3, 5),
	sd("n 200, signal, 60% censored, 5-fold x 10", 200, signalEffects, 0.6, 5),
	sd("n 100, signal, 30% censored, 3-fold x 10", 100, signalEffects, 0.3, 3),
	sd("n 100, signal, 60% censored, 3-fold x 10", 100, signalEffects, 0.6, 3),
	{name: "n 100, signal in correlated blocks (10 genes, rho 0.5), 30% censored, 10 x 10-fold", n: 100, p: 500, effects: signalEffects, censored: 0.3, block: 10, rho: 0.5, folds: 10, k: 10, truthTimes: 20000},
}

// BenchmarkCIntervalCoverage simulates survival studies and counts how often the
// cross-validated C's interval (signature.CIndex, through BuildSurvivalSignature)
// covers the true C of the model locked on all n patients: the Cox score test's top k
// genes on all patients with the ridge Cox model fitted on them (the signature's own
// locked model), its Harrell's C on 20,000 new patients of the same design and the
// same censoring (survCoverageDesigns). Per design it logs the coverage with its
// Wilson interval, the misses (true C below / above the interval), the mean width,
// the SD over studies of the error (estimate - true C), the width ratio (mean width /
// (2 x 1.96 x that SD): 1 for an exact normal interval) and the mean error (bias);
// and what the SE is made of: the variance of the error over the mean IJ variance V
// of a repetition's pooled C, over the mean SE^2, and the mean s^2/J.
// STEADFAST_CCOVERAGE_SETS sets a design (default 20), STEADFAST_CCOVERAGE_SEED the
// first seed (default 1), STEADFAST_CCOVERAGE_ONLY runs the designs whose name
// contains it, STEADFAST_CCOVERAGE_OUT writes every study's numbers to that CSV file.
// The studies run on all cores, one at a time a core.
func BenchmarkCIntervalCoverage(b *testing.B) {
	sets, first := envInt("STEADFAST_CCOVERAGE_SETS", 20), envInt("STEADFAST_CCOVERAGE_SEED", 1)
	var designs []survDesign
	for _, d := range survCoverageDesigns {
		if only := os.Getenv("STEADFAST_CCOVERAGE_ONLY"); only == "" || strings.Contains(d.name, only) {
			designs = append(designs, d)
		}
	}
	for b.Loop() {
		start := time.Now()
		studies := make([][]survStudy, len(designs))
		type job struct{ d, s int }
		jobs := make(chan job)
		errs := make(chan error, runtime.GOMAXPROCS(0))
		var wg sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := range jobs {
					st, err := simulateSurvStudy(designs[j.d], first+j.s)
					if err != nil {
						select {
						case errs <- fmt.Errorf("%s, seed %d: %w", designs[j.d].name, first+j.s, err):
						default:
						}
						continue
					}
					studies[j.d][j.s] = st
				}
			}()
		}
		for d := range designs {
			studies[d] = make([]survStudy, sets)
		}
		for s := range sets { // seeds across designs, so that every design fills evenly
			for d := range designs {
				jobs <- job{d, s}
			}
		}
		close(jobs)
		wg.Wait()
		select {
		case err := <-errs:
			b.Fatal(err)
		default:
		}
		var out *os.File
		if name := os.Getenv("STEADFAST_CCOVERAGE_OUT"); name != "" {
			var err error
			if out, err = os.Create(name); err != nil {
				b.Fatal(err)
			}
			fmt.Fprintln(out, "design,seed,n,n_test,J,censored,estimate,low,high,se,v,ss_j,truth,oracle")
		}
		for d, des := range designs {
			b.Log(summariseSurv(des, studies[d], first))
			if out != nil {
				for s, st := range studies[d] {
					fmt.Fprintf(out, "%q,%d,%d,%g,%d,%g,%.6f,%.6f,%.6f,%.6f,%.8f,%.8f,%.6f,%.6f\n", des.name, first+s, des.n, st.nTest, st.J, st.censored,
						st.c.Mean, st.c.Low, st.c.High, st.c.SE, st.v, st.ssJ, st.truth, st.oracle)
				}
			}
		}
		if out != nil {
			if err := out.Close(); err != nil {
				b.Fatal(err)
			}
		}
		b.Logf("%d designs x %d sets in %s on %d cores", len(designs), sets, time.Since(start).Round(time.Second), runtime.GOMAXPROCS(0))
	}
}

// survStudy is one simulated study: its interval, the mean IJ variance v of a
// repetition's pooled C, the resamples' variance over J (ssJ), a resample's test
// patients, the share censored, the locked model's true C and the true C of the true
// risk score (the oracle, for scale).
type survStudy struct {
	c             signature.CIndex
	v, ssJ, nTest float64
	J             int
	censored      float64
	truth, oracle float64
}

// summariseSurv is a design's line of BenchmarkCIntervalCoverage.
func summariseSurv(d survDesign, st []survStudy, first int) string {
	n := float64(len(st))
	var cover, below, above int
	var width, bias, v, se2, ssJ, cens, truth, oracle, est float64
	errs := make([]float64, len(st))
	for i, s := range st {
		switch {
		case s.truth < s.c.Low:
			below++
		case s.truth > s.c.High:
			above++
		default:
			cover++
		}
		errs[i] = s.c.Mean - s.truth
		width += (s.c.High - s.c.Low) / n
		bias += errs[i] / n
		v += s.v / n
		se2 += s.c.SE * s.c.SE / n
		ssJ += s.ssJ / n
		cens += s.censored / n
		truth += s.truth / n
		oracle += s.oracle / n
		est += s.c.Mean / n
	}
	ss := 0.0
	for _, e := range errs {
		ss += (e - bias) * (e - bias)
	}
	sdErr := math.Sqrt(ss / (n - 1))
	lo, hi := wilson(float64(cover), n)
	return fmt.Sprintf("%s, %d sets from seed %d (%.0f%% censored): covers %.3f (%.3f-%.3f; true C below %d, above %d), mean width %.3f, SD of error %.4f, ratio %.2f, bias %+.4f; "+
		"mean C %.3f, true C %.3f (oracle %.3f); var(error)/V %.2f, var(error)/SE^2 %.2f, s^2/J / V %.2f",
		d.name, len(st), first, 100*cens, float64(cover)/n, lo, hi, below, above, width, sdErr, width/(2*1.959964*sdErr), bias,
		est, truth, oracle, sdErr*sdErr/v, sdErr*sdErr/se2, ssJ/v)
}

// wilson is the 95% Wilson interval of k successes in n.
func wilson(k, n float64) (lo, hi float64) {
	z := 1.959964
	p := k / n
	c := (p + z*z/(2*n)) / (1 + z*z/n)
	h := z / (1 + z*z/n) * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	return c - h, c + h
}

// survSim draws patients of a design: genes, risk scores, times and events.
type survSim struct {
	d      survDesign
	beta   []float64 // per gene, 0 beyond the effects
	cens   float64   // the censoring's upper bound: uniform on (0, cens)
	riskSD float64
}

func newSurvSim(d survDesign) *survSim {
	s := &survSim{d: d, beta: make([]float64, d.p)}
	copy(s.beta, d.effects)
	// the variance of the true risk score b'Sigma b, Sigma the blocks' correlation
	v := 0.0
	for i, bi := range s.beta {
		for j, bj := range s.beta {
			if bi == 0 || bj == 0 {
				continue
			}
			switch {
			case i == j:
				v += bi * bj
			case d.block > 0 && i/d.block == j/d.block:
				v += bi * bj * d.rho
			}
		}
	}
	s.riskSD = math.Sqrt(v)
	s.cens = uniformCensoring(s.riskSD, d.censored)
	return s
}

// uniformCensoring is the bound a of uniform (0, a) censoring that censors the share
// q of exponential times of rate exp(eta), eta ~ N(0, sd^2): P(C < T | eta) = (1 -
// exp(-l a)) / (l a), l = exp(eta), integrated over eta on a grid, a by bisection.
func uniformCensoring(sd, q float64) float64 {
	share := func(a float64) float64 {
		if sd == 0 {
			return -math.Expm1(-a) / a
		}
		tot, w := 0.0, 0.0
		for i := -4000; i <= 4000; i++ {
			z := float64(i) / 500 // -8 .. 8
			wt := math.Exp(-z * z / 2)
			l := math.Exp(sd * z)
			tot += wt * -math.Expm1(-l*a) / (l * a)
			w += wt
		}
		return tot / w
	}
	lo, hi := 1e-6, 1e6 // share decreases with a
	for range 200 {
		mid := math.Sqrt(lo * hi)
		if share(mid) > q {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Sqrt(lo * hi)
}

// genes draws m patients' values of the genes cols (all when nil) into a matrix.
func (s *survSim) genes(m int, cols []int, r *rand.Rand) *mat.Dense {
	d := s.d
	if cols == nil {
		cols = make([]int, d.p)
		for j := range cols {
			cols[j] = j
		}
	}
	x := mat.NewDense(m, len(cols), nil)
	factor := map[int]float64{}
	a, e := math.Sqrt(d.rho), math.Sqrt(1-d.rho)
	for i := range m {
		clear(factor)
		row := x.RawRowView(i)
		for c, j := range cols {
			if d.block == 0 {
				row[c] = r.NormFloat64()
				continue
			}
			f, ok := factor[j/d.block]
			if !ok {
				f = r.NormFloat64()
				factor[j/d.block] = f
			}
			row[c] = a*f + e*r.NormFloat64()
		}
	}
	return x
}

// outcome draws the times and events of patients whose true risk scores are eta.
func (s *survSim) outcome(eta []float64, r *rand.Rand) survival.Outcome {
	o := survival.Outcome{Time: make([]float64, len(eta)), Event: make([]bool, len(eta))}
	for i, h := range eta {
		t := r.ExpFloat64() / math.Exp(h)
		c := r.Float64() * s.cens
		o.Time[i], o.Event[i] = math.Min(t, c), t <= c
	}
	return o
}

// risk is the true risk score of each row of x, whose columns are the genes cols.
func (s *survSim) risk(x *mat.Dense, cols []int) []float64 {
	m, _ := x.Dims()
	eta := make([]float64, m)
	for c, j := range cols {
		if b := s.beta[j]; b != 0 {
			for i := range m {
				eta[i] += b * x.At(i, c)
			}
		}
	}
	return eta
}

// simulateSurvStudy runs the study of seed s of design d: the data set, the survival
// study (the Cox score test, the Cox model at k, folds-fold CV x 10), its signature,
// and the locked model's C on new patients.
func simulateSurvStudy(d survDesign, seed int) (survStudy, error) {
	sim := newSurvSim(d)
	h := uint64(d.n)*1_000_003 + uint64(d.censored*100)*1009 + uint64(len(d.effects))*31 + uint64(d.folds)*7 + uint64(d.block)
	r := rand.New(rand.NewPCG(uint64(seed), h))
	x := sim.genes(d.n, nil, r)
	all := make([]int, d.p)
	for j := range all {
		all[j] = j
	}
	o := sim.outcome(sim.risk(x, all), r)
	ds := &dataset.Dataset{Name: "simulated", X: x, Classes: []string{"censored", "event"},
		Survival: &dataset.Survival{Time: o.Time, Event: o.Event, TimeName: "time", EventName: "event"}}
	cens := 0.0
	for i := range d.n {
		ds.Samples = append(ds.Samples, fmt.Sprintf("p%d", i+1))
		l := 0
		if o.Event[i] {
			l = 1
		} else {
			cens++
		}
		ds.Labels = append(ds.Labels, l)
	}
	for j := range d.p {
		ds.Features = append(ds.Features, fmt.Sprintf("g%d", j+1))
	}
	cfg := experiment.DefaultSurvivalConfig()
	cfg.Ks, cfg.Seed, cfg.Folds, cfg.Repeats, cfg.Workers = []int{d.k}, uint64(seed), d.folds, 10, 1
	res, err := experiment.Run(context.Background(), cfg, ds, nil)
	if err != nil {
		return survStudy{}, err
	}
	sig, err := BuildSurvivalSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: d.k}, SurvivalOptions{})
	if err != nil {
		return survStudy{}, err
	}
	st := survStudy{c: sig.CV.C, J: sig.CV.C.Resamples, censored: cens / float64(d.n)}
	for _, p := range sig.CV.Pooled {
		st.v += p.SE * p.SE / float64(len(sig.CV.Pooled))
	}
	tests := 0
	for _, pr := range res.Methods[0].Predictions {
		tests += len(pr.Test)
	}
	st.nTest = float64(tests) / float64(len(res.Methods[0].Predictions))
	n := float64(d.n)
	st.ssJ = st.c.SE*st.c.SE - (1+math.Sqrt((n-st.nTest)/st.nTest))*st.v
	// the truth: the locked model's C on new patients; only the genes it uses and the
	// informative ones are drawn (the others do not change either)
	locked := make([]int, len(sig.Genes))
	for g, gene := range sig.Genes {
		locked[g] = gene.Feature
	}
	cols := append([]int(nil), locked...)
	at := map[int]int{}
	for c, j := range cols {
		at[j] = c
	}
	for j := range d.effects {
		if _, ok := at[j]; !ok {
			at[j] = len(cols)
			cols = append(cols, j)
		}
	}
	if d.block > 0 { // whole blocks, so that the drawn genes keep their correlation
		cols = cols[:0]
		clear(at)
		seen := map[int]bool{}
		for _, j := range append(append([]int(nil), locked...), all[:len(d.effects)]...) {
			b := j / d.block
			if seen[b] {
				continue
			}
			seen[b] = true
			for g := b * d.block; g < min((b+1)*d.block, d.p); g++ {
				at[g] = len(cols)
				cols = append(cols, g)
			}
		}
	}
	rt := rand.New(rand.NewPCG(uint64(seed), h^0x9e3779b97f4a7c15))
	xt := sim.genes(d.truthTimes, cols, rt)
	eta := sim.risk(xt, cols)
	ot := sim.outcome(eta, rt)
	sel := mat.NewDense(d.truthTimes, len(locked), nil)
	for g, j := range locked {
		for i := range d.truthTimes {
			sel.Set(i, g, xt.At(i, at[j]))
		}
	}
	scores, err := sig.Model.RiskScores(sel)
	if err != nil {
		return survStudy{}, err
	}
	c, err := survival.Harrell(ot, scores)
	if err != nil {
		return survStudy{}, err
	}
	st.truth = c.C
	if d.effects != nil {
		oc, err := survival.Harrell(ot, eta)
		if err != nil {
			return survStudy{}, err
		}
		st.oracle = oc.C
	} else {
		st.oracle = 0.5
	}
	return st, nil
}

// BenchmarkCIntervalDLBCL checks the cross-validated C's interval on real data: the
// survival study of DLBCL CHOP (the Cox score test, 10 x 10-fold CV; ../shared/data),
// its signatures at k = 10 and 30, and the locked models' Harrell's C on the
// independent R-CHOP cohort (the same probe sets). R-CHOP is another treatment era
// with a shorter follow-up (median 2.8 years against 7.6), so not the population the
// interval targets: it logs whether the cohort's C falls inside, nothing more.
func BenchmarkCIntervalDLBCL(b *testing.B) {
	dir := filepath.Join("..", "..", "..", "shared", "data")
	chop, err := dataset.ReadFile(filepath.Join(dir, "dlbcl_chop_survival.csv"), dataset.Options{})
	if err != nil {
		b.Fatalf("real data missing (../shared/data): %v", err)
	}
	rchop, err := dataset.ReadFile(filepath.Join(dir, "dlbcl_rchop_survival.csv"), dataset.Options{})
	if err != nil {
		b.Fatal(err)
	}
	col := map[string]int{}
	for j, f := range rchop.Features {
		col[f] = j
	}
	for b.Loop() {
		cfg := experiment.DefaultSurvivalConfig()
		cfg.Ks = []int{10, 30}
		res, err := experiment.Run(context.Background(), cfg, chop, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, k := range cfg.Ks {
			sig, err := BuildSurvivalSignature(context.Background(), res, chop, signature.Choice{Method: 0, K: k}, SurvivalOptions{})
			if err != nil {
				b.Fatal(err)
			}
			n, _ := rchop.Dims()
			x := mat.NewDense(n, len(sig.Genes), nil)
			for g, gene := range sig.Genes {
				j, ok := col[gene.ID]
				if !ok {
					b.Fatalf("R-CHOP lacks %s", gene.ID)
				}
				for i := range n {
					x.Set(i, g, rchop.X.At(i, j))
				}
			}
			scores, err := sig.Model.RiskScores(x)
			if err != nil {
				b.Fatal(err)
			}
			c, err := survival.Harrell(SurvivalOutcomeOf(rchop), scores)
			if err != nil {
				b.Fatal(err)
			}
			cv := sig.CV.C
			inside := "inside"
			if c.C < cv.Low || c.C > cv.High {
				inside = "outside"
			}
			v := 0.0
			for _, p := range sig.CV.Pooled {
				v += p.SE * p.SE / float64(len(sig.CV.Pooled))
			}
			b.Logf("DLBCL CHOP (%d patients, %d deaths), k = %d: cross-validated C %.3f (%.3f-%.3f, SE %.4f; IJ SE at n %.4f), apparent C %.3f; the locked model on R-CHOP (%d patients, %d deaths): C %.3f (IJ SE %.4f), %s the interval",
				len(chop.Samples), chop.Survival.Events(), k, cv.Mean, cv.Low, cv.High, cv.SE, math.Sqrt(v), sig.Apparent.C.C, n, rchop.Survival.Events(), c.C, c.SE, inside)
		}
	}
}
