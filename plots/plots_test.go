package plots

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"steadfast/compute/experiment"
	"steadfast/compute/synth"
)

func smallResult(t *testing.T) *experiment.Result {
	t.Helper()
	ds, _ := synth.Generate(synth.D1k, 40, 1, 0)
	cfg := experiment.DefaultConfig()
	cfg.Repeats, cfg.Ks = 2, []int{1, 2, 5, 10}
	res, err := experiment.Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestExportEveryFormat(t *testing.T) {
	res := smallResult(t)
	dir := t.TempDir()
	w, _ := Length(16, "cm")
	h, _ := Length(10, "cm")
	for _, f := range All(res) {
		paths, err := Export(f, dir, Formats, ExportOptions{Width: w, Height: h, DPI: 300})
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if len(paths) != 5 {
			t.Fatalf("%s: wrote %v", f.Name, paths)
		}
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	img, err := png.Decode(bytes.NewReader(read("stability-simid.png")))
	if err != nil {
		t.Fatal(err)
	}
	// 16 cm x 10 cm at 300 dpi = 1890 x 1181 pixels (16 / 2.54 * 300)
	if b := img.Bounds(); b.Dx() != 1890 || b.Dy() != 1181 {
		t.Errorf("PNG is %d x %d", b.Dx(), b.Dy())
	}
	if b := read("stability-simid.pdf"); !bytes.HasPrefix(b, []byte("%PDF-")) || !bytes.Contains(b, []byte("FontFile")) {
		t.Error("PDF header or embedded font missing")
	}
	if b := read("stability-simid.svg"); !bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte("@font-face")) {
		t.Error("SVG without embedded fonts")
	}
	if b := read("stability-simid.eps"); !bytes.HasPrefix(b, []byte("%!PS-Adobe")) {
		t.Error("EPS header missing")
	}
	rows, err := csv.NewReader(bytes.NewReader(read("stability-simid.csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// header + 2 methods x 4 ks + the random baseline at 4 ks; the values are those of the result
	if len(rows) != 13 || rows[0][0] != "method" || rows[1][1] != "1" || rows[1][4] != f4(res.Methods[0].Stability[0].SimID) {
		t.Errorf("CSV rows %v", rows[:2])
	}
	// random baseline of Sim_ID at k = 10 of p = 1000 features: 10/1000 (worked by hand)
	if last := rows[12]; last[0] != "random selection" || last[1] != "10" || last[4] != "0.0100" {
		t.Errorf("random baseline row %v", last)
	}
	acc, _ := csv.NewReader(bytes.NewReader(read("accuracy-svm.csv"))).ReadAll()
	if len(acc) != 9 {
		t.Errorf("accuracy CSV has %d rows", len(acc))
	}
	if _, err := Export(All(res)[0], dir, []string{"gif"}, ExportOptions{Width: w, Height: h}); err == nil || !strings.Contains(err.Error(), "gif") {
		t.Errorf("unknown format: %v", err)
	}
}

func TestRenderPixelsInsideImage(t *testing.T) {
	res := smallResult(t)
	f := StabilityVsK(res, Measures[0])
	r, err := Render(f, 800, 500, 96)
	if err != nil {
		t.Fatal(err)
	}
	b := r.Image.Bounds()
	if b.Dx() != 800 || b.Dy() != 500 || len(r.Pixels) != len(f.Points) {
		t.Fatalf("image %v, %d pixels for %d points", b, len(r.Pixels), len(f.Points))
	}
	for i, p := range r.Pixels {
		if !p.In(b) {
			t.Errorf("point %d (%v) drawn outside the image at %v", i, f.Points[i], p)
		}
	}
	// larger k is further right
	if r.Pixels[0].X >= r.Pixels[1].X {
		t.Errorf("k=1 at x=%d, k=2 at x=%d", r.Pixels[0].X, r.Pixels[1].X)
	}
}

func TestLength(t *testing.T) {
	in, _ := Length(1, "in")
	cm, _ := Length(2.54, "cm")
	if d := float64(in - cm); d > 1e-9 || d < -1e-9 {
		t.Errorf("1 in = %v, 2.54 cm = %v", in, cm)
	}
	if _, err := Length(1, "px"); err == nil {
		t.Error("px accepted")
	}
}

// The top group of the error table, worked by hand: at k = 10 method B has the least
// error (20%); A (25%) is not separated from it (p = 0.2), C (40%) is (p = 0.01).
// At k = 20 all three tie at 30%: all are in the top group.
func TestErrorTableTopGroup(t *testing.T) {
	acc := func(a10, a20 float64) map[string][]experiment.AccuracyPoint {
		return map[string][]experiment.AccuracyPoint{"svm": {{K: 5, Mean: 0.5}, {K: 10, Mean: a10}, {K: 20, Mean: a20}}}
	}
	res := &experiment.Result{Data: experiment.DataInfo{Name: "hand"}, Methods: []experiment.MethodResult{
		{Label: "A", Accuracy: acc(0.75, 0.7), Stability: []experiment.StabilityPoint{{K: 10, SS: 0.5}}},
		{Label: "B", Accuracy: acc(0.80, 0.7)},
		{Label: "C", Accuracy: acc(0.60, 0.7)},
	}, Comparisons: []experiment.Comparison{
		{Classifier: "svm", K: 10, A: 0, B: 1, P: 0.2},
		{Classifier: "svm", K: 10, A: 1, B: 2, P: 0.01},
		{Classifier: "svm", K: 10, A: 0, B: 2, P: 0.03},
		{Classifier: "svm", K: 20, A: 0, B: 1, P: 1},
		{Classifier: "svm", K: 20, A: 1, B: 2, P: 1},
		{Classifier: "svm", K: 20, A: 0, B: 2, P: 1},
		{Classifier: "1nn", K: 10, A: 1, B: 2, P: 0.9}, // another classifier: ignored
	}}
	tab := ErrorTable(res, "svm").Table
	want := [][]string{
		{"k", "A error %", "A S_S", "A top group", "B error %", "B S_S", "B top group", "C error %", "C S_S", "C top group"},
		{"10", "25.00", "0.5000", "yes", "20.00", "", "yes", "40.00", "", ""},
		{"20", "30.00", "", "yes", "30.00", "", "yes", "30.00", "", "yes"},
	}
	if len(tab) != len(want) {
		t.Fatalf("table %v", tab)
	}
	for i := range want {
		if strings.Join(tab[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d:\n got %v\nwant %v", i, tab[i], want[i])
		}
	}
}

// TestTopTableCountsProbesOfOneGene: with gene symbols, the top-feature table says how
// many of its rows are probes of the same gene.
func TestTopTableCountsProbesOfOneGene(t *testing.T) {
	res := smallResult(t)
	p := len(res.Data.Features)
	res.Data.Symbols = make([]string, p)
	top := res.Methods[0].Top
	if len(top) < 3 {
		t.Fatalf("%d top features", len(top))
	}
	res.Data.Symbols[top[0].Feature], res.Data.Symbols[top[2].Feature] = "DDR1", "DDR1"
	res.Data.Symbols[top[1].Feature] = "TP53"
	f := TopTable(res, 0)
	last := len(f.Table[0]) - 1
	if f.Table[0][last] != "probes of the gene in this table" {
		t.Fatalf("header %v", f.Table[0])
	}
	if got := []string{f.Table[1][last], f.Table[2][last], f.Table[3][last]}; got[0] != "2" || got[1] != "" || got[2] != "2" {
		t.Errorf("probe counts of the first three rows: %q, want 2, empty, 2", got)
	}
}

// TestPerMethodPanels: split by method, the stability figure draws each method in its
// own panel (the first method's colour only on the left, the second's only on the
// right), in every format.
func TestPerMethodPanels(t *testing.T) {
	res := smallResult(t) // F-statistic and SVM-RFE
	f := PerMethod(StabilityVsK(res, Measures[0]))
	if !f.Split || f.Name != "stability-simid-per-method" {
		t.Fatalf("split %v, name %s", f.Split, f.Name)
	}
	r, err := Render(f, 1200, 500, 96)
	if err != nil {
		t.Fatal(err)
	}
	c0, _, _ := methodStyle(methodNames(res), 0)
	c1, _, _ := methodStyle(methodNames(res), 1)
	count := func(c color.Color, x0, x1 int) int {
		n := 0
		b := r.Image.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := x0; x < x1; x++ {
				if near(r.Image.At(x, y), c, 8) {
					n++
				}
			}
		}
		return n
	}
	w := r.Image.Bounds().Dx()
	if l0, r0, l1, r1 := count(c0, 0, w/2), count(c0, w/2, w), count(c1, 0, w/2), count(c1, w/2, w); l0 < 50 || r1 < 50 || r0 > 0 || l1 > 0 {
		t.Errorf("pixels of method 1's colour left %d, right %d; of method 2's left %d, right %d", l0, r0, l1, r1)
	}
	paths, err := Export(f, t.TempDir(), Formats, ExportOptions{Width: 16 * vg.Centimeter, Height: 10 * vg.Centimeter, DPI: 100})
	if err != nil || len(paths) != len(Formats)+1 {
		t.Errorf("export: %v, %v", paths, err)
	}
}

// TestPaperComparisonsDifferInColour: the methods each paper compares in one figure get
// different colours, and methods sharing a colour get different markers.
func TestPaperComparisonsDifferInColour(t *testing.T) {
	for _, set := range [][]string{
		{"drags", "cgs", "kmeans", "svmrfe", "fstat"},           // DRAGS and CGS papers
		{"dgf", "drags", "kmeans", "svmrfe", "cgs"},             // DRAGS Fig. 2
		{"infogain", "relieff", "svmone", "svmrfe", "fstat"},    // Kalousis et al.
		{"svmrfe", "ensemblerfe", "stabsel", "fstat"},           // MIDS paper
		{"bootstrap", "relieff", "infogain", "fstat", "svmrfe"}, // Diaz-Diaz et al.
	} {
		seen := map[color.Color]string{}
		for i, m := range set {
			c, _, _ := methodStyle(set, i)
			if other, ok := seen[c]; ok {
				t.Errorf("%s and %s share a colour in %v", m, other, set)
			}
			seen[c] = m
		}
	}
	looks := map[[2]int]string{}
	for m, l := range methodLook {
		if other, ok := looks[[2]int{l.colour, l.shape}]; ok {
			t.Errorf("%s and %s look the same", m, other)
		}
		looks[[2]int{l.colour, l.shape}] = m
	}
}

// TestSettingsOfOneMethodDiffer: two settings of DRAGS in one figure (the default and
// the paper's bandwidth, each with and without MIDS) keep DRAGS's colour and differ
// in marker and line pattern, and a method's look does not depend on its position.
func TestSettingsOfOneMethodDiffer(t *testing.T) {
	names := []string{"fstat", "drags", "drags+mids", "drags", "drags+mids"}
	type look struct {
		c      color.Color
		shape  draw.GlyphDrawer
		dashes string
	}
	looks := make([]look, len(names))
	for i := range names {
		c, shape, dashes := methodStyle(names, i)
		looks[i] = look{c, shape, fmt.Sprint(dashes)}
	}
	for i := 1; i < len(names); i++ {
		if looks[i].c != looks[1].c {
			t.Errorf("%s (method %d) is not in DRAGS's colour", names[i], i+1)
		}
		for j := 1; j < i; j++ {
			if looks[i].shape == looks[j].shape && looks[i].dashes == looks[j].dashes {
				t.Errorf("methods %d and %d (%s, %s) look the same", j+1, i+1, names[j], names[i])
			}
		}
	}
	c, shape, dashes := methodStyle([]string{"drags"}, 0)
	if c != looks[1].c || shape != looks[1].shape || fmt.Sprint(dashes) != looks[1].dashes {
		t.Error("DRAGS looks different when it is the first method")
	}
}

// TestTitlesSayTheProtocolRun: with each protocol's folds and repeats changed (as the
// window's "Use 8 folds" fix does), every figure title and the methods paragraph name
// the resampling actually run, never the protocol's defaults (they had said "10 x
// 10-fold CV" after an 8-fold run).
func TestTitlesSayTheProtocolRun(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 40, 1, 0)
	for _, c := range []struct {
		protocol            experiment.Protocol
		repeats, folds, inn int
		want, not           string
	}{
		{experiment.CV10x10, 3, 8, 0, "3 x 8-fold CV", "10 x 10-fold"},
		{experiment.DRAGS2008, 2, 4, 0, "DRAGS 2008 (4-fold x 2)", "3-fold x 10"},
		{experiment.Kalousis, 0, 5, 4, "Kalousis nested CV (5 outer x 4 inner folds)", "10 inner"},
	} {
		cfg := experiment.DefaultConfig()
		cfg.Protocol, cfg.Repeats, cfg.Folds, cfg.InnerFolds, cfg.Ks = c.protocol, c.repeats, c.folds, c.inn, []int{1, 2, 5, 10}
		cfg.Methods = cfg.Methods[:1]
		res, err := experiment.Run(context.Background(), cfg, ds, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range All(res) {
			if !strings.Contains(f.Title, c.want) || strings.Contains(f.Title, c.not) {
				t.Errorf("%s: title %q", c.protocol, f.Title)
			}
		}
		if p, _ := MethodsParagraph(res); strings.Contains(p, c.not) {
			t.Errorf("%s: methods paragraph %q", c.protocol, p)
		}
	}
}

// The methods paragraph says how k-TSP's number of pairs was set (config ktspPairs) and
// cites Tan et al. 2005; without k-TSP it says nothing of it.
func TestMethodsParagraphKTSP(t *testing.T) {
	cfg := experiment.DefaultConfig()
	for _, c := range []struct {
		classifiers []string
		pairs       int
		want        string
	}{
		{[]string{"svm", "ktsp"}, 0, "by leave-one-out cross-validation within it among 1, 3, ..., 9"},
		{[]string{"ktsp"}, 9, "at most 9 of them"},
		{[]string{"svm"}, 0, ""},
	} {
		cfg.Classifiers, cfg.KTSPPairs = c.classifiers, c.pairs
		p, refs := MethodsParagraph(&experiment.Result{Config: cfg})
		cited := slices.ContainsFunc(refs, func(r string) bool { return strings.Contains(r, "Simple decision rules") })
		if c.want == "" && (cited || strings.Contains(p, "k-TSP")) || c.want != "" && (!cited || !strings.Contains(p, c.want)) {
			t.Errorf("%v, ktspPairs %d: %q, references %q", c.classifiers, c.pairs, p, refs)
		}
	}
}
