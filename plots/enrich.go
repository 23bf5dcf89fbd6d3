package plots

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"steadfast/compute/enrich"
	"steadfast/compute/study"
	"steadfast/internal/text"
)

// enrichTerms is the most terms the dot plot shows; termWidth the characters of a line
// of a term's name.
const (
	enrichTerms = 20
	termWidth   = 40
)

// wrapName breaks name at spaces into lines of at most width characters (a longer word
// stays whole on its line; a parenthesis that fits on a line is not broken).
func wrapName(name string, width int) string {
	var lines []string
	line := ""
	for _, w := range keepParentheses(strings.Fields(name), width) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = w
			continue
		}
		line = strings.TrimSpace(line + " " + w)
	}
	return strings.Join(append(lines, line), "\n")
}

// keepParentheses joins the words of a parenthesis, "(with" and "score)", into one
// when they fit in width.
func keepParentheses(words []string, width int) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "(") && !strings.HasSuffix(w, ")") {
			for j := i + 1; j < len(words); j++ {
				if g := strings.Join(words[i:j+1], " "); strings.HasSuffix(words[j], ")") {
					if len(g) <= width {
						w, i = g, j
					}
					break
				}
			}
		}
		out = append(out, w)
	}
	return out
}

// EnrichmentFigure draws the most significant terms of e as a dot plot: a term a row
// (the most significant at the top, its name wrapped, never cut), its gene ratio
// (selected genes in it over the selected) across, the dot's area its count of selected
// genes and its colour -log10 q; the title says how many terms reach q < enrich.Alpha,
// and when none does that the terms shown are the least unlikely, not significant. Its
// table is enrichment.csv's rows drawn.
func EnrichmentFigure(data string, e *study.Enrichment) Figure {
	terms := e.Terms[:min(enrichTerms, len(e.Terms))]
	significant := 0
	for _, t := range e.Terms {
		if t.Q < enrich.Alpha {
			significant++
		}
	}
	title := fmt.Sprintf("%s: what %s's top %d genes mean (%s, over-representation): %d of %s at q < %.2f", data, e.Method, e.K, e.Collection.Name, significant, text.Count(len(e.Terms), "term"), enrich.Alpha)
	if significant == 0 {
		title = fmt.Sprintf("%s: what %s's top %d genes mean (%s): no term significant (every q >= %.2f); the %d of smallest p", data, e.Method, e.K, e.Collection.Name, enrich.Alpha, len(terms))
	}
	f := Figure{Name: "enrichment-dotplot", Title: title}
	lines := 0
	for _, t := range terms {
		lines += strings.Count(wrapName(t.Set.Name, termWidth), "\n") + 1
	}
	f.MinHeight = vg.Points(float64(lines)*9 + float64(len(terms))*4 + 140)
	all := e.Table()
	f.Table = all[:min(len(all), enrichTerms+1)]
	f.Build = func() (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = title
		p.X.Label.Text = "gene ratio (selected genes in the term / selected genes in the universe)"
		top := 1.0
		for _, t := range terms {
			top = math.Max(top, -math.Log10(math.Max(t.Q, 1e-300)))
		}
		pal := moreland.SmoothBlueRed()
		pal.SetMin(0)
		pal.SetMax(top)
		maxX := 1
		for _, t := range terms {
			maxX = max(maxX, t.X)
		}
		var ticks []plot.Tick
		xmax := 0.0
		for i, t := range terms {
			y := float64(len(terms) - 1 - i)
			c, err := pal.At(math.Min(top, -math.Log10(math.Max(t.Q, 1e-300))))
			if err != nil {
				return nil, err
			}
			sc, err := plotter.NewScatter(plotter.XYs{{X: t.Ratio, Y: y}})
			if err != nil {
				return nil, err
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: c, Shape: draw.CircleGlyph{}, Radius: vg.Points(2 + 6*math.Sqrt(float64(t.X)/float64(maxX)))}
			p.Add(sc)
			ticks = append(ticks, plot.Tick{Value: y, Label: wrapName(t.Set.Name, termWidth)})
			xmax = math.Max(xmax, t.Ratio)
		}
		p.Y.Tick.Marker = plot.ConstantTicks(ticks)
		p.Y.Tick.Label.Font.Size = vg.Points(7)
		p.Y.Min, p.Y.Max = -0.8, float64(len(terms))-0.2
		p.X.Min, p.X.Max = 0, xmax*1.15+1e-9
		for _, v := range []float64{0, top / 2, top} {
			c, _ := pal.At(v)
			p.Legend.Add(fmt.Sprintf("-log10 q = %.1f", v), swatch{c})
		}
		key, err := plotter.NewScatter(plotter.XYs{{}})
		if err != nil {
			return nil, err
		}
		key.GlyphStyle = draw.GlyphStyle{Color: color.Gray{0x90}, Shape: draw.CircleGlyph{}, Radius: vg.Points(5)}
		p.Legend.Add(fmt.Sprintf("dot area: selected genes in the term (largest %d)", maxX), key)
		p.Legend.Top = false
		return p, nil
	}
	return f
}
