package dataset

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
	"steadfast/internal/text"
)

// missingLabels are class values that mean "no class" (compared without case).
var missingLabels = []string{"", "?", "na", "n/a", "nan", "null", "#n/a"}

func isMissingLabel(s string) bool { return oneOf(s, missingLabels) }

// oneOf reports whether s, trimmed and in lower case, is one of the lower-case words.
func oneOf(s string, words []string) bool {
	return slices.Contains(words, strings.ToLower(strings.TrimSpace(s)))
}

// tidyLabels leaves out the samples whose class is missing (NA, ?, empty, ...) and notes
// classes whose names differ only in case or spacing (kept apart: the file decides).
// It fails when no labelled sample is left. With unlabelled (Options.Unlabelled) it
// keeps those samples, of class "".
func (d *Dataset) tidyLabels(unlabelled bool) error {
	if unlabelled {
		values := make([]string, len(d.Labels))
		for i, l := range d.Labels {
			if !isMissingLabel(d.Classes[l]) {
				values[i] = d.Classes[l]
			}
		}
		d.setLabels(values)
		return nil
	}
	var keep []int
	var dropped []string
	for i, l := range d.Labels {
		if isMissingLabel(d.Classes[l]) {
			dropped = append(dropped, d.Samples[i])
			continue
		}
		keep = append(keep, i)
	}
	if len(keep) == 0 {
		return &ParseError{File: d.Name, Msg: "no sample has a class label (all are NA or empty); Steadfast needs the class of every sample it analyses"}
	}
	if len(dropped) > 0 {
		d.keepSamples(keep)
		d.Notes = append(d.Notes, fmt.Sprintf("%s without a class (NA or empty) left out: %s", text.Count(len(dropped), "sample"), listNames(dropped, 5)))
	}
	byKey := map[string]string{}
	for _, c := range d.Classes {
		key := strings.Join(strings.Fields(strings.ToLower(c)), " ")
		if other, ok := byKey[key]; ok {
			d.Notes = append(d.Notes, fmt.Sprintf("classes %q and %q differ only in case or spacing and are kept apart; if they are one class, correct the file", other, c))
			continue
		}
		byKey[key] = c
	}
	return nil
}

// keepSamples keeps the samples idx (ascending) and the classes they use, in order of
// first appearance.
func (d *Dataset) keepSamples(idx []int) {
	x, y := SelectSamples(d.X, d.Labels, idx)
	remap := map[int]int{}
	var classes []string
	for i, l := range y {
		k, ok := remap[l]
		if !ok {
			k = len(classes)
			remap[l] = k
			classes = append(classes, d.Classes[l])
		}
		y[i] = k
	}
	d.X, d.Labels, d.Classes, d.Samples = x, y, classes, Pick(d.Samples, idx)
	if d.Groups != nil {
		d.Groups = Pick(d.Groups, idx)
	}
	d.Survival = d.Survival.pick(idx)
	d.Covariates = PickCovariates(d.Covariates, idx)
}

// largestValue is the largest magnitude a value may have: squares and sums of squares of
// a few thousand of them stay finite.
const largestValue = 1e150

// ValidateSurvival is Validate for a survival outcome: features without missing or
// huge values, and at least folds events (stratified resampling then puts one in every
// test fold) and two samples more than that.
func ValidateSurvival(d *Dataset, folds int) error {
	n, p := d.Dims()
	sv := d.Survival
	if sv == nil {
		return fmt.Errorf("%s: the outcome is a class, not a survival time; name the time and event columns (--time COL --event COL, or the Data tab's Outcome)", d.Name)
	}
	if n == 0 || p == 0 {
		return fmt.Errorf("%s: no data (%d samples, %d features)", d.Name, n, p)
	}
	if err := measurable(d); err != nil {
		return err
	}
	if e := sv.Events(); e < max(folds, 2) {
		return fmt.Errorf("%s: %s in %d samples, fewer than the %d folds asked for: a test fold without an event cannot measure a risk score; choose %d folds or fewer (the Protocol tab's Folds, or the configuration's folds)", d.Name, text.Count(e, "event"), n, max(folds, 2), max(e, 2))
	}
	return nil
}

// measurable refuses missing, non-finite and huge values.
func measurable(d *Dataset) error {
	s := Summarize(d)
	if s.MissingCells > 0 {
		return fmt.Errorf("%s: %d missing or non-finite values (NaN, Inf or empty) in %d features, first %q; impute them inside every training set (the Data tab's Missing values, --impute minprob|knn|halfmin) or drop those features (--drop-missing)",
			d.Name, s.MissingCells, len(s.MissingFeatures), s.MissingFeatures[0])
	}
	if i, j, v := largest(d.X); math.Abs(v) > largestValue {
		return fmt.Errorf("%s: the value %g of sample %q, feature %q is too large to analyse (beyond 1e150); check the file's units or log-transform it", d.Name, v, d.Samples[i], d.Features[j])
	}
	return nil
}

// Validate returns an error a biologist can act on when the data cannot be analysed
// with folds-fold stratified resampling (folds 1: on all samples): no feature, missing
// values, values too large to square, fewer than two classes, no more samples than
// classes, or a class smaller than the number of folds.
func Validate(d *Dataset, folds int) error {
	n, p := d.Dims()
	if n == 0 || p == 0 {
		return fmt.Errorf("%s: no data (%d samples, %d features)", d.Name, n, p)
	}
	if sv := d.Survival; sv != nil {
		return fmt.Errorf("%s: the outcome is a survival time (time %q, event %q), and this analysis needs classes; name a class column to analyse classes (--class NAME, or the Data tab's Outcome)", d.Name, sv.TimeName, sv.EventName)
	}
	if err := measurable(d); err != nil {
		return err
	}
	s := Summarize(d)
	if len(d.Classes) < 2 {
		return fmt.Errorf("%s: all %d samples are in one class (%q); stability and accuracy need at least two classes", d.Name, n, d.Classes[0])
	}
	if n <= len(d.Classes) {
		return fmt.Errorf("%s: %d samples in %d classes; scores need more samples than classes", d.Name, n, len(d.Classes))
	}
	if c, k := SmallestClass(s.ClassCounts); k < folds {
		return fmt.Errorf("%s: the smallest class, %q, has %d samples, fewer than the %d folds asked for; choose %d folds or fewer (the Protocol tab's Folds, or the configuration's folds), or a protocol with fewer folds (for example DRAGS 2008, 3-fold)",
			d.Name, d.Classes[c], k, folds, k)
	}
	return nil
}

// SmallestClass returns the index and size of the smallest class in counts, the first
// one among equals; (-1, 0) for none.
func SmallestClass(counts []int) (class, size int) {
	class = -1
	for c, k := range counts {
		if class < 0 || k < size {
			class, size = c, k
		}
	}
	return class, size
}

// largest returns the position and value of x's largest finite magnitude.
func largest(x *mat.Dense) (int, int, float64) {
	n, _ := x.Dims()
	bi, bj, bv := 0, 0, 0.0
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i) {
			if math.Abs(v) > math.Abs(bv) && !math.IsInf(v, 0) {
				bi, bj, bv = i, j, v
			}
		}
	}
	return bi, bj, bv
}

// listNames lists up to max names, then how many more.
func listNames(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:max], ", "), len(names)-max)
}
