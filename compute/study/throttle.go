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
// A report of the whole work done is always passed on.
type Throttle struct {
	mu      sync.Mutex
	to      func(experiment.Progress)
	every   time.Duration
	last    time.Time
	pending *experiment.Progress
}

// NewThrottle returns a Throttle calling to at most once every interval.
func NewThrottle(to func(experiment.Progress), every time.Duration) *Throttle {
	return &Throttle{to: to, every: every}
}

// Report passes p on, or holds it when the last call was less than the interval ago.
func (t *Throttle) Report(p experiment.Progress) {
	t.mu.Lock()
	defer t.mu.Unlock()
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
