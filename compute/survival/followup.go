package survival

import "math"

// MedianFollowUp is the median follow-up by the reverse Kaplan-Meier method
// (Schemper and Smith 1996): the median of the Kaplan-Meier estimate with the roles
// of events and censorings exchanged, so that a death ends a patient's follow-up as
// a censoring. NaN when that curve never falls to one half.
func MedianFollowUp(o Outcome) float64 {
	rev := Outcome{Time: o.Time, Event: make([]bool, len(o.Event))}
	for i, e := range o.Event {
		rev.Event[i] = !e
	}
	km, err := KM(rev)
	if err != nil {
		return math.NaN()
	}
	m, _, _ := km.Median()
	return m
}
