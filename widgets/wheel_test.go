package widgets

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestWheelOverEntryScrollsThePanel: a wheel turn with the pointer on an entry in a form
// scrolls the panel (it did nothing before RelayWheel), and taps still reach the form.
func TestWheelOverEntryScrollsThePanel(t *testing.T) {
	for _, relay := range []bool{false, true} {
		a := test.NewTempApp(t)
		entry := widget.NewEntry()
		tapped := false
		button := widget.NewButton("Re-read", func() { tapped = true })
		form := widget.NewForm(widget.NewFormItem("Sheet", entry), widget.NewFormItem("", button))
		box := container.NewVBox(form)
		for range 40 {
			box.Add(widget.NewLabel("filler"))
		}
		s := container.NewVScroll(box)
		if relay {
			RelayWheel(box, s)
		}
		w := a.NewWindow("wheel")
		w.SetContent(s)
		w.Resize(fyne.NewSize(300, 200))
		abs := a.Driver().AbsolutePositionForObject(entry)
		pos := abs.Add(fyne.NewPos(entry.Size().Width/2, entry.Size().Height/2))
		test.Scroll(w.Canvas(), pos, 0, -60)
		if moved := s.Offset.Y > 0; moved != relay {
			t.Errorf("relay %v: the panel's offset after a wheel turn over the entry is %v", relay, s.Offset.Y)
		}
		s.Offset.Y = 0
		s.Refresh()
		at := a.Driver().AbsolutePositionForObject(button).Add(fyne.NewPos(5, 5))
		test.TapCanvas(w.Canvas(), at)
		if !tapped {
			t.Errorf("relay %v: a tap on the button in the covered form did not reach it", relay)
		}
		w.Close()
	}
}
