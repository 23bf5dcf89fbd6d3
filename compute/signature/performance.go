package signature

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"

	"steadfast/compute/experiment"
	"steadfast/compute/rstat"
)

// Coords are an operating point of a two-class rule: sensitivity TP/(TP+FN),
// specificity TN/(TN+FP), positive predictive value TP/(TP+FP) and negative predictive
// value TN/(TN+FN) at the study's prevalence, each with a 95% interval (Low, High),
// and the score Threshold the rule calls positive from (NaN for the classifier's own
// rule, which may not be a threshold: k-NN's ties).
type Coords struct {
	Threshold float64
	Sens      Value
	Spec      Value
	PPV       Value
	NPV       Value
}

// Value is an estimate with its 95% interval; NaN where the rule gave no such case.
type Value struct{ Est, Low, High float64 }

// OwnRule is the operating point of the classifier's own rule (its predicted classes)
// over a study's resamples: each value is the pooled count ratio over every
// repetition, its interval the corrected resampled interval of the resamples' own
// values (correctedInterval).
func OwnRule(preds []experiment.Prediction, cl string, ki int, labels []int, positive int) Coords {
	var tp, fn, tn, fp float64
	var sens, spec, ppv, npv []float64
	reps := map[int]bool{}
	testN := 0.0
	for _, pr := range preds {
		var c [4]float64 // tp, fn, tn, fp of this resample
		flat := pr.Scores[cl][ki]
		for i, s := range pr.Test {
			called := flat[2*i+positive] > flat[2*i+1-positive]
			if pr.Pred != nil {
				called = pr.Pred[cl][ki][i] == positive
			}
			c[cell(labels[s] == positive, called)]++
		}
		tp, fn, tn, fp = tp+c[0], fn+c[1], tn+c[2], fp+c[3]
		sens, spec = appendRatio(sens, c[0], c[0]+c[1]), appendRatio(spec, c[2], c[2]+c[3])
		ppv, npv = appendRatio(ppv, c[0], c[0]+c[3]), appendRatio(npv, c[2], c[2]+c[1])
		reps[pr.Repeat] = true
		testN += float64(len(pr.Test))
	}
	n := float64(len(labels))
	nTest := testN / math.Max(float64(len(preds)), 1)
	iv := func(vals []float64, num, den float64) Value {
		v, _ := correctedInterval(vals, len(reps), nTest, n, num/den)
		return v
	}
	return Coords{Threshold: math.NaN(), Sens: iv(sens, tp, tp+fn), Spec: iv(spec, tn, tn+fp), PPV: iv(ppv, tp, tp+fp), NPV: iv(npv, tn, tn+fn)}
}

// cell indexes a sample's count: true positive 0, false negative 1, true negative 2,
// false positive 3.
func cell(isPos, called bool) int {
	switch {
	case isPos && called:
		return 0
	case isPos:
		return 1
	case !called:
		return 2
	}
	return 3
}

func appendRatio(v []float64, num, den float64) []float64 {
	if den == 0 {
		return v
	}
	return append(v, num/den)
}

// correctedInterval is the 95% interval around est of a proportion whose resamples
// gave vals (J of them over R repetitions, nTest test samples each of n): Nadeau and
// Bengio's SE^2 = (1/R + nTest/(n - nTest)) s^2, s^2 the variance of vals, in
// Wilson's score form at the effective size m = min(n, est(1-est)/SE^2) with the t
// quantile of R-1 degrees of freedom (J and J-1 with one repetition). Never outside
// [0, 1], never collapsed at 0 or 1 (there m = n). NaN interval and SE under two
// values.
func correctedInterval(vals []float64, R int, nTest, n, est float64) (v Value, se float64) {
	nan := math.NaN()
	v = Value{Est: est, Low: nan, High: nan}
	J := float64(len(vals))
	if J < 2 || math.IsNaN(est) {
		return v, nan
	}
	_, se2, df := experiment.CorrectedVariance(vals, R, nTest/(n-nTest))
	m := n
	if se2 > 0 && est > 0 && est < 1 {
		m = math.Min(m, est*(1-est)/se2)
	}
	z := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(0.975)
	v.Low, v.High = rstat.Wilson(est, m, z)
	return v, math.Sqrt(se2)
}

// Youden is the threshold of scores (higher means positive) that maximises Youden's J
// = sensitivity + specificity - 1, as pROC's coords(roc, "best", best.method =
// "youden") with direction "<": thresholds halfway between adjacent distinct scores, a
// sample called positive when its score is above; of equal J the highest threshold.
// Its coordinates have no intervals (see BootYouden). NaN without both classes.
func Youden(scores []float64, pos []bool) Coords {
	nan := math.NaN()
	none := Value{nan, nan, nan}
	out := Coords{Threshold: nan, Sens: none, Spec: none, PPV: none, NPV: none}
	np, nn := count(pos)
	if np == 0 || nn == 0 {
		return out
	}
	idx := sortedDown(scores)
	best, tp, fp := math.Inf(-1), 0, 0
	var btp, bfp int
	for k, i := range idx {
		if pos[i] {
			tp++
		} else {
			fp++
		}
		if k+1 < len(idx) && scores[idx[k+1]] == scores[i] {
			continue
		}
		if j := float64(tp)/float64(np) - float64(fp)/float64(nn); j > best {
			best, btp, bfp = j, tp, fp
			if k+1 < len(idx) {
				out.Threshold = (scores[i] + scores[idx[k+1]]) / 2
			} else {
				out.Threshold = math.Inf(-1)
			}
		}
	}
	tn, fn := nn-bfp, np-btp
	out.Sens.Est, out.Spec.Est = float64(btp)/float64(np), float64(tn)/float64(nn)
	out.PPV.Est, out.NPV.Est = ratio(btp, btp+bfp), ratio(tn, tn+fn)
	return out
}

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

func sortedDown(scores []float64) []int {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	return idx
}

// BootYouden gives Youden's operating point of the samples' scores (scores[i] holds
// sample i's scores, one per repetition; pos[i] its class) with 95% percentile
// intervals from boot stratified bootstrap draws of the samples, each drawn with all
// its scores, the threshold chosen again in every draw: pROC's ci.coords(roc, "best",
// boot.stratified = TRUE) when each sample has one score. Seeded: the same seed gives
// the same intervals.
func BootYouden(scores [][]float64, pos []bool, boot int, seed uint64) Coords {
	flat, fpos := flatten(scores, pos, nil)
	out := Youden(flat, fpos)
	if math.IsNaN(out.Threshold) || boot < 2 {
		return out
	}
	var cases, controls []int
	for i, p := range pos {
		if p {
			cases = append(cases, i)
		} else {
			controls = append(controls, i)
		}
	}
	r := rand.New(rand.NewPCG(seed, 0x796f7564))
	var draws [4][]float64
	draw := make([]int, 0, len(pos))
	for b := 0; b < boot; b++ {
		draw = draw[:0]
		for _, g := range [][]int{cases, controls} {
			for range g {
				draw = append(draw, g[r.IntN(len(g))])
			}
		}
		f, fp := flatten(scores, pos, draw)
		c := Youden(f, fp)
		for k, v := range []float64{c.Sens.Est, c.Spec.Est, c.PPV.Est, c.NPV.Est} {
			if !math.IsNaN(v) {
				draws[k] = append(draws[k], v)
			}
		}
	}
	for k, v := range []*Value{&out.Sens, &out.Spec, &out.PPV, &out.NPV} {
		v.Low, v.High = rstat.Quantile(draws[k], 0.025), rstat.Quantile(draws[k], 0.975) // pROC's quantile()
	}
	return out
}

// flatten lists the scores of the samples in draw (all samples when nil), every
// repetition's, with their classes.
func flatten(scores [][]float64, pos []bool, draw []int) ([]float64, []bool) {
	var f []float64
	var fp []bool
	add := func(i int) {
		for _, s := range scores[i] {
			f, fp = append(f, s), append(fp, pos[i])
		}
	}
	if draw == nil {
		for i := range scores {
			add(i)
		}
	}
	for _, i := range draw {
		add(i)
	}
	return f, fp
}

// Operating is the performance block of a two-class estimate: the classifier's own
// operating point (OwnRule) and Youden's (BootYouden, chosen on the same scores and so
// optimistic) on the out-of-fold scores of the positive class, the study's prevalence,
// and the probability of the positive class by Platt scaling of those scores. Platt is
// fitted on every repetition's out-of-fold scores (the locked model's map); Probs[i] is
// sample i's probability with the map cross-fitted (fitted without the tenth of the
// samples it holds), averaged over the repetitions, and Calibration is of the
// cross-fitted probabilities, so neither is judged on the samples that fitted it.
//
// Direct marks a classifier whose scores are probabilities of its own (logistic
// regression, a random forest's vote shares; experiment.DirectProbability): then there
// is no Platt map, Probs[i] is the mean of sample i's out-of-fold probabilities over the
// repetitions and Calibration is of those probabilities themselves.
type Operating struct {
	Own, Youden Coords
	Prevalence  float64
	Direct      bool
	Platt       Platt
	Probs       []float64 // NaN for a sample never held out
	Calibration Calibration
	Boot        int
}

// YoudenBoot is the bootstrap draws of Youden's intervals.
const YoudenBoot = 2000

// Operate computes the Operating block of method m, classifier cl at k from a
// study's predictions, for two classes with positive the positive class. Seeded by
// the study's seed.
func Operate(res *experiment.Result, m int, cl string, k, positive int) (*Operating, error) {
	if len(res.Data.Classes) != 2 {
		return nil, fmt.Errorf("an operating point needs two classes, not %d", len(res.Data.Classes))
	}
	ki := slices.Index(res.Config.AccuracyKs(), k)
	preds := res.Methods[m].Predictions
	if ki < 0 || len(preds) == 0 || res.Data.Labels == nil {
		return nil, fmt.Errorf("no out-of-fold predictions at k = %d", k)
	}
	labels := res.Data.Labels
	scores := make([][]float64, len(labels))
	for _, pr := range preds {
		flat := pr.Scores[cl][ki]
		for i, s := range pr.Test {
			scores[s] = append(scores[s], flat[2*i+positive])
		}
	}
	pos := make([]bool, len(labels))
	np := 0
	for i, l := range labels {
		pos[i] = l == positive
		if pos[i] {
			np++
		}
	}
	op := &Operating{Own: OwnRule(preds, cl, ki, labels, positive), Youden: BootYouden(scores, pos, YoudenBoot, res.Config.Seed), Boot: YoudenBoot,
		Prevalence: float64(np) / float64(len(labels))}
	if experiment.DirectProbability(cl) {
		op.Direct = true
		op.Probs, op.Calibration = ownProbs(scores, pos)
		return op, nil
	}
	f, fp := flatten(scores, pos, nil)
	var ok bool
	if op.Platt, ok = FitPlatt(f, fp); !ok {
		return nil, fmt.Errorf("no out-of-fold scores of both classes")
	}
	op.Probs, op.Calibration = crossFitted(scores, pos, res.Config.Seed)
	return op, nil
}

// ownProbs gives each sample's probability as the mean of its out-of-fold
// probabilities (NaN for a sample never held out), and the Calibration of every
// (sample, repetition) probability.
func ownProbs(scores [][]float64, pos []bool) ([]float64, Calibration) {
	probs := make([]float64, len(scores))
	var all []float64
	var allPos []bool
	for i, sc := range scores {
		probs[i] = math.NaN()
		if len(sc) == 0 {
			continue
		}
		sum := 0.0
		for _, p := range sc {
			sum += p
			all, allPos = append(all, p), append(allPos, pos[i])
		}
		probs[i] = sum / float64(len(sc))
	}
	return probs, Calibrate(all, allPos)
}

// crossFitted gives each sample's probability from Platt maps fitted without it: the
// samples dealt at random (seeded), class by class, into 10 groups, each group's
// scores mapped by the sigmoid fitted on the others'; a sample's probability is the
// mean over its repetitions, and the Calibration is of every (sample, repetition)
// probability.
func crossFitted(scores [][]float64, pos []bool, seed uint64) ([]float64, Calibration) {
	const groups = 10
	r := rand.New(rand.NewPCG(seed, 0x706c6174))
	group := make([]int, len(scores))
	for _, want := range []bool{true, false} {
		var idx []int
		for i, p := range pos {
			if p == want {
				idx = append(idx, i)
			}
		}
		r.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		for k, i := range idx {
			group[i] = k % groups
		}
	}
	probs := make([]float64, len(scores))
	var all []float64
	var allPos []bool
	for g := 0; g < groups; g++ {
		var out []int
		var f []float64
		var fp []bool
		for i := range scores {
			if group[i] == g {
				out = append(out, i)
				continue
			}
			for _, s := range scores[i] {
				f, fp = append(f, s), append(fp, pos[i])
			}
		}
		pl, ok := FitPlatt(f, fp)
		for _, i := range out {
			probs[i] = math.NaN()
			if !ok || len(scores[i]) == 0 {
				continue
			}
			sum := 0.0
			for _, s := range scores[i] {
				p := pl.Prob(s)
				sum += p
				all, allPos = append(all, p), append(allPos, pos[i])
			}
			probs[i] = sum / float64(len(scores[i]))
		}
	}
	return probs, Calibrate(all, allPos)
}
