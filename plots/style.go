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

	"steadfast/compute/experiment"
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
// the same in every figure and run. Twelve methods share seven colours, so the methods
// a paper compares differ in colour: DRAGS, DGF, CGS, K-means and SVM-RFE (DRAGS, CGS);
// information gain, ReliefF, SVM-ONE and SVM-RFE (Kalousis); SVM-RFE, ensemble SVM-RFE
// and stability selection (MIDS); and those sharing a colour differ in marker.
var methodLook = map[string]struct{ colour, shape int }{
	"fstat": {0, 0}, "svmrfe": {1, 1}, "drags": {2, 2}, "cgs": {3, 3}, "relieff": {4, 4},
	"svmone": {5, 5}, "ensemblerfe": {6, 6}, "kmeans": {5, 7}, "infogain": {3, 4},
	"stabsel": {2, 6}, "bootstrap": {6, 0}, "dgf": {4, 2},
}

// Line patterns: a MIDS-prefiltered method is dashed; a second setting of a method in
// the same figure (DRAGS and DRAGS with the paper's bandwidth) is dash-dotted, and both
// dash-dot-dotted. The dotted pattern is fewGroupsMarks'.
var (
	midsDashes    = []vg.Length{vg.Points(5), vg.Points(2.5)}
	variantDashes = []vg.Length{vg.Points(6), vg.Points(2), vg.Points(1.5), vg.Points(2)}
	bothDashes    = []vg.Length{vg.Points(5), vg.Points(2), vg.Points(1.5), vg.Points(2), vg.Points(1.5), vg.Points(2)}
)

// methodStyle is the colour, marker and dashes of method i of a figure whose methods
// are names (as in method.Spec). A method has its name's colour and marker; a
// MIDS-prefiltered one its base's, dashed. The n-th repeat of a name (another setting
// of the same method) keeps the colour and takes the marker n x 3 further on, with
// its own line pattern. Names outside the list take slot i past the listed methods.
func methodStyle(names []string, i int) (color.Color, draw.GlyphDrawer, []vg.Length) {
	base, mids := strings.CutSuffix(names[i], "+mids")
	look, ok := methodLook[base]
	if !ok {
		j := len(methodLook) + i
		look.colour, look.shape = j%len(palette), j%len(shapes)
	}
	repeat := 0
	for _, n := range names[:i] {
		if n == names[i] {
			repeat++
		}
	}
	look.shape = (look.shape + 3*repeat) % len(shapes)
	var dashes []vg.Length
	switch {
	case mids && repeat > 0:
		dashes = bothDashes
	case mids:
		dashes = midsDashes
	case repeat > 0:
		dashes = variantDashes
	}
	return palette[look.colour], shapes[look.shape], dashes
}

// methodNames is the names of res's methods, in order, for methodStyle.
func methodNames(res *experiment.Result) []string {
	names := make([]string, len(res.Methods))
	for i, mr := range res.Methods {
		names[i] = mr.Spec.Name
	}
	return names
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

// curve adds the line of method i of names through xy with its markers, and returns both for the
// legend.
func (l *layers) curve(xy plotter.XYs, names []string, i int, radius vg.Length) (*plotter.Line, *plotter.Scatter, error) {
	line, sc, err := plotter.NewLinePoints(xy)
	if err != nil {
		return nil, nil, err
	}
	c, shape, dashes := methodStyle(names, i)
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
