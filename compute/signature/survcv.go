package signature

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/rstat"
	"steadfast/compute/survival"
)

// CIntervalMethod names the cross-validated C's interval and what it covers.
const CIntervalMethod = "targets the C of the model locked on all samples: the infinitesimal-jackknife variance of the pooled held-out C x (1 + sqrt(n_train/n_test)) + the resamples' variance / J, normal, within [0, 1]"

// CIndex is the cross-validated Harrell's C of a survival signature's procedure: Mean
// the mean of the J resamples' C on their held-out samples (the study's curve at k),
// and a 95% interval for the C of the model locked on all n samples, built as the
// AUC's (Interval):
//
//	SE^2 = (1 + sqrt(n_train/n_test)) V + s^2/J,  [max(0, C - z SE), min(1, C + z SE)],
//
// V the infinitesimal-jackknife variance (survival::concordance) of a repetition's
// pooled held-out C, averaged over the repetitions, s^2 the variance of the resamples'
// C (compute/study BenchmarkCIntervalCoverage measures the coverage).
type CIndex struct {
	Mean, Low, High, SE float64
	Resamples           int // J, the resamples with a C
	Repetitions         int // R
}

// CutRule says how a survival signature's risk groups are cut: at the median of the
// training risk scores (two groups), at their tertiles (three), or at a value of the
// locked model's risk score (two groups; in a resample, at the same share of its
// training scores).
type CutRule struct {
	Kind  string  `json:"kind"` // "median", "tertiles" or "value"
	Value float64 `json:"value,omitempty"`
}

// Check refuses an unknown rule.
func (c CutRule) Check() error {
	switch c.Kind {
	case "median", "tertiles":
		return nil
	case "value":
		if math.IsNaN(c.Value) || math.IsInf(c.Value, 0) {
			return fmt.Errorf("the risk score's cut-off %g is not a number", c.Value)
		}
		return nil
	}
	return fmt.Errorf("risk groups %q: cut at the median, the tertiles or a value of the risk score", c.Kind)
}

// quantiles are the shares of training scores below each cut of the rule; for a value,
// its share among the locked model's training scores (lockScores).
func (c CutRule) quantiles(lockScores []float64) []float64 {
	switch c.Kind {
	case "tertiles":
		return []float64{1.0 / 3, 2.0 / 3}
	case "value":
		below := 0
		for _, s := range lockScores {
			if s <= c.Value {
				below++
			}
		}
		return []float64{float64(below) / float64(len(lockScores))}
	}
	return []float64{0.5}
}

// cutsAt are the cut-offs of scores at the shares q: R's quantile type 7 of each.
func cutsAt(scores, q []float64) []float64 {
	s := slices.Clone(scores)
	sort.Float64s(s)
	out := make([]float64, len(q))
	for i, p := range q {
		h := p * float64(len(s)-1)
		lo := math.Floor(h)
		hi := math.Min(lo+1, float64(len(s)-1))
		out[i] = s[int(lo)] + (h-lo)*(s[int(hi)]-s[int(lo)])
	}
	return out
}

// SurvivalCV is how well a survival signature's procedure predicts, from the study's
// own resamples: every resample's Cox model of the k genes its training samples
// ranked first, fitted again on them (experiment.RefitCox), scores its held-out
// samples. Per repetition the held-out scores of all samples are pooled.
type SurvivalCV struct {
	K     int
	Ridge float64
	C     CIndex
	// Pooled and Uno are each repetition's Harrell's C of the pooled held-out scores and
	// Uno's C truncated at Tau.
	Pooled, Uno []survival.Concordance
	Tau         float64
	// Horizons are the times of the time-dependent AUCs, TimeAUC[r][h] repetition r's
	// at horizon h.
	Horizons []float64
	TimeAUC  [][]survival.TimeAUC
	// Groups are the first repetition's cross-validated risk groups (each sample cut by
	// its resample's training scores), LogRank[r] repetition r's log-rank test of them.
	Groups  []int
	LogRank []*survival.LogRank
	// HR[r] is repetition r's hazard ratio per SD of the held-out score (each scaled by
	// its resample's training SD): a Cox model of the outcome on it.
	HR []HazardRatio
	// Predicted[i][h] is sample i's predicted survival at horizon h by its first
	// repetition's model; Calibration[h] compares it with the Kaplan-Meier survival of
	// the risk groups.
	Predicted   [][]float64
	Calibration [][]survival.CalibrationGroup
	Resamples   int
	// Scaled are the first repetition's pooled held-out risk scores, each divided by
	// its resample's training SD (those of HR[0]): the cross-validated score a model
	// of clinical covariates is extended with (compute/study AddedValue).
	Scaled []float64
	// HeldOut are every repetition's held-out risk scores, a row a test sample of a
	// resample: those Pooled, Uno and TimeAUC are of.
	HeldOut []HeldOut
}

// HeldOut is one held-out sample's score (Score, a survival signature's risk score)
// or scores (Scores, one a class) in the resample that held it out: Repeat is its
// repetition (from 0), Fold the resample's place among the repetition's (from 0),
// Sample the sample's index.
type HeldOut struct {
	Repeat, Fold, Sample int
	Score                float64
	Scores               []float64
}

// HazardRatio is a hazard ratio with its 95% interval and Wald p. Infinite is the
// Cox fit's warning that the coefficient may be infinite (coxph's; the score
// separates the events): HR, Low and High are then no estimates.
type HazardRatio struct {
	HR, Low, High, P float64
	Infinite         bool `json:",omitempty"`
}

// HazardRatioOf is coefficient j of fit as a HazardRatio.
func HazardRatioOf(fit *survival.CoxFit, j int) HazardRatio {
	return HazardRatio{HR: fit.HR[j], Low: fit.HRLow[j], High: fit.HRHigh[j], P: fit.P[j], Infinite: fit.Unreliable(j)}
}

// Text is the hazard ratio per unit (of "SD"), "1.85 per SD (95% CI 1.32-2.61)", or,
// when the fit warned, that it is no estimate, naming the score it is of.
func (h HazardRatio) Text(unit, of string) string {
	if h.Infinite {
		return fmt.Sprintf("not estimated: %s", survival.InfiniteNote(of))
	}
	return fmt.Sprintf("%.2f per %s (95%% CI %.2f-%.2f)", h.HR, unit, h.Low, h.High)
}

// hazardPerSD fits a Cox model of o on the score s and gives its hazard ratio.
func hazardPerSD(o survival.Outcome, s []float64) (HazardRatio, error) {
	fit, err := survival.Cox(o, mat.NewDense(len(s), 1, slices.Clone(s)), survival.CoxOptions{})
	if err != nil {
		return HazardRatio{}, err
	}
	return HazardRatioOf(fit, 0), nil
}

// CrossValidatedSurvival computes the SurvivalCV of method m at k of the survival study
// res on its data ds (preprocessed as the study did), with risk groups cut by cut
// (lockScores: the locked model's training scores, for a cut at a value), the
// time-dependent AUC and calibration at horizons and Uno's C truncated at tau.
func CrossValidatedSurvival(ctx context.Context, res *experiment.Result, ds *dataset.Dataset, m, k int, cut CutRule, lockScores, horizons []float64, tau float64) (*SurvivalCV, error) {
	preds := res.Methods[m].Predictions
	if len(preds) == 0 || preds[0].Selected == nil {
		return nil, fmt.Errorf("the study kept no resamples' rankings for its Cox models: run it again with this version")
	}
	if k < 1 || k > len(preds[0].Selected) {
		return nil, fmt.Errorf("k = %d: the study measured its Cox models up to k = %d", k, len(preds[0].Selected))
	}
	n := len(ds.Samples)
	cfg := res.Config
	e := &SurvivalCV{K: k, Ridge: experiment.CoxRidgeOf(cfg), Tau: tau, Horizons: horizons}
	q := cut.quantiles(lockScores)
	byRep := map[int][]int{}
	for i, pr := range preds {
		byRep[pr.Repeat] = append(byRep[pr.Repeat], i)
	}
	reps := sortedKeys2(byRep)
	var cs []float64
	v, vr, testN := 0.0, 0, 0.0
	for ri, r := range reps {
		score, scaled := make([]float64, n), make([]float64, n)
		groups := make([]int, n)
		var predicted [][]float64
		if ri == 0 {
			predicted = make([][]float64, n)
		}
		seen := 0
		for f, pi := range byRep[r] {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			pr := preds[pi]
			split := dataset.Split{Train: complement(pr.Test, n), Test: pr.Test}
			rf, err := experiment.RefitCox(ctx, cfg, ds, split, pr.Selected[:k], e.Ridge)
			if err != nil {
				return nil, fmt.Errorf("repetition %d: %w", r+1, err)
			}
			train, test := rf.Train, rf.Test
			c, err := survival.Harrell(experiment.OutcomeOf(ds, pr.Test), test)
			if err != nil {
				return nil, err
			}
			if !math.IsNaN(c.C) {
				cs = append(cs, c.C)
				testN += float64(len(pr.Test))
			}
			g, err := survival.RiskGroups(test, cutsAt(train, q))
			if err != nil {
				return nil, err
			}
			sd := sdOf(train)
			for t, i := range pr.Test {
				score[i], groups[i] = test[t], g[t]
				scaled[i] = test[t] / sd
				e.HeldOut = append(e.HeldOut, HeldOut{Repeat: r, Fold: f, Sample: i, Score: test[t]})
			}
			seen += len(pr.Test)
			if predicted != nil {
				if err := predictAt(rf, split.Test, horizons, predicted); err != nil {
					return nil, err
				}
			}
		}
		if seen != n {
			return nil, fmt.Errorf("repetition %d tests %d of the %d samples: not a cross-validation", r+1, seen, n)
		}
		o := experiment.OutcomeOf(ds, nil)
		pooled, err := survival.Harrell(o, score)
		if err != nil {
			return nil, err
		}
		e.Pooled = append(e.Pooled, pooled)
		if !math.IsNaN(pooled.SE) {
			v, vr = v+pooled.SE*pooled.SE, vr+1
		}
		uno, err := survival.Uno(o, score, tau)
		if err != nil {
			return nil, err
		}
		e.Uno = append(e.Uno, uno)
		var aucs []survival.TimeAUC
		for _, h := range horizons {
			a, err := survival.TimeDependentAUC(o, score, h)
			if err != nil {
				a = survival.TimeAUC{Time: h, AUC: math.NaN(), SE: math.NaN()}
			}
			aucs = append(aucs, a)
		}
		e.TimeAUC = append(e.TimeAUC, aucs)
		lr, err := survival.LogRankTest(o, groups)
		if err != nil {
			return nil, err
		}
		e.LogRank = append(e.LogRank, lr)
		hr, err := hazardPerSD(o, scaled)
		if err != nil {
			return nil, err
		}
		e.HR = append(e.HR, hr)
		if ri == 0 {
			e.Groups, e.Predicted, e.Scaled = groups, predicted, scaled
			for h := range horizons {
				col := make([]float64, n)
				for i := range col {
					col[i] = predicted[i][h]
				}
				cal, err := survival.Calibration(o, col, groups, horizons[h])
				if err != nil {
					return nil, err
				}
				e.Calibration = append(e.Calibration, cal)
			}
		}
	}
	e.Resamples = len(cs)
	e.C = CInterval(cs, len(reps), v/math.Max(float64(vr), 1), float64(n), testN/math.Max(float64(len(cs)), 1))
	return e, nil
}

// CInterval is CIndex's interval of the resamples' C (cs) over R repetitions, V the
// mean infinitesimal-jackknife variance of a repetition's pooled held-out C, n samples,
// nTest a resample's test samples (their mean).
func CInterval(cs []float64, R int, V, n, nTest float64) CIndex {
	nan := math.NaN()
	out := CIndex{Mean: nan, Low: nan, High: nan, SE: nan, Resamples: len(cs), Repetitions: R}
	J := float64(len(cs))
	if J < 2 {
		return out
	}
	mean, ss := rstat.MeanSS(cs)
	se2 := (1+math.Sqrt((n-nTest)/nTest))*V + ss/(J-1)/J
	z := distuv.UnitNormal.Quantile(0.975)
	out.Mean, out.SE = mean, math.Sqrt(se2)
	out.Low, out.High = math.Max(0, mean-z*out.SE), math.Min(1, mean+z*out.SE)
	return out
}

// predictAt writes into predicted the survival at each horizon that the resample's
// model gives each of its test samples.
func predictAt(rf *experiment.Refit, test []int, horizons []float64, predicted [][]float64) error {
	for h, t := range horizons {
		surv, err := rf.Model.Fit.Survival(rf.TestZ, t)
		if err != nil {
			return err
		}
		for ti, i := range test {
			if predicted[i] == nil {
				predicted[i] = make([]float64, len(horizons))
			}
			predicted[i][h] = surv[ti]
		}
	}
	return nil
}

// complement is 0..n-1 without the indices of test.
func complement(test []int, n int) []int {
	in := make([]bool, n)
	for _, i := range test {
		in[i] = true
	}
	out := make([]int, 0, n-len(test))
	for i := range n {
		if !in[i] {
			out = append(out, i)
		}
	}
	return out
}

// sdOf is the n-1 standard deviation of v (1 when it is 0: a constant score).
func sdOf(v []float64) float64 {
	_, ss := rstat.MeanSS(v)
	if sd := math.Sqrt(ss / float64(len(v)-1)); sd > 0 {
		return sd
	}
	return 1
}

// sortedKeys2 are the keys of m in increasing order.
func sortedKeys2(m map[int][]int) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}
