package study

import (
	"math"

	"steadfast/compute/signature"
)

// Headline is the estimate every output of s leads with: the nested estimate when the
// advice chose method and k and it was computed, else the plain cross-validated
// estimate (optimistic when the advice chose, honest when the user fixed method and
// k); for an opened model, what its file keeps (nil for an earlier version's). Its
// interval is the estimate's own (signature.CVInterval over the resamples).
func (s *Signature) Headline() *signature.Headline {
	if s.CV == nil {
		if s.Model != nil && s.Model.CV != nil {
			return s.Model.CV.Headline
		}
		return nil
	}
	iv, est := s.CV.Interval, signature.HeadlineGiven
	switch {
	case s.Advised && s.Nested != nil:
		iv, est = s.Nested.Interval, signature.HeadlineNested
	case s.Advised:
		est = signature.HeadlineOptimistic
	}
	return &signature.Headline{AUC: iv.Mean, Low: iv.Low, High: iv.High, Estimate: est}
}

// keepHeadline records in the locked model whether the advice chose and the headline
// (when its numbers are finite), so a model file says what its estimate is; called
// whenever the headline may change (built, nested, restored).
func (s *Signature) keepHeadline() {
	if s.Model == nil || s.Model.CV == nil || s.CV == nil {
		return
	}
	s.Model.CV.Advised = s.Advised
	s.Model.CV.Headline = nil
	if h := s.Headline(); h != nil && !math.IsNaN(h.AUC+h.Low+h.High) {
		s.Model.CV.Headline = h
	}
}
