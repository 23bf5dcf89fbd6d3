package plots

import (
	"image/color"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"

	"steadfast/assets/fonts"
)

// opaque returns c drawn over white: (r, g, b) + (1 - a) white, in premultiplied terms.
// PDF and EPS canvases take a colour's premultiplied components as its colour (so a
// translucent band came out grey in PDF and near black in EPS); every format gets the
// same opaque colour instead.
func opaque(c color.Color) color.Color {
	if c == nil {
		return color.Black
	}
	r, g, b, a := c.RGBA()
	if a == 0xffff {
		return c
	}
	w := 0xffff - a
	return color.RGBA64{uint16(r + w), uint16(g + w), uint16(b + w), 0xffff}
}

// epsCanvas passes colours as opaque and draws text as the outlines of the font's
// glyphs: PostScript would look the TrueType font up by name (absent from printers and
// Ghostscript alike) and cannot show UTF-8, so outlines are the text that looks the same
// everywhere.
type epsCanvas struct {
	vg.CanvasWriterTo
}

func (c epsCanvas) SetColor(clr color.Color) { c.CanvasWriterTo.SetColor(opaque(clr)) }

func (c epsCanvas) FillString(f font.Face, pt vg.Point, s string) { outline(c, f, pt, s) }

// fallback is the face for characters the figure font lacks (CJK): Droid Sans
// Fallback, parsed once; nil if it cannot be.
var fallback = sync.OnceValue(func() *sfnt.Font {
	f, err := sfnt.Parse(fonts.DroidSansFallback)
	if err != nil {
		return nil
	}
	return f
})

// textRun is a piece of a string drawn in one font: the figure's face, or the fallback.
type textRun struct {
	text     string
	fallback bool
}

// textRuns splits s into runs of the characters f's face draws and those only the
// fallback face draws. A character neither has stays with f's face (drawn as its
// missing glyph, kept in a PDF's text layer); a character outside Unicode's basic
// plane, which no PDF font map here can hold, becomes U+FFFD; invalid UTF-8 is
// dropped.
func textRuns(f font.Face, s string) []textRun {
	var runs []textRun
	var buf sfnt.Buffer
	var cur strings.Builder
	curFallback := false
	for _, r := range s {
		if r == utf8.RuneError {
			continue
		}
		if r > 0xFFFF {
			r = utf8.RuneError
		}
		fb := false
		if f.Face != nil {
			idx, err := f.Face.GlyphIndex(&buf, r)
			if (err != nil || idx == 0) && fallback() != nil {
				if i, err2 := fallback().GlyphIndex(&buf, r); err2 == nil && i != 0 {
					fb = true
				}
			}
		}
		if cur.Len() > 0 && fb != curFallback {
			runs = append(runs, textRun{cur.String(), curFallback})
			cur.Reset()
		}
		curFallback = fb
		cur.WriteRune(r)
	}
	if cur.Len() > 0 {
		runs = append(runs, textRun{cur.String(), curFallback})
	}
	return runs
}

// rasterCanvas is vgimg's canvas drawing text as glyph outlines (outline), as the EPS
// canvas does: vgimg's own text kerns the digit pair "11" by 7% of an em, which at a
// screen's small sizes merged the two into one glyph (Hsa.1139 read Hsa.139).
type rasterCanvas struct{ *vgimg.Canvas }

func (c rasterCanvas) FillString(f font.Face, pt vg.Point, s string) { outline(c, f, pt, s) }

// outline fills the outlines of s's glyphs on c from pt and returns where s ends. A
// character the face lacks is drawn from the fallback face (it had been an empty box).
// Digits are not kerned against each other: identifiers and numbers keep their digits
// apart (the font kerns "11" tight).
func outline(c vg.Canvas, f font.Face, pt vg.Point, s string) vg.Length {
	if f.Face == nil || f.Font.Size == 0 {
		return pt.X
	}
	var buf sfnt.Buffer
	x := pt.X
	prev, hasPrev := sfnt.GlyphIndex(0), false
	prevDigit := false
	for _, r := range s {
		if r == utf8.RuneError {
			continue
		}
		face := f.Face
		idx, err := face.GlyphIndex(&buf, r)
		if (err != nil || idx == 0) && fallback() != nil {
			if i, err2 := fallback().GlyphIndex(&buf, r); err2 == nil && i != 0 {
				face, idx, err = fallback(), i, nil
			}
		}
		if err != nil {
			continue
		}
		ppem := fixed.Int26_6(face.UnitsPerEm())
		scale := float64(f.Font.Size) / float64(ppem) // points per font unit
		digit := r >= '0' && r <= '9'
		if hasPrev && face == f.Face && !(digit && prevDigit) {
			if k, err := face.Kern(&buf, prev, idx, ppem, 0); err == nil {
				x += vg.Length(float64(k) * scale)
			}
		}
		if segs, err := face.LoadGlyph(&buf, idx, ppem, nil); err == nil && len(segs) > 0 {
			c.Fill(glyphPath(segs, x, pt.Y, scale))
		}
		if adv, err := face.GlyphAdvance(&buf, idx, ppem, 0); err == nil {
			x += vg.Length(float64(adv) * scale)
		}
		prev, hasPrev, prevDigit = idx, face == f.Face, digit
	}
	return x
}

// glyphPath turns a glyph's outline (font units, y down) into a path at origin (x0,
// y0) in points (y up).
func glyphPath(segs sfnt.Segments, x0, y0 vg.Length, scale float64) vg.Path {
	pt := func(a fixed.Point26_6) vg.Point {
		return vg.Point{X: x0 + vg.Length(float64(a.X)*scale), Y: y0 - vg.Length(float64(a.Y)*scale)}
	}
	var p vg.Path
	for _, s := range segs {
		switch s.Op {
		case sfnt.SegmentOpMoveTo:
			if len(p) > 0 {
				p.Close()
			}
			p.Move(pt(s.Args[0]))
		case sfnt.SegmentOpLineTo:
			p.Line(pt(s.Args[0]))
		case sfnt.SegmentOpQuadTo:
			p.QuadTo(pt(s.Args[0]), pt(s.Args[1]))
		case sfnt.SegmentOpCubeTo:
			p.CubeTo(pt(s.Args[0]), pt(s.Args[1]), pt(s.Args[2]))
		}
	}
	if len(p) > 0 {
		p.Close()
	}
	return p
}
