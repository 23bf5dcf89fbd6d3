// Package widgets holds reusable Fyne widgets: a chart view, a progress bar with
// Cancel, a parameter form and a simple string table. It knows nothing of compute.
package widgets

import (
	"image"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// RenderFunc draws a chart at w x h pixels and returns the image, the pixel position of
// each data point and its label (shown when the pointer rests near it).
type RenderFunc func(w, h int) (img image.Image, points []image.Point, labels []string, err error)

// Chart shows an image rendered off the UI goroutine at the widget's pixel size,
// re-rendered after a resize settles, and names the data point under the pointer.
type Chart struct {
	widget.BaseWidget
	OnError func(error)
	// Do hands a finished render to the UI goroutine; nil means fyne.Do. A test that
	// stands in for the UI goroutine with a lock sets its own, so the handoff takes it.
	Do func(func())

	// mu guards the fields below it: renders finish on other goroutines (and under the
	// test driver fyne.Do runs them there too)
	mu      sync.Mutex
	render  RenderFunc
	gen     int // bumped for every new render request; stale renders are dropped
	timer   *time.Timer
	img     *canvas.Image
	tipText *canvas.Text
	tipBg   *canvas.Rectangle
	empty   *widget.Label
	busy    *widget.Label // "Drawing..." while a render runs
	drawing bool          // a render is scheduled or running
	min     fyne.Size
	points  []image.Point
	labels  []string
	scale   float32
	lastPx  fyne.Size
}

// NewChart returns an empty chart that shows placeholder until SetRender is called.
func NewChart(placeholder string) *Chart {
	c := &Chart{img: &canvas.Image{FillMode: canvas.ImageFillStretch, ScaleMode: canvas.ImageScaleSmooth},
		tipText: canvas.NewText("", theme.Color(theme.ColorNameForeground)),
		tipBg:   canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground)),
		empty:   widget.NewLabel(placeholder), busy: widget.NewLabel("Drawing..."), scale: 1, min: DefaultChartMin}
	c.busy.Importance = widget.LowImportance
	c.busy.Hide()
	c.empty.Alignment = fyne.TextAlignCenter
	c.empty.Wrapping = fyne.TextWrapWord
	c.tipText.TextSize = theme.TextSize() * 0.9
	c.tipBg.StrokeColor = theme.Color(theme.ColorNameShadow)
	c.tipBg.StrokeWidth = 1
	c.tipText.Hide()
	c.tipBg.Hide()
	c.ExtendBaseWidget(c)
	return c
}

// SetPlaceholder sets what the chart says while it has nothing to draw.
func (c *Chart) SetPlaceholder(text string) { c.empty.SetText(text) }

// Placeholder is what the chart says while it has nothing to draw.
func (c *Chart) Placeholder() string { return c.empty.Text }

// DefaultChartMin is the smallest a chart is drawn: below it tick labels overlap, so a
// window too small for it scrolls rather than squashes the chart.
var DefaultChartMin = fyne.NewSize(420, 280)

// SetMinSize sets the smallest size the chart is drawn at (a heat map of many genes
// needs more than DefaultChartMin).
func (c *Chart) SetMinSize(s fyne.Size) {
	c.mu.Lock()
	c.min = s
	c.mu.Unlock()
	c.Refresh()
}

// Busy reports whether a render is scheduled or running ("Drawing..." is shown), for
// tests.
func (c *Chart) Busy() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.drawing
}

// SetRender sets what the chart draws (nil clears it) and redraws now.
func (c *Chart) SetRender(f RenderFunc) {
	c.mu.Lock()
	c.render = f
	if f == nil {
		c.img.Image = nil
		c.points, c.labels = nil, nil
		c.gen++ // a render still running is stale
		c.drawing = false
	}
	c.mu.Unlock()
	if f == nil {
		c.busy.Hide()
		c.empty.Show()
		c.img.Refresh()
		return
	}
	c.empty.Hide()
	c.schedule(0)
}

// Resize re-renders after the size has settled for a moment.
func (c *Chart) Resize(s fyne.Size) {
	c.BaseWidget.Resize(s)
	c.schedule(120 * time.Millisecond)
}

func (c *Chart) schedule(delay time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.render == nil {
		return
	}
	if cv := fyne.CurrentApp().Driver().CanvasForObject(c); cv != nil {
		c.scale = cv.Scale()
	}
	c.gen++
	gen, f := c.gen, c.render
	size := c.Size()
	w, h := int(size.Width*c.scale), int(size.Height*c.scale)
	if w < 50 || h < 50 {
		return
	}
	if c.timer != nil {
		c.timer.Stop()
	}
	c.drawing = true
	c.busy.Show()
	c.timer = time.AfterFunc(delay, func() {
		img, pts, labels, err := f(w, h)
		do := c.Do
		if do == nil {
			do = fyne.Do
		}
		do(func() {
			c.mu.Lock()
			stale := gen != c.gen
			if !stale && err == nil {
				c.img.Image = img
				c.points, c.labels = pts, labels
				c.lastPx = fyne.NewSize(float32(w), float32(h))
			}
			if !stale {
				c.drawing = false
			}
			c.mu.Unlock()
			if !stale {
				c.busy.Hide()
			}
			switch {
			case stale:
			case err != nil:
				if c.OnError != nil {
					c.OnError(err)
				}
			default:
				c.img.Refresh()
			}
		})
	})
}

// Image returns the image shown now, for tests.
func (c *Chart) Image() image.Image {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.img.Image
}

// MouseIn implements desktop.Hoverable.
func (c *Chart) MouseIn(e *desktop.MouseEvent) { c.MouseMoved(e) }

// MouseMoved shows the label of the nearest data point within 12 pixels.
func (c *Chart) MouseMoved(e *desktop.MouseEvent) {
	c.mu.Lock()
	x, y := int(e.Position.X*c.scale), int(e.Position.Y*c.scale)
	best, bestD := -1, 144
	for i, p := range c.points {
		dx, dy := p.X-x, p.Y-y
		if d := dx*dx + dy*dy; d <= bestD {
			best, bestD = i, d
		}
	}
	label := ""
	if best >= 0 {
		label = c.labels[best]
	}
	c.mu.Unlock()
	if best < 0 {
		c.MouseOut()
		return
	}
	c.tipText.Text = label
	ts := fyne.MeasureText(c.tipText.Text, c.tipText.TextSize, c.tipText.TextStyle)
	pos := e.Position.Add(fyne.NewPos(12, -ts.Height-8))
	if pos.X+ts.Width+8 > c.Size().Width {
		pos.X = c.Size().Width - ts.Width - 8
	}
	pos.Y = max(pos.Y, 0)
	c.tipBg.Move(pos)
	c.tipBg.Resize(ts.Add(fyne.NewSize(8, 4)))
	c.tipText.Move(pos.Add(fyne.NewPos(4, 2)))
	c.tipText.Show()
	c.tipBg.Show()
	c.tipText.Refresh()
	c.tipBg.Refresh()
}

// MouseOut hides the label.
func (c *Chart) MouseOut() {
	c.tipText.Hide()
	c.tipBg.Hide()
}

// Tooltip returns the label shown now ("" when none), for tests.
func (c *Chart) Tooltip() string {
	if !c.tipText.Visible() {
		return ""
	}
	return c.tipText.Text
}

// MinSize is the smallest readable size (DefaultChartMin unless set); a chart takes
// the room it is given beyond it.
func (c *Chart) MinSize() fyne.Size {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.min
}

// CreateRenderer implements fyne.Widget.
func (c *Chart) CreateRenderer() fyne.WidgetRenderer {
	return &chartRenderer{c: c}
}

type chartRenderer struct{ c *Chart }

func (r *chartRenderer) Layout(s fyne.Size) {
	r.c.img.Resize(s)
	r.c.img.Move(fyne.NewPos(0, 0))
	r.c.empty.Resize(s)
	b := r.c.busy.MinSize()
	r.c.busy.Resize(b)
	r.c.busy.Move(fyne.NewPos(0, 0)) // top left: in view when a large chart scrolls
}
func (r *chartRenderer) MinSize() fyne.Size { return r.c.MinSize() }
func (r *chartRenderer) Refresh() {
	r.c.img.Refresh()
	r.c.empty.Refresh()
	r.c.busy.Refresh()
}
func (r *chartRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.c.img, r.c.empty, r.c.busy, r.c.tipBg, r.c.tipText}
}
func (r *chartRenderer) Destroy() {}

// PointPosition is where data point i is drawn, in the widget's coordinates.
func (c *Chart) PointPosition(i int) (fyne.Position, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i < 0 || i >= len(c.points) {
		return fyne.Position{}, false
	}
	p := c.points[i]
	return fyne.NewPos(float32(p.X)/c.scale, float32(p.Y)/c.scale), true
}
