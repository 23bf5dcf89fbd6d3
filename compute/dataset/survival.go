package dataset

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"steadfast/internal/text"
)

// Survival is a time-to-event outcome: each sample's follow-up time and whether the
// follow-up ended in the event (true) or was censored (false).
type Survival struct {
	Time      []float64 `json:"time"`      // per sample, >= 0, in the file's unit
	Event     []bool    `json:"event"`     // per sample: true the event, false censored
	TimeName  string    `json:"timeName"`  // the time column's (row's) name in the file
	EventName string    `json:"eventName"` // the event column's name
	// Coding says how the event column was read: "1 event, 0 censored", or its values
	// as written, "TRUE read as the event, FALSE as censored" (eventCoding); "" when not
	// read from a file.
	Coding string `json:"-"`
}

// Check reports a survival outcome read back that is not one time and one event per
// sample of n, or whose times are not finite and >= 0.
func (s *Survival) Check(n int) error {
	if len(s.Time) != n || len(s.Event) != n {
		return fmt.Errorf("%d survival times and %d events for %d samples", len(s.Time), len(s.Event), n)
	}
	for i, t := range s.Time {
		if !(t >= 0) || math.IsInf(t, 0) {
			return fmt.Errorf("sample %d has the survival time %g", i+1, t)
		}
	}
	return nil
}

// Outcome names a survival outcome's columns (rows, samples being columns): the time to
// the event or to the last follow-up, and the event (1 event, 0 censored).
type Outcome struct {
	Time  string `json:"time"`
	Event string `json:"event"`
}

// Set reports whether o names both columns.
func (o Outcome) Set() bool { return o.Time != "" && o.Event != "" }

// Check refuses an outcome naming one column without the other, or one column twice.
func (o Outcome) Check() error {
	switch {
	case o.Time == "" && o.Event == "":
		return nil
	case o.Time == "" || o.Event == "":
		return fmt.Errorf("a survival outcome needs two columns, the time and the event (1 event, 0 censored); only %q was named", o.Time+o.Event)
	case strings.EqualFold(o.Time, o.Event):
		return fmt.Errorf("the survival time and event are both %q; name two columns", o.Time)
	}
	return nil
}

// Events counts the samples whose follow-up ended in the event.
func (s *Survival) Events() int {
	n := 0
	for _, e := range s.Event {
		if e {
			n++
		}
	}
	return n
}

// pick is s restricted to the samples idx.
func (s *Survival) pick(idx []int) *Survival {
	if s == nil {
		return nil
	}
	out := &Survival{TimeName: s.TimeName, EventName: s.EventName}
	for _, i := range idx {
		out.Time = append(out.Time, s.Time[i])
		out.Event = append(out.Event, s.Event[i])
	}
	return out
}

// normName is a header in lower case without spaces, dots, dashes or underscores:
// "OS.time" and "os_time" are "ostime".
func normName(h string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '.', '_', '-':
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(h)))
}

// timeSuffixes end the names of time columns: OS.time, DFS_months, survival_days.
var timeSuffixes = []string{"time", "months", "month", "days", "years", "weeks"}

// eventNames are the names of an event column when the time column's name is only a
// unit (time, survtime, days).
var eventNames = []string{"event", "status", "dead", "death", "vitalstatus", "censor0"}

// SurvivalPair finds a time and an event column in header by their names: "time" with
// "event" or "status"; X with "X.time" or "X_months" (OS and OS.time, DMFS and
// DMFS_time), or with "X.event" or "X_status". ok is false when there is none.
func SurvivalPair(header []string) (time, event int, ok bool) {
	norm := make([]string, len(header))
	for j, h := range header {
		norm[j] = normName(h)
	}
	for ti, t := range norm {
		for _, suf := range timeSuffixes {
			base, found := strings.CutSuffix(t, suf)
			if !found {
				continue
			}
			cands := []string{base, base + "event", base + "status"}
			if base == "" || base == "surv" || base == "survival" {
				cands = append(cands, eventNames...)
			}
			for _, c := range cands {
				if c == "" {
					continue
				}
				if ei := slices.Index(norm, c); ei >= 0 && ei != ti {
					return ti, ei, true
				}
			}
		}
	}
	return -1, -1, false
}

// survivalColumns finds the survival outcome's columns in header: those o names (an
// error when one is missing), or a pair named as SurvivalPair knows when no class
// column was named or found (classIdx < 0). ok is false when the outcome is a class.
func survivalColumns(file string, header []string, o Outcome, classIdx int, orient Orientation) (ti, ei int, ok bool, err error) {
	if !o.Set() {
		if classIdx >= 0 || slices.ContainsFunc(header, isClassName) {
			return -1, -1, false, nil
		}
		ti, ei, ok = SurvivalPair(header)
		return ti, ei, ok, nil
	}
	find := func(name string) int {
		return slices.IndexFunc(header, func(h string) bool { return strings.EqualFold(strings.TrimSpace(h), strings.TrimSpace(name)) })
	}
	ti, ei = find(o.Time), find(o.Event)
	what := "column"
	if orient == SamplesAsColumns {
		what = "row"
	}
	for _, miss := range []struct {
		i          int
		name, role string
	}{{ti, o.Time, "survival time"}, {ei, o.Event, "event"}} {
		if miss.i < 0 {
			msg := fmt.Sprintf("no %s is named %q for the %s", what, miss.name, miss.role)
			if t, e, found := SurvivalPair(header); found {
				msg += fmt.Sprintf("; the file's %ss %q and %q look like a time and an event", what, header[t], header[e])
			}
			return -1, -1, false, &ParseError{File: file, Msg: msg}
		}
	}
	return ti, ei, true, nil
}

// readSurvival parses the time column ti and the event column ei of g's data rows;
// pos maps a table cell to the file's line and column. Times must be numbers >= 0,
// events 1 or 0 (or TRUE and FALSE, dead and alive: eventWords), none missing; at
// least one sample must have the event. Its Coding says how the events were read.
func readSurvival(file string, g grid, header []string, ti, ei int, samples []string, pos func(i, j int) (int, int)) (*Survival, error) {
	n := g.rows() - 1
	s := &Survival{Time: make([]float64, n), Event: make([]bool, n), TimeName: strings.TrimSpace(header[ti]), EventName: strings.TrimSpace(header[ei])}
	bad := func(i, j int, msg string) error {
		l, c := pos(i+1, j)
		return &ParseError{File: file, Line: l, Column: c, Msg: fmt.Sprintf("sample %q: %s", samples[i], msg)}
	}
	var codes eventCoding
	for i := range n {
		cell := strings.TrimSpace(g.at(i+1, ti))
		t, err := strconv.ParseFloat(strings.Replace(cell, ",", ".", 1), 64)
		switch {
		case isMissingCell(cell) || cell == "":
			return nil, bad(i, ti, fmt.Sprintf("no %s (%q); give every sample's time to its event or last follow-up, or remove the sample from the file", s.TimeName, cell))
		case err != nil || math.IsInf(t, 0):
			return nil, bad(i, ti, fmt.Sprintf("the %s %q is not a number", s.TimeName, cell))
		case t < 0:
			return nil, bad(i, ti, fmt.Sprintf("the %s %s is negative; a follow-up time is 0 or more (check the start date)", s.TimeName, cell))
		}
		s.Time[i] = t
		e, why := codes.read(g.at(i+1, ei), s.EventName)
		if why != "" {
			return nil, bad(i, ei, why)
		}
		s.Event[i] = e
	}
	if s.Events() == 0 {
		return nil, &ParseError{File: file, Msg: fmt.Sprintf("no sample has the event (%s is %s for all %s): survival cannot be analysed without events; is 1 the event in this file?", s.EventName, strings.Join(codes.censored, " or "), text.Count(n, "sample"))}
	}
	s.Coding = codes.String()
	return s, nil
}

// survivalLabels sets d's labels to the event (classes "censored" and "event"), by
// which resampling stratifies a survival outcome.
func (d *Dataset) survivalLabels() {
	d.Classes = []string{"censored", "event"}
	d.Labels = make([]int, len(d.Survival.Event))
	for i, e := range d.Survival.Event {
		if e {
			d.Labels[i] = 1
		}
	}
}

// survivalNote says which columns were taken as the outcome, how the events were
// coded, and how many events.
func survivalNote(s *Survival, named bool) string {
	how := "found by their names"
	if named {
		how = "as named"
	}
	return fmt.Sprintf("survival outcome (%s): time %q, event %q (%s); %d events, %d censored, follow-up %s to %s",
		how, s.TimeName, s.EventName, s.Coding, s.Events(), len(s.Event)-s.Events(), strconv.FormatFloat(slices.Min(s.Time), 'g', 4, 64), strconv.FormatFloat(slices.Max(s.Time), 'g', 4, 64))
}

// survivalOrientation is the orientation a survival outcome implies: samples as rows
// when the header row holds its columns (those o names, or a pair SurvivalPair knows,
// the file naming no class), as columns when the first column does; Auto otherwise.
func survivalOrientation(g grid, o Outcome) Orientation {
	header, first := g.row(0), g.column(0, 0)
	has := func(names []string) bool {
		if o.Set() {
			return hasColumn(names, o.Time) && hasColumn(names, o.Event)
		}
		_, _, ok := SurvivalPair(names)
		return ok && !slices.ContainsFunc(names, isClassName)
	}
	switch {
	case has(header):
		return SamplesAsRows
	case has(first):
		return SamplesAsColumns
	}
	return Auto
}

// outcomeColumns marks the time and event columns ti and ei in skip, and columns named
// like a class too (annotations beside a survival outcome), and notes the latter.
func outcomeColumns(header []string, ti, ei int, skip map[int]bool) []string {
	skip[ti], skip[ei] = true, true
	var named []string
	for j, h := range header {
		if isClassName(h) && !skip[j] {
			skip[j] = true
			named = append(named, fmt.Sprintf("%q", h))
		}
	}
	if len(named) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s left out of the features beside the survival outcome: %s (to analyse a class instead, name it: --class NAME)", text.Count(len(named), "class-like column"), strings.Join(named, ", "))}
}
