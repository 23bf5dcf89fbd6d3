package dataset

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/counts"
	"steadfast/internal/text"
)

// maxCount is the largest value taken as a read count: far above any sequencing depth
// (10^15 reads), and small enough that a library's sum stays exact to a count.
const maxCount = 1e15

// CheckCounts checks d's values as read counts for log-CPM and returns d without the
// samples whose library (the sum of their counts) is empty, with a note naming them: a
// sample of no reads has no expression profile. It refuses a negative count (already
// logged or normalised values: analyse them without log-CPM) and a count above 10^15,
// naming the cell. Missing cells are left for the missing-value rules.
func CheckCounts(d *Dataset) (*Dataset, error) {
	n, p := d.Dims()
	var keep []int
	var empty []string
	for i := 0; i < n; i++ {
		lib := 0.0
		for j := 0; j < p; j++ {
			v := d.X.At(i, j)
			switch {
			case math.IsNaN(v):
				continue
			case v < 0:
				return nil, fmt.Errorf("%s: log-CPM needs read counts, but sample %q has %g for %q; negative values mean the data are already logged or normalised: analyse them without log-CPM (and without log2)", d.Name, d.Samples[i], v, d.Features[j])
			case v > maxCount:
				return nil, fmt.Errorf("%s: sample %q has %g reads for %q, more than any sequencing run gives (%g); check the file's units", d.Name, d.Samples[i], v, d.Features[j], maxCount)
			}
			lib += v
		}
		if lib > 0 {
			keep = append(keep, i)
		} else {
			empty = append(empty, d.Samples[i])
		}
	}
	if len(empty) == 0 {
		return d, nil
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("%s: every sample has a library size of 0 (no reads); these are not counts", d.Name)
	}
	out := *d
	out.keepSamples(keep)
	out.Notes = append(append([]string(nil), d.Notes...), fmt.Sprintf("%s with a library size of 0 (no reads) left out of the log-CPM analysis: %s", text.Count(len(empty), "sample"), listNames(empty, 5)))
	return &out, nil
}

// preprocessCounts is Preprocess for Prep.TMM: the features with a missing count
// dropped (a count cannot be missing), and with DropConstant those of one count over
// all samples; Counts the rest, X their log-CPM as edgeR's normalisation fitted on all
// samples gives (counts.Fit with the classes); a note says how many genes its filter
// keeps. Were none kept (libraries too small), X is the per-sample log-CPM and the
// note says so.
func preprocessCounts(ctx context.Context, d *Dataset, o Prep) (*Dataset, []string, error) {
	n, _ := d.Dims()
	s := Summarize(d)
	drop := map[string]bool{}
	for _, f := range s.MissingFeatures {
		drop[f] = true
	}
	if o.DropConstant {
		for _, f := range s.ConstantFeatures {
			drop[f] = true
		}
	}
	var keep []int
	for j, f := range d.Features {
		if !drop[f] {
			keep = append(keep, j)
		}
	}
	out := d.samplesOnly()
	out.Notes = slices.Clone(d.Notes)
	out.Counts = SelectFeatures(d.X, keep)
	out.Features = Pick(d.Features, keep)
	if d.Symbols != nil {
		out.Symbols = Pick(d.Symbols, keep)
	}
	out.X = mat.NewDense(n, max(len(keep), 1), nil).Slice(0, n, 0, len(keep)).(*mat.Dense)
	rows := counts.Rows(out.Counts, nil)
	norm, err := counts.FitContext(ctx, rows, d.Labels)
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	if err == nil {
		for i := range rows {
			norm.TrainLogCPM(i, rows[i], out.X.RawRowView(i))
		}
		out.Notes = append(out.Notes, fmt.Sprintf("RNA-seq counts, normalised as edgeR does: filterByExpr keeps %d of %d genes on all samples (the others are ranked last), TMM factors and log-CPM with a prior count of 2; every training set filters and normalises its own, its test samples against its reference", len(norm.Kept), len(keep)))
	} else {
		out.Counts = nil // nothing for a training set to normalise either
		for i, row := range rows {
			lib := 0.0
			for _, v := range row {
				lib += v
			}
			for j, v := range row {
				out.X.Set(i, j, math.Log2((v+0.5)/(lib+1)*1e6))
			}
		}
		out.Notes = append(out.Notes, fmt.Sprintf("RNA-seq counts: %v; the values are the per-sample log-CPM instead, without TMM", err))
	}
	var dropped []string
	for f := range drop {
		dropped = append(dropped, f)
	}
	sort.Strings(dropped)
	return out, dropped, nil
}
