package plots

import (
	"fmt"
	"strings"

	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/internal/text"
)

// survivalHonestWords are the survival paragraph's sentences on which C is the
// headline (the nested one when the advice chose method and k and it was computed;
// the plain one, said to be optimistic, when it was not; the plain one, honest, when
// method and k were given) and on the permutation test of C when one was run.
func survivalHonestWords(s *study.SurvivalSignature) string {
	var b strings.Builder
	h := s.Headline()
	switch h.Estimate {
	case signature.HeadlineNested:
		n := s.Nested
		fmt.Fprintf(&b, " The method and k were chosen by the study's advice on these same resamples, so the cross-validated measures of this paragraph are optimistic; the advice's choice was therefore made again inside each of %s (an inner %d-fold cross-validation on its training samples alone), and the Cox model of each inner choice scored the outer held-out patients: this nested cross-validated Harrell's C, %.3f (95%% CI %.3f-%.3f), is the headline. The inner studies chose %s.",
			text.Count(len(n.Choices), "outer training set"), n.InnerFolds, h.C.Mean, h.C.Low, h.C.High, n.ChoiceCounts())
	case signature.HeadlineOptimistic:
		b.WriteString(" The method and k were chosen by the study's advice on these same resamples and the nested estimate was not computed, so the cross-validated measures of this paragraph are optimistic.")
	default:
		b.WriteString(" The method and k were given, fixed before the study, so the cross-validated C is the headline.")
	}
	if p := s.Perm; p != nil {
		what := "the whole procedure (the gene ranking and the Cox model in every training set)"
		if p.Choice {
			what = "the whole procedure (every method, the advice's choice of method and k, the gene ranking and the Cox model in every training set)"
		}
		fmt.Fprintf(&b, " In a permutation test the patients' (time, event) pairs were permuted together %s and %s repeated each time: %s.", text.Count(len(p.AUCs), "time"), what, p.Says())
	}
	return b.String()
}
