package study

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/survival"
)

// SurvivalOptions are a survival signature's choices beside its genes.
type SurvivalOptions struct {
	// Horizons are the times of the time-dependent AUCs and of the calibration, in the
	// data's unit; none: the median follow-up (reverse Kaplan-Meier).
	Horizons []float64
	// Tau truncates Uno's C; 0: the last horizon.
	Tau float64
	// Unit names the time's unit in labels ("years"); "" leaves it unnamed.
	Unit string
	// HorizonRule says how the default horizon was chosen (empty when given).
	HorizonRule string `json:",omitempty"`
}

// SurvivalGene is a survival signature's gene: its coefficient in the locked Cox model
// with the hazard ratio per SD of the gene (the others held), and, descriptive, the
// univariate Cox score test on all samples with its Benjamini-Hochberg FDR over all
// genes.
type SurvivalGene struct {
	Feature                 int
	ID, Symbol              string
	Coef, HR, HRLow, HRHigh float64
	WaldP                   float64 // the coefficient's Wald p in the locked model
	// Infinite is the locked fit's warning that the coefficient may be infinite
	// (coxph's; without a ridge): HR and its interval are then no estimates.
	Infinite  bool
	Z, P, FDR float64
}

// Apparent are the locked model's measures on the samples it was fitted to:
// optimistic, shown beside the cross-validated ones.
type Apparent struct {
	Scores  []float64 // the risk scores
	Groups  []int     // the risk groups
	C       survival.Concordance
	HR      signature.HazardRatio // per SD of the risk score
	LogRank *survival.LogRank
}

// SurvivalSignature is a survival study's signature: a method's genes at k, the Cox
// model locked on all samples, and how well the procedure predicts from the study's
// own resamples.
type SurvivalSignature struct {
	// Added is the added value over clinical covariates when measured: AddedValue
	// keeps its last here, for the report.
	Added *AddedValue

	Choice  signature.Choice
	Advised bool
	Genes   []SurvivalGene
	Model   *signature.Model
	CV      *signature.SurvivalCV
	// Nested is the nested estimate of the advice's choice (Nest), when computed; the
	// headline C is then its C (Headline).
	Nested *SurvivalNested
	// Perm is the permutation test of C (PermuteSurvival), when one was run.
	Perm     *Permutations
	Apparent Apparent
	Opts     SurvivalOptions // resolved: horizons and tau set
	Samples  []string
	Outcome  survival.Outcome
	// Values[g] are gene g's values in the samples, as the study prepared them.
	Values [][]float64
}

// BuildSurvivalSignature builds the survival signature of choice c (its Classifier
// "cox") of the survival study res on its data ds, preprocessed as the study did.
func BuildSurvivalSignature(ctx context.Context, res *experiment.Result, ds *dataset.Dataset, c signature.Choice, o SurvivalOptions) (*SurvivalSignature, error) {
	if ds.Survival == nil || res.Data.Survival == nil {
		return nil, fmt.Errorf("a survival signature needs a survival study")
	}
	if c.Cut.Kind == "" {
		c.Cut.Kind = "median"
	}
	c.Classifier = "cox"
	if err := checkSameSamples(res, ds); err != nil {
		return nil, err
	}
	feats, err := signature.Select(res, c)
	if err != nil {
		return nil, err
	}
	model, err := signature.Lock(ctx, res, ds, c, feats)
	if err != nil {
		return nil, err
	}
	out := SurvivalOutcomeOf(ds)
	s := &SurvivalSignature{Choice: c, Model: model, Samples: ds.Samples, Outcome: out}
	s.Advised = FromStudy(res, c.Method, c.K) && !c.Frequent
	if s.Opts, err = resolveSurvival(o, out); err != nil {
		return nil, err
	}
	model.Cox.Horizons, model.Cox.Tau, model.Cox.Unit = s.Opts.Horizons, s.Opts.Tau, s.Opts.Unit
	x := dataset.SelectFeatures(ds.X, feats)
	for j := range feats {
		s.Values = append(s.Values, mat.Col(nil, j, x))
	}
	scores, err := model.RiskScores(x)
	if err != nil {
		return nil, err
	}
	if err := s.apparent(scores); err != nil {
		return nil, err
	}
	if s.Genes, err = survivalGenes(ctx, ds, feats, model); err != nil {
		return nil, err
	}
	s.CV, err = signature.CrossValidatedSurvival(ctx, res, ds, c.Method, c.K, c.Cut, scores, s.Opts.Horizons, s.Opts.Tau)
	if err != nil {
		return nil, err
	}
	s.stampHeadline()
	return s, nil
}

// stampHeadline writes the headline C and whether the advice chose into the locked
// model (model.json), when the headline's numbers are finite.
func (s *SurvivalSignature) stampHeadline() {
	h := s.Headline()
	s.Model.Cox.Advised, s.Model.Cox.Headline = s.Advised, nil
	if !math.IsNaN(h.C.Mean) && !math.IsNaN(h.C.Low) && !math.IsNaN(h.C.High) {
		s.Model.Cox.Headline = &signature.CHeadline{C: h.C.Mean, Low: h.C.Low, High: h.C.High, Estimate: h.Estimate}
	}
}

// SurvivalOutcomeOf is the survival outcome of all samples of ds.
func SurvivalOutcomeOf(ds *dataset.Dataset) survival.Outcome {
	return survival.Outcome{Time: ds.Survival.Time, Event: ds.Survival.Event}
}

// checkSameSamples refuses data whose samples are not the run's.
func checkSameSamples(res *experiment.Result, ds *dataset.Dataset) error {
	n, _ := ds.Dims()
	if n != res.Data.Samples || res.Data.SampleNames != nil && !slices.Equal(ds.Samples, res.Data.SampleNames) {
		return fmt.Errorf("the data (%d samples) are not the run's (%d samples): open the run's own data file", n, res.Data.Samples)
	}
	if res.Data.Features != nil && !slices.Equal(ds.Features, res.Data.Features) {
		return fmt.Errorf("the data's %d features are not the run's %d (another file, or read otherwise): open the run's own data file, read as the run did", len(ds.Features), len(res.Data.Features))
	}
	if rs := res.Data.Survival; rs != nil && (!slices.Equal(rs.Time, ds.Survival.Time) || !slices.Equal(rs.Event, ds.Survival.Event)) {
		return fmt.Errorf("the data's survival times or events differ from the run's: open the run's own data file")
	}
	return nil
}

// resolveSurvival sets the default horizon (the median follow-up) and tau (the last
// horizon), and refuses horizons outside the follow-up.
func resolveSurvival(o SurvivalOptions, out survival.Outcome) (SurvivalOptions, error) {
	last := slices.Max(out.Time)
	if len(o.Horizons) == 0 {
		var f float64
		f, o.HorizonRule = experiment.DefaultHorizon(out)
		o.Horizons = []float64{f}
	}
	o.Horizons = slices.Clone(o.Horizons)
	slices.Sort(o.Horizons)
	for _, h := range o.Horizons {
		if !(h > 0) || h >= last {
			return o, fmt.Errorf("the horizon %g is outside the follow-up (0 to %g): give times within it", h, last)
		}
	}
	if o.Tau == 0 {
		o.Tau = o.Horizons[len(o.Horizons)-1]
	}
	if !(o.Tau > 0) {
		return o, fmt.Errorf("the truncation time of Uno's C (%g) must be positive", o.Tau)
	}
	return o, nil
}

// apparent measures the locked model on its own samples.
func (s *SurvivalSignature) apparent(scores []float64) error {
	a := Apparent{Scores: scores, Groups: s.Model.Cox.Groups(scores)}
	var err error
	if a.C, err = survival.Harrell(s.Outcome, scores); err != nil {
		return err
	}
	scaled := make([]float64, len(scores))
	for i, r := range scores {
		scaled[i] = r / s.Model.Cox.ScoreSD
	}
	fit, err := survival.Cox(s.Outcome, mat.NewDense(len(scaled), 1, scaled), survival.CoxOptions{})
	if err != nil {
		return err
	}
	a.HR = signature.HazardRatioOf(fit, 0)
	if a.LogRank, err = survival.LogRankTest(s.Outcome, a.Groups); err != nil {
		return err
	}
	s.Apparent = a
	return nil
}

// GeneLabels are the genes' names with their symbols: "203240_at (FCGBP)".
func (s *SurvivalSignature) GeneLabels() []string {
	out := make([]string, len(s.Genes))
	for i, g := range s.Genes {
		out[i] = signature.GeneName(g.ID, g.Symbol)
	}
	return out
}

// survivalGenes are the genes feats with their locked coefficients and univariate
// score tests over all genes of ds.
func survivalGenes(ctx context.Context, ds *dataset.Dataset, feats []int, m *signature.Model) ([]SurvivalGene, error) {
	st, err := survival.ScoreTests(SurvivalOutcomeOf(ds), ds.X, nil)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	fdr := signature.BH(st.P)
	z := 1.959963984540054
	var out []SurvivalGene
	for g, j := range feats {
		c := m.Cox
		// a hazard ratio per SD of the gene: the coefficient is per SD of its z-score
		// (u), which is per SD of the gene
		b, se := c.Coef[g], c.SE[g]
		sg := SurvivalGene{Feature: j, ID: ds.Features[j], Coef: b, HR: math.Exp(b), HRLow: math.Exp(b - z*se), HRHigh: math.Exp(b + z*se),
			WaldP: math.Erfc(math.Abs(b/se) / math.Sqrt2), Z: st.Z[j], P: st.P[j], FDR: fdr[j]}
		if ds.Symbols != nil {
			sg.Symbol = ds.Symbols[j]
		}
		sg.Infinite = g < len(c.Infinite) && c.Infinite[g]
		out = append(out, sg)
	}
	return out, nil
}
