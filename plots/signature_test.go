package plots

import (
	"bytes"
	"context"
	"fmt"
	stdhtml "html"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"steadfast/compute/enrich"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/compute/synth"
)

// The ROC figure's mean curve lies in its band and both run from (0, ·) to (1, 1); the
// heatmap's rows and columns are in the clustering's leaf order (signature's
// TestAverageLinkageEqualsSciPy checks that order against SciPy), every z-score of a
// gene sums to 0 over the samples, and both figures render.
func TestSignatureFigures(t *testing.T) {
	// two repetitions worked by hand: scores of 3 positives and 3 negatives
	pos := []bool{true, true, true, false, false, false}
	est := &signature.Estimate{Repeats: []int{0, 1}}
	for _, s := range [][]float64{{0.9, 0.8, 0.3, 0.5, 0.2, 0.1}, {0.9, 0.4, 0.35, 0.6, 0.3, 0.1}} {
		est.Curves = append(est.Curves, signature.ROC(s, pos))
		est.AUCs = append(est.AUCs, signature.DeLong(s, pos))
	}
	est.MeanAUC = (est.AUCs[0].AUC + est.AUCs[1].AUC) / 2
	f := SignatureROC(est, nil, nil, "test")
	var mean, lo, hi []float64
	for _, r := range f.Table[1:] {
		v, _ := strconv.ParseFloat(r[3], 64)
		switch r[0] {
		case "mean":
			mean = append(mean, v)
		case "band low":
			lo = append(lo, v)
		case "band high":
			hi = append(hi, v)
		}
	}
	if len(mean) != signature.ROCGrid+1 || mean[len(mean)-1] != 1 {
		t.Fatalf("mean curve %v", mean)
	}
	for i := range mean {
		if lo[i] > mean[i] || mean[i] > hi[i] {
			t.Errorf("at %d: %g outside [%g, %g]", i, mean[i], lo[i], hi[i])
		}
	}
	// AUC 8/9 and 7/9 by hand: the first repetition's 0.3 is below 0.5, the second's
	// 0.4 and 0.35 below 0.6
	if math.Abs(est.AUCs[0].AUC-8.0/9) > 1e-12 || math.Abs(est.AUCs[1].AUC-7.0/9) > 1e-12 {
		t.Errorf("AUCs %v", est.AUCs)
	}
	genes := []string{"a", "b", "c"}
	samples := []string{"s1", "s2", "s3", "s4", "s5"}
	values := [][]float64{{1, 2, 3, 4, 5}, {5, 4, 3, 2, 1.5}, {1, 3, 2, 5, 4}}
	h := SignatureHeatmap("heat", genes, samples, []string{"A", "B"}, []int{0, 0, 1, 1, 1}, values)
	z := make([][]float64, 3)
	for g, v := range values {
		z[g] = zscore(v)
	}
	gOrder := signature.LeafOrder(signature.AverageLinkage(z))
	for r, g := range gOrder {
		if h.Table[1+r][0] != genes[g] {
			t.Errorf("row %d is %s, the leaf order puts %s there", r, h.Table[1+r][0], genes[g])
		}
		sum := 0.0
		for _, c := range h.Table[1+r][1:] {
			v, _ := strconv.ParseFloat(c, 64)
			sum += v
		}
		if math.Abs(sum) > 1e-9 {
			t.Errorf("gene %s's z-scores sum to %g", genes[g], sum)
		}
	}
	gs := SignatureGenes("genes", "log2 value", genes, samples, []string{"A", "B"}, []int{0, 0, 1, 1, 1}, values)
	g := gs[0]
	if len(gs) != 1 || len(g.Table) != 1+3*5 || g.Panels != 3 || !g.Split || g.Title != "genes" {
		t.Errorf("gene panels: %d figures, %d table rows, %d panels", len(gs), len(g.Table), g.Panels)
	}
	// 30 genes: pages of 12, 12 and 6, each named and titled with its genes
	var many []string
	var manyValues [][]float64
	for i := range 30 {
		many = append(many, fmt.Sprintf("g%d", i+1))
		manyValues = append(manyValues, values[i%3])
	}
	pages := SignatureGenes("genes", "log2 value", many, samples, []string{"A", "B"}, []int{0, 0, 1, 1, 1}, manyValues)
	if len(pages) != 3 || pages[0].Name != "signature-genes" || pages[1].Name != "signature-genes-2" || pages[2].Panels != 6 ||
		pages[1].Title != "genes (genes 13-24 of 30)" || pages[1].Table[1][0] != "g13" {
		t.Errorf("30 genes: %d pages, names %s %s, titles %q", len(pages), pages[0].Name, pages[1].Name, pages[1].Title)
	}
	for _, fig := range []Figure{f, h, g} {
		if _, err := Render(fig, 600, 400, 96); err != nil {
			t.Errorf("%s: %v", fig.Name, err)
		}
	}
}

// The report with a signature has its Signature section: the methods paragraph naming
// the design, the locked model's digest and the measures, two more inline figures (ROC
// and heatmap) and the genes.
func TestReportWithSignature(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 40, 1, 0)
	cfg := experiment.DefaultConfig()
	cfg.Repeats, cfg.Ks = 2, []int{1, 2, 5, 10}
	res, err := experiment.Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := study.BuildSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 5, Classifier: "svm"}, "")
	if err != nil {
		t.Fatal(err)
	}
	var plain, with bytes.Buffer
	if err := Report(&plain, res, ExportOptions{Width: 600, Height: 400}); err != nil {
		t.Fatal(err)
	}
	if err := ReportWith(context.Background(), &with, res, sig, ExportOptions{Width: 600, Height: 400}); err != nil {
		t.Fatal(err)
	}
	h := stdhtml.UnescapeString(with.String())
	for _, want := range []string{"<h2>Signature</h2>", "the first 5 features of F-statistic's ranking on all 40 samples", sig.Model.SHA256,
		"the gene selection and the classifier refit inside every training set", "Nadeau and Bengio", ds.Features[sig.Genes[0].Feature]} {
		if !strings.Contains(h, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	// ROC with its operating points, heat map, genes by class, calibration
	if n, m := strings.Count(with.String(), "<svg"), strings.Count(plain.String(), "<svg"); n != m+4 {
		t.Errorf("%d figures with the signature, %d without", n, m)
	}
	for _, want := range []string{"Operating points", "classifier's own rule", "Youden's threshold (optimistic)", "calibration of the cross-validated probability"} {
		if !strings.Contains(h, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(plain.String(), "<h2>Signature</h2>") {
		t.Error("a Signature section without a signature")
	}
}

// TestPermutationFigure: the null distribution's table holds every permuted AUC, the
// observed AUC and p; the title names the statistic, p and the smallest p possible,
// 1/(N+1) (worked by hand: 9 permutations, 1/10); the figure renders.
func TestPermutationFigure(t *testing.T) {
	perm := &study.Permutations{Observed: 0.81, AUCs: []float64{0.45, 0.52, 0.49, 0.61, 0.50, 0.38, 0.55, 0.47, 0.83}, P: 0.2, Choice: true}
	f := PermutationFigure("colon.csv", perm)
	if len(f.Table) != 1+9+2 || f.Table[10][0] != "observed" || f.Table[11][1] != "0.2" {
		t.Fatalf("table %v", f.Table)
	}
	if !strings.Contains(f.Title, "p = 0.2") || !strings.Contains(f.Title, "the smallest possible 0.1") || !strings.Contains(f.Title, "advice's choice made again") {
		t.Errorf("title %q", f.Title)
	}
	if _, err := Render(f, 600, 400, 96); err != nil {
		t.Fatal(err)
	}
}

// A report table fits the PDF page: a narrow one keeps its size, a wide one shrinks to 7
// points and then wraps its widest columns, never wider than the page.
func TestPDFTableFitsThePage(t *testing.T) {
	width, pad := 17*vg.Centimeter, vg.Points(4)
	narrow := reportTable{Header: []string{"a", "b"}, Rows: [][]string{{"1", "2"}}}
	if face, w := tableFit(narrow, 9, width, pad); face.Font.Size != 9 || w[0]+w[1] > width {
		t.Errorf("narrow: size %v, widths %v", face.Font.Size, w)
	}
	long := strings.Repeat("a long explanation of where the item is answered ", 4)
	wide := reportTable{Header: []string{"item", "asks", "where"}, Rows: [][]string{{"10b", long, long}}}
	face, w := tableFit(wide, 9, width, pad)
	if face.Font.Size != 7 || w[0]+w[1]+w[2] > width*1.0001 || w[0] < face.Width("10b") {
		t.Errorf("wide: size %v, widths %v of %v", face.Font.Size, w, width)
	}
	// the signature's gene table: eleven columns, probe ids that cannot wrap; each column
	// keeps room for its longest word (228581_at had run into the symbol beside it)
	header := strings.Fields("gene symbol selected_in_share_of_resamples mean_rank SVM_weight_favours_RCC higher_in log2_fold_change_RCC_vs_normal Hedges_g Welch_p FDR_BH group_members")
	for i, h := range header {
		header[i] = strings.ReplaceAll(h, "_", " ")
	}
	row := []string{"228581_at", "KCNJ10", "1", "7.8", "-0.0623", "normal", "-4.36", "-7.39", "5.5e-10", "5.8e-6", "228581_at 1552365_at 1553434_at 1553435_s_at"}
	genes := reportTable{Header: header, Rows: [][]string{row}}
	face, w = tableFit(genes, 7.5, width, pad)
	var total vg.Length
	for c, cell := range row {
		total += w[c]
		for _, word := range strings.Fields(cell) {
			if w[c] < face.Width(word)+pad {
				t.Errorf("column %q is %v wide, less than its word %q (%v)", header[c], w[c], word, face.Width(word)+pad)
			}
		}
	}
	if total > width*1.0001 {
		t.Errorf("genes: %v wide, the page holds %v", total, width)
	}
	for _, l := range wrap("Xaverylongwordthatcannotfit", face, 20) {
		if face.Width(l) > 20 {
			t.Errorf("wrap left %q wider than 20 pt", l)
		}
	}
}

// A ROC curve's data area is drawn square (equal scales on both rates) in a wide and in
// a tall frame alike; other figures fill their frame.
func TestROCIsSquare(t *testing.T) {
	pos := []bool{true, true, false, false}
	s := []float64{0.9, 0.4, 0.5, 0.1}
	est := &signature.Estimate{Repeats: []int{0}, Curves: [][]signature.ROCPoint{signature.ROC(s, pos)}, AUCs: []signature.AUC{signature.DeLong(s, pos)}}
	for _, wh := range [][2]vg.Length{{16 * vg.Centimeter, 10 * vg.Centimeter}, {10 * vg.Centimeter, 16 * vg.Centimeter}} {
		p, err := SignatureROC(est, nil, nil, "square").Build()
		if err != nil {
			t.Fatal(err)
		}
		cv := vgimg.New(wh[0], wh[1])
		area := drawFigure(p, draw.New(cv))
		dc := p.DataCanvas(area)
		w, h := dc.Max.X-dc.Min.X, dc.Max.Y-dc.Min.Y
		if math.Abs(float64(w-h)) > 0.5 {
			t.Errorf("a %v x %v frame: data area %v x %v", wh[0], wh[1], w, h)
		}
	}
}

// The HTML and the PDF report list the same tables: all 50 signature genes (the PDF had
// listed 30), camera's sets when camera was run (they had been in neither), the
// confusion matrix as the mean count a repetition with its caption, and the full model's
// coefficients to 6 significant digits (they had been printed with 17), said to be kept
// whole in model.json. The PDF's text is read back with Ghostscript.
func TestReportsAgreeOnTheirTables(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 40, 1, 0)
	cfg := experiment.DefaultConfig()
	cfg.Repeats, cfg.Ks = 2, []int{1, 5, 50}
	res, err := experiment.Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := study.BuildSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 50, Classifier: "svm"}, "")
	if err != nil {
		t.Fatal(err)
	}
	set := &enrich.Set{ID: "GO:0000001", Ontology: "BP", Name: "mitochondrion inheritance"}
	sig.Enrichment = &study.Enrichment{Method: "F-statistic", K: 50, Result: &enrich.Result{Collection: &enrich.Collection{Name: "GO"}, Terms: []enrich.Term{{Set: set, M: 12, X: 3, P: 0.01, Q: 0.2, Ratio: 0.06}}},
		Camera: []study.CameraTerm{{Set: set, CameraSet: enrich.CameraSet{NGenes: 12, Direction: "Up", P: 2.6e-13, FDR: 2.6e-11}}}, CameraPositive: ds.Classes[1]}
	var html, pdf bytes.Buffer
	if err := ReportWith(context.Background(), &html, res, sig, ExportOptions{Width: 600, Height: 400}); err != nil {
		t.Fatal(err)
	}
	if err := ReportPDFWith(context.Background(), &pdf, res, sig); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.pdf")
	os.WriteFile(path, pdf.Bytes(), 0o644)
	txt, err := exec.Command("gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=txtwrite", "-o", "-", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	h := stdhtml.UnescapeString(html.String())
	full := strconv.FormatFloat(sig.Model.W[0][0]*map[bool]float64{true: -1, false: 1}[sig.Positive == 0], 'g', -1, 64)
	short := strconv.FormatFloat(sig.Model.W[0][0]*map[bool]float64{true: -1, false: 1}[sig.Positive == 0], 'g', 6, 64)
	for name, doc := range map[string]string{"HTML": h, "PDF": string(txt)} {
		for _, g := range sig.Genes {
			if !strings.Contains(doc, g.ID) {
				t.Errorf("%s: signature gene %s not listed", name, g.ID)
			}
		}
		for _, want := range []string{"Camera over the whole ranking", "mitochondrion inheritance", "2.6e-11", "the mean count a repetition", "6 significant digits", "keeps every digit", short} {
			if !strings.Contains(doc, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
		if len(full) > len(short) && strings.Contains(doc, full) {
			t.Errorf("%s prints the coefficient %s with every digit", name, full)
		}
	}
}
