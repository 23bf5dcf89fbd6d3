package dataset

import (
	"fmt"
	"math"

	"steadfast/internal/text"
)

// Log2Check counts d's values below p's log2 floor (1 unless Log2Floor says otherwise)
// when p takes log2 ("" and nil otherwise). Negative values refuse log2: values of
// unlogged intensities are never negative, so the data look logged already, and log2
// of a negative value is undefined. Zeros and values between 0 and the floor are
// raised to the floor before log2 (log2 1 = 0), as they always were; the note says how
// many, and warns when they are a tenth of the values or more, which the floor makes
// alike.
func Log2Check(d *Dataset, p Prep) (string, error) {
	if !p.Log2 || p.LogCPM {
		return "", nil
	}
	floor := p.Log2Floor
	if floor <= 0 {
		floor = 1
	}
	negative, zero, below, given := 0, 0, 0, 0
	least := math.Inf(1)
	for _, v := range d.X.RawMatrix().Data {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			continue
		case v < 0:
			negative++
			least = math.Min(least, v)
		case v == 0:
			zero++
		case v < floor:
			below++
		}
		given++
	}
	if negative > 0 {
		return "", fmt.Errorf("%s: log2 was asked for, but %s of %s values are negative (the least %.4g): unlogged intensities are never negative, so these values look logged already, and log2 of a negative value is undefined; leave out log2 (--log2 on the command line, the Data tab's log2 box in the window)",
			d.Name, text.Thousands(negative), text.Thousands(given), least)
	}
	if zero+below == 0 {
		return "", nil
	}
	share := 100 * float64(zero+below) / float64(given)
	note := fmt.Sprintf("log2: %s of %s values (%.1f%%) are below %g (%s zero, %s between 0 and %g) and were raised to %g before log2, so they are %g after it",
		text.Thousands(zero+below), text.Thousands(given), share, floor, text.Thousands(zero), text.Thousands(below), floor, floor, math.Log2(floor))
	if share >= 10 {
		note += "; warning: so many values at the floor no longer tell the samples apart: if the values are on a small scale (concentrations, ratios), multiply them (by 1000, say) before log2, or analyse them unlogged"
	}
	return note, nil
}

// DefaultLog2 is p with log2 when the user said nothing of it (p.Log2Unsaid) and d is a
// MaxQuant table of unlogged values (none negative, some above 1000; MaxQuant writes
// its intensities unlogged), as the window's Data tab ticks log2 for such values, with
// a note; else p as it is. Values logged already (an R copy logged by hand) are never
// logged again. The result's Log2Unsaid is cleared.
func DefaultLog2(d *Dataset, p Prep) (Prep, string) {
	unsaid := p.Log2Unsaid
	p.Log2Unsaid = false
	if !unsaid || p.Log2 || p.LogCPM || !d.MaxQuant || !Summarize(d).Unlogged {
		return p, ""
	}
	p.Log2 = true
	return p, "log2 taken, as for every MaxQuant table of unlogged intensities (none negative, some above 1000) and as the window's Data tab ticks it: say --log2=false (a configuration's \"prep\": {\"log2\": false}) to analyse the values as they are"
}
