package progress

import (
	"context"
	"math"
	"slices"
	"testing"
)

// A unit reports through the context it was given; out-of-range shares are dropped, and
// a context without a reporter takes reports silently.
func TestShareReachesTheReporter(t *testing.T) {
	var got []float64
	ctx := WithShare(context.Background(), func(s float64) { got = append(got, s) })
	for _, s := range []float64{0, 0.25, -0.1, 1.5, math.NaN(), 1} {
		Share(ctx, s)
	}
	if want := []float64{0, 0.25, 1}; !slices.Equal(got, want) {
		t.Errorf("reported %v, want %v", got, want)
	}
	Share(context.Background(), 0.5) // no reporter: nothing happens
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	Share(cctx, 0.75) // a derived context keeps the reporter
	if got[len(got)-1] != 0.75 {
		t.Errorf("a context derived from the unit's lost its reporter: %v", got)
	}
}
