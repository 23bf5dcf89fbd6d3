// Package progress carries in a context where a long unit of work reports how much of it
// is done, so that a caller can show progress inside units that take minutes (a CGS
// ranking of 22,283 genes is ten DGF runs) without every method taking a callback.
package progress

import "context"

type key struct{}

// WithShare returns ctx carrying report: Share(ctx, s) calls report(s). report must be
// safe to call from several goroutines; it is called only while the unit runs.
func WithShare(ctx context.Context, report func(share float64)) context.Context {
	return context.WithValue(ctx, key{}, report)
}

// Share reports that the share s (0 <= s <= 1) of the unit of work running under ctx is
// done; it does nothing when ctx carries no reporter, or s is outside [0, 1] or NaN.
func Share(ctx context.Context, s float64) {
	report, _ := ctx.Value(key{}).(func(float64))
	if report == nil || !(s >= 0 && s <= 1) {
		return
	}
	report(s)
}
