package widgets

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// historyMax is how many messages a StatusLine keeps.
const historyMax = 200

// StatusLine is a one-line label, cut with an ellipsis, that keeps every message set on
// it (not the progress lines of Progress.Update), so that a long one can be read whole
// in the Messages dialog.
type StatusLine struct {
	widget.Label
	history []string
}

// NewStatusLine returns a status line showing text (not kept in the history).
func NewStatusLine(text string) *StatusLine {
	s := &StatusLine{}
	s.Text = text
	s.Truncation = fyne.TextTruncateEllipsis
	s.ExtendBaseWidget(s)
	return s
}

// SetText shows text and keeps it in the history (the same message twice in a row once).
func (s *StatusLine) SetText(text string) {
	if t := strings.TrimSpace(text); t != "" && (len(s.history) == 0 || s.history[len(s.history)-1] != t) {
		s.history = append(s.history, t)
		if len(s.history) > historyMax {
			s.history = s.history[len(s.history)-historyMax:]
		}
	}
	s.Label.SetText(text)
}

// show shows text without keeping it: a progress line.
func (s *StatusLine) show(text string) { s.Label.SetText(text) }

// History is the messages kept, oldest first.
func (s *StatusLine) History() []string { return append([]string(nil), s.history...) }

// MessagesText is the history as the Messages dialog shows it: newest first, each whole.
func (s *StatusLine) MessagesText() string {
	if len(s.history) == 0 {
		return "No messages yet."
	}
	lines := make([]string, len(s.history))
	for i, m := range s.history {
		lines[len(s.history)-1-i] = m
	}
	return strings.Join(lines, "\n\n")
}

// ShowMessages opens a dialog on win with every message of s, newest first, wrapped.
func ShowMessages(s *StatusLine, win fyne.Window) {
	l := widget.NewLabel(s.MessagesText())
	l.Wrapping = fyne.TextWrapWord
	l.Selectable = true
	d := dialog.NewCustom("Messages (newest first)", "Close", container.NewVScroll(l), win)
	size := win.Canvas().Size()
	d.Resize(fyne.NewSize(min(720, size.Width*0.9), min(480, size.Height*0.8)))
	d.Show()
}
