package cli

import (
	"fmt"
	"io"
	"sync"
	"time"

	"steadfast/compute/experiment"
	"steadfast/internal/text"
)

// progressEvery is the longest a running study goes without a progress line.
const progressEvery = 10 * time.Second

// progressPrinter writes a study's progress on standard error: a line whenever another
// 1% of the work is done, and at least every interval while it runs (a CGS unit can
// take minutes), with the time left once it is known, counted down between reports.
type progressPrinter struct {
	mu       sync.Mutex
	w        io.Writer
	last     experiment.Progress
	at       time.Time // when last arrived
	printed  int       // the per cent last printed, -1 before the first line
	lastLine time.Time
	done     chan struct{}
	stopped  sync.WaitGroup
	once     sync.Once
}

// newProgressPrinter starts a printer writing to w at least every interval; stop ends it.
func newProgressPrinter(w io.Writer, interval time.Duration) *progressPrinter {
	p := &progressPrinter{w: w, printed: -1, done: make(chan struct{})}
	p.stopped.Add(1)
	go func() {
		defer p.stopped.Done()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-p.done:
				return
			case now := <-tick.C:
				p.mu.Lock()
				if p.printed >= 0 && now.Sub(p.lastLine) >= interval*9/10 {
					p.line(now)
				}
				p.mu.Unlock()
			}
		}
	}()
	return p
}

// report takes in a progress report (calls are serialised by the study core).
func (p *progressPrinter) report(pr experiment.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	p.last, p.at = pr, now
	if pct := percent(pr); p.printed < 0 || pct != p.printed {
		p.line(now)
	}
}

// line prints the last report, its time left less what has passed since.
func (p *progressPrinter) line(now time.Time) {
	pr := p.last
	pct := percent(pr)
	left := ""
	if pr.Left > 0 && pr.Done < pr.Total {
		left = ", about " + text.Duration(max(pr.Left-now.Sub(p.at), time.Second)) + " left"
	}
	fmt.Fprintf(p.w, "%3d%% (%d/%d%s)\n", pct, pr.Done, pr.Total, left)
	p.printed, p.lastLine = pct, now
}

// stop ends the periodic lines; no line is written after it returns, so the command
// may write to the same stream again. It may be called more than once.
func (p *progressPrinter) stop() {
	p.once.Do(func() { close(p.done) })
	p.stopped.Wait()
}

// percent is the share of the work done: by cost when known, else by units.
func percent(pr experiment.Progress) int {
	if pr.Fraction > 0 {
		return int(100 * pr.Fraction)
	}
	return 100 * pr.Done / max(pr.Total, 1)
}

// downloadProgress prints a GEO download's progress on standard error: a line at every
// tenth of a file (or every 5 s when its size is unknown), with the time left.
func (c *call) downloadProgress() func(what string, done, total int64) {
	var file string
	var start, last time.Time
	lastTenth := -1
	return func(what string, done, total int64) {
		now := time.Now()
		if what != file {
			file, start, last, lastTenth = what, now, time.Time{}, -1
		}
		mb := float64(done) / 1e6
		switch {
		case total > 0:
			tenth := int(10 * done / total)
			if tenth == lastTenth {
				return
			}
			lastTenth = tenth
			left := ""
			if el := now.Sub(start); done > 0 && done < total && el > time.Second {
				left = ", about " + text.Duration(time.Duration(float64(el)*float64(total-done)/float64(done))) + " left"
			}
			fmt.Fprintf(c.errw, "downloading %s from GEO: %.1f of %.1f MB (%d%%)%s\n", what, mb, float64(total)/1e6, 100*done/total, left)
		case now.Sub(last) >= 5*time.Second:
			last = now
			fmt.Fprintf(c.errw, "downloading %s from GEO: %.1f MB\n", what, mb)
		}
	}
}
