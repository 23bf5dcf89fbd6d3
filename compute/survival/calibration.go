package survival

import (
	"fmt"
	"math"
	"slices"
)

// CalibrationGroup compares, in one risk group, the mean predicted probability to be
// event-free at the horizon with the Kaplan-Meier estimate of the group's observed
// survival there (with its 95% log interval, as summary(survfit(...), times = t)).
type CalibrationGroup struct {
	Group     int
	N         int     // samples in the group
	AtRisk    int     // still followed at the horizon (time >= t)
	Events    int     // events up to the horizon
	Predicted float64 // mean predicted survival at t
	Observed  float64 // Kaplan-Meier survival at t
	Low, High float64 // its 95% interval (NaN when Observed is 0)
}

// Calibration compares predicted with observed survival at horizon t by group:
// pred[i] is sample i's predicted probability to be event-free at t (for a Cox
// model, CoxFit.Survival), group[i] its group, 0 .. G-1. One row per group, in
// label order; a group without samples has N = 0 and NaN values.
func Calibration(o Outcome, pred []float64, group []int, t float64) ([]CalibrationGroup, error) {
	if err := o.check(false); err != nil {
		return nil, err
	}
	n := len(o.Time)
	if len(pred) != n || len(group) != n {
		return nil, fmt.Errorf("calibration: %d predictions and %d groups for %d samples", len(pred), len(group), n)
	}
	ng := 0
	for i, g := range group {
		if g < 0 {
			return nil, fmt.Errorf("calibration: sample %d (row %d) has a negative group label %d", i, i+1, g)
		}
		if math.IsNaN(pred[i]) {
			return nil, fmt.Errorf("calibration: sample %d (row %d) has no prediction", i, i+1)
		}
		ng = max(ng, g+1)
	}
	members := make([][]int, ng)
	for i, g := range group {
		members[g] = append(members[g], i)
	}
	out := make([]CalibrationGroup, ng)
	for g, rows := range members {
		c := CalibrationGroup{Group: g, N: len(rows), Predicted: math.NaN(), Observed: math.NaN(), Low: math.NaN(), High: math.NaN()}
		if len(rows) > 0 {
			s := sortOutcome(o.Subset(rows))
			p := kmSorted(&s).Summary([]float64{t})[0]
			c.AtRisk, c.Events = p.NRisk, p.NEvent
			c.Observed, c.Low, c.High = p.Surv, p.Lower, p.Upper
			sum := 0.0
			for _, i := range rows {
				sum += pred[i]
			}
			c.Predicted = sum / float64(len(rows))
		}
		out[g] = c
	}
	return out, nil
}

// RiskGroups assigns each score to a group by cut-offs (increasing): group g holds
// the scores above g of the cuts, so scores equal to a cut-off go to the lower
// group; with the median as the one cut, group 1 is the high-risk half.
func RiskGroups(score, cuts []float64) ([]int, error) {
	if !slices.IsSorted(cuts) {
		return nil, fmt.Errorf("risk groups: the cut-offs %v are not increasing", cuts)
	}
	out := make([]int, len(score))
	for i, v := range score {
		if math.IsNaN(v) {
			return nil, fmt.Errorf("risk groups: sample %d (row %d) has no score", i, i+1)
		}
		g := 0
		for g < len(cuts) && v > cuts[g] {
			g++
		}
		out[i] = g
	}
	return out, nil
}
