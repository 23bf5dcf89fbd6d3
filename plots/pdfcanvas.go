package plots

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/image/font/opentype"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"

	"steadfast/assets/fonts"
)

// pdfCanvas draws on PDF pages with the figure fonts embedded as Unicode TrueType
// subsets, so every character drawn (Greek, ±, ≥) is in the text layer and copies as
// itself; gonum/plot's own PDF canvas encodes text in code page 1252 and lost the rest.
// Colours are drawn opaque, as on every other format. Coordinates are vg's: points,
// origin at the bottom left.
type pdfCanvas struct {
	doc    *fpdf.Fpdf
	w, h   vg.Length
	width  []vg.Length // the line width of each pushed state
	fonts  map[string]bool
	images int
	err    error // the first font that could not be embedded
}

// newPDFCanvas returns a canvas of one page w x h.
func newPDFCanvas(w, h vg.Length) *pdfCanvas {
	doc := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: w.Points(), Ht: h.Points()}})
	doc.SetMargins(0, 0, 0)
	doc.SetAutoPageBreak(false, 0)
	doc.SetCompression(true)
	c := &pdfCanvas{doc: doc, w: w, h: h, width: []vg.Length{0}, fonts: map[string]bool{}}
	c.NextPage()
	vg.Initialize(c)
	return c
}

// NextPage starts a new page; drawing goes there.
func (c *pdfCanvas) NextPage() {
	if c.doc.PageNo() > 0 {
		c.Pop()
	}
	c.doc.AddPage()
	c.Push()
	c.doc.TransformTranslate(0, c.h.Points()) // fpdf's origin is the top left, y down
	c.doc.TransformScale(100, -100, 0, 0)
}

func (c *pdfCanvas) Size() (w, h vg.Length) { return c.w, c.h }

func (c *pdfCanvas) SetLineWidth(w vg.Length) {
	c.width[len(c.width)-1] = w
	c.doc.SetLineWidth(w.Points())
}

func (c *pdfCanvas) SetLineDash(dashes []vg.Length, offset vg.Length) {
	d := make([]float64, len(dashes))
	for i, v := range dashes {
		d[i] = v.Points()
	}
	c.doc.SetDashPattern(d, offset.Points())
}

func (c *pdfCanvas) SetColor(clr color.Color) {
	r, g, b, _ := opaque(clr).RGBA()
	c.doc.SetFillColor(int(r>>8), int(g>>8), int(b>>8))
	c.doc.SetDrawColor(int(r>>8), int(g>>8), int(b>>8))
	c.doc.SetTextColor(int(r>>8), int(g>>8), int(b>>8))
}

func (c *pdfCanvas) Rotate(rad float64) { c.doc.TransformRotate(-rad*180/math.Pi, 0, 0) }

func (c *pdfCanvas) Translate(pt vg.Point) {
	c.doc.TransformTranslate(pt.X.Points(), pt.Y.Points())
}

func (c *pdfCanvas) Scale(x, y float64) { c.doc.TransformScale(x*100, y*100, 0, 0) }

func (c *pdfCanvas) Push() {
	c.width = append(c.width, c.width[len(c.width)-1])
	c.doc.TransformBegin()
}

func (c *pdfCanvas) Pop() {
	c.doc.TransformEnd()
	c.width = c.width[:len(c.width)-1]
	c.doc.SetLineWidth(c.width[len(c.width)-1].Points())
}

func (c *pdfCanvas) Stroke(p vg.Path) {
	if c.width[len(c.width)-1] > 0 {
		c.path(p, "D")
	}
}

func (c *pdfCanvas) Fill(p vg.Path) { c.path(p, "F") }

// path draws p, arcs as cubic Béziers of at most a quarter turn each.
func (c *pdfCanvas) path(p vg.Path, style string) {
	var start vg.Point
	for _, comp := range p {
		switch comp.Type {
		case vg.MoveComp:
			start = comp.Pos
			c.doc.MoveTo(comp.Pos.X.Points(), comp.Pos.Y.Points())
		case vg.LineComp:
			c.doc.LineTo(comp.Pos.X.Points(), comp.Pos.Y.Points())
		case vg.ArcComp:
			c.arc(comp)
		case vg.CurveComp:
			pts := append(comp.Control, comp.Pos)
			switch len(pts) {
			case 2:
				c.doc.CurveTo(pts[0].X.Points(), pts[0].Y.Points(), pts[1].X.Points(), pts[1].Y.Points())
			case 3:
				c.doc.CurveBezierCubicTo(pts[0].X.Points(), pts[0].Y.Points(), pts[1].X.Points(), pts[1].Y.Points(), pts[2].X.Points(), pts[2].Y.Points())
			}
		case vg.CloseComp:
			c.doc.LineTo(start.X.Points(), start.Y.Points())
			c.doc.ClosePath()
		}
	}
	c.doc.DrawPath(style)
}

// arc draws comp from its start angle through its angle: a line to the arc's first
// point (as vg paths mean), then Béziers with control length 4/3 tan(θ/4) of the radius.
func (c *pdfCanvas) arc(comp vg.PathComp) {
	cx, cy, r := comp.Pos.X.Points(), comp.Pos.Y.Points(), comp.Radius.Points()
	at := func(a float64) (float64, float64) { return cx + r*math.Cos(a), cy + r*math.Sin(a) }
	x, y := at(comp.Start)
	c.doc.LineTo(x, y)
	n := max(1, int(math.Ceil(math.Abs(comp.Angle)/(math.Pi/2))))
	step := comp.Angle / float64(n)
	k := 4.0 / 3 * math.Tan(step/4) * r
	for i := range n {
		a0 := comp.Start + float64(i)*step
		a1 := a0 + step
		x0, y0 := at(a0)
		x1, y1 := at(a1)
		c.doc.CurveBezierCubicTo(x0-k*math.Sin(a0), y0+k*math.Cos(a0), x1+k*math.Sin(a1), y1-k*math.Cos(a1), x1, y1)
	}
}

// FillString draws s with its baseline's left end at pt in f, embedded as a Unicode
// font (registered once per face). Characters f lacks are drawn from the fallback font
// (CJK), each run placed after the width of the runs before it; a character outside
// Unicode's basic plane (emoji, CJK extension B, mathematical letters), which PDF's
// two-byte font maps cannot hold, is drawn as U+FFFD, the replacement character.
func (c *pdfCanvas) FillString(f font.Face, pt vg.Point, s string) {
	if f.Font.Size == 0 || s == "" {
		return
	}
	x := pt.X
	for _, r := range textRuns(f, s) {
		name, raw := f.Name(), f.Face
		if r.fallback {
			name, raw = "steadfast-fallback", nil
		}
		if !c.addFont(name, raw) {
			return
		}
		c.doc.SetFont(name, "", f.Font.Size.Points())
		c.Push()
		c.Translate(vg.Point{X: x, Y: pt.Y})
		c.Scale(1, -1) // text upright in fpdf's y-down space
		c.doc.Text(0, 0, r.text)
		c.Pop()
		x += vg.Length(c.doc.GetStringWidth(r.text))
	}
}

// addFont embeds the font name once: raw's source, or the fallback font when raw is
// nil. It reports whether the font can be used.
func (c *pdfCanvas) addFont(name string, raw *opentype.Font) bool {
	if c.fonts[name] {
		return true
	}
	src := fonts.DroidSansFallback
	if raw != nil {
		var buf bytes.Buffer
		if _, err := raw.WriteSourceTo(nil, &buf); err != nil {
			c.fail(fmt.Errorf("font %s: %w", name, err))
			return false
		}
		src = buf.Bytes()
	}
	c.doc.AddUTF8FontFromBytes(name, "", src)
	c.fonts[name] = true
	return true
}

// DrawImage draws img in rect, upright.
func (c *pdfCanvas) DrawImage(rect vg.Rectangle, img image.Image) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		c.fail(err)
		return
	}
	c.images++
	name := fmt.Sprintf("image%d", c.images)
	opt := fpdf.ImageOptions{ImageType: "png"}
	c.doc.RegisterImageOptionsReader(name, opt, &buf)
	size := rect.Size()
	c.Push()
	c.Translate(vg.Point{X: rect.Min.X, Y: rect.Max.Y})
	c.Scale(1, -1)
	c.doc.ImageOptions(name, 0, 0, size.X.Points(), size.Y.Points(), false, opt, 0, "")
	c.Pop()
}

func (c *pdfCanvas) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

// WriteTo writes the document; the canvas is closed after.
func (c *pdfCanvas) WriteTo(w io.Writer) (int64, error) {
	c.Pop()
	if c.err != nil {
		return 0, c.err
	}
	if err := c.doc.Error(); err != nil {
		return 0, fmt.Errorf("writing the PDF: %w", err)
	}
	cw := &countWriter{w: w}
	err := c.doc.Output(cw)
	return cw.n, err
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
