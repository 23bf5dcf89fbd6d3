package experiment

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"steadfast/compute/dataset"
	"steadfast/compute/method"
	"steadfast/compute/rstat"
	"steadfast/compute/score"
	"steadfast/compute/survival"
)

// CoxRidge is the Cox model's default ridge penalty lambda, in lambda/2 sum beta^2 on
// z-scored genes: small, so that a model of k genes fits when k nears the events.
const CoxRidge = 1.0

// OutcomeOf is the survival outcome of the samples idx of ds (all when idx is nil).
func OutcomeOf(ds *dataset.Dataset, idx []int) survival.Outcome {
	s := ds.Survival
	if idx == nil {
		return survival.Outcome{Time: s.Time, Event: s.Event}
	}
	o := survival.Outcome{Time: make([]float64, len(idx)), Event: make([]bool, len(idx))}
	for i, j := range idx {
		o.Time[i], o.Event[i] = s.Time[j], s.Event[j]
	}
	return o
}

// rank ranks the training samples train of ds (their values x): against the classes
// y, or against the survival outcome with a survival ranker.
func rank(ctx context.Context, ranker score.Ranker, x *mat.Dense, y []int, ds *dataset.Dataset, train []int, r *rand.Rand) (score.Ranking, error) {
	if ds.Survival == nil {
		return ranker.Rank(ctx, x, y, len(ds.Classes), r)
	}
	sr, ok := ranker.(score.SurvivalRanker)
	if !ok {
		return score.Ranking{}, fmt.Errorf("this method ranks genes against classes, and the outcome is a survival time")
	}
	return sr.RankSurvival(ctx, x, OutcomeOf(ds, train), r)
}

// CoxModel is a Cox proportional-hazards model of a few genes: each gene z-scored
// with its training mean and SD (population SD; a constant gene scaled by 1), fitted
// with Efron's ties and the ridge penalty lambda/2 sum beta^2 (survival.Cox).
type CoxModel struct {
	Mean, SD []float64
	Fit      *survival.CoxFit
}

// FitCox fits the Cox model of the columns of x (training samples as rows) to o.
func FitCox(x *mat.Dense, o survival.Outcome, ridge float64) (*CoxModel, error) {
	n, k := x.Dims()
	m := &CoxModel{Mean: make([]float64, k), SD: make([]float64, k)}
	z := mat.NewDense(n, k, nil)
	for j := range k {
		col := mat.Col(nil, j, x)
		mean, ss := 0.0, 0.0
		for _, v := range col {
			mean += v
		}
		mean /= float64(n)
		for _, v := range col {
			ss += (v - mean) * (v - mean)
		}
		sd := math.Sqrt(ss / float64(n))
		if sd == 0 {
			sd = 1
		}
		m.Mean[j], m.SD[j] = mean, sd
		for i, v := range col {
			z.Set(i, j, (v-mean)/sd)
		}
	}
	fit, err := survival.Cox(o, z, survival.CoxOptions{Ridge: ridge})
	if err != nil {
		return nil, err
	}
	m.Fit = fit
	return m, nil
}

// Scaled is x (rows, the model's genes in its order) z-scored as the model was fitted:
// (x_j - mean_j) / sd_j.
func (m *CoxModel) Scaled(x *mat.Dense) *mat.Dense {
	n, k := x.Dims()
	z := mat.NewDense(n, k, nil)
	for i := range n {
		for j := range k {
			z.Set(i, j, (x.At(i, j)-m.Mean[j])/m.SD[j])
		}
	}
	return z
}

// Risk is the risk score (linear predictor) of the samples x (rows, the model's genes
// in its order): sum_j beta_j ((x_j - mean_j) / sd_j - c_j), c_j the fit's centring.
func (m *CoxModel) Risk(x *mat.Dense) []float64 {
	lp, _ := m.Fit.LinearPredictorOf(m.Scaled(x)) // k matches: the model's own genes
	return lp
}

// evalSurvival measures, at each accuracy k, the Cox model of the top k genes of
// order fitted on the training samples: its Harrell's C on the test samples (NaN when
// no test pair is comparable) and their risk scores.
func evalSurvival(ctx context.Context, cfg Config, ds *dataset.Dataset, s dataset.Split, xtr, xte *mat.Dense, order []int, accKs []int) ([]float64, [][]float64, error) {
	otr, ote := OutcomeOf(ds, s.Train), OutcomeOf(ds, s.Test)
	ridge := CoxRidgeOf(cfg)
	cs := make([]float64, len(accKs))
	risks := make([][]float64, len(accKs))
	for ki, k := range accKs {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		m, err := FitCox(dataset.SelectFeatures(xtr, order[:k]), otr, ridge)
		if err != nil {
			return nil, nil, fmt.Errorf("the Cox model of the top %d genes: %w", k, err)
		}
		risks[ki] = m.Risk(dataset.SelectFeatures(xte, order[:k]))
		c, err := survival.Harrell(ote, risks[ki])
		if err != nil {
			return nil, nil, err
		}
		cs[ki] = c.C
	}
	return cs, risks, nil
}

// CheckData checks ds against cfg (resolved) before a study: for a survival outcome
// its events against the folds, survival methods and the Cox model alone; for classes
// the classes against the folds, class methods and no Cox model.
func CheckData(cfg Config, ds *dataset.Dataset) error {
	surv := ds.Survival != nil
	if err := method.CheckOutcome(cfg.Methods, surv); err != nil {
		return err
	}
	if !surv {
		if slices.Contains(cfg.Classifiers, "cox") {
			return fmt.Errorf("the Cox model (classifier cox) measures a survival outcome, and the outcome is a class; choose a classifier of classes (svm, 1nn, 3nn, logit, rf, ...)")
		}
		return dataset.Validate(ds, cfg.MinClassSize())
	}
	if !slices.Equal(cfg.Classifiers, []string{"cox"}) {
		return fmt.Errorf("a survival outcome is measured by the Cox model alone (classifiers: [\"cox\"]), not by %s", strings.Join(cfg.Classifiers, ", "))
	}
	return dataset.ValidateSurvival(ds, cfg.MinClassSize())
}

// checkTrainingEvents refuses a protocol whose training sets hold fewer than two
// events (grouped samples can gather them): no Cox model or ranking can be fitted.
func checkTrainingEvents(cfg Config, ds *dataset.Dataset) error {
	bad, total, first := 0, 0, ""
	for _, t := range plan(cfg, ds) {
		if t.method != 0 || t.ref {
			continue
		}
		total++
		events := 0
		for _, i := range t.split.Train {
			if ds.Survival.Event[i] {
				events++
			}
		}
		if events < 2 {
			if bad == 0 {
				first = t.label
			}
			bad++
		}
	}
	if bad == 0 {
		return nil
	}
	return fmt.Errorf("the training set of %s has fewer than two events (%d of the %d training sets do): no Cox model can be fitted there; use fewer folds, or spread the events over the groups", first, bad, total)
}

// DefaultSurvivalConfig is DefaultConfig for a survival outcome: the Cox score test
// ranks, the Cox model measures, under 10 x 10-fold CV stratified by the event.
func DefaultSurvivalConfig() Config {
	c := DefaultConfig()
	c.Methods = []method.Spec{{Name: "cox"}}
	c.Classifiers = []string{"cox"}
	return c
}

// CorrectedResampledTest is Nadeau and Bengio's corrected resampled t-test of paired
// differences d over J resamples in R repetitions, each testing a share nTest/nTrain
// of the samples against what it trained on: t = mean(d) / sqrt((1/R + nTest/nTrain)
// s^2), s^2 the variance of d, on R - 1 degrees of freedom (J and J - 1 for one
// repetition); the two-sided p. 1 when d does not vary (no difference to test).
func CorrectedResampledTest(d []float64, R int, testShare float64) float64 {
	if len(d) < 2 {
		return 1
	}
	mean, variance, df := CorrectedVariance(d, R, testShare)
	se := math.Sqrt(variance)
	if se == 0 {
		return 1
	}
	t := math.Abs(mean) / se
	return 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.CDF(-t)
}

// CorrectedVariance is Nadeau and Bengio's corrected variance of the mean of J resample
// values v from R repetitions, each resample testing a share testShare = n_test/n_train:
// (1/R + testShare) s^2, s^2 the values' variance (J - 1 in the denominator), with its
// degrees of freedom R - 1 (J and J - 1 for one repetition), and the values' mean.
// Needs two values or more.
func CorrectedVariance(v []float64, R int, testShare float64) (mean, variance, df float64) {
	J := float64(len(v))
	mean, ss := rstat.MeanSS(v)
	units := float64(R)
	if units < 2 {
		units = J
	}
	return mean, (1/units + testShare) * ss / (J - 1), units - 1
}

// compareSurvival tests every two methods at every k by their resamples' Harrell's C
// (paired by split; resamples where either C is undefined left out), with the
// corrected resampled t-test: Harrell's C has no right or wrong call for McNemar's test.
func compareSurvival(cfg Config, tasks []task, outs []taskOut, accKs []int) []Comparison {
	byMethod := make([]map[string][]float64, len(cfg.Methods))
	for m := range byMethod {
		byMethod[m] = map[string][]float64{}
	}
	var labels []string
	groups := map[int]bool{}
	for i, t := range tasks {
		if !t.eval || outs[i].acc == nil {
			continue
		}
		if _, seen := byMethod[0][t.label]; !seen && t.method == 0 {
			labels = append(labels, t.label)
			groups[t.group] = true
		}
		byMethod[t.method][t.label] = outs[i].acc["cox"]
	}
	share := 1 / float64(max(cfg.Folds-1, 1)) // n_test / n_train of a k-fold split
	var out []Comparison
	for ki, k := range accKs {
		for a := 0; a < len(cfg.Methods); a++ {
			for b := a + 1; b < len(cfg.Methods); b++ {
				c := Comparison{Classifier: "cox", K: k, A: a, B: b, Test: "corrected resampled t"}
				var d []float64
				for _, l := range labels {
					ca, cb := byMethod[a][l][ki], byMethod[b][l][ki]
					if math.IsNaN(ca) || math.IsNaN(cb) {
						continue
					}
					d = append(d, ca-cb)
					if ca > cb {
						c.OnlyA++
					} else if cb > ca {
						c.OnlyB++
					}
				}
				c.P = CorrectedResampledTest(d, len(groups), share)
				out = append(out, c)
			}
		}
	}
	return out
}

// Refit is a survival study's resample's Cox model fitted again: the model, its
// training and test samples' risk scores, and the test samples' genes as the model
// scales them (z-scored with its training means and SDs).
type Refit struct {
	Model       *CoxModel
	Train, Test []float64
	TestZ       *mat.Dense
}

// RefitCox fits again the Cox model of a survival study's resample: the samples of
// split s prepared as the study prepared them (z-scored with the training statistics,
// counts normalised on the training samples), the model of the genes on its training
// samples. Its test scores equal the study's out-of-fold scores.
func RefitCox(ctx context.Context, cfg Config, ds *dataset.Dataset, s dataset.Split, genes []int, ridge float64) (*Refit, error) {
	xtr, _, xte, _, _, _, err := prepare(ctx, cfg, ds, nil, s)
	if err != nil {
		return nil, err
	}
	a := dataset.SelectFeatures(xtr, genes)
	m, err := FitCox(a, OutcomeOf(ds, s.Train), ridge)
	if err != nil {
		return nil, err
	}
	r := &Refit{Model: m, Train: m.Risk(a)}
	if xte != nil {
		r.TestZ = m.Scaled(dataset.SelectFeatures(xte, genes))
		r.Test, _ = m.Fit.LinearPredictorOf(r.TestZ)
	}
	return r, nil
}

// CoxRidgeOf is the Cox model's ridge lambda in cfg (its default when not set).
func CoxRidgeOf(cfg Config) float64 {
	if v, ok := cfg.ClassifierValues("cox")["ridge"]; ok {
		return v
	}
	return CoxRidge
}
