package signature

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/survival"
)

// CoxLock is a survival signature's locked Cox model. A sample's genes, scaled as the
// Model says (z), are scaled again as the Cox model was fitted, u_j = (z_j - Mean_j) /
// SD_j, and its risk score is
//
//	r = sum_j Coef_j (u_j - Center_j),
//
// its predicted survival at t S(t) = exp(-H0(t) e^r), H0 the Efron baseline
// cumulative hazard (BaseHaz at the event times BaseTime, a step function), and its
// risk group the number of Cuts below r (a score equal to a cut goes to the lower
// group).
type CoxLock struct {
	Mean     []float64 `json:"mean"`
	SD       []float64 `json:"sd"`
	Coef     []float64 `json:"coef"`
	Center   []float64 `json:"center"`
	Ridge    float64   `json:"ridge"`
	BaseTime []float64 `json:"baseTime"`
	BaseHaz  []float64 `json:"baseHaz"`
	Cut      CutRule   `json:"cut"`
	Cuts     []float64 `json:"cuts"`
	// ScoreSD is the training risk scores' SD (n-1): a hazard ratio per SD is per this.
	ScoreSD float64 `json:"scoreSD"`
	// SE are the coefficients' standard errors (the penalised information's inverse),
	// for the full model's table.
	SE        []float64 `json:"se"`
	TimeName  string    `json:"timeName"`
	EventName string    `json:"eventName"`
	Events    int       `json:"events"`
	// Horizons, Tau and Unit are the signature's horizons, Uno's truncation and the
	// time's unit, for a cohort's measures.
	Horizons []float64 `json:"horizons,omitempty"`
	Tau      float64   `json:"tau,omitempty"`
	Unit     string    `json:"unit,omitempty"`
	// Advised says the advice chose method and k; Headline is the cross-validated C every
	// output led with (nil in a model file of an earlier version, or not finite).
	Advised  bool       `json:"advised"`
	Headline *CHeadline `json:"headline,omitempty"`
	// Infinite marks the coefficients the fit warned may be infinite (coxph's warning;
	// never with a ridge): their hazard ratios are no estimates.
	Infinite []bool `json:"infinite,omitempty"`
}

// CHeadline is a survival signature's headline Harrell's C with its 95% interval, and
// which estimate it is (HeadlineNested, HeadlineGiven or HeadlineOptimistic).
type CHeadline struct {
	C        float64 `json:"c"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
	Estimate string  `json:"estimate"`
}

// check refuses a headline read back out of range or of an unknown estimate.
func (h *CHeadline) check() error {
	if h == nil {
		return nil
	}
	if !(h.Low >= 0 && h.Low <= h.C && h.C <= h.High && h.High <= 1) {
		return fmt.Errorf("a headline C of %g (%g-%g)", h.C, h.Low, h.High)
	}
	if h.Estimate != HeadlineNested && h.Estimate != HeadlineGiven && h.Estimate != HeadlineOptimistic {
		return fmt.Errorf("a headline C of the unknown estimate %q", h.Estimate)
	}
	return nil
}

// lockCox fits the Cox model of the scaled genes z of all samples of ds to its
// survival outcome, with the study's ridge, and cuts the risk groups by cut.
func (m *Model) lockCox(z *mat.Dense, ds *dataset.Dataset, cut CutRule) error {
	if ds.Survival == nil {
		return fmt.Errorf("the Cox model needs a survival outcome")
	}
	if err := cut.Check(); err != nil {
		return err
	}
	cm, err := experiment.FitCox(z, experiment.OutcomeOf(ds, nil), experiment.CoxRidgeOf(m.Config))
	if err != nil {
		return err
	}
	f := cm.Fit
	times, haz := f.BaselineHazard()
	scores := f.LinearPredictor
	m.Cox = &CoxLock{Mean: cm.Mean, SD: cm.SD, Coef: f.Coef, Center: f.Means, Ridge: f.Ridge,
		BaseTime: times, BaseHaz: haz, Cut: cut, Cuts: cutsAt(scores, cut.quantiles(scores)), ScoreSD: sdOf(scores), SE: f.SE,
		TimeName: ds.Survival.TimeName, EventName: ds.Survival.EventName, Events: ds.Survival.Events()}
	if cut.Kind == "value" {
		m.Cox.Cuts = []float64{cut.Value}
	}
	for j := range f.Coef {
		if f.Unreliable(j) {
			m.Cox.Infinite = make([]bool, len(f.Coef))
			for i := range f.Coef {
				m.Cox.Infinite[i] = f.Unreliable(i)
			}
			break
		}
	}
	m.Rule = fmt.Sprintf("Cox proportional-hazards model (Efron's ties, ridge lambda %g on the z-scored genes): risk score r = sum_j b_j u_j; %s", f.Ridge, m.Cox.GroupRule())
	return nil
}

// GroupRule says how the risk groups are cut, in words.
func (c *CoxLock) GroupRule() string {
	switch c.Cut.Kind {
	case "tertiles":
		return fmt.Sprintf("risk groups low, intermediate and high at the training scores' tertiles (r <= %.4g, <= %.4g, above)", c.Cuts[0], c.Cuts[1])
	case "value":
		return fmt.Sprintf("risk groups low and high at the risk score %.4g", c.Cuts[0])
	}
	return fmt.Sprintf("risk groups low and high at the training scores' median (%.4g)", c.Cuts[0])
}

// GroupNames name the risk groups from the lowest risk.
func (c *CoxLock) GroupNames() []string {
	if len(c.Cuts) == 2 {
		return []string{"low risk", "intermediate risk", "high risk"}
	}
	return []string{"low risk", "high risk"}
}

// Risk is the risk score of each sample of z (rows: the Model's scaled genes).
func (c *CoxLock) Risk(z *mat.Dense) []float64 {
	n, k := z.Dims()
	out := make([]float64, n)
	for i := range n {
		for j := range k {
			u := (z.At(i, j) - c.Mean[j]) / c.SD[j]
			out[i] += c.Coef[j] * (u - c.Center[j])
		}
	}
	return out
}

// RiskScores are the risk scores of the samples x (rows: the model's genes in order,
// preprocessed as Prep says) by a survival signature's Cox model.
func (m *Model) RiskScores(x *mat.Dense) ([]float64, error) {
	if m.Cox == nil {
		return nil, fmt.Errorf("a %s model scores classes, not a risk", m.Classifier)
	}
	if _, p := x.Dims(); p != len(m.Genes) {
		return nil, fmt.Errorf("%d values a sample for a model of %d genes", p, len(m.Genes))
	}
	return m.Cox.Risk(m.scale(x, false)), nil
}

// Groups are the risk groups of the risk scores r.
func (c *CoxLock) Groups(r []float64) []int {
	g, _ := survival.RiskGroups(r, c.Cuts) // the cuts are checked increasing
	return g
}

// SurvivalAt is the predicted survival at t of each risk score r.
func (c *CoxLock) SurvivalAt(r []float64, t float64) []float64 {
	h := 0.0
	if i := sort.SearchFloat64s(c.BaseTime, t); i < len(c.BaseTime) && c.BaseTime[i] == t {
		h = c.BaseHaz[i]
	} else if i > 0 {
		h = c.BaseHaz[i-1]
	}
	out := make([]float64, len(r))
	for i, s := range r {
		out[i] = math.Exp(-h * math.Exp(s))
	}
	return out
}

// check reports a Cox model read back that cannot be used for g genes.
func (c *CoxLock) check(g int) error {
	for _, v := range [][]float64{c.Mean, c.SD, c.Coef, c.Center, c.SE} {
		if len(v) != g || !finite(v) {
			return fmt.Errorf("a Cox model of %d values for %d genes, or one not finite", len(v), g)
		}
	}
	for _, s := range c.SD {
		if !(s > 0) {
			return fmt.Errorf("a Cox model's gene scaled by %g", s)
		}
	}
	if len(c.BaseTime) != len(c.BaseHaz) || len(c.BaseTime) > 10_000_000 || !finite(c.BaseTime) || !finite(c.BaseHaz) ||
		!slices.IsSorted(c.BaseTime) || !slices.IsSorted(c.BaseHaz) {
		return fmt.Errorf("a baseline hazard of %d times and %d values, not increasing or not finite", len(c.BaseTime), len(c.BaseHaz))
	}
	if err := c.Cut.Check(); err != nil {
		return err
	}
	want := 1
	if c.Cut.Kind == "tertiles" {
		want = 2
	}
	if len(c.Cuts) != want || !finite(c.Cuts) || !slices.IsSorted(c.Cuts) {
		return fmt.Errorf("%d risk-group cut-offs for the rule %q", len(c.Cuts), c.Cut.Kind)
	}
	if len(c.Horizons) > 1000 || !finite(c.Horizons) || !finite([]float64{c.Tau}) {
		return fmt.Errorf("%d horizons, tau %g", len(c.Horizons), c.Tau)
	}
	if err := c.Headline.check(); err != nil {
		return err
	}
	if !(c.Ridge >= 0) || !(c.ScoreSD > 0) || math.IsInf(c.ScoreSD, 0) || c.Events < 1 {
		return fmt.Errorf("a Cox model with ridge %g, score SD %g and %d events", c.Ridge, c.ScoreSD, c.Events)
	}
	return nil
}
