package dataset

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/impute"
	"steadfast/internal/text"
)

// Rows are the rows idx of x as slices sharing x's storage (every row when idx is nil).
func Rows(x *mat.Dense, idx []int) [][]float64 {
	if idx == nil {
		n, _ := x.Dims()
		idx = make([]int, n)
		for i := range idx {
			idx[i] = i
		}
	}
	out := make([][]float64, len(idx))
	for i, r := range idx {
		out[i] = x.RawRowView(r)
	}
	return out
}

// preprocessIntensities is Preprocess for intensities (Prep.Intensities): the features
// with no value, and with DropConstant those of one value in every sample, left out
// (with impute "none" also those with a missing value: nothing would fill them); Raw the
// rest as read, X their preprocessing fitted on all samples (impute.Fit: the filter,
// log2, the normalisation, the imputation). The proteins the filter drops on all samples
// stay in X, imputed, and are named in LeftOut as ranked last: every training set
// filters its own. The notes say how many values are missing, where, and what is done.
func preprocessIntensities(ctx context.Context, d *Dataset, o Prep) (*Dataset, []string, error) {
	return intensities(ctx, d, o, false)
}

// PreprocessTable is d preprocessed on all samples as a study preprocesses each training
// set, to write out (steadfast prep): for intensities (Prep.Intensities) the proteins
// the valid-value filter keeps, normalised and imputed (with impute "none" their missing
// values stay NaN), the others named in LeftOut; else Preprocess's values, the features
// it drops named in LeftOut.
func PreprocessTable(ctx context.Context, d *Dataset, o Prep) (*Dataset, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	if o.Intensities(d) {
		note, err := Log2Check(d, o)
		if err != nil {
			return nil, err
		}
		out, _, err := intensities(ctx, d, o, true)
		if err == nil && note != "" {
			out.Notes = append(out.Notes, note)
		}
		return out, err
	}
	out, dropped, err := PreprocessContext(ctx, d, o)
	if err != nil {
		return nil, err
	}
	out.LeftOut = slices.Clone(d.LeftOut)
	s := Summarize(d)
	for _, f := range dropped {
		why := "one value in every sample"
		if slices.Contains(s.MissingFeatures, f) {
			why = "missing values (drop features with missing values)"
		}
		out.LeftOut = append(out.LeftOut, LeftOut{Feature: f, Reason: why})
	}
	return out, nil
}

// intensities is preprocessIntensities; with table, PreprocessTable's.
func intensities(ctx context.Context, d *Dataset, o Prep, table bool) (*Dataset, []string, error) {
	chosen := o.Impute != ""
	o = o.For(d)
	opt, err := o.ImputeOptions().Resolved()
	if err != nil {
		return nil, nil, err
	}
	n, p := d.Dims()
	for i := 0; i < n; i++ {
		for j, v := range d.X.RawRowView(i) {
			if math.IsInf(v, 0) {
				return nil, nil, fmt.Errorf("%s: the value %v of sample %q, feature %q is infinite (non-finite): a missing value is an empty cell or NA, an infinite one a damaged value; check the file", d.Name, v, d.Samples[i], d.Features[j])
			}
		}
	}
	s := Summarize(d)
	missing := []string{missingNote(d, s)}
	if note := defaultImputeNote(d, s, opt.Impute); !chosen && note != "" {
		missing = append(missing, note)
	}
	out := d.samplesOnly() // its outcome too: classes, or a survival outcome's times and events
	out.Notes, out.LeftOut = slices.Clone(d.Notes), slices.Clone(d.LeftOut)
	if s.Unlogged && !o.Log2 && opt.Impute == impute.MinProb && s.MissingCells > 0 {
		return nil, nil, fmt.Errorf("%s: the values look unlogged (none negative, some above 1000), and minprob draws the missing ones below each sample's mean on the log scale: choose log2 (--log2, or the Data tab's log2), or another imputation", d.Name)
	}
	constant := map[string]bool{}
	if o.DropConstant {
		for _, f := range s.ConstantFeatures {
			constant[f] = true
		}
	}
	var keep []int
	var dropped []string
	symbol := func(j int) string {
		if d.Symbols == nil {
			return ""
		}
		return d.Symbols[j]
	}
	for j, f := range d.Features {
		lost := 0
		for i := 0; i < n; i++ {
			if v := d.X.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				lost++
			}
		}
		why := ""
		switch {
		case lost == n:
			why = "no value in any sample"
		case lost > 0 && o.DropMissing:
			why = fmt.Sprintf("missing in %d of %d samples (drop features with missing values)", lost, n)
		case lost > 0 && opt.Impute == impute.None && !table:
			why = fmt.Sprintf("missing in %d of %d samples, and no imputation chosen", lost, n)
		case constant[f]:
			why = "one value in every sample"
		}
		if why == "" {
			keep = append(keep, j)
			continue
		}
		dropped = append(dropped, f)
		out.LeftOut = append(out.LeftOut, LeftOut{Feature: f, Symbol: symbol(j), Reason: why})
	}
	if len(keep) < 2 {
		return nil, nil, fmt.Errorf("%s: %d of the %d features have values to analyse; check that the file holds intensities", d.Name, len(keep), p)
	}
	out.Raw = SelectFeatures(d.X, keep)
	out.Features = Pick(d.Features, keep)
	if d.Symbols != nil {
		out.Symbols = Pick(d.Symbols, keep)
	}
	rows := Rows(out.Raw, nil)
	fit, err := impute.FitContext(ctx, rows, d.Labels, len(d.Classes), d.Samples, out.Features, opt)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", d.Name, err)
	}
	out.X = mat.NewDense(n, len(keep), nil)
	for i := range rows {
		fit.Train(i, out.X.RawRowView(i))
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	kept := make([]bool, len(keep))
	for _, j := range fit.Kept() {
		kept[j] = true
	}
	counts := impute.ValidCounts(rows, d.Labels, len(d.Classes))
	sizes := d.ClassCounts()
	for j, k := range kept {
		switch {
		case k:
		case table:
			out.LeftOut = append(out.LeftOut, LeftOut{Feature: out.Features[j], Symbol: symbol(keep[j]), Reason: "valid-value filter: " + impute.Reason(counts[j], sizes, d.Classes, opt.MinValid)})
		default:
			out.LeftOut = append(out.LeftOut, LeftOut{Feature: out.Features[j], Symbol: symbol(keep[j]), Ranked: true,
				Reason: impute.Reason(counts[j], sizes, d.Classes, opt.MinValid) + "; kept in the data, ranked last in every training set whose filter it fails"})
		}
	}
	if table {
		out.X, out.Raw = SelectFeatures(out.X, fit.Kept()), nil
		out.Features = Pick(out.Features, fit.Kept())
		if out.Symbols != nil {
			out.Symbols = Pick(out.Symbols, fit.Kept())
		}
		out.Notes = append(append(out.Notes, missing...), fmt.Sprintf("preprocessed on all samples: %s; %s of %s kept", opt.Describe(), text.Thousands(len(fit.Kept())), text.Thousands(len(keep))))
		return out, nil, nil
	}
	filtered := fmt.Sprintf("on all samples the filter keeps %s of %s, the other %s are ranked last (named in the left-out list)", text.Thousands(len(fit.Kept())), text.Thousands(len(keep)), text.Thousands(len(keep)-len(fit.Kept())))
	if len(fit.Kept()) == len(keep) {
		filtered = fmt.Sprintf("on all samples the filter keeps all %s", text.Thousands(len(keep)))
	}
	out.Notes = append(append(out.Notes, missing...), fmt.Sprintf("intensities preprocessed inside every training set and frozen for its test samples: %s; %s", opt.Describe(), filtered))
	sort.Strings(dropped)
	return out, dropped, nil
}

// missingNote says how many of d's values are missing and where: "10,916 of 51,996
// values missing (21.0%), in 2,084 of 3,714 proteins; per sample 16.5% (A-3) to 23.7%
// (B-6)".
func missingNote(d *Dataset, s Summary) string {
	if s.MissingCells == 0 {
		return "no value is missing"
	}
	lo, hi := 0, 0
	for i, m := range s.MissingBySample {
		if m < s.MissingBySample[lo] {
			lo = i
		}
		if m > s.MissingBySample[hi] {
			hi = i
		}
	}
	share := func(i int) float64 { return 100 * float64(s.MissingBySample[i]) / float64(s.Features) }
	return fmt.Sprintf("%s of %s values missing (%.1f%%), in %s of %s features; per sample %.1f%% (%s) to %.1f%% (%s)",
		text.Thousands(s.MissingCells), text.Thousands(s.Samples*s.Features), 100*float64(s.MissingCells)/float64(s.Samples*s.Features),
		text.Thousands(len(s.MissingFeatures)), text.Thousands(s.Features), share(lo), d.Samples[lo], share(hi), d.Samples[hi])
}

// LeftOutTable is the left-out list as a table under its header: feature, symbol,
// reason, and whether it is in the data ranked last or out of them.
func LeftOutTable(l []LeftOut) [][]string {
	rows := [][]string{{"feature", "symbol", "reason", "status"}}
	for _, f := range l {
		status := "left out"
		if f.Ranked {
			status = "ranked last"
		}
		rows = append(rows, []string{f.Feature, f.Symbol, f.Reason, status})
	}
	return rows
}

// LeftOutSummary counts the left-out list by reason, each feature once, under its first
// reason (the parts add up to the list's length): "68 reverse hit (decoy), 13 potential
// contaminant, 786 ranked last by the valid-value filter on all samples".
func LeftOutSummary(l []LeftOut) string {
	count := map[string]int{}
	var order []string
	several := 0
	for _, f := range l {
		reasons := strings.Split(f.Reason, "; ")
		switch {
		case f.Ranked:
			reasons = []string{"ranked last by the valid-value filter on all samples"}
		case strings.HasPrefix(f.Reason, "valid-value filter: "):
			reasons = []string{"left out by the valid-value filter on all samples"}
		case strings.HasPrefix(f.Reason, "missing in "):
			_, rest, _ := strings.Cut(f.Reason, " samples")
			reasons = []string{"missing values" + rest}
		}
		if len(reasons) > 1 {
			several++
		}
		r := reasons[0]
		if count[r] == 0 {
			order = append(order, r)
		}
		count[r]++
	}
	parts := make([]string, len(order))
	for i, r := range order {
		parts[i] = fmt.Sprintf("%s %s", text.Thousands(count[r]), r)
	}
	out := strings.Join(parts, ", ")
	if several > 0 {
		out += fmt.Sprintf("; each counted once, under its first reason (%s have several)", text.Thousands(several))
	}
	return out
}
