package study

import (
	"sync"
	"time"

	"steadfast/compute/experiment"
)

// defaultEvery is the shortest time between two progress calls: ten a second.
const defaultEvery = 100 * time.Millisecond

// Throttle passes progress on to one callback, never two calls at once, at most once
// every interval; a report that comes sooner is held and Flush passes on the last one.
// A report of the whole work done is always passed on. Within a stage the share done
// passed on never goes back: when a measured cost replaces a prior, the share estimated
// may fall (48% at 98/202, then 37% at 106/202); the last share passed on is held until
// the estimate passes it again. Workers report concurrently, so a report can arrive
// after a later one of its stage (fewer units done): it is stale and dropped, so the
// report of the whole work done is never followed by an older one.
type Throttle struct {
	mu      sync.Mutex
	to      func(experiment.Progress)
	every   time.Duration
	last    time.Time
	pending *experiment.Progress
	stage   string  // the stage of the last report
	shown   float64 // the largest share of that stage so far
	done    int     // the most units done reported in that stage
}

// NewThrottle returns a Throttle calling to at most once every interval.
func NewThrottle(to func(experiment.Progress), every time.Duration) *Throttle {
	return &Throttle{to: to, every: every}
}

// Report passes p on, or holds it when the last call was less than the interval ago.
func (t *Throttle) Report(p experiment.Progress) {
	t.mu.Lock()
	defer t.mu.Unlock()
	p, fresh := t.forward(p)
	if !fresh {
		return
	}
	now := time.Now()
	if now.Sub(t.last) < t.every && p.Done < p.Total {
		t.pending = &p
		return
	}
	t.pending = nil
	t.last = now
	t.to(p)
}

// Flush passes on the report held back, if any.
func (t *Throttle) Flush() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pending != nil {
		t.to(*t.pending)
		t.pending = nil
	}
}

// forward is p with its share done no less than the stage's largest so far, and
// whether p is fresh: not fewer units done than a report of its stage before it.
func (t *Throttle) forward(p experiment.Progress) (experiment.Progress, bool) {
	if p.Stage != t.stage {
		t.stage, t.shown, t.done = p.Stage, 0, 0
	}
	if p.Done < t.done {
		return p, false
	}
	t.done = p.Done
	if p.Total > 0 && p.Fraction <= 0 {
		p.Fraction = float64(p.Done) / float64(p.Total) // the share by units, as shown
	}
	t.shown = max(t.shown, p.Fraction)
	p.Fraction = t.shown
	return p, true
}
