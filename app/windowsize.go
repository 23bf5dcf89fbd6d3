package app

import "fyne.io/fyne/v2"

// The window's size: the size the user left it at, else defaultSize, never larger than
// the screen's work area, never smaller than minSize.
var (
	defaultSize = fyne.NewSize(1400, 880)
	minSize     = fyne.NewSize(800, 560)
)

// frame is what a window manager adds around the content (title bar and borders), in
// screen coordinates; the work area must hold it too.
var frame = fyne.NewSize(16, 48)

// windowSize is the content size to open the window at: remembered when the user left
// a size (else defaultSize), shrunk to the work area (screen coordinates; zero when
// unknown) at the canvas scale, less the frame. A screen smaller than minSize gets the
// whole work area.
func windowSize(remembered, area fyne.Size, scale float32) fyne.Size {
	s := defaultSize
	if remembered.Width >= minSize.Width && remembered.Height >= minSize.Height {
		s = remembered
	}
	if area.Width <= 0 || area.Height <= 0 {
		return s
	}
	if scale <= 0 {
		scale = 1
	}
	fit := fyne.NewSize(area.Width/scale-frame.Width, area.Height/scale-frame.Height)
	return fyne.NewSize(min(s.Width, fit.Width), min(s.Height, fit.Height))
}

// rememberedSize is the content size the window had when it last closed, or zero.
func (u *UI) rememberedSize() fyne.Size {
	p := u.app.Preferences()
	return fyne.NewSize(float32(p.Float("windowWidth")), float32(p.Float("windowHeight")))
}

// rememberSize keeps the window's content size for the next start.
func (u *UI) rememberSize() {
	s := u.win.Canvas().Size()
	if s.Width < minSize.Width || s.Height < minSize.Height {
		return // minimised or not yet laid out
	}
	p := u.app.Preferences()
	p.SetFloat("windowWidth", float64(s.Width))
	p.SetFloat("windowHeight", float64(s.Height))
}

// fitScreen sizes the window for the screen's work area (screen coordinates, zero when
// unknown) at the canvas scale.
func (u *UI) fitScreen(area fyne.Size) {
	u.win.Resize(windowSize(u.rememberedSize(), area, u.win.Canvas().Scale()))
}
