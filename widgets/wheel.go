package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// RelayWheel makes the mouse wheel scroll s wherever the pointer is over content: a
// single-line entry keeps wheel events for its own (horizontal) scroller, so a panel of
// fields stopped scrolling under the pointer. Every entry and form in content (in
// containers and cards) is covered by a transparent layer that hands wheel events to s;
// taps, drags and hovering still reach what lies below. Call it once, before content is
// shown.
func RelayWheel(content fyne.CanvasObject, s *container.Scroll) {
	cover := func(o fyne.CanvasObject) fyne.CanvasObject {
		switch o.(type) {
		case *widget.Entry, *widget.SelectEntry, *widget.Form:
			return container.NewStack(o, newWheelCatcher(s))
		}
		RelayWheel(o, s)
		return o
	}
	switch c := content.(type) {
	case *fyne.Container:
		for i, o := range c.Objects {
			c.Objects[i] = cover(o)
		}
	case *widget.Card:
		c.Content = cover(c.Content)
	}
}

// wheelCatcher passes wheel events to a scroll container; it is Scrollable only, so
// every other event falls through to what lies below.
type wheelCatcher struct {
	widget.BaseWidget
	target *container.Scroll
}

func newWheelCatcher(s *container.Scroll) *wheelCatcher {
	w := &wheelCatcher{target: s}
	w.ExtendBaseWidget(w)
	return w
}

// Scrolled implements fyne.Scrollable.
func (w *wheelCatcher) Scrolled(ev *fyne.ScrollEvent) { w.target.Scrolled(ev) }

// MinSize is zero: the layer takes the size of what it covers.
func (w *wheelCatcher) MinSize() fyne.Size { return fyne.NewSize(0, 0) }

func (w *wheelCatcher) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}
