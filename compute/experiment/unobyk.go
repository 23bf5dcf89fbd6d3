package experiment

import (
	"fmt"
	"math"

	"steadfast/compute/rstat"
	"steadfast/compute/survival"
)

// UnoByK is Uno's C truncated at tau of a survival study's held-out risk scores at
// every accuracy k, beside the Harrell's C that Accuracy holds: for each method (in
// res.Methods' order) and k, the mean and SD over the resamples of Uno's C of the
// resample's test patients (survival.Uno: concordance(reverse = TRUE, timewt =
// "n/G2", ymax = tau), the censoring's Kaplan-Meier from those patients); a resample
// without a comparable pair is left out. tau <= 0 takes the median follow-up of all
// patients (reverse Kaplan-Meier), or the median time when that is the last time;
// the tau used is returned.
func UnoByK(res *Result, tau float64) (float64, [][]AccuracyPoint, error) {
	sv := res.Data.Survival
	if sv == nil {
		return 0, nil, fmt.Errorf("a survival study is needed for Uno's C")
	}
	all := survival.Outcome{Time: sv.Time, Event: sv.Event}
	if !(tau > 0) {
		tau, _ = DefaultHorizon(all)
	}
	ks := res.Config.AccuracyKs()
	out := make([][]AccuracyPoint, len(res.Methods))
	for m, mr := range res.Methods {
		for ki, k := range ks {
			var cs []float64
			for _, pr := range mr.Predictions {
				scores := pr.Scores["cox"]
				if ki >= len(scores) || len(scores[ki]) != len(pr.Test) {
					return 0, nil, fmt.Errorf("%s: a resample's risk scores at k = %d are missing", mr.Label, k)
				}
				c, err := survival.Uno(all.Subset(pr.Test), scores[ki], tau)
				if err != nil {
					return 0, nil, err
				}
				if !math.IsNaN(c.C) {
					cs = append(cs, c.C)
				}
			}
			mean, sd := meanSD(cs)
			out[m] = append(out[m], AccuracyPoint{K: k, Mean: mean, SD: sd})
		}
	}
	return tau, out, nil
}

// DefaultHorizon is a survival signature's default horizon (and Uno's C's default
// truncation) for outcome o, and the rule that chose it: the median follow-up by
// reverse Kaplan-Meier, or the median observed time when that is not before the last
// time (the reverse curve reaches one half only there, or never: no patient is
// followed beyond it).
func DefaultHorizon(o survival.Outcome) (float64, string) {
	f := survival.MedianFollowUp(o)
	last := math.Inf(-1)
	for _, t := range o.Time {
		last = math.Max(last, t)
	}
	if math.IsNaN(f) || f >= last {
		return rstat.Median(o.Time), "the median observed time (the reverse Kaplan-Meier median follow-up is not before the last time)"
	}
	return f, "the median follow-up (reverse Kaplan-Meier)"
}
