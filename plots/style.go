package plots

import (
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func init() {
	// a sans-serif face for every figure, embedded in SVG and PDF and drawn as outlines
	// in EPS
	plot.DefaultFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
	plotter.DefaultFont = plot.DefaultFont
}

// palette is Okabe and Ito's colour-blind-safe palette (Color Universal Design, 2008),
// yellow left out (it vanishes on white).
var palette = []color.Color{
	color.RGBA{0x00, 0x72, 0xB2, 0xff}, // blue
	color.RGBA{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	color.RGBA{0x00, 0x9E, 0x73, 0xff}, // bluish green
	color.RGBA{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	color.RGBA{0xE6, 0x9F, 0x00, 0xff}, // orange
	color.RGBA{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	color.RGBA{0x00, 0x00, 0x00, 0xff}, // black
}

// shapes are the point markers, one per method with its colour.
var shapes = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PlusGlyph{},
	draw.CrossGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{},
}

// methodLook fixes each method's colour and marker (indices into palette and shapes),
// the same in every figure and run. Eleven methods share seven colours, so the methods
// a paper compares differ in colour: DRAGS, CGS, K-means and SVM-RFE (DRAGS, CGS);
// information gain, ReliefF, SVM-ONE and SVM-RFE (Kalousis); SVM-RFE, ensemble SVM-RFE
// and stability selection (MIDS); and those sharing a colour differ in marker.
var methodLook = map[string]struct{ colour, shape int }{
	"fstat": {0, 0}, "svmrfe": {1, 1}, "drags": {2, 2}, "cgs": {3, 3}, "relieff": {4, 4},
	"svmone": {5, 5}, "ensemblerfe": {6, 6}, "kmeans": {5, 7}, "infogain": {3, 4},
	"stabsel": {2, 6}, "bootstrap": {6, 0},
}

// methodStyle is the colour, marker and dashes of a method by its name (as in
// method.Spec); a MIDS-prefiltered method has its base's colour and marker, dashed.
// Names outside the list take slot fallback, past the listed methods.
func methodStyle(name string, fallback int) (color.Color, draw.GlyphDrawer, []vg.Length) {
	base, mids := strings.CutSuffix(name, "+mids")
	look, ok := methodLook[base]
	if !ok {
		i := len(methodLook) + fallback
		look.colour, look.shape = i%len(palette), i%len(shapes)
	}
	var dashes []vg.Length
	if mids {
		dashes = []vg.Length{vg.Points(5), vg.Points(2.5)}
	}
	return palette[look.colour], shapes[look.shape], dashes
}

// tint is c mixed with white, share of c: an opaque pale colour for bands, alike in
// every format and readable where bands overlap (their edges are drawn too).
func tint(c color.Color, share float64) color.Color {
	r, g, b, _ := c.RGBA()
	mix := func(v uint32) uint8 { return uint8(math.Round(255 - share*(255-float64(v>>8)))) }
	return color.RGBA{mix(r), mix(g), mix(b), 0xff}
}

// layers collects a chart's bands and curves and adds them in drawing order: every band
// first, then every band's edges, then the curves, so no band hides a curve.
type layers struct {
	fills, edges, curves []plot.Plotter
}

// band adds the region between lo and hi over x in c's tint, clipped to [bottom, top],
// with its edges in c.
func (l *layers) band(x, lo, hi []float64, c color.Color, bottom, top float64) error {
	clip := func(v float64) float64 { return math.Max(bottom, math.Min(top, v)) }
	ring := make(plotter.XYs, 0, 2*len(x))
	upper, lower := make(plotter.XYs, len(x)), make(plotter.XYs, len(x))
	for j := range x {
		upper[j] = plotter.XY{X: x[j], Y: clip(hi[j])}
		lower[j] = plotter.XY{X: x[j], Y: clip(lo[j])}
		ring = append(ring, upper[j])
	}
	for j := len(x) - 1; j >= 0; j-- {
		ring = append(ring, lower[j])
	}
	poly, err := plotter.NewPolygon(ring)
	if err != nil {
		return err
	}
	poly.Color = tint(c, 0.18)
	poly.LineStyle.Width = 0
	l.fills = append(l.fills, poly)
	for _, edge := range []plotter.XYs{upper, lower} {
		e, err := plotter.NewLine(edge)
		if err != nil {
			return err
		}
		e.Color = tint(c, 0.6)
		e.Width = vg.Points(0.6)
		l.edges = append(l.edges, e)
	}
	return nil
}

// curve adds a method's line through xy with its markers, and returns both for the
// legend.
func (l *layers) curve(xy plotter.XYs, name string, fallback int, radius vg.Length) (*plotter.Line, *plotter.Scatter, error) {
	line, sc, err := plotter.NewLinePoints(xy)
	if err != nil {
		return nil, nil, err
	}
	c, shape, dashes := methodStyle(name, fallback)
	line.Color, sc.Color = c, c
	line.Width = vg.Points(1.5)
	line.Dashes = dashes
	sc.Shape = shape
	sc.Radius = radius
	l.curves = append(l.curves, line, sc)
	return line, sc, nil
}

// addTo adds the layers to p in drawing order.
func (l *layers) addTo(p *plot.Plot) {
	p.Add(l.fills...)
	p.Add(l.edges...)
	p.Add(l.curves...)
}
