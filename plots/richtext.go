package plots

import (
	"math"
	"strings"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// rich is a text handler that sets "_{...}" as a subscript and "^{...}" as a
// superscript (0.7 of the size, lowered or raised), so S_{W} and Sim_{ID}^{M} read as
// in the papers; any other character, "_" and "^" without a brace included, is plain.
type rich struct {
	text.Plain
}

// Rich returns the handler for figure titles, axis labels and legends.
func Rich() text.Handler { return rich{text.Plain{Fonts: font.DefaultCache}} }

// run is a piece of a line at one level: 0 plain, -1 subscript, +1 superscript.
type run struct {
	s     string
	level int
}

// runs splits a line at its sub- and superscripts.
func runs(line string) []run {
	var out []run
	for line != "" {
		i := strings.IndexAny(line, "_^")
		if i < 0 || i+1 >= len(line) || line[i+1] != '{' {
			if i < 0 {
				out = append(out, run{line, 0})
				break
			}
			out = append(out, run{line[:i+1], 0})
			line = line[i+1:]
			continue
		}
		end := strings.IndexByte(line[i:], '}')
		if end < 0 {
			out = append(out, run{line, 0})
			break
		}
		if i > 0 {
			out = append(out, run{line[:i], 0})
		}
		level := -1
		if line[i] == '^' {
			level = 1
		}
		out = append(out, run{line[i+2 : i+end], level})
		line = line[i+end+1:]
	}
	return out
}

// PlainText is s without the sub- and superscript braces: "S_{W}" -> "S_W".
func PlainText(s string) string {
	var b strings.Builder
	for _, r := range runs(s) {
		switch r.level {
		case -1:
			b.WriteString("_" + r.s)
		case 1:
			b.WriteString("^" + r.s)
		default:
			b.WriteString(r.s)
		}
	}
	return b.String()
}

// scriptFont is f at script size.
func scriptFont(f font.Font) font.Font {
	f.Size *= 0.7
	return f
}

// shift is how far a run at level is moved up.
func shift(level int, size vg.Length) vg.Length {
	switch level {
	case -1:
		return -0.2 * size
	case 1:
		return 0.38 * size
	}
	return 0
}

// Box implements text.Handler.
func (h rich) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	base := h.Fonts.Lookup(fnt, fnt.Size)
	ext := base.Extents()
	height, depth = ext.Ascent, ext.Descent
	for _, r := range runs(txt) {
		f := fnt
		if r.level != 0 {
			f = scriptFont(fnt)
		}
		face := h.Fonts.Lookup(f, f.Size)
		width += face.Width(r.s)
		e := face.Extents()
		up := shift(r.level, fnt.Size)
		height = vg.Length(math.Max(float64(height), float64(e.Ascent+up)))
		depth = vg.Length(math.Max(float64(depth), float64(e.Descent-up)))
	}
	return width, height, depth
}

// Draw implements text.Handler, as text.Plain draws but run by run.
func (h rich) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	txt = strings.TrimRight(txt, "\n")
	if txt == "" {
		return
	}
	fnt := h.Fonts.Lookup(sty.Font, sty.Font.Size)
	asc := fnt.Extents().Ascent
	c.SetColor(sty.Color)
	if sty.Rotation != 0 {
		c.Push()
		c.Rotate(sty.Rotation)
	}
	sin64, cos64 := math.Sincos(sty.Rotation)
	cos, sin := vg.Length(cos64), vg.Length(sin64)
	pt.X, pt.Y = pt.Y*sin+pt.X*cos, pt.Y*cos-pt.X*sin
	lines := h.Lines(txt)
	ht := sty.Height(txt)
	pt.Y += ht*vg.Length(sty.YAlign) - asc
	for i, line := range lines {
		w, _, _ := h.Box(line, sty.Font)
		x := pt.X + vg.Length(sty.XAlign)*w
		y := pt.Y + vg.Length(len(lines)-i)*sty.Font.Size
		for _, r := range runs(line) {
			f := sty.Font
			if r.level != 0 {
				f = scriptFont(sty.Font)
			}
			face := h.Fonts.Lookup(f, f.Size)
			c.FillString(face, vg.Point{X: x, Y: y + shift(r.level, sty.Font.Size)}, r.s)
			x += face.Width(r.s)
		}
	}
	if sty.Rotation != 0 {
		c.Pop()
	}
}

// wrapped is rich text broken at spaces into lines no wider than width in font (a
// word longer than width keeps a line of its own).
type wrapped struct {
	rich
	font  font.Font
	width vg.Length
}

// Lines implements text.Handler: each line of txt wrapped to the width.
func (h wrapped) Lines(txt string) []string {
	var out []string
	for _, line := range h.rich.Lines(txt) {
		cur := ""
		for _, w := range strings.Fields(line) {
			next := w
			if cur != "" {
				next = cur + " " + w
			}
			if cw, _, _ := h.Box(next, h.font); cw > h.width && cur != "" {
				out = append(out, cur)
				next = w
			}
			cur = next
		}
		out = append(out, cur)
	}
	return out
}

// Draw implements text.Handler: the wrapped lines drawn as rich draws lines.
func (h wrapped) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	h.rich.Draw(c, strings.Join(h.Lines(txt), "\n"), sty, pt)
}
