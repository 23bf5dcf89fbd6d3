// Package survival holds the time-to-event statistics of Steadfast, each equal to its
// R counterpart (survival 3.5-3 unless said otherwise): the Kaplan-Meier estimate
// (survfit), the log-rank test (survdiff), Cox's proportional hazards model with
// Efron's ties, optionally ridge-penalised (coxph), the univariate Cox score test of
// every gene at once, Harrell's and Uno's concordance (concordance), the
// time-dependent AUC with inverse-probability-of-censoring weights
// (riskRegression::Score) and calibration at a horizon.
//
// Times are follow-up durations in any unit; an Outcome pairs them with the event
// indicator. As survival's timefix=TRUE (aeqSurv), times closer than
// sqrt(machine epsilon), absolutely or relative to the mean |time|, are one time.
// No result depends on the order of the samples, besides rounding in sums of
// floating-point values.
package survival

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Outcome is a right-censored time-to-event outcome: sample i was followed for
// Time[i] and had the event (Event[i] true) or was censored then (false).
type Outcome struct {
	Time  []float64
	Event []bool
}

// ErrNoEvents is returned (wrapped) when no sample has the event.
var ErrNoEvents = errors.New("no sample has the event (all are censored): survival statistics need at least one event")

// Check says what is wrong with the outcome, naming the sample (index from 0, and its
// position from 1): lengths that differ, no samples, a time that is missing (NaN),
// infinite or negative, or no event at all. A time of 0 is allowed, with or
// without the event (survival::coxph accepts it).
func (o Outcome) Check() error { return o.check(true) }

// check is Check, with needEvent false when a set without events is fine (a
// Kaplan-Meier curve of censored samples only is flat at 1).
func (o Outcome) check(needEvent bool) error {
	if len(o.Time) != len(o.Event) {
		return fmt.Errorf("survival outcome: %d times but %d event indicators; each sample needs both", len(o.Time), len(o.Event))
	}
	if len(o.Time) == 0 {
		return errors.New("survival outcome: no samples")
	}
	for i, t := range o.Time {
		switch {
		case math.IsNaN(t):
			return fmt.Errorf("survival outcome: sample %d (row %d) has no time (missing value); give its follow-up time or leave the sample out", i, i+1)
		case math.IsInf(t, 0):
			return fmt.Errorf("survival outcome: sample %d (row %d) has an infinite time (%v); follow-up times must be finite", i, i+1, t)
		case t < 0:
			return fmt.Errorf("survival outcome: sample %d (row %d) has a negative time (%v); follow-up times are durations, 0 or more", i, i+1, t)
		}
	}
	if needEvent && o.Events() == 0 {
		return fmt.Errorf("survival outcome (%d samples): %w", len(o.Time), ErrNoEvents)
	}
	return nil
}

// Events is the number of samples with the event.
func (o Outcome) Events() int {
	d := 0
	for _, e := range o.Event {
		if e {
			d++
		}
	}
	return d
}

// Subset is the outcome of the samples rows, in that order.
func (o Outcome) Subset(rows []int) Outcome {
	s := Outcome{Time: make([]float64, len(rows)), Event: make([]bool, len(rows))}
	for k, i := range rows {
		s.Time[k], s.Event[k] = o.Time[i], o.Event[i]
	}
	return s
}

// sorted is an outcome's samples in increasing time, grouped by distinct time (after
// survival's aeqSurv tie rule): the samples of group g are idx[start[g]:start[g+1]],
// censored before events, each group's time is t[g], its events d[g].
type sorted struct {
	idx   []int
	start []int
	t     []float64
	d     []int
	n     int
}

// sortOutcome sorts o (checked) by time. Within a time, censored samples come first;
// among samples tied on time and event, by index (the order is immaterial to every
// result but its rounding).
func sortOutcome(o Outcome) sorted {
	n := len(o.Time)
	tf := timefix(o.Time)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(tf[a], tf[b]); c != 0 {
			return c
		}
		if o.Event[a] != o.Event[b] {
			if o.Event[a] {
				return 1
			}
			return -1
		}
		return cmp.Compare(a, b)
	})
	s := sorted{idx: idx, n: n}
	for k := 0; k < n; {
		j := k
		d := 0
		for j < n && tf[idx[j]] == tf[idx[k]] {
			if o.Event[idx[j]] {
				d++
			}
			j++
		}
		s.start = append(s.start, k)
		s.t = append(s.t, tf[idx[k]])
		s.d = append(s.d, d)
		k = j
	}
	s.start = append(s.start, n)
	return s
}

// groups is the number of distinct times.
func (s *sorted) groups() int { return len(s.t) }

// timefix is survival's aeqSurv: with y the sorted distinct times, a time whose gap to
// the previous one is at most tol = sqrt(machine epsilon), or at most tol times the
// mean |y|, is replaced by the first time of its run of such gaps. The slice returned
// is t itself when nothing changes.
func timefix(t []float64) []float64 {
	y := slices.Clone(t)
	slices.Sort(y)
	y = slices.Compact(y)
	if len(y) < 2 {
		return t
	}
	const tol = 1.4901161193847656e-08 // sqrt(.Machine$double.eps)
	mean := 0.0
	for _, v := range y {
		mean += math.Abs(v)
	}
	mean /= float64(len(y))
	// the times merged into an earlier one, and that one (few, in increasing order)
	var merged, into []float64
	cut := y[0]
	for k := 1; k < len(y); k++ {
		dy := y[k] - y[k-1]
		if dy <= tol || dy/mean <= tol {
			merged = append(merged, y[k])
			into = append(into, cut)
			continue
		}
		cut = y[k]
	}
	if len(merged) == 0 {
		return t
	}
	out := make([]float64, len(t))
	for i, v := range t {
		out[i] = v
		if k, found := slices.BinarySearch(merged, v); found {
			out[i] = into[k]
		}
	}
	return out
}
