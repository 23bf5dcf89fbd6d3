package plots

import (
	stdhtml "html"
	"image/color"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"steadfast/compute/dataset"
	"steadfast/compute/survival"
)

// dlbclPath is Lenz et al.'s CHOP cohort: 181 patients, overall survival in years.
const dlbclPath = "../../shared/data/dlbcl_chop_survival.csv"

// dlbclRisk reads the CHOP cohort and fits a Cox model of its three genes of smallest
// univariate Cox p; it returns the outcome, the model's linear predictor (the risk
// score) and the genes' columns. The data missing fails the test.
func dlbclRisk(t testing.TB) (survival.Outcome, []float64, *mat.Dense, *survival.CoxFit) {
	t.Helper()
	ds, err := dataset.ReadFile(dlbclPath, dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	if ds.Survival == nil {
		t.Fatalf("%s read without its survival outcome", dlbclPath)
	}
	o := survival.Outcome{Time: ds.Survival.Time, Event: ds.Survival.Event}
	uni, err := survival.UnivariateCox(o, ds.X, nil)
	if err != nil {
		t.Fatal(err)
	}
	order := make([]int, len(uni.P))
	for j := range order {
		order[j] = j
	}
	sort.SliceStable(order, func(a, b int) bool { return less(uni.P[order[a]], uni.P[order[b]]) })
	n, _ := ds.X.Dims()
	x := mat.NewDense(n, 3, nil)
	for c, j := range order[:3] {
		x.SetCol(c, mat.Col(nil, j, ds.X))
	}
	fit, err := survival.Cox(o, x, survival.CoxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return o, fit.LinearPredictor, x, fit
}

// less orders p-values with NaN last.
func less(a, b float64) bool { return a < b || (!math.IsNaN(a) && math.IsNaN(b)) }

// quantileCuts are the cut-offs splitting score into g groups of about equal size.
func quantileCuts(score []float64, g int) []float64 {
	s := slices.Clone(score)
	slices.Sort(s)
	var cuts []float64
	for k := 1; k < g; k++ {
		cuts = append(cuts, s[k*len(s)/g-1])
	}
	return cuts
}

// kmGroups splits o by groups (labels 0..G-1) into named Kaplan-Meier curves, with
// the log-rank test.
func kmGroups(t testing.TB, o survival.Outcome, groups []int, names []string) ([]KMCurve, *survival.LogRank) {
	t.Helper()
	rows := make([][]int, len(names))
	for i, g := range groups {
		rows[g] = append(rows[g], i)
	}
	var curves []KMCurve
	for g, name := range names {
		km, err := survival.KM(o.Subset(rows[g]))
		if err != nil {
			t.Fatal(err)
		}
		curves = append(curves, KMCurve{Name: name, Fit: km})
	}
	lr, err := survival.LogRankTest(o, groups)
	if err != nil {
		t.Fatal(err)
	}
	return curves, lr
}

// drawnText is a string drawn on a recorder: its box on the page (an affine map of
// its advance and font extents), baseline start, size and colour.
type drawnText struct {
	s          string
	min, max   vg.Point
	at         vg.Point
	size       vg.Length
	colour     color.Color
	horizontal bool
}

// centre is the middle of t's box across.
func (t drawnText) centre() vg.Length { return (t.min.X + t.max.X) / 2 }

// affine is x' = a x + c y + e, y' = b x + d y + f.
type affine struct{ a, b, c, d, e, f float64 }

func (m affine) apply(p vg.Point) vg.Point {
	x, y := float64(p.X), float64(p.Y)
	return vg.Point{X: vg.Length(m.a*x + m.c*y + m.e), Y: vg.Length(m.b*x + m.d*y + m.f)}
}

func (m affine) then(n affine) affine { // m applied after n: m(n(p))
	return affine{
		a: m.a*n.a + m.c*n.b, b: m.b*n.a + m.d*n.b,
		c: m.a*n.c + m.c*n.d, d: m.b*n.c + m.d*n.d,
		e: m.a*n.e + m.c*n.f + m.e, f: m.b*n.e + m.d*n.f + m.f,
	}
}

// recorder is a canvas that records the strings drawn, with their boxes.
type recorder struct {
	vg.CanvasSizer
	stack  []affine
	colour []color.Color
	texts  []drawnText
}

func newRecorder(w, h vg.Length) *recorder {
	return &recorder{CanvasSizer: vgimg.New(w, h), stack: []affine{{a: 1, d: 1}}, colour: []color.Color{color.Black}}
}

func (r *recorder) top() affine { return r.stack[len(r.stack)-1] }
func (r *recorder) Push() {
	r.stack = append(r.stack, r.top())
	r.colour = append(r.colour, r.colour[len(r.colour)-1])
	r.CanvasSizer.Push()
}
func (r *recorder) Pop() {
	r.stack, r.colour = r.stack[:len(r.stack)-1], r.colour[:len(r.colour)-1]
	r.CanvasSizer.Pop()
}
func (r *recorder) SetColor(c color.Color) { r.colour[len(r.colour)-1] = c; r.CanvasSizer.SetColor(c) }
func (r *recorder) Rotate(rad float64) {
	s, c := math.Sincos(rad)
	r.stack[len(r.stack)-1] = r.top().then(affine{a: c, b: s, c: -s, d: c})
	r.CanvasSizer.Rotate(rad)
}
func (r *recorder) Translate(p vg.Point) {
	r.stack[len(r.stack)-1] = r.top().then(affine{a: 1, d: 1, e: float64(p.X), f: float64(p.Y)})
	r.CanvasSizer.Translate(p)
}
func (r *recorder) Scale(x, y float64) {
	r.stack[len(r.stack)-1] = r.top().then(affine{a: x, d: y})
	r.CanvasSizer.Scale(x, y)
}

// FillString records s; its box runs from 0.15 em below the baseline to 0.7 em above
// it (a digit's or capital's ink), so lines one em apart do not overlap.
func (r *recorder) FillString(f font.Face, pt vg.Point, s string) {
	m := r.top()
	w, size := f.Width(s), f.Font.Size
	corners := []vg.Point{{X: pt.X, Y: pt.Y - 0.15*size}, {X: pt.X + w, Y: pt.Y - 0.15*size}, {X: pt.X, Y: pt.Y + 0.7*size}, {X: pt.X + w, Y: pt.Y + 0.7*size}}
	d := drawnText{s: s, size: size, colour: r.colour[len(r.colour)-1], at: m.apply(pt), horizontal: m.b == 0 && m.a > 0}
	d.min = vg.Point{X: vg.Length(math.Inf(1)), Y: vg.Length(math.Inf(1))}
	d.max = vg.Point{X: vg.Length(math.Inf(-1)), Y: vg.Length(math.Inf(-1))}
	for _, c := range corners {
		p := m.apply(c)
		d.min.X, d.min.Y = min(d.min.X, p.X), min(d.min.Y, p.Y)
		d.max.X, d.max.Y = max(d.max.X, p.X), max(d.max.Y, p.Y)
	}
	r.texts = append(r.texts, d)
}

// drawRecorded draws f at w x h on a recorder and returns its strings.
func drawRecorded(t *testing.T, f Figure, w, h vg.Length) []drawnText {
	t.Helper()
	ps, err := f.charts()
	if err != nil {
		t.Fatalf("%s: %v", f.Name, err)
	}
	r := newRecorder(w, h)
	drawCharts(f.Title, ps, draw.New(r))
	return r.texts
}

// checkTexts fails when a string is drawn outside the w x h page or over another.
func checkTexts(t *testing.T, what string, texts []drawnText, w, h vg.Length) {
	t.Helper()
	const tol = 0.5
	for _, d := range texts {
		if d.min.X < -tol || d.min.Y < -tol || d.max.X > w+tol || d.max.Y > h+tol {
			t.Errorf("%s: %q drawn at %v-%v, outside the %v x %v page", what, d.s, d.min, d.max, w, h)
		}
	}
	for i, a := range texts {
		for _, b := range texts[i+1:] {
			if a.min.X < b.max.X-tol && b.min.X < a.max.X-tol && a.min.Y < b.max.Y-tol && b.min.Y < a.max.Y-tol {
				t.Errorf("%s: %q (%v-%v) overlaps %q (%v-%v)", what, a.s, a.min, a.max, b.s, b.min, b.max)
			}
		}
	}
}

// lookDir is where the figures are written to be looked at, when STEADFAST_LOOK is set
// (a directory); "" otherwise.
func lookDir(t *testing.T) string {
	d := os.Getenv("STEADFAST_LOOK")
	if d == "" {
		return ""
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// look writes f, named with suffix, for the eye: at 16 x 10 cm (300 dpi, every
// format) and at 600 x 400 pixels on the screen (96 dpi), into lookDir when set.
func look(t *testing.T, f Figure, suffix string) {
	t.Helper()
	dir := lookDir(t)
	if dir == "" {
		return
	}
	if suffix != "" {
		f.Name += "-" + suffix
	}
	if _, err := Export(f, dir, Formats, ExportOptions{Width: 16 * vg.Centimeter, Height: 10 * vg.Centimeter, DPI: 300}); err != nil {
		t.Fatal(err)
	}
	r, err := Render(f, 600, 400, 96)
	if err != nil {
		t.Fatal(err)
	}
	fh, err := os.Create(filepath.Join(dir, f.Name+"-screen.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	if err := png.Encode(fh, r.Image); err != nil {
		t.Fatal(err)
	}
}

// atoi reads an integer cell.
func atoi(t *testing.T, s string) int {
	t.Helper()
	v, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("cell %q: %v", s, err)
	}
	return v
}

// lines groups texts drawn horizontally into lines by the bottom of their boxes,
// top line first, each line's texts left to right.
func lines(texts []drawnText) [][]drawnText {
	var out [][]drawnText
	for _, d := range texts {
		if !d.horizontal {
			continue
		}
		i := slices.IndexFunc(out, func(l []drawnText) bool { return math.Abs(float64(l[0].min.Y-d.min.Y)) < 0.3 })
		if i < 0 {
			out = append(out, nil)
			i = len(out) - 1
		}
		out[i] = append(out[i], d)
	}
	for _, l := range out {
		sort.Slice(l, func(a, b int) bool { return l[a].min.X < l[b].min.X })
	}
	sort.Slice(out, func(a, b int) bool { return out[a][0].min.Y > out[b][0].min.Y })
	return out
}

// strs is the strings of a line.
func strs(l []drawnText) []string {
	var s []string
	for _, d := range l {
		s = append(s, d.s)
	}
	return s
}

// checkAtRiskRows checks the numbers at risk among texts: under the line of the tick
// labels, the first rows ending in len(labels) whole numbers are the groups' in order,
// those numbers are counts[g], and each is centred on its tick's label within tol.
// It returns those rows.
func checkAtRiskRows(t *testing.T, what string, texts []drawnText, labels []string, counts [][]int, tol vg.Length) [][]drawnText {
	t.Helper()
	ls := lines(texts)
	tick := slices.IndexFunc(ls, func(l []drawnText) bool { return slices.Equal(strs(l), labels) })
	if tick < 0 {
		t.Fatalf("%s: no line of the tick labels %v", what, labels)
	}
	var rows [][]drawnText
	for _, l := range ls[tick+1:] {
		if len(l) <= len(labels) {
			continue
		}
		tail := l[len(l)-len(labels):]
		whole := true
		for _, d := range tail {
			if _, err := strconv.Atoi(d.s); err != nil {
				whole = false
			}
		}
		if whole && len(rows) < len(counts) {
			rows = append(rows, l)
		}
	}
	if len(rows) != len(counts) {
		t.Fatalf("%s: %d rows of numbers at risk under the axis, want %d", what, len(rows), len(counts))
	}
	for g, l := range rows {
		tail := l[len(l)-len(labels):]
		for i, d := range tail {
			if d.s != strconv.Itoa(counts[g][i]) {
				t.Errorf("%s: group %d at %s: drawn %q, at risk %d", what, g, labels[i], d.s, counts[g][i])
			}
			if off := d.centre() - ls[tick][i].centre(); math.Abs(float64(off)) > float64(tol) {
				t.Errorf("%s: group %d's count %s is %.2f pt off its tick %s", what, g, d.s, float64(off), labels[i])
			}
		}
	}
	return rows
}

// pdfWords are the words of a PDF's first page as pdftotext -bbox reads them, y up.
func pdfWords(t *testing.T, path string) []drawnText {
	t.Helper()
	out, err := exec.Command("pdftotext", "-bbox", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext (poppler-utils) on %s: %v", filepath.Base(path), err)
	}
	h := regexp.MustCompile(`<page width="[0-9.]+" height="([0-9.]+)"`).FindSubmatch(out)
	if h == nil {
		t.Fatalf("pdftotext: no page in %s", out)
	}
	ph, _ := strconv.ParseFloat(string(h[1]), 64)
	var words []drawnText
	for _, m := range regexp.MustCompile(`<word xMin="([-0-9.]+)" yMin="([-0-9.]+)" xMax="([-0-9.]+)" yMax="([-0-9.]+)">([^<]*)</word>`).FindAllSubmatch(out, -1) {
		v := make([]float64, 4)
		for i := range v {
			v[i], _ = strconv.ParseFloat(string(m[i+1]), 64)
		}
		words = append(words, drawnText{s: stdhtml.UnescapeString(string(m[5])), horizontal: true,
			min: vg.Point{X: vg.Length(v[0]), Y: vg.Length(ph - v[3])}, max: vg.Point{X: vg.Length(v[2]), Y: vg.Length(ph - v[1])}})
	}
	return words
}

// svgTexts are the strings of an SVG as gonum/plot writes them (one <text> a string,
// at its baseline's start, y down), measured in the figure's font, y up.
func svgTexts(t *testing.T, path string) []drawnText {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []drawnText
	re := regexp.MustCompile(`<text x="([-0-9.e]+)" y="([-0-9.e]+)" transform="scale\(1, -1\)"\s*style="[^"]*font-size:([0-9.]+)px[^"]*">([^<]*)</text>`)
	for _, m := range re.FindAllSubmatch(b, -1) {
		x, _ := strconv.ParseFloat(string(m[1]), 64)
		y, _ := strconv.ParseFloat(string(m[2]), 64)
		size, _ := strconv.ParseFloat(string(m[3]), 64)
		s := stdhtml.UnescapeString(string(m[4]))
		face := font.DefaultCache.Lookup(font.Font{Typeface: "Liberation", Variant: "Sans", Size: vg.Length(size)}, vg.Length(size))
		sz := vg.Length(size)
		out = append(out, drawnText{s: s, horizontal: true, size: sz,
			min: vg.Point{X: vg.Length(x), Y: vg.Length(-y) - 0.15*sz}, max: vg.Point{X: vg.Length(x) + face.Width(s), Y: vg.Length(-y) + 0.7*sz}})
	}
	if len(out) == 0 {
		t.Fatalf("no text read from %s", filepath.Base(path))
	}
	return out
}
