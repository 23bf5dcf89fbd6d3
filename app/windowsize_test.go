package app

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// The window opens at the size the user left it, else 1400 x 880, never larger than the
// screen's work area less the window frame (16 x 48), at the canvas scale. Cases worked
// by hand: 1366 x 768 less the frame is 1350 x 720; at scale 2 a 2732 x 1536 screen
// holds 1366 x 768 units, less the frame 1350 x 720.
func TestWindowSize(t *testing.T) {
	for _, c := range []struct {
		name             string
		remembered, area fyne.Size
		scale            float32
		want             fyne.Size
	}{
		{"unknown screen", fyne.Size{}, fyne.Size{}, 1, fyne.NewSize(1400, 880)},
		{"large screen", fyne.Size{}, fyne.NewSize(2560, 1400), 1, fyne.NewSize(1400, 880)},
		{"1366 x 768 laptop", fyne.Size{}, fyne.NewSize(1366, 768), 1, fyne.NewSize(1350, 720)},
		{"1920 x 1080 at 150%", fyne.Size{}, fyne.NewSize(1920, 1080), 1.5, fyne.NewSize(1264, 672)},
		{"HiDPI at scale 2", fyne.Size{}, fyne.NewSize(2732, 1536), 2, fyne.NewSize(1350, 720)},
		{"remembered", fyne.NewSize(1000, 700), fyne.NewSize(2560, 1400), 1, fyne.NewSize(1000, 700)},
		{"remembered on a smaller screen", fyne.NewSize(1800, 1100), fyne.NewSize(1366, 768), 1, fyne.NewSize(1350, 720)},
		{"a minimised size is not remembered", fyne.NewSize(120, 40), fyne.NewSize(2560, 1400), 1, fyne.NewSize(1400, 880)},
	} {
		if got := windowSize(c.remembered, c.area, c.scale); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// The size the user leaves the window at is the size it opens at next time.
func TestWindowRemembersItsSize(t *testing.T) {
	a := test.NewTempApp(t)
	w := a.NewWindow("Steadfast")
	u := NewUI(a, w)
	w.SetContent(u.Content())
	w.Resize(fyne.NewSize(1100, 650))
	u.Quit() // nothing running, nothing unsaved: closes
	w2 := a.NewWindow("Steadfast")
	u2 := NewUI(a, w2)
	w2.SetContent(u2.Content())
	u2.fitScreen(fyne.NewSize(2560, 1400))
	if got := w2.Canvas().Size(); got != fyne.NewSize(1100, 650) {
		t.Errorf("reopened at %v, want the 1100 x 650 it was left at", got)
	}
}
