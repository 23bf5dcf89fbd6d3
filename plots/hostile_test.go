package plots

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"steadfast/compute/signature"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// TestPDFTakesNamesOutsideTheBasicPlane: feature names with an emoji, a CJK extension B
// ideograph and mathematical letters (as GEO and spreadsheets bring) are written into
// the report PDF and every figure's PDF; the PDF library had panicked ("index out of
// range [65536]") on any character beyond U+FFFF. Such a character is drawn as U+FFFD;
// the rest of the name, Chinese included (from the fallback font), is in the text layer
// as itself (read back with Ghostscript).
func TestPDFTakesNamesOutsideTheBasicPlane(t *testing.T) {
	res := smallResult(t)
	for i := range res.Data.Features {
		res.Data.Features[i] = fmt.Sprintf("Ünïcödé-γ-数据-😀-𠀀-𝔊%d", i)
	}
	res.Methods[0].Label = "F-statistic 😀"
	dir := t.TempDir()
	var b bytes.Buffer
	if err := ReportPDF(&b, res); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "report.pdf")
	os.WriteFile(path, b.Bytes(), 0o644)
	txt, err := exec.Command("gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=txtwrite", "-o", "-", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	// (Ghostscript lists the text of each font apart: the Latin, the fallback's Chinese)
	for _, want := range []string{"Ünïcödé-γ-", "数据", "-\uFFFD-\uFFFD-\uFFFD", "F-statistic \uFFFD"} {
		if !strings.Contains(string(txt), want) {
			t.Errorf("the PDF's text lacks %q", want)
		}
	}
	for _, f := range All(res) {
		if _, err := Export(f, dir, []string{"pdf"}, ExportOptions{Width: 400, Height: 300}); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
	}
}

// TestPDFReportOfAVeryLongNameEnds: a feature named by 20,000 characters is wrapped
// into the report PDF whole (its characters all in the text layer). Cutting the word
// had measured every head of it for every line, cubic in its length: the report ran
// for over 95 minutes. The limit only guards against such a hang.
func TestPDFReportOfAVeryLongNameEnds(t *testing.T) {
	res := smallResult(t)
	long := strings.Repeat("x", 20000)
	for i := range res.Data.Features {
		res.Data.Features[i] = fmt.Sprintf("%s%d", long, i)
	}
	done := make(chan error, 1)
	var b bytes.Buffer
	go func() { done <- ReportPDF(&b, res) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Minute):
		t.Fatal("the report still runs after 5 minutes: a hang")
	}
	face := font.DefaultCache.Lookup(font.Font{Typeface: "Liberation", Variant: "Sans", Size: 8.5}, 8.5)
	lines := wrap(long+" tail", face, 300)
	if got := strings.ReplaceAll(strings.Join(lines, ""), " ", ""); got != long+"tail" {
		t.Errorf("wrap lost characters: %d of %d", len(got), len(long)+4)
	}
	for _, l := range lines[:len(lines)-1] {
		if face.Width(l) > 300 {
			t.Fatalf("a line of %.1f pt is wider than 300 pt", face.Width(l).Points())
		}
	}
}

// TestReportsStopWhenCancelled: both report writers return the context's error, not a
// report, once it is cancelled (a signal stops the command that writes them).
func TestReportsStopWhenCancelled(t *testing.T) {
	res := smallResult(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var b bytes.Buffer
	if err := ReportPDFWith(ctx, &b, res, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("PDF: %v", err)
	}
	if err := ReportWith(ctx, &b, res, nil, ExportOptions{Width: 400, Height: 300}); !errors.Is(err, context.Canceled) {
		t.Errorf("HTML: %v", err)
	}
}

// Digits are not kerned together when text is drawn as outlines (PNG, the screen,
// EPS): Liberation Sans kerns "11" by 7% of an em, which at a screen's sizes merged the
// two into one glyph (Hsa.1139 read Hsa.139). "11" ends two advances of "1" after its
// start; "AV" keeps its kerning.
func TestDigitsAreNotKernedTogether(t *testing.T) {
	face := font.DefaultCache.Lookup(font.Font{Typeface: "Liberation", Variant: "Sans", Size: 10}, 10)
	c := &fillCounter{}
	one := outline(c, face, vg.Point{}, "1")
	if two := outline(c, face, vg.Point{}, "11"); math.Abs(float64(two-2*one)) > 1e-9 {
		t.Errorf(`"11" is %v long, "1" %v`, two, one)
	}
	if av, a, v := outline(c, face, vg.Point{}, "AV"), outline(c, face, vg.Point{}, "A"), outline(c, face, vg.Point{}, "V"); av >= a+v {
		t.Errorf(`"AV" (%v) is not kerned (A %v, V %v)`, av, a, v)
	}
}

// The heat map's axes reach its dendrograms' top merges (the gene tree's had hung
// outside them, its subtrees unconnected), it draws no axis line, and its export is
// tall enough to name every gene on a row of 7 points.
func TestHeatmapHoldsItsTreesAndNames(t *testing.T) {
	const ng, ns = 50, 62
	var genes, samples []string
	values := make([][]float64, ng)
	labels := make([]int, ns)
	for g := range values {
		genes = append(genes, fmt.Sprintf("Hsa.%d", 1100+g))
		for i := 0; i < ns; i++ {
			values[g] = append(values[g], math.Sin(float64(g*i+g)))
		}
	}
	for i := 0; i < ns; i++ {
		samples = append(samples, fmt.Sprintf("s%d", i))
		labels[i] = i % 2
	}
	f := SignatureHeatmap("t", genes, samples, []string{"a", "b"}, labels, values)
	p, err := f.Build()
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Min > -0.8-0.12*ns || p.Y.Max < ng+0.7+0.18*ng {
		t.Errorf("axes x from %v, y to %v: short of the trees' tops", p.X.Min, p.Y.Max)
	}
	if p.X.LineStyle.Width != 0 || p.Y.LineStyle.Width != 0 {
		t.Error("an axis line runs through the labels")
	}
	if f.MinHeight < vg.Points(7*ng) {
		t.Errorf("the export's least height %v cannot name %d genes", f.MinHeight, ng)
	}
}

// A legend wider than its figure is set smaller, then wrapped, and the square plot is
// drawn inside the frame (a cohort's ROC legend of 537 points on a 16 cm figure had sent
// the plot, drawn a second time mirrored, off its left edge).
func TestWideLegendStaysInItsFigure(t *testing.T) {
	long := "when built, cross-validated mean curve; nested cross-validated AUC 0.951 (95% CI 0.783-1.000)"
	for _, tc := range []struct {
		entry string
		w     vg.Length
		lines int // at least
	}{
		{long, 16 * vg.Centimeter, 1},
		{long + "; " + long, 16 * vg.Centimeter, 2},
		{long, 6 * vg.Centimeter, 2},
	} {
		p := square(plot.New())
		p.Title.Text = "t"
		line, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
		if err != nil {
			t.Fatal(err)
		}
		p.Add(line)
		p.Legend.Add(tc.entry, line)
		p.Legend.Add("chance", line)
		c := draw.New(vgimg.New(tc.w, 10*vg.Centimeter))
		fitLegend(&p.Legend, c)
		r := p.Legend.Rectangle(c)
		if w := r.Max.X - r.Min.X; w > tc.w {
			t.Errorf("%v figure: legend %v wide", tc.w, w)
		}
		if n := len(p.Legend.TextStyle.Handler.Lines(tc.entry)); n < tc.lines {
			t.Errorf("%v figure: %d lines, want at least %d", tc.w, n, tc.lines)
		}
		area := drawFigure(p, c)
		if area.Min.X < c.Min.X || area.Max.X > c.Max.X || area.Max.X <= area.Min.X {
			t.Errorf("%v figure: plot drawn on %v, outside %v", tc.w, area.Rectangle, c.Rectangle)
		}
	}
}

// A legend entry without a swatch (the ROC legend's headline line) writes no colour
// into an SVG: its transparent fill had been written as "#-8000000000000000...", where
// viewers stop drawing the file.
func TestSVGHasNoInvalidColour(t *testing.T) {
	pos := []bool{true, true, false, false}
	s := []float64{0.9, 0.4, 0.5, 0.1}
	est := &signature.Estimate{Repeats: []int{0}, Curves: [][]signature.ROCPoint{signature.ROC(s, pos)}, AUCs: []signature.AUC{signature.DeLong(s, pos)}}
	h := &signature.Headline{AUC: 0.8, Low: 0.6, High: 0.9, Estimate: signature.HeadlineNested}
	dir := t.TempDir()
	files, err := Export(SignatureROC(est, nil, h, "svg"), dir, []string{"svg"}, ExportOptions{Width: 16 * vg.Centimeter, Height: 10 * vg.Centimeter, DPI: 100})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("#-")) {
		t.Error("the SVG holds a negative colour")
	}
}
