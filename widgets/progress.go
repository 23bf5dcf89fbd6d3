package widgets

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"steadfast/internal/text"
)

// Progress is a progress bar with a status line, an estimate of the time left and a
// Cancel button. Its methods must run on the UI goroutine.
type Progress struct {
	Bar    *widget.ProgressBar
	Status *StatusLine
	Cancel *widget.Button
	// Messages opens the full history of the status line (a long message is cut on it).
	Messages *widget.Button
	// Window is where the Messages dialog opens; set it before Messages is tapped.
	Window  fyne.Window
	Content fyne.CanvasObject
	start   time.Time
	stage   string    // the last Update's what
	since   time.Time // when that stage began
}

// NewProgress returns an idle progress bar; onCancel runs when Cancel is tapped.
func NewProgress(onCancel func()) *Progress {
	p := &Progress{Bar: widget.NewProgressBar(), Status: NewStatusLine("Ready.")}
	p.Cancel = widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), onCancel)
	p.Cancel.Disable()
	p.Messages = widget.NewButtonWithIcon("Messages", theme.ListIcon(), func() {
		if p.Window != nil {
			ShowMessages(p.Status, p.Window)
		}
	})
	p.Content = container.NewBorder(nil, nil, nil, container.NewHBox(p.Messages, p.Cancel), container.NewGridWithColumns(2, p.Bar, p.Status))
	return p
}

// Start shows that work has begun.
func (p *Progress) Start(what string) {
	p.start, p.since, p.stage = time.Now(), time.Now(), ""
	p.Bar.SetValue(0)
	p.Status.SetText(what + "...")
	p.Cancel.Enable()
}

// Update shows done of total units of the stage what and the time left in it. One share
// drives the bar and the per cent in the text. With a
// weighed share of the work done (fraction > 0) the bar shows that share, and a time left
// given by the caller (left > 0) is shown as it is; otherwise the time left is
// extrapolated from the share done since the stage began (at Start for the first, at its
// first Update for a later one), also before a unit has finished.
func (p *Progress) Update(done, total int, what string, fraction float64, left time.Duration) {
	if total <= 0 {
		return
	}
	if what != p.stage {
		if p.stage != "" {
			p.since = time.Now()
		}
		p.stage = what
	}
	f := float64(done) / float64(total)
	if fraction > 0 {
		f = fraction
	}
	p.Bar.SetValue(f)
	eta := "estimating time left"
	switch {
	case f >= 1: // every unit done: what follows (summaries, figures) is not counted
		eta = "putting the results together"
	case left > 0 && done < total:
		eta = "about " + text.Duration(left) + " left"
	case f > 0 && f < 1: // units done, or a share of running ones (progress inside units)
		el := time.Since(p.since)
		eta = "about " + text.Duration(time.Duration(float64(el)*(1-f)/f)) + " left"
	}
	p.Status.show(fmt.Sprintf("%s %d%% (%d/%d), %s", what, int(100*f), done, total, eta))
}

func (p *Progress) Finish(msg string, ok bool) {
	if ok {
		p.Bar.SetValue(1)
	}
	p.Status.SetText(msg)
	p.Cancel.Disable()
}

// Elapsed is the time since Start.
func (p *Progress) Elapsed() time.Duration { return time.Since(p.start) }
