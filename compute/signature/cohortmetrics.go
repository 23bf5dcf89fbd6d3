package signature

import (
	"fmt"
	"math"
	"strings"

	"steadfast/compute/rstat"
	"steadfast/internal/text"
)

// Metrics are a cohort's predictions against its classes: N samples of classes the
// model knows; accuracy = correct/N; balanced accuracy = the mean recall over the classes
// present; sensitivity and specificity = the recall of the positive and of the other
// class (two classes; NaN otherwise or when absent); Confusion[t][p] counts samples of
// class t predicted p; AUC, Curve are the positive class's (two classes) and PerClass,
// Curves each class's one-vs-rest (more), NaN and nil when a class is absent.
type Metrics struct {
	N                        int
	Accuracy, Balanced       float64
	Sensitivity, Specificity float64
	// SensCI and SpecCI are their 95% Wilson intervals (the model fixed, the cohort's
	// samples independent); Calibration that of Validation.Probs (nil without).
	SensCI, SpecCI            [2]float64
	Calibration               *Calibration
	Confusion                 [][]int
	AUC                       AUC
	Curve                     []ROCPoint
	PerClass                  []AUC
	Curves                    [][]ROCPoint
	MeanAUC                   float64 // two classes: AUC.AUC; more: the mean over PerClass present
	ClassesPresent, NoAUCNote string
}

// Measures says the cohort's metrics in words, each number named with its interval:
// accuracy, balanced accuracy, then with two classes sensitivity and specificity with
// Wilson's intervals, the probabilities' Brier score and calibration, and the AUC with
// DeLong's; with more the mean one-vs-rest AUC. "" without metrics.
func (v *Validation) Measures() string {
	mt := v.Metrics
	if mt == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "accuracy %.3f, balanced accuracy %.3f", mt.Accuracy, mt.Balanced)

	if p := v.Positive(); p >= 0 && !math.IsNaN(mt.Sensitivity) && !math.IsNaN(mt.Specificity) {
		fmt.Fprintf(&b, ", sensitivity %.3f (95%% CI %.3f-%.3f), specificity %.3f (%.3f-%.3f) (%s positive)",
			mt.Sensitivity, mt.SensCI[0], mt.SensCI[1], mt.Specificity, mt.SpecCI[0], mt.SpecCI[1], v.Model.Classes[p])
	}
	if cal := mt.Calibration; cal != nil {
		fmt.Fprintf(&b, ", probabilities' Brier score %.3f, %s", cal.Brier, cal.Says())
	}
	switch {
	case mt.NoAUCNote != "":
		b.WriteString("; " + mt.NoAUCNote)
	case v.Positive() >= 0:
		fmt.Fprintf(&b, ", AUC %.3f (DeLong 95%% CI %.3f-%.3f)", mt.AUC.AUC, mt.AUC.Low, mt.AUC.High)
		if cv := v.Model.CV; cv != nil && cv.Headline != nil {
			fmt.Fprintf(&b, " against the signature's %s when it was built", cv.Headline.Text())
		} else if cv != nil {
			fmt.Fprintf(&b, " against a pooled cross-validated AUC of %.3f (the mean of %s) when the signature was built", cv.MeanAUC, text.Count(cv.Repetitions, "repetition"))
		}
	default:
		fmt.Fprintf(&b, ", mean one-vs-rest AUC %.3f", mt.MeanAUC)
	}
	if v.Shift != nil {
		b.WriteString(". " + strings.TrimSuffix(v.Shift.Says(v), "."))
	}
	return b.String()
}

// wilsonOf is the 95% Wilson interval of the share of a class's samples (its confusion
// row) predicted c; NaN without samples.
func wilsonOf(row []int, c int) [2]float64 {
	n := 0
	for _, k := range row {
		n += k
	}
	if n == 0 {
		return [2]float64{math.NaN(), math.NaN()}
	}
	lo, hi := rstat.Wilson(float64(row[c])/float64(n), float64(n), rstat.Z95)
	return [2]float64{lo, hi}
}

// measure computes the Metrics of the samples whose class the model knows (nil if none).
func (v *Validation) measure() *Metrics {
	nc := len(v.Model.Classes)
	var scores [][]float64
	var truth, pred []int
	for i, t := range v.Truth {
		if t >= 0 {
			scores, truth, pred = append(scores, v.Scores[i]), append(truth, t), append(pred, v.Pred[i])
		}
	}
	if len(truth) == 0 {
		return nil
	}
	mt := &Metrics{N: len(truth), Confusion: make([][]int, nc)}
	for c := range mt.Confusion {
		mt.Confusion[c] = make([]int, nc)
	}
	correct := 0
	for i, t := range truth {
		mt.Confusion[t][pred[i]]++
		if t == pred[i] {
			correct++
		}
	}
	mt.Accuracy = float64(correct) / float64(len(truth))
	var present []string
	recalls := 0.0
	for c := 0; c < nc; c++ {
		if r := recall(mt.Confusion, c); !math.IsNaN(r) {
			recalls += r
			present = append(present, v.Model.Classes[c])
		}
	}
	mt.Balanced = recalls / float64(len(present))
	mt.ClassesPresent = strings.Join(present, ", ")
	nan := math.NaN()
	mt.Sensitivity, mt.Specificity, mt.AUC, mt.MeanAUC = nan, nan, AUC{nan, nan, nan, nan}, nan
	if len(present) < 2 {
		mt.NoAUCNote = fmt.Sprintf("the cohort's known samples are all of one class (%s): accuracy is defined, an AUC is not", mt.ClassesPresent)
	}
	if nc == 2 {
		p := v.positive
		mt.Sensitivity, mt.Specificity = recall(mt.Confusion, p), recall(mt.Confusion, 1-p)
		mt.SensCI, mt.SpecCI = wilsonOf(mt.Confusion[p], p), wilsonOf(mt.Confusion[1-p], 1-p)
		if len(present) == 2 && v.Probs != nil {
			var probs []float64
			var pos []bool
			for i, t := range v.Truth {
				if t >= 0 {
					probs, pos = append(probs, v.Probs[i]), append(pos, t == p)
				}
			}
			c := Calibrate(probs, pos)
			mt.Calibration = &c
		}
		if len(present) == 2 {
			s, pos := classScores(scores, truth, p)
			mt.AUC, mt.Curve, mt.MeanAUC = DeLong(s, pos), ROC(s, pos), DeLong(s, pos).AUC
		}
		return mt
	}
	mt.PerClass, mt.Curves = make([]AUC, nc), make([][]ROCPoint, nc)
	sum, k := 0.0, 0
	for c := 0; c < nc; c++ {
		s, pos := classScores(scores, truth, c)
		mt.PerClass[c], mt.Curves[c] = DeLong(s, pos), ROC(s, pos)
		if a := mt.PerClass[c].AUC; !math.IsNaN(a) {
			sum, k = sum+a, k+1
		}
	}
	if k > 0 && len(present) >= 2 {
		mt.MeanAUC = sum / float64(k)
	}
	return mt
}
