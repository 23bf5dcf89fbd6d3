package cli

import (
	"strings"
	"sync"
	"testing"
	"time"

	"steadfast/compute/experiment"
)

// TestProgressEveryPercentAndInterval: a line for every new per cent, none for a report
// within the same per cent, lines at the interval while no report comes (the time left
// counted down from the last report), and none after stop.
func TestProgressEveryPercentAndInterval(t *testing.T) {
	var out lockedBuffer
	p := newProgressPrinter(&out, 40*time.Millisecond)
	p.report(experiment.Progress{Done: 1, Total: 20, Fraction: 0.05, Left: time.Hour})
	p.report(experiment.Progress{Done: 1, Total: 20, Fraction: 0.055, Left: time.Hour})
	p.report(experiment.Progress{Done: 2, Total: 20, Fraction: 0.06, Left: time.Hour})
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "  5% (1/20, about") || !strings.HasPrefix(lines[1], "  6% (2/20") {
		t.Fatalf("lines %q: want one for 5%% and one for 6%%", lines)
	}
	deadline := time.Now().Add(time.Minute) // a hang guard
	for strings.Count(out.String(), "\n") < 4 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	p.stop()
	lines = strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if len(lines) < 4 || !strings.HasPrefix(lines[3], "  6% (2/20, about") {
		t.Fatalf("no periodic lines: %q", lines)
	}
	n := len(lines)
	time.Sleep(150 * time.Millisecond)
	if got := strings.Count(out.String(), "\n"); got != n {
		t.Errorf("%d lines after stop", got-n)
	}
}

// TestProgressStopsBeforeTheCommandWritesAgain: once stop has returned, the stream is the
// command's alone (the race detector had caught a periodic line written while run
// printed its files); stop may be called twice.
func TestProgressStopsBeforeTheCommandWritesAgain(t *testing.T) {
	var out strings.Builder // not safe for concurrent writes: the race detector checks
	p := newProgressPrinter(&out, time.Millisecond)
	var mu sync.Mutex
	report := func(pr experiment.Progress) { mu.Lock(); p.report(pr); mu.Unlock() }
	report(experiment.Progress{Done: 1, Total: 2, Left: time.Minute})
	time.Sleep(20 * time.Millisecond) // periodic lines
	p.stop()
	p.stop()
	for i := 0; i < 100; i++ {
		out.WriteString("the command's own line\n")
		time.Sleep(100 * time.Microsecond)
	}
	if !strings.HasSuffix(out.String(), "the command's own line\n") {
		t.Error("a progress line after stop")
	}
}
