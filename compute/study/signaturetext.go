package study

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/internal/text"
)

// ModelText says what an opened model is: its genes, classifier, classes, training
// data and digests, and the cross-validated estimate it was built with.
func (s *Signature) ModelText() string {
	m := s.Model
	t := fmt.Sprintf("Model %s: %s of %s (%s), %s, classes %s", filepath.Base(s.Opened), text.Count(len(m.Genes), "gene"), m.Method,
		experiment.ClassifierLabel(m.Classifier), m.Program, strings.Join(m.Classes, ", "))
	if m.Positive >= 0 {
		t += ", " + m.Classes[m.Positive] + " positive"
	}
	t += fmt.Sprintf("; trained on %s from %s (SHA-256 %s...); model digest %s...", text.Count(len(m.Samples), "sample"), m.Data, short12(m.DataSHA256), short12(m.SHA256))
	if cv := m.CV; cv != nil && cv.Headline != nil {
		t += fmt.Sprintf(". When built, its %s (%s)", cv.Headline.Text(), cv.Headline.What())
	} else if cv != nil {
		t += fmt.Sprintf(". When built, its pooled cross-validated AUC, the mean of %s: %s (range %s-%s)", text.Count(cv.Repetitions, "repetition"), f3(cv.MeanAUC), f3(cv.MinAUC), f3(cv.MaxAUC))
	}
	return t + ". Validate it on a cohort; the study it came from is not needed."
}

func short12(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// Performance is the cross-validated estimate in words, each number named. Two
// classes: the AUC (mean and range over the repetitions; the first repetition's with
// DeLong's interval, said to be too narrow for the procedure), sensitivity and
// specificity of the positive class and the balanced accuracy at the classifier's own
// rule. More classes: the mean one-vs-rest AUC, then for each class its one-vs-rest
// AUC (mean, range, the first repetition's DeLong interval), sensitivity and
// specificity, and the balanced accuracy. A number that cannot be computed is said so.
func (s *Signature) Performance() string {
	if s.CV == nil {
		return s.ModelText()
	}
	return s.choiceText() + s.plainPerformance() + s.pairsText()
}

// pairsText says how often a k-TSP model's pairs were chosen again in the resamples.
func (s *Signature) pairsText() string {
	if len(s.PairStability) == 0 {
		return ""
	}
	lo, hi := slices.Min(s.PairStability), slices.Max(s.PairStability)
	if len(s.PairStability) == 1 {
		return fmt.Sprintf(" k-TSP's one pair was chosen again by %.0f%% of the resamples' own k-TSP (fitted on their training samples and top %d genes).", 100*lo, s.Choice.K)
	}
	return fmt.Sprintf(" Each of k-TSP's %d pairs was chosen again by %.0f%% to %.0f%% of the resamples' own k-TSP (fitted on their training samples and top %d genes).", len(s.PairStability), 100*lo, 100*hi, s.Choice.K)
}

// choiceText leads with the headline and says how the method and k were chosen, with
// the nested estimate's details when the data chose them.
func (s *Signature) choiceText() string {
	h := s.Headline()
	lead := fmt.Sprintf("Headline: the %s; %s. ", h.Text(), h.What())
	switch {
	case !s.Advised:
		return lead + "The estimate below is that one, in full. "
	case s.Nested == nil:
		return lead + "The estimate below is that one, in full. "
	}
	return lead + s.Nested.Summary() + " The estimate below is of the chosen signature on the resamples that chose it, and is optimistic. "
}

// Brief is the estimate in two short sentences for a laptop's window: the AUC with its
// interval (the nested one first when the advice chose), sensitivity and specificity
// at the classifier's rule, the positive class; Performance has the rest.
func (s *Signature) Brief() string {
	if s.CV == nil {
		return s.ModelText()
	}
	cv, iv, h := s.CV, s.CV.Interval, s.Headline()
	var b strings.Builder
	fmt.Fprintf(&b, "%s. %s", text.Count(len(s.Genes), "gene"), capitalize(h.Text()))
	if s.Positive < 0 {
		b.WriteString(" (the mean of the one-vs-rest AUCs)")
	}
	switch h.Estimate {
	case signature.HeadlineNested:
		fmt.Fprintf(&b, ": the advice's choice of method and k made again in each training set. The same choice on the resamples that chose it: %s (%s-%s, optimistic).", f3(iv.Mean), f3(iv.Low), f3(iv.High))
	case signature.HeadlineOptimistic:
		b.WriteString(": method and k chosen on the same resamples (the nested estimate not computed).")
	default:
		b.WriteString(": method and k as given (" + signature.GivenWarning + ").")
	}
	rule := "at the classifier's rule"
	if s.Advised {
		rule += " (of the choice on its resamples, optimistic)"
	}
	if s.Positive >= 0 {
		fmt.Fprintf(&b, " Sensitivity %s, specificity %s %s, %s positive (%s).", withCI(s.Op.Own.Sens), withCI(s.Op.Own.Spec), rule, s.Classes[s.Positive], s.PositiveWhy)
	} else {
		fmt.Fprintf(&b, " Balanced accuracy %s %s.", f3(cv.BalancedAccuracy()), rule)
	}
	return b.String()
}

// plainPerformance is the estimate of the signature's own choice on the study's
// resamples (see Performance).
func (s *Signature) plainPerformance() string {
	cv := s.CV
	reps := text.Count(len(cv.AUCs), "repetition")
	iv := cv.Interval
	ci := fmt.Sprintf("%s (95%% CI %s-%s, %s, over %s)", f3(iv.Mean), f3(iv.Low), f3(iv.High), signature.IntervalMethod, text.Count(iv.Resamples, "resample"))
	if s.Advised {
		ci += ", optimistic"
	}
	if s.Positive >= 0 {
		op := s.Op
		y := op.Youden
		return fmt.Sprintf("The cross-validated AUC (%s positive), the mean of the resamples' held-out AUCs, was %s; each repetition's held-out scores pooled give %s on average (range %s-%s over %s). "+
			"At the classifier's own rule, sensitivity was %s, specificity %s, positive predictive value %s and negative predictive value %s at the study's prevalence of %s (95%% CIs: %s), and balanced accuracy %s. "+
			"Youden's best threshold on the same scores (%s, optimistic: chosen on them) gives sensitivity %s and specificity %s (%s). "+
			"%s had a Brier score of %s, %s (0 and 1 when calibrated).",
			s.Classes[s.Positive], ci, f3(cv.MeanAUC), f3(cv.MinAUC), f3(cv.MaxAUC), reps,
			withCI(op.Own.Sens), withCI(op.Own.Spec), withCI(op.Own.PPV), withCI(op.Own.NPV), f3(op.Prevalence), OwnRuleMethod, f3(cv.BalancedAccuracy()),
			text.Sig3(y.Threshold), withCI(y.Sens), withCI(y.Spec), YoudenMethod,
			s.probabilityWords(), f3(op.Calibration.Brier), op.Calibration.Says())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The cross-validated one-vs-rest AUC averaged over the %d classes, the mean of the resamples' held-out AUCs, was %s; each repetition's held-out scores pooled give %s on average (range %s-%s over %s). Per class, one against the rest (AUC with its 95%% CI, an interval by the same method; sensitivity and specificity at the classifier's own rule): ",
		len(s.Classes), ci, f3(cv.MeanAUC), f3(cv.MinAUC), f3(cv.MaxAUC), reps)
	for c, name := range s.Classes {
		ci := cv.ClassIntervals[c]
		if c > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s AUC %s (CI %s-%s), sensitivity %s, specificity %s", name, f3(ci.Mean), f3(ci.Low), f3(ci.High),
			f3(cv.ClassSensitivity(c)), f3(cv.ClassSpecificity(c)))
	}
	fmt.Fprintf(&b, ". The balanced accuracy was %s.", f3(cv.BalancedAccuracy()))
	return b.String()
}

// capitalize is s with its first letter upper case.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// withCI writes an estimate with its interval: "0.913 (0.810-0.962)".
func withCI(v signature.Value) string {
	if math.IsNaN(v.Low) {
		return f3(v.Est)
	}
	return fmt.Sprintf("%s (%s-%s)", f3(v.Est), f3(v.Low), f3(v.High))
}

// f3 writes v with three decimals, or says it could not be computed.
func f3(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "not computable"
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

// probabilityWords names the probabilities the performance block calibrates: the
// classifier's own, or Platt-scaled ones.
func (s *Signature) probabilityWords() string {
	pos := s.Classes[s.Positive]
	switch {
	case s.Op.Direct && s.Choice.Classifier == "rf":
		return fmt.Sprintf("The forest's own probabilities of %s (each sample's share of the trees' votes while held out; no Platt map)", pos)
	case s.Op.Direct:
		return fmt.Sprintf("Logistic regression's own probabilities of %s (fitted while each sample was held out; no Platt map)", pos)
	}
	return fmt.Sprintf("Platt-scaled probabilities of %s, each from a map fitted without its tenth of the samples,", pos)
}
