package widgets

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestStatusKeepsMessagesWhole: a message too long for the status line is cut there but
// kept whole, newest first, in the Messages dialog, and progress lines are not kept
// (issue 59: "The protocol does not suit these data: the Protocol tab ..." was cut off).
func TestStatusKeepsMessagesWhole(t *testing.T) {
	a := test.NewTempApp(t)
	p := NewProgress(func() {})
	w := a.NewWindow("status")
	p.Window = w
	w.SetContent(p.Content)
	w.Resize(fyne.NewSize(600, 100))
	long := "The protocol does not suit these data: the Protocol tab offers 8 folds instead of 10, or a DRAGS design of 3 folds; choose one and press Run again."
	p.Status.SetText("Read colon.csv.")
	p.Start("Run")
	p.Update(3, 10, "ranking", 0, 0)
	p.Status.SetText(long)
	if got := p.Status.History(); len(got) != 3 || got[0] != "Read colon.csv." || got[1] != "Run..." || got[2] != long {
		t.Fatalf("history %q, want the read, the start and the long message (no progress line)", got)
	}
	if txt := p.Status.MessagesText(); !strings.HasPrefix(txt, long) || !strings.HasSuffix(txt, "Read colon.csv.") {
		t.Errorf("messages %q: want the newest first", txt)
	}
	test.Tap(p.Messages)
	var shown string
	for _, o := range test.LaidOutObjects(w.Canvas().Overlays().Top()) {
		if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, long) {
			shown = l.Text
		}
	}
	if shown == "" {
		t.Error("the Messages dialog does not show the long message whole")
	}
}
