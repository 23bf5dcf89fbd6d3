package experiment

import (
	"fmt"
	"math"
	"slices"
)

// Check reports the first thing in a result (read from a file, perhaps edited by hand)
// that the figures and tables could not show: no methods, a feature index outside the
// data, a method count not matching the comparisons, sizes that disagree.
func (r *Result) Check() error {
	p := len(r.Data.Features)
	switch {
	case p == 0:
		return fmt.Errorf("the result lists no features")
	case len(r.Methods) == 0:
		return fmt.Errorf("the result holds no methods")
	case r.Data.Symbols != nil && len(r.Data.Symbols) != p:
		return fmt.Errorf("%d gene symbols for %d features", len(r.Data.Symbols), p)
	case len(r.Data.Classes) != len(r.Data.ClassCounts):
		return fmt.Errorf("%d classes but %d class counts", len(r.Data.Classes), len(r.Data.ClassCounts))
	}
	cfg, err := r.Config.Resolved(p)
	if err != nil {
		return fmt.Errorf("its configuration: %v", err)
	}
	if err := r.Data.checkSamples(); err != nil {
		return err
	}
	if len(r.Config.Methods) != len(r.Methods) {
		return fmt.Errorf("the configuration names %d methods but the result holds %d", len(r.Config.Methods), len(r.Methods))
	}
	for i := range r.Methods {
		if err := r.Methods[i].check(p); err != nil {
			return fmt.Errorf("method %d (%s): %v", i+1, r.Methods[i].Label, err)
		}
		if err := r.checkPredictions(cfg, r.Methods[i].Predictions); err != nil {
			return fmt.Errorf("method %d (%s): %v", i+1, r.Methods[i].Label, err)
		}
	}
	for _, c := range r.Comparisons {
		if c.A < 0 || c.B <= c.A || c.B >= len(r.Methods) {
			return fmt.Errorf("a comparison between methods %d and %d, of %d", c.A+1, c.B+1, len(r.Methods))
		}
	}
	return nil
}

func (m *MethodResult) check(p int) error {
	if err := m.Reference.check(p); err != nil {
		return fmt.Errorf("all-sample selection: %v", err)
	}
	for _, s := range m.Runs {
		if err := s.check(p); err != nil {
			return fmt.Errorf("%s: %v", s.Label, err)
		}
	}
	for _, f := range m.Top {
		if f.Feature < 0 || f.Feature >= p {
			return fmt.Errorf("top feature %d outside 1..%d", f.Feature+1, p)
		}
	}
	for _, s := range m.Stability {
		if s.K < 1 || s.K > p {
			return fmt.Errorf("stability at k = %d, outside 1..%d", s.K, p)
		}
	}
	for cl, curve := range m.Accuracy {
		for _, a := range curve {
			if a.K < 1 || a.K > p || math.IsNaN(a.Mean) {
				return fmt.Errorf("%s accuracy at k = %d", cl, a.K)
			}
		}
	}
	return nil
}

func (s *Selection) check(p int) error {
	if len(s.Order) == 0 {
		return fmt.Errorf("an empty feature list")
	}
	if len(s.Groups) > len(s.Order) { // fewer when a group method found fewer groups than k
		return fmt.Errorf("%d groups for %d features", len(s.Groups), len(s.Order))
	}
	seen := make(map[int]bool, len(s.Order))
	for _, j := range s.Order {
		if j < 0 || j >= p {
			return fmt.Errorf("feature %d outside 1..%d", j+1, p)
		}
		if seen[j] {
			return fmt.Errorf("feature %d listed twice", j+1)
		}
		seen[j] = true
	}
	if s.Relevance != nil && len(s.Relevance) != len(s.Groups) {
		return fmt.Errorf("%d relevances for %d groups", len(s.Relevance), len(s.Groups))
	}
	for gi, g := range s.Groups {
		if len(g) == 0 {
			return fmt.Errorf("group %d has no members", gi+1)
		}
		for _, j := range g {
			if j < 0 || j >= p {
				return fmt.Errorf("group member %d outside 1..%d", j+1, p)
			}
		}
	}
	return nil
}

// checkSamples reports sample names or labels that are not one per sample, or a label
// outside the classes.
func (d DataInfo) checkSamples() error {
	if d.SampleNames != nil && len(d.SampleNames) != d.Samples {
		return fmt.Errorf("%d sample names for %d samples", len(d.SampleNames), d.Samples)
	}
	if d.Survival != nil {
		if err := d.Survival.Check(d.Samples); err != nil {
			return err
		}
	}
	if d.Labels == nil {
		return nil
	}
	if len(d.Labels) != d.Samples {
		return fmt.Errorf("%d labels for %d samples", len(d.Labels), d.Samples)
	}
	for _, l := range d.Labels {
		if l < 0 || l >= len(d.Classes) {
			return fmt.Errorf("a label %d outside the %d classes", l, len(d.Classes))
		}
	}
	return nil
}

// checkPredictions reports predictions that the labels cannot be joined to (no labels,
// a test index outside the samples or twice in one resample) or whose scores are not
// one per classifier, accuracy k, test sample and class.
func (r *Result) checkPredictions(cfg Config, preds []Prediction) error {
	if len(preds) == 0 {
		return nil
	}
	if r.Data.Labels == nil {
		return fmt.Errorf("predictions without the samples' labels")
	}
	ks := len(cfg.AccuracyKs())
	for _, pr := range preds {
		seen := map[int]bool{}
		for _, i := range pr.Test {
			if i < 0 || i >= r.Data.Samples || seen[i] {
				return fmt.Errorf("a prediction for sample %d, outside 1..%d or given twice", i+1, r.Data.Samples)
			}
			seen[i] = true
		}
		if pr.Repeat < 0 || pr.Repeat > MaxRepeats {
			return fmt.Errorf("a prediction of repetition %d", pr.Repeat+1)
		}
		cols := len(r.Data.Classes)
		if r.Data.Survival != nil {
			cols = 1 // the risk score
		}
		if err := checkScores(pr.Scores, cfg.Classifiers, ks, len(pr.Test), cols); err != nil {
			return err
		}
		if err := checkPreds(pr.Pred, cfg.Classifiers, ks, len(pr.Test), len(r.Data.Classes)); err != nil {
			return err
		}
		if err := checkSelected(pr.Selected, cfg.AccuracyKs(), len(r.Data.Features)); err != nil {
			return err
		}
	}
	return nil
}

// checkSelected reports a resample's ranking (Prediction.Selected) that is not of
// distinct features, as many as the largest accuracy k.
func checkSelected(sel []int, accKs []int, p int) error {
	if sel == nil {
		return nil
	}
	if len(accKs) == 0 || len(sel) != slices.Max(accKs) {
		return fmt.Errorf("a resample's ranking of %d genes for accuracy ks up to %v", len(sel), accKs)
	}
	seen := make(map[int]bool, len(sel))
	for _, j := range sel {
		if j < 0 || j >= p || seen[j] {
			return fmt.Errorf("a resample's ranking names feature %d, outside 1..%d or twice", j+1, p)
		}
		seen[j] = true
	}
	return nil
}
