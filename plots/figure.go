// Package plots turns results into gonum plots, renders them for the screen and exports
// them for papers (PNG, SVG, PDF, EPS) together with the CSV of the numbers drawn.
package plots

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgeps"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Point is a drawn data point that a chart can name when the pointer rests on it.
type Point struct {
	X, Y  float64
	Label string
}

// Figure is one chart: a builder called afresh for every render and export (a
// *plot.Plot is not reused), the table of the numbers it draws, and its points.
type Figure struct {
	Name   string // file-safe, e.g. "stability-simid"
	Title  string
	Build  func() (*plot.Plot, error)
	Table  [][]string // header row, then one row per drawn number
	Points []Point
	// Panel, when set, draws the chart of method i alone, on the axes of the whole
	// chart; Panels is the number of methods. A figure with Split set is drawn as one
	// panel per method in a grid under its title (see PerMethod).
	Panel  func(i int) (*plot.Plot, error)
	Panels int
	Split  bool
	// MinHeight, when set, is the height a file export takes at least, whatever
	// height is asked (a heat map's rows need room for their names); the screen shows
	// the figure at the pane's size.
	MinHeight vg.Length
}

// PerMethod returns f drawn as one panel per method, when it can be (Panel set, two
// methods or more), so that overlapping bands stay readable; else f itself.
func PerMethod(f Figure) Figure {
	if f.Panel != nil && f.Panels > 1 {
		f.Split = true
		f.Name += "-per-method"
		f.Points = nil // hover positions are those of the one chart
	}
	return f
}

// charts builds what f draws: its one chart, or its panels when split.
func (f Figure) charts() ([]*plot.Plot, error) {
	if !f.Split {
		p, err := f.Build()
		return []*plot.Plot{p}, err
	}
	ps := make([]*plot.Plot, f.Panels)
	for i := range ps {
		p, err := f.Panel(i)
		if err != nil {
			return nil, err
		}
		ps[i] = p
	}
	return ps, nil
}

// drawCharts draws one chart with drawFigure, or panels in a grid of ceil(sqrt(n))
// columns under the figure's title; it returns the data canvas of a single chart.
func drawCharts(title string, ps []*plot.Plot, c draw.Canvas) draw.Canvas {
	if len(ps) == 1 {
		return drawFigure(ps[0], c)
	}
	head := plot.New()
	head.Title.Text = title
	head.Title.TextStyle.Handler = Rich()
	fitTitle(head, c.Max.X-c.Min.X)
	ts := head.Title.TextStyle
	ts.XAlign, ts.YAlign = text.XCenter, text.YTop
	th := ts.Height(title) + vg.Points(6)
	c.FillText(ts, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Max.Y - vg.Points(3)}, title)
	body := draw.Crop(c, 0, 0, 0, -th)
	// one y label for the grid, along its left edge (a panel's own label can be longer
	// than the panel is high)
	if label := ps[0].Y.Label.Text; label != "" {
		ls := ps[0].Y.Label.TextStyle
		ls.Handler = Rich()
		ls.Font.Size = vg.Points(10)
		for ls.Font.Size > vg.Points(6) && ls.Width(label) > body.Max.Y-body.Min.Y {
			ls.Font.Size -= vg.Points(0.5)
		}
		ls.Rotation, ls.XAlign, ls.YAlign = math.Pi/2, text.XCenter, text.YCenter
		lh := ls.Height(label)
		c.FillText(ls, vg.Point{X: body.Min.X + lh/2, Y: (body.Min.Y + body.Max.Y) / 2}, label)
		body = draw.Crop(body, lh+vg.Points(3), 0, 0, 0)
		for _, p := range ps {
			p.Y.Label.Text = ""
		}
	}
	cols := int(math.Ceil(math.Sqrt(float64(len(ps)))))
	rows := (len(ps) + cols - 1) / cols
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(8), PadY: vg.Points(8)}
	for i, p := range ps {
		drawFigure(p, tiles.At(body, i%cols, i/cols))
	}
	return body
}

// MaxFigureHeight caps Figure.MinHeight: a journal page's height.
const MaxFigureHeight = 24 * vg.Centimeter

// SizeFor is the size Export writes f at when o is asked: o, taller when f needs
// MinHeight (at most MaxFigureHeight); note says what changed, "" when nothing did.
func (f Figure) SizeFor(o ExportOptions) (ExportOptions, string) {
	h := max(o.Height, min(f.MinHeight, MaxFigureHeight))
	if h == o.Height {
		return o, ""
	}
	note := fmt.Sprintf("%s: exported %.3g x %.3g cm, not the %.3g x %.3g cm asked: its labels need that height to stay readable",
		f.Name, float64(o.Width/vg.Centimeter), float64(h/vg.Centimeter), float64(o.Width/vg.Centimeter), float64(o.Height/vg.Centimeter))
	o.Height = h
	return o, note
}

// SizeNotes are the notes of SizeFor for each figure of figs exported at o.
func SizeNotes(figs []Figure, o ExportOptions) []string {
	var out []string
	for _, f := range figs {
		if _, n := f.SizeFor(o); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// Formats that Export writes.
var Formats = []string{"png", "svg", "pdf", "eps"}

// Length converts a size in unit "cm", "mm" or "in" to a vg.Length.
func Length(v float64, unit string) (vg.Length, error) {
	switch unit {
	case "cm":
		return vg.Length(v) * vg.Centimeter, nil
	case "mm":
		return vg.Length(v) * vg.Millimeter, nil
	case "in", "inch", "inches":
		return vg.Length(v) * vg.Inch, nil
	}
	return 0, fmt.Errorf("unknown unit %q (cm, mm or in)", unit)
}

// ExportOptions set an export's size and resolution.
type ExportOptions struct {
	Width, Height vg.Length
	DPI           int // PNG only
}

// Export limits: sides up to 2 m (a poster), 30 to 2400 dpi, and PNGs up to 250
// million pixels (1 GB as RGBA), so no typed size exhausts memory.
const (
	MaxSide   = 200 * vg.Centimeter
	MinDPI    = 30
	MaxDPI    = 2400
	MaxPixels = 250e6
)

// NewExportOptions checks a size typed in unit (cm, mm or in) and a PNG resolution
// against the export limits and returns them as options.
func NewExportOptions(width, height float64, unit string, dpi int) (ExportOptions, error) {
	w, err := Length(width, unit)
	if err != nil {
		return ExportOptions{}, err
	}
	h, _ := Length(height, unit)
	o := ExportOptions{Width: w, Height: h, DPI: dpi}
	return o, o.check(unit)
}

// check refuses options beyond the export limits; unit names the user's unit.
func (o ExportOptions) check(unit string) error {
	max, _ := Length(1, unit)
	if !(o.Width > 0 && o.Width <= MaxSide && o.Height > 0 && o.Height <= MaxSide) {
		return fmt.Errorf("width and height must lie above 0 and at most %.4g %s (2 m)", float64(MaxSide/max), unit)
	}
	if o.DPI < MinDPI || o.DPI > MaxDPI {
		return fmt.Errorf("the PNG resolution must be a whole number of dpi from %d to %d", MinDPI, MaxDPI)
	}
	if px := o.pixels(); px > MaxPixels {
		return fmt.Errorf("a PNG of %.0f x %.0f cm at %d dpi would have %.0f million pixels, more than %.0f million: lower the resolution or the size", float64(o.Width/vg.Centimeter), float64(o.Height/vg.Centimeter), o.DPI, px/1e6, MaxPixels/1e6)
	}
	return nil
}

// pixels is the pixel count of a PNG at o's size and resolution.
func (o ExportOptions) pixels() float64 {
	return float64(o.Width/vg.Inch) * float64(o.DPI) * float64(o.Height/vg.Inch) * float64(o.DPI)
}

// Export writes f to dir as name.FORMAT for each format and name.csv with its numbers,
// and returns the paths written.
func Export(f Figure, dir string, formats []string, o ExportOptions) ([]string, error) {
	if o.DPI <= 0 {
		o.DPI = 300
	}
	o, _ = f.SizeFor(o)
	if err := o.check("cm"); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for _, format := range formats {
		ps, err := f.charts()
		if err != nil {
			return paths, err
		}
		path := filepath.Join(dir, f.Name+"."+format)
		var wt vg.CanvasSizer
		var write func(*os.File) error
		switch format {
		case "png":
			cv := vgimg.NewWith(vgimg.UseWH(o.Width, o.Height), vgimg.UseDPI(o.DPI), vgimg.UseBackgroundColor(image.White.C))
			wt = rasterCanvas{cv}
			write = func(fh *os.File) error { _, err := vgimg.PngCanvas{Canvas: cv}.WriteTo(fh); return err }
		case "svg":
			cv := vgsvg.NewWith(vgsvg.UseWH(o.Width, o.Height), vgsvg.EmbedFonts(true))
			wt = cv
			write = func(fh *os.File) error { _, err := cv.WriteTo(fh); return err }
		case "pdf":
			cv := newPDFCanvas(o.Width, o.Height)
			wt = cv
			write = func(fh *os.File) error { _, err := cv.WriteTo(fh); return err }
		case "eps":
			cv := vgeps.NewTitle(o.Width, o.Height, PlainText(f.Title))
			wt = epsCanvas{cv}
			write = func(fh *os.File) error { return writeEPS(fh, cv) }
		default:
			return paths, fmt.Errorf("unknown format %q (png, svg, pdf, eps)", format)
		}
		drawCharts(f.Title, ps, draw.New(wt))
		if err := writeFile(path, write); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	path := filepath.Join(dir, f.Name+".csv")
	if err := WriteCSV(path, f.Table); err != nil {
		return paths, err
	}
	return append(paths, path), nil
}

// creationDate is the EPS date line gonum/plot writes with time.Time's String, which
// carries Go's monotonic clock reading ("... +0000 UTC m=+57.249446429").
var creationDate = regexp.MustCompile(`(?m)^%%CreationDate: .*$`)

// writeEPS writes c with its header corrected: gonum/plot v0.17 writes "%%!PS-Adobe" and
// "%%Creator" where EPS needs "%!PS-Adobe" as the first bytes and "%%Creator:", and a
// creation date with Go's monotonic clock in it, written here as a plain UTC time.
func writeEPS(w io.Writer, c *vgeps.Canvas) error {
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return err
	}
	b := buf.Bytes()
	b = bytes.Replace(b, []byte("%%!PS-Adobe"), []byte("%!PS-Adobe"), 1)
	b = bytes.Replace(b, []byte("%%Creator "), []byte("%%Creator: "), 1)
	b = creationDate.ReplaceAll(b, []byte("%%CreationDate: "+time.Now().UTC().Format("2006-01-02 15:04:05 UTC")))
	_, err := w.Write(b)
	return err
}

// writeFile writes through a temporary file and renames it, so a failed export never
// leaves half a figure behind.
func writeFile(path string, write func(*os.File) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".steadfast-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", filepath.Base(path), err)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil { // CreateTemp makes it private
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// WriteCSV writes a table as CSV.
func WriteCSV(path string, table [][]string) error {
	return writeFile(path, func(fh *os.File) error {
		w := csv.NewWriter(fh)
		if err := w.WriteAll(table); err != nil {
			return err
		}
		w.Flush()
		return w.Error()
	})
}

// Rendered is a figure drawn for the screen, with its points' pixel positions.
type Rendered struct {
	Image  image.Image
	Pixels []image.Point // Pixels[i] is where Figure.Points[i] was drawn
}

// Render draws f at w x h pixels for a screen of the given dots per inch.
func Render(f Figure, w, h int, dpi float64) (Rendered, error) {
	if w < 10 || h < 10 {
		w, h = max(w, 10), max(h, 10)
	}
	ps, err := f.charts()
	if err != nil {
		return Rendered{}, err
	}
	scale := vg.Inch / vg.Length(dpi)
	cv := vgimg.NewWith(vgimg.UseWH(vg.Length(w)*scale, vg.Length(h)*scale), vgimg.UseDPI(int(dpi)), vgimg.UseBackgroundColor(image.White.C))
	dc := drawCharts(f.Title, ps, draw.New(rasterCanvas{cv}))
	if len(ps) > 1 {
		return Rendered{Image: cv.Image()}, nil // no hover points on panels
	}
	p := ps[0]
	data := p.DataCanvas(dc)
	fx, fy := p.Transforms(&data)
	r := Rendered{Image: cv.Image()}
	bounds := r.Image.Bounds()
	for _, pt := range f.Points {
		x := float64(fx(pt.X)) * dpi / 72
		y := float64(bounds.Dy()) - float64(fy(pt.Y))*dpi/72
		r.Pixels = append(r.Pixels, image.Pt(int(x), int(y)))
	}
	return r, nil
}

// drawFigure draws p on c with its legend below the plot, outside the data, and a
// margin on the right so that the last tick label and markers are not cut; it returns
// the canvas the plot itself was drawn on.
func drawFigure(p *plot.Plot, c draw.Canvas) draw.Canvas {
	margin := vg.Points(6)
	c = draw.Crop(c, 0, -margin, 0, 0)
	for _, ts := range []*text.Style{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle, &p.Legend.TextStyle} {
		ts.Handler = Rich()
	}
	fitTitle(p, c.Max.X-c.Min.X)
	fitYLabel(p, c.Max.Y-c.Min.Y)
	_, sq := squares.LoadAndDelete(p)
	if p.Legend.Padding == 0 { // entries a third of a line apart, not touching
		p.Legend.Padding = p.Legend.TextStyle.Font.Size / 3
	}
	fitLegend(&p.Legend, c)
	leg := p.Legend
	r := leg.Rectangle(c)
	h := r.Max.Y - r.Min.Y
	if h <= 0 {
		if sq {
			c = squareArea(p, c)
		}
		fitRowLabels(p, c)
		p.Draw(c)
		return c
	}
	p.Legend = plot.NewLegend() // drawn here instead, below the plot
	defer func() { p.Legend = leg }()
	gap := vg.Points(4)
	if sq {
		if side := beside(p, leg, c, r, gap); side.Max.X > side.Min.X {
			return side
		}
	}
	area := draw.Crop(c, 0, 0, h+2*gap, 0)
	if sq {
		area = squareArea(p, area)
	}
	fitRowLabels(p, area)
	p.Draw(area)
	under := draw.Crop(c, 0, 0, gap, -(c.Max.Y - c.Min.Y - h - gap))
	leg.Top, leg.Left = true, true
	leg.YOffs = 0
	leg.XOffs = ((c.Max.X - c.Min.X) - (r.Max.X - r.Min.X)) / 2
	leg.Draw(under)
	return area
}

// beside draws the square plot p with its legend leg (p's, moved aside by the caller; r
// its rectangle on c) to the right of the plot, the title across the whole
// figure, when that leaves the square a tenth larger than the legend below it would
// (a ROC curve in a wide pane); it returns the plot's canvas, or an empty one when the
// legend goes below.
func beside(p *plot.Plot, leg plot.Legend, c draw.Canvas, r vg.Rectangle, gap vg.Length) draw.Canvas {
	lw, lh := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
	side := func(a draw.Canvas) vg.Length {
		dc := p.DataCanvas(squareArea(p, a))
		return dc.Max.X - dc.Min.X
	}
	title := p.Title.Text
	ts := p.Title.TextStyle
	th := ts.Height(title) + gap
	below := side(draw.Crop(c, 0, 0, lh+2*gap, 0))
	p.Title.Text = ""
	defer func() { p.Title.Text = title }()
	right := draw.Crop(c, 0, -(lw + 2*gap), 0, -th)
	if right.Max.X-right.Min.X < (c.Max.X-c.Min.X)/3 || side(right) < 1.1*below || lh > right.Max.Y-right.Min.Y {
		return draw.Canvas{}
	}
	ts.XAlign, ts.YAlign = text.XCenter, text.YTop
	c.FillText(ts, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Max.Y}, title)
	area := squareArea(p, right)
	fitRowLabels(p, area)
	p.Draw(area)
	leg.Top, leg.Left = true, true
	leg.XOffs = area.Max.X - c.Min.X + gap
	leg.YOffs = (right.Max.Y - c.Max.Y) - ((right.Max.Y-right.Min.Y)-lh)/2
	leg.Draw(c)
	return area
}

// squares are the plots whose data area is drawn square (a ROC curve: equal scales on
// both rates), marked by square when built and taken by drawFigure.
var squares sync.Map

// square marks p's data area to be drawn square.
func square(p *plot.Plot) *plot.Plot {
	squares.Store(p, struct{}{})
	return p
}

// squareArea narrows (or shortens, from the top) area so that p's data area in it is
// square, the plot centred across.
func squareArea(p *plot.Plot, area draw.Canvas) draw.Canvas {
	dc := p.DataCanvas(area)
	w, h := dc.Max.X-dc.Min.X, dc.Max.Y-dc.Min.Y
	switch {
	case w > h:
		return draw.Crop(area, (w-h)/2, -(w-h)/2, 0, 0)
	case h > w:
		return draw.Crop(area, 0, 0, h-w, 0)
	}
	return area
}

// fitTitle makes the title 11 points, smaller (down to 7) when it is wider than width.
func fitTitle(p *plot.Plot, width vg.Length) {
	ts := &p.Title.TextStyle
	ts.Font.Size = vg.Points(11)
	for ts.Font.Size > vg.Points(7) && ts.Width(p.Title.Text) > width {
		ts.Font.Size -= vg.Points(0.5)
	}
}

// fitLegend shrinks the legend's text (down to 8 points) until the legend is no wider
// than c, then wraps its entries at spaces to fit.
func fitLegend(l *plot.Legend, c draw.Canvas) {
	width := c.Max.X - c.Min.X
	wide := func() vg.Length { r := l.Rectangle(c); return r.Max.X - r.Min.X }
	ts := &l.TextStyle
	for ts.Font.Size > vg.Points(8) && wide() > width {
		ts.Font.Size -= vg.Points(0.5)
	}
	if wide() > width {
		em := ts.Width(" ")
		ts.Handler = wrapped{rich: rich{text.Plain{Fonts: font.DefaultCache}}, font: ts.Font, width: width - l.ThumbnailWidth - 2*em}
	}
}

// fitYLabel shrinks the y axis label (down to 6 points) to at most 3/4 of the height,
// and drops it when it still does not fit: gonum/plot leaves no room for the data when
// the label is longer than the axis.
func fitYLabel(p *plot.Plot, height vg.Length) {
	ts := &p.Y.Label.TextStyle
	for ts.Font.Size > vg.Points(6) && ts.Width(p.Y.Label.Text) > 0.75*height {
		ts.Font.Size -= vg.Points(0.5)
	}
	if ts.Width(p.Y.Label.Text) > 0.75*height {
		p.Y.Label.Text = ""
	}
}

// safeName turns a label into a file-safe name.
func safeName(s string) string {
	s = strings.ToLower(s)
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}
