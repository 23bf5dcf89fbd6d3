package group

import (
	"context"
	"math"

	"gonum.org/v1/gonum/floats"
)

// evaluateGaussian evaluates the trajectories with Gaussian weights (see gaussianStep),
// each by screening every feature.
//
// Untruncated (or cut at 2h, as this option was before), the kernel reaches most
// features of a z-scored array, whose points lie on a sphere of radius sqrt(n-1) not
// much larger than h: every path then sinks towards the centre, where no feature is
// within h, and DGF finds no group (SRBCT: 0 groups).
func (ms *shifter) evaluateGaussian(ctx context.Context, todo []int) error {
	ms.full.Add(int64(len(todo)))
	ys := make([][]float64, len(ms.tr))
	for _, s := range todo {
		ys[s] = ms.tr[s].y
	}
	return ms.sp.screenRows(ctx, ys, todo, func(s int, sc screener) { ms.gaussianStep(&ms.tr[s], sc) })
}

// gaussianStep computes the Gaussian-weighted mean of the features within h of the
// screened point y, sum_k w_k x_k / sum_k w_k with w_k = exp(-||y - x_k||^2 / (2 sigma^2)),
// sigma = h/2 (the normal kernel truncated at the flat kernel's support, Comaniciu and
// Meer 2002), into t.ref, and their number into t.count. The terms are added in the
// order of the features' coordinates (byPoint), so the mean does not depend on the
// feature order.
func (ms *shifter) gaussianStep(t *trajectory, sc screener) {
	_, n := ms.sp.pt.Dims()
	next := make([]float64, n)
	within := sc.cut(ms.h * ms.h)
	twoSigma2 := ms.h * ms.h / 2
	wsum := 0.0
	t.count = 0
	for _, k := range ms.byPoint {
		if sc.value(int(k), sc.g[k]) < within.out {
			continue // certainly beyond h
		}
		if d := sc.exact(int(k)); d <= within.r2 {
			w := math.Exp(-d / twoSigma2)
			wsum += w
			floats.AddScaled(next, w, ms.sp.pt.RawRowView(int(k)))
			t.count++
		}
	}
	if t.count == 0 {
		t.ref = nil
		return
	}
	floats.Scale(1/wsum, next)
	t.ref = next
}
