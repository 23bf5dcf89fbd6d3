package plots

import (
	"bytes"
	"encoding/xml"
	"fmt"
	stdhtml "html"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"

	"steadfast/compute/experiment"
	"steadfast/compute/method"
)

// bandResult holds one method whose accuracy is 0.5 +- 0.3 at k = 1..50: a wide band
// well away from its curve.
func bandResult() *experiment.Result {
	var acc []experiment.AccuracyPoint
	for k := 1; k <= 50; k++ {
		acc = append(acc, experiment.AccuracyPoint{K: k, Mean: 0.5, SD: 0.3})
	}
	return &experiment.Result{
		Config:  experiment.Config{Protocol: experiment.CV10x10, Mode: experiment.Pairwise, Classifiers: []string{"svm"}},
		Methods: []experiment.MethodResult{{Spec: method.Spec{Name: "fstat"}, Label: "F-statistic", Accuracy: map[string][]experiment.AccuracyPoint{"svm": acc}}},
	}
}

// ghostscript rasterises a PDF or EPS file at dpi into a PNG and decodes it. Ghostscript
// is needed (the README's test command installs it): its absence fails the test.
func ghostscript(t *testing.T, path string, dpi int) image.Image {
	t.Helper()
	gs, err := exec.LookPath("gs")
	if err != nil {
		t.Fatal("Ghostscript (gs) is needed to check the PDF and EPS exports: apt-get install ghostscript")
	}
	out := path + ".gs.png"
	cmd := exec.Command(gs, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dEPSCrop", "-sDEVICE=png16m",
		"-r"+strconv.Itoa(dpi), "-sOutputFile="+out, path)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gs %s: %v\n%s", filepath.Base(path), err, b)
	}
	return decodePNG(t, out)
}

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// near reports whether two colours differ by at most tol in every channel (0..255).
func near(a, b color.Color, tol int) bool {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	d := func(x, y uint32) bool { v := int(x>>8) - int(y>>8); return v <= tol && v >= -tol }
	return d(r1, r2) && d(g1, g2) && d(b1, b2)
}

// TestVectorExportsLookLikePNG: the accuracy band has the PNG's pale colour in the PDF
// and the EPS too (it was grey in PDF and near black in EPS: colours written
// premultiplied by their alpha), and the PDF's text holds "±" (it read "Â±").
func TestVectorExportsLookLikePNG(t *testing.T) {
	dir := t.TempDir()
	w, _ := Length(16, "cm")
	h, _ := Length(10, "cm")
	fig := AccuracyVsK(bandResult(), "svm")
	if _, err := Export(fig, dir, Formats, ExportOptions{Width: w, Height: h, DPI: 100}); err != nil {
		t.Fatal(err)
	}
	ref := decodePNG(t, filepath.Join(dir, fig.Name+".png"))
	band := tint(palette[0], 0.18)
	// the band's pixels in the PNG, away from its edges and the grid
	var inside []image.Point
	b := ref.Bounds()
	for y := b.Min.Y + 2; y < b.Max.Y-2; y++ {
		for x := b.Min.X + 2; x < b.Max.X-2; x++ {
			all := true
			for _, d := range []image.Point{{0, 0}, {-2, 0}, {2, 0}, {0, -2}, {0, 2}} {
				if !near(ref.At(x+d.X, y+d.Y), band, 2) {
					all = false
				}
			}
			if all {
				inside = append(inside, image.Pt(x, y))
			}
		}
	}
	if len(inside) < 1000 {
		t.Fatalf("only %d band pixels in the PNG", len(inside))
	}
	for _, format := range []string{"pdf", "eps"} {
		img := ghostscript(t, filepath.Join(dir, fig.Name+"."+format), 100)
		if img.Bounds().Size() != b.Size() {
			t.Fatalf("%s rasterises to %v, the PNG is %v", format, img.Bounds().Size(), b.Size())
		}
		wrong := 0
		for _, p := range inside {
			if !near(img.At(p.X, p.Y), band, 12) {
				wrong++
			}
		}
		if wrong > len(inside)/50 {
			r, g, bl, _ := img.At(inside[len(inside)/2].X, inside[len(inside)/2].Y).RGBA()
			t.Errorf("%s: %d of %d band pixels differ from the PNG's band colour (e.g. %d,%d,%d)", format, wrong, len(inside), r>>8, g>>8, bl>>8)
		}
	}
	txt, err := exec.Command("gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=txtwrite", "-o", "-", filepath.Join(dir, fig.Name+".pdf")).Output()
	if err != nil {
		t.Fatal(err)
	}
	if s := string(txt); !strings.Contains(s, "mean ± sd") || strings.Contains(s, "Â") {
		t.Errorf("PDF text: %q", s)
	}
}

// TestExportsAreReadableByOthers: exported files get mode 0644 like any saved file (they
// were written 0600 through a private temporary file).
func TestExportsAreReadableByOthers(t *testing.T) {
	dir := t.TempDir()
	w, _ := Length(8, "cm")
	paths, err := Export(AccuracyVsK(bandResult(), "svm"), dir, []string{"png"}, ExportOptions{Width: w, Height: w, DPI: 72})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v", filepath.Base(p), st.Mode().Perm())
		}
	}
}

// TestEPSHeader: an EPS starts "%!PS-Adobe-3.0 EPSF-3.0" and its DSC comments are
// well formed: "%%Creator:" with its colon, and a creation date without Go's monotonic
// clock (gonum/plot writes time.Now().String(): "... +0000 UTC m=+57.249446429").
func TestEPSHeader(t *testing.T) {
	dir := t.TempDir()
	w, _ := Length(8, "cm")
	if _, err := Export(AccuracyVsK(bandResult(), "svm"), dir, []string{"eps"}, ExportOptions{Width: w, Height: w, DPI: 72}); err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.eps"))
	if len(paths) != 1 {
		t.Fatalf("EPS files: %v", paths)
	}
	b, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	head := string(b[:min(len(b), 600)])
	if !strings.HasPrefix(head, "%!PS-Adobe") || !strings.Contains(head, "%%Creator: ") {
		t.Errorf("EPS header:\n%s", head)
	}
	date := regexp.MustCompile(`(?m)^%%CreationDate: (.*)$`).FindStringSubmatch(head)
	if date == nil {
		t.Fatalf("no %%%%CreationDate in\n%s", head)
	}
	if _, err := time.Parse("2006-01-02 15:04:05 UTC", date[1]); err != nil || strings.Contains(date[1], "m=") {
		t.Errorf("%%%%CreationDate: %q", date[1])
	}
}

// TestReportHoldsEverything: the report has every figure as inline SVG that parses as
// XML, the tables, the configuration and a methods paragraph whose numbered citations
// match its reference list.
func TestReportHoldsEverything(t *testing.T) {
	res := smallResult(t) // F-statistic and SVM-RFE, 10 x 10-fold CV cut to 2 repeats
	var b bytes.Buffer
	w, _ := Length(16, "cm")
	h, _ := Length(10, "cm")
	if err := Report(&b, res, ExportOptions{Width: w, Height: h}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	svgs := regexp.MustCompile(`(?s)<svg.*?</svg>`).FindAllString(html, -1)
	if want := len(All(res)); len(svgs) != want {
		t.Errorf("%d inline figures, want %d", len(svgs), want)
	}
	for i, s := range svgs {
		if err := xml.Unmarshal([]byte(s), new(struct{})); err != nil {
			t.Errorf("figure %d is not well-formed SVG: %v", i+1, err)
		}
	}
	para, refs := MethodsParagraph(res)
	for _, want := range []string{"F-statistic", "SVM-RFE [1]", "2 repetitions of stratified 10-fold", "Kalousis", "[2]", "Nogueira", "McNemar's test [4]", "seed was 1"} {
		if !strings.Contains(para+strings.Join(refs, " "), want) {
			t.Errorf("methods paragraph lacks %q:\n%s", want, para)
		}
	}
	if len(refs) != 4 || !strings.HasPrefix(refs[0], "[1] Guyon") || !strings.HasPrefix(refs[3], "[4] Dietterich") {
		t.Errorf("references: %q", refs)
	}
	for _, want := range []string{"<h2>Configuration</h2>", `"protocol": "cv10x10"`, "top features", "Steadfast " + res.Version} {
		if !strings.Contains(stdhtml.UnescapeString(html), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestReportPDF: the PDF report holds the methods paragraph and its references as text
// (read back with Ghostscript) and a page for the figures; characters outside code page
// 1252 (a method named with Greek letters and ≥) are in the text layer too, where they
// had been drawn as outlines that copy as nothing.
func TestReportPDF(t *testing.T) {
	res := smallResult(t)
	res.Methods[0].Label = "TNF-α and IL-1β ≥ F-statistic"
	path := filepath.Join(t.TempDir(), "report.pdf")
	var b bytes.Buffer
	if err := ReportPDF(&b, res); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, b.Bytes(), 0o644)
	ghostscript(t, path, 20) // it rasterises
	txt, err := exec.Command("gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=txtwrite", "-o", "-", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Steadfast report", "Methods", "Guyon", "seed was 1", "Figures", "TNF-α and IL-1β ≥ F-statistic"} {
		if !strings.Contains(string(txt), want) {
			t.Errorf("the PDF's text lacks %q", want)
		}
	}
}

// fillCounter is a canvas that counts the path elements filled.
type fillCounter struct {
	vg.Canvas
	elements int
}

func (c *fillCounter) Fill(p vg.Path) { c.elements += len(p) }

// TestOutlineDrawsCJKFromTheFallback: a Chinese character, absent from Liberation Sans,
// is drawn from the fallback font (the report PDF had drawn it as an empty box, the
// notdef glyph of ten path elements: two rectangles); its advance is a full em.
func TestOutlineDrawsCJKFromTheFallback(t *testing.T) {
	face := font.DefaultCache.Lookup(font.Font{Typeface: "Liberation", Variant: "Sans", Size: 10}, 10)
	var buf sfnt.Buffer
	if idx, _ := face.Face.GlyphIndex(&buf, '腫'); idx != 0 {
		t.Fatalf("Liberation Sans has 腫 (glyph %d): the test needs a character it lacks", idx)
	}
	var c fillCounter
	end := outline(&c, face, vg.Point{}, "腫")
	if c.elements < 40 {
		t.Errorf("腫 drawn with %d path elements: the notdef box, not the character", c.elements)
	}
	if end < 9 || end > 11 {
		t.Errorf("advance %v, want about the 10 pt em", end)
	}
}

// The report says what a reader needs to repeat the study (issue 32): the GEO
// accession and platform, SVM-RFE's settings and its fits that hit the iteration cap, a
// title per stability figure, where the rows it leaves out are, and Nogueira's test as a
// table (also in result.json). The settings are the method's defaults (method.go);
// the capped count is set on the result by hand.
func TestReportNamesSourceSettingsAndTables(t *testing.T) {
	res := smallResult(t) // F-statistic and SVM-RFE
	res.Data.Accession, res.Data.Platform = "GDS507", "GPL97"
	res.Methods[1].Unconverged = 7
	para, _ := MethodsParagraph(res)
	for _, want := range []string{"(GEO GDS507, platform GPL97; 40 samples",
		"SVM-RFE used a linear SVM (C = 1, squared hinge loss, tolerance 1e-06, at most 1000 passes over the samples), dropping 10% of the remaining features each round.",
		"7 of its SVM fits stopped at the cap of 1000 passes before meeting the tolerance."} {
		if !strings.Contains(para, want) {
			t.Errorf("methods paragraph lacks %q:\n%s", want, para)
		}
	}
	titles := map[string]string{}
	for _, f := range All(res) {
		if prev, ok := titles[f.Title]; ok {
			t.Errorf("figures %s and %s have the same title %q", prev, f.Name, f.Title)
		}
		titles[f.Title] = f.Name
	}
	var b bytes.Buffer
	if err := Report(&b, res, ExportOptions{Width: 600, Height: 400}); err != nil {
		t.Fatal(err)
	}
	html := stdhtml.UnescapeString(b.String())
	top := TopTable(res, 0)
	if more := len(top.Table) - 1 - 30; more > 0 && !strings.Contains(html, fmt.Sprintf("%d more rows in %s.csv, beside this report", more, top.Name)) {
		t.Errorf("the report does not name the CSV of the %d rows it leaves out", more)
	}
	if !strings.Contains(html, "GDS507.") && !strings.Contains(html, "(GEO GDS507, platform GPL97)") {
		t.Error("the report's data section lacks the accession")
	}
	names := map[string]bool{}
	for _, f := range ReportTables(res) {
		names[f.Name] = true
	}
	tests := StabilityTestTable(res)
	if !names["top-features-f-statistic"] || !names["stability-tests"] || len(tests.Table) != 2 {
		t.Errorf("report tables %v; Nogueira's test table %v", names, tests.Table)
	}
	// its row agrees with the text the command line prints and with result.json's list
	c := experiment.StabilityComparisons(res)[0]
	if row := tests.Table[1]; row[0] != "F-statistic" || row[1] != "SVM-RFE" || row[5] != strconv.FormatFloat(c.P, 'g', 6, 64) {
		t.Errorf("table row %v, comparison %+v", row, c)
	}
	if len(res.StabilityTests) != 1 || res.StabilityTests[0] != c {
		t.Errorf("result's stabilityTests %+v, want %+v", res.StabilityTests, c)
	}
}

// stability-nogueira.csv: Phi is over all resamples, not pairs, and its variance is
// given (Nogueira's test uses it): half the interval's width over 1.96, squared, is the
// variance (their Theorem 9), to the interval's rounding.
func TestNogueiraTableModeAndVariance(t *testing.T) {
	res := smallResult(t)
	var f Figure
	for _, m := range Measures {
		if m.Key == "nogueira" {
			f = StabilityVsK(res, m)
		}
	}
	h := f.Table[0]
	if h[len(h)-1] != "variance" {
		t.Fatalf("header %v", h)
	}
	for _, row := range f.Table[1:] {
		if row[0] == "random selection" {
			continue
		}
		if row[3] != "all resamples" {
			t.Errorf("mode %q", row[3])
		}
		v, _ := strconv.ParseFloat(row[4], 64)
		lo, _ := strconv.ParseFloat(row[7], 64)
		hi, _ := strconv.ParseFloat(row[8], 64)
		vr, _ := strconv.ParseFloat(row[9], 64)
		if hi < 1 && lo > -1 { // an interval not clipped
			if want := math.Pow((hi-lo)/2/1.959964, 2); math.Abs(vr-want) > 2e-4*math.Max(1, 1/math.Max(v, 1e-3)) && math.Abs(vr-want)/want > 0.01 {
				t.Errorf("row %v: variance %g, from the interval %g", row, vr, want)
			}
		}
	}
}
