package dataset

import (
	"fmt"
	"math"
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
