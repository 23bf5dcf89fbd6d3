package survival

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// coxnetSynth is n samples of p genes, the first three prognostic (log hazard ratios
// 0.8, -0.6, 0.4 per unit), exponential times rounded to 0.1 (ties, among events and
// between events and censored samples), about 35% censored, sample 0 an event at time 0
// and sample 1 censored before the first event.
func coxnetSynth(n, p int, seed uint64) ([]float64, []bool, *mat.Dense) {
	r := rand.New(rand.NewPCG(seed, 53))
	x := mat.NewDense(n, p, nil)
	time, event := make([]float64, n), make([]bool, n)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			x.Set(i, j, 5+2*r.NormFloat64())
		}
		eta := 0.8*(x.At(i, 0)-5) - 0.6*(x.At(i, 1)-5) + 0.4*(x.At(i, 2)-5)
		t := r.ExpFloat64() / math.Exp(eta) * 3
		c := r.ExpFloat64() * 6
		time[i], event[i] = math.Round(math.Min(t, c)*10)/10, t <= c
	}
	time[0], event[0] = 0, true
	time[1], event[1] = 0, false
	return time, event, x
}

// coxnetNaive is the Breslow log partial likelihood of the standardised columns xs at b
// and its gradient, by the definition (each event's risk set: the samples of time >= its
// own).
func coxnetNaive(time []float64, event []bool, xs *mat.Dense, b []float64) (float64, []float64) {
	n, p := xs.Dims()
	eta := make([]float64, n)
	for i := range eta {
		for j := 0; j < p; j++ {
			eta[i] += xs.At(i, j) * b[j]
		}
	}
	ll, g := 0.0, make([]float64, p)
	for i := 0; i < n; i++ {
		if !event[i] {
			continue
		}
		s, sx := 0.0, make([]float64, p)
		for k := 0; k < n; k++ {
			if time[k] >= time[i] {
				e := math.Exp(eta[k])
				s += e
				for j := range sx {
					sx[j] += e * xs.At(k, j)
				}
			}
		}
		ll += eta[i] - math.Log(s)
		for j := range g {
			g[j] += xs.At(i, j) - sx[j]/s
		}
	}
	return ll, g
}

// TestCoxNetObjective: on a small set with tied times, a time-0 event and a sample
// censored before any event, a tightly solved path (Thresh 1e-20: glmnet's IRLS loop
// stops when no coefficient moved by more than about sqrt(Thresh)) meets the doc
// comment's objective, computed here by the definition: the null deviance 2 (l_sat -
// l(0)); lambda_max = max_j |dl/db_j(0)| / (n alpha); at every lambda the deviance ratio
// (l(b) - l(0)) / (l_sat - l(0)) and the KKT conditions of -(1/n) l(b) + lambda [alpha
// ||b||_1 + (1-alpha)/2 ||b||^2] (b standardised: beta_j sd_j), to 1e-7 lambda.
func TestCoxNetObjective(t *testing.T) {
	time, event, x := coxnetSynth(60, 8, 1)
	n, p := x.Dims()
	xs := mat.DenseCopyOf(x)
	sd := make([]float64, p)
	for j := 0; j < p; j++ {
		m, v := 0.0, 0.0
		for i := 0; i < n; i++ {
			m += x.At(i, j) / float64(n)
		}
		for i := 0; i < n; i++ {
			v += (x.At(i, j) - m) * (x.At(i, j) - m) / float64(n)
		}
		sd[j] = math.Sqrt(v)
		for i := 0; i < n; i++ {
			xs.Set(i, j, (x.At(i, j)-m)/sd[j])
		}
	}
	sat := 0.0
	for _, tm := range slices.Compact(slices.Sorted(slices.Values(time))) {
		d := 0.0
		for i := range time {
			if event[i] && time[i] == tm {
				d++
			}
		}
		if d > 0 {
			sat -= d * math.Log(d)
		}
	}
	l0, g0 := coxnetNaive(time, event, xs, make([]float64, p))
	for _, alpha := range []float64{1, 0.5} {
		path, err := CoxNet{Alpha: alpha, Thresh: 1e-20, MaxPasses: 1e7}.Path(context.Background(), time, event, x)
		if err != nil {
			t.Fatal(err)
		}
		if path.Note != "" {
			t.Fatal(path.Note)
		}
		if d := coxnetRelDiff(path.NullDev, 2*(sat-l0), 0); d > 1e-12 {
			t.Errorf("alpha %v: null deviance %v, by definition %v", alpha, path.NullDev, 2*(sat-l0))
		}
		lmax := 0.0
		for _, g := range g0 {
			lmax = math.Max(lmax, math.Abs(g)/float64(n)/alpha)
		}
		if d := coxnetRelDiff(path.Lambda[0], lmax, 0); d > 1e-12 {
			t.Errorf("alpha %v: lambda_max %v, by definition %v", alpha, path.Lambda[0], lmax)
		}
		worst := 0.0
		for l, lam := range path.Lambda {
			beta := path.Beta(l)
			b := make([]float64, p)
			for j := range b {
				b[j] = beta[j] * sd[j]
			}
			ll, g := coxnetNaive(time, event, xs, b)
			if d := math.Abs(path.DevRatio[l] - (ll-l0)/(sat-l0)); d > 1e-10 {
				t.Errorf("alpha %v, lambda %d: deviance ratio %v, by definition %v", alpha, l, path.DevRatio[l], (ll-l0)/(sat-l0))
			}
			for j := range b {
				// the subgradient of the objective at b_j holds 0
				r := g[j]/float64(n) - lam*(1-alpha)*b[j]
				if b[j] != 0 {
					r -= lam * alpha * math.Copysign(1, b[j])
				} else {
					r = math.Max(0, math.Abs(r)-lam*alpha)
				}
				worst = math.Max(worst, math.Abs(r)/lam)
			}
		}
		if worst > 1e-7 {
			t.Errorf("alpha %v: KKT conditions off by %.2g lambda", alpha, worst)
		}
		t.Logf("alpha %v: %d lambdas, KKT conditions met to %.2g lambda", alpha, len(path.Lambda), worst)
	}
}

// TestCoxNetTimesByOrder: the path depends on the times only through their order and
// ties (the partial likelihood's): times, their ranks over n and 2 time + 3 give the
// same path to the last bit (the time-0 event among them).
func TestCoxNetTimesByOrder(t *testing.T) {
	time, event, x := coxnetSynth(80, 40, 2)
	n := len(time)
	ranks := make([]float64, n)
	shifted := make([]float64, n)
	for i, ti := range time {
		for _, tk := range time {
			if tk < ti {
				ranks[i]++
			}
		}
		ranks[i] = (ranks[i] + 1) / float64(n)
		shifted[i] = 2*ti + 3
	}
	want, err := CoxNet{Alpha: 1}.Path(context.Background(), time, event, x)
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range [][]float64{ranks, shifted} {
		got, err := CoxNet{Alpha: 1}.Path(context.Background(), tm, event, x)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Lambda, want.Lambda) || !slices.Equal(got.DevRatio, want.DevRatio) {
			t.Fatal("another path for the same order of times")
		}
		for l := range want.Lambda {
			if !slices.Equal(got.Beta(l), want.Beta(l)) {
				t.Fatalf("lambda %d: other coefficients for the same order of times", l)
			}
		}
	}
}

// TestCoxNetColumnOrder: permuting the genes (and the tie order with them) gives every
// gene the same entry lambda, coefficients and rank, to the last bit (AML, alpha 0.5).
func TestCoxNetColumnOrder(t *testing.T) {
	d := coxnetRead(t, "aml_survival.csv")
	_, p := d.x.Dims()
	r := rand.New(rand.NewPCG(7, 53))
	tie, perm := r.Perm(p), r.Perm(p)
	xp := mat.NewDense(len(d.time), p, nil)
	tp := make([]int, p)
	for k, j := range perm {
		xp.SetCol(k, mat.Col(nil, j, d.x))
		tp[k] = tie[j]
	}
	rk := CoxNetRanker{CoxNet: CoxNet{Alpha: 0.5}, By: CoxNetAt, At: 0.3}
	want, err := rk.Rank(context.Background(), d.time, d.event, d.x, tie)
	if err != nil {
		t.Fatal(err)
	}
	got, err := rk.Rank(context.Background(), d.time, d.event, xp, tp)
	if err != nil {
		t.Fatal(err)
	}
	entered := 0
	for k, j := range perm {
		if got.Entry[k] != want.Entry[j] || got.Coef[k] != want.Coef[j] || got.Score[k] != want.Score[j] {
			t.Fatalf("gene %s: entry %v, coefficient %v, score %v; in the file's order %v, %v, %v", d.genes[j], got.Entry[k], got.Coef[k], got.Score[k], want.Entry[j], want.Coef[j], want.Score[j])
		}
		if want.Entry[j] >= 0 {
			entered++
		}
	}
	for i := range got.Order {
		if perm[got.Order[i]] != want.Order[i] {
			t.Fatalf("rank %d: %s, in the file's order %s", i+1, d.genes[perm[got.Order[i]]], d.genes[want.Order[i]])
		}
	}
	t.Logf("%d genes permuted: the same entry lambdas (%d genes enter), coefficients and ranks", p, entered)
}

// TestCoxNetWorkers: cross-validation gives the same result to the last bit on 1 and on
// 4 goroutines.
func TestCoxNetWorkers(t *testing.T) {
	time, event, x := coxnetSynth(120, 200, 3)
	r := rand.New(rand.NewPCG(4, 53))
	folds := r.Perm(len(time))
	for i := range folds {
		folds[i] %= 5
	}
	var want *CoxNetCV
	for _, w := range []int{1, 4} {
		cv, err := CoxNet{Alpha: 0.5, Workers: w}.CV(context.Background(), time, event, x, folds)
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = cv
			continue
		}
		if !slices.Equal(cv.CVM, want.CVM) || !slices.Equal(cv.CVSD, want.CVSD) || cv.Min != want.Min || cv.OneSE != want.OneSE {
			t.Fatalf("%d goroutines: another cross-validation than on 1", w)
		}
	}
}

// TestCoxNetTies: two identical genes have equal scores; the tie order decides which
// the path visits first and which ranks first, and swapping it swaps the two exactly.
func TestCoxNetTies(t *testing.T) {
	time, event, x := coxnetSynth(70, 6, 5)
	x.SetCol(3, mat.Col(nil, 0, x)) // gene 3 = gene 0, the strongest
	rank := func(tie []int) CoxNetRanking {
		out, err := CoxNetRanker{CoxNet: CoxNet{Alpha: 1}}.Rank(context.Background(), time, event, x, tie)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	a := rank([]int{5, 1, 2, 0, 4, 3}) // gene 3 before gene 0
	b := rank([]int{0, 1, 2, 5, 4, 3}) // gene 0 before gene 3
	if a.Order[0] != 3 || b.Order[0] != 0 {
		t.Errorf("first genes %d and %d, want the tie order's 3 and 0", a.Order[0], b.Order[0])
	}
	if a.Entry[3] != b.Entry[0] || a.Entry[0] != b.Entry[3] || a.Score[3] != b.Score[0] || a.Score[0] != b.Score[3] {
		t.Errorf("swapping the tie order of two identical genes does not swap their entries and scores")
	}
}

// TestCoxNetRefuses: bad input is refused with what is wrong.
func TestCoxNetRefuses(t *testing.T) {
	time, event, x := coxnetSynth(30, 4, 6)
	eventsIn01 := make([]int, 30) // folds 0 and 1 hold samples 0 and 1, fold 2 the rest
	for i := 2; i < 30; i++ {
		eventsIn01[i] = 2
	}
	eventsIn01[1] = 1
	for _, c := range []struct {
		o     CoxNet
		mod   func(tm []float64, ev []bool) ([]float64, []bool)
		folds []int
		want  string
	}{
		{CoxNet{Alpha: 1}, func(tm []float64, ev []bool) ([]float64, []bool) { tm[4] = -1; return tm, ev }, nil, "sample 5: time -1"},
		{CoxNet{Alpha: 1}, func(tm []float64, ev []bool) ([]float64, []bool) { tm[2] = math.NaN(); return tm, ev }, nil, "sample 3: time NaN"},
		{CoxNet{Alpha: 1}, func(tm []float64, ev []bool) ([]float64, []bool) { tm[2] = math.Inf(1); return tm, ev }, nil, "sample 3: time +Inf"},
		{CoxNet{Alpha: 1}, func(tm []float64, ev []bool) ([]float64, []bool) { clear(ev); return tm, ev }, nil, "no event"},
		{CoxNet{Alpha: 1.5}, nil, nil, "alpha must lie in [0, 1]"},
		{CoxNet{Alpha: 1, Tie: []int{0}}, nil, nil, "tie order of 1 for 4"},
		{CoxNet{Alpha: 1}, func(tm []float64, ev []bool) ([]float64, []bool) { return tm[:10], ev }, nil, "10 times and 30 events"},
		{CoxNet{Alpha: 1}, nil, make([]int, 30), "1 folds"},
		{CoxNet{Alpha: 1}, func(tm []float64, ev []bool) ([]float64, []bool) {
			clear(ev)
			ev[0], ev[1] = true, true
			return tm, ev
		}, eventsIn01, "fold 3 of 3 holds 28 samples and no event"},
	} {
		tm, ev := slices.Clone(time), slices.Clone(event)
		if c.mod != nil {
			tm, ev = c.mod(tm, ev)
		}
		var err error
		if c.folds == nil {
			_, err = c.o.Path(context.Background(), tm, ev, x)
		} else {
			_, err = c.o.CV(context.Background(), tm, ev, x, c.folds)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one saying %q", err, c.want)
		}
	}
}

// TestCoxNetPassCap: a path that reaches MaxPasses keeps the lambdas before (glmnet's
// warning), says so, and the ranking counts it unconverged; a cancelled context stops
// the fit with its error.
func TestCoxNetPassCap(t *testing.T) {
	time, event, x := coxnetSynth(80, 30, 8)
	o := CoxNet{Alpha: 1, MaxPasses: 40}
	path, err := o.Path(context.Background(), time, event, x)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(path.Note, "no convergence") || len(path.Lambda) >= 100 {
		t.Errorf("%d lambdas, note %q", len(path.Lambda), path.Note)
	}
	rk, err := CoxNetRanker{CoxNet: o}.Rank(context.Background(), time, event, x, nil)
	if err != nil || rk.Unconverged != 1 {
		t.Errorf("unconverged %d, error %v", rk.Unconverged, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (CoxNet{Alpha: 1}).Path(ctx, time, event, x); err != context.Canceled {
		t.Errorf("error %v, want the context's", err)
	}
}
