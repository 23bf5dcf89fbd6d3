package study

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/method"
	"steadfast/compute/signature"
)

// countsCSV writes the samples cols of compute/counts/testdata/counts.csv (3,000
// simulated genes, edgeR_ref.R) as a samples-as-rows CSV with a class column, and
// returns its path.
func countsCSV(t *testing.T, dir, name string, cols []int) string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "counts", "testdata", "counts.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("sample,class")
	for _, r := range recs[1:] {
		b.WriteString("," + r[0])
	}
	b.WriteString("\n")
	for _, c := range cols {
		s := recs[0][c+1]
		b.WriteString(s + "," + s[strings.LastIndex(s, "_")+1:])
		for _, r := range recs[1:] {
			b.WriteString("," + r[c+1])
		}
		b.WriteString("\n")
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A model locked on counts keeps edgeR's normalisation frozen, and a cohort's counts
// are normalised against it sample by sample: trained on samples 1-5 and 8-12 of the
// simulated counts, the four others given as a cohort get, for every signature gene,
// the log-CPM edgeR's TMM of each against the training reference gives
// (compute/counts/testdata/norm_ref.R, norm_logcpm.csv's test columns) to 1e-10; the
// model file read back keeps it; a cohort without most reference genes is refused.
func TestCountsModelNormalisesACohortAlone(t *testing.T) {
	dir := t.TempDir()
	train := countsCSV(t, dir, "train.csv", []int{0, 1, 2, 3, 4, 7, 8, 9, 10, 11})
	cohort := countsCSV(t, dir, "cohort.csv", []int{5, 6, 12, 13})
	prep := dataset.Prep{LogCPM: true, TMM: true, DropConstant: true}
	ds, err := Open(train, dataset.Options{}, prep)
	if err != nil {
		t.Fatal(err)
	}
	cfg := experiment.DefaultConfig()
	cfg.Prep, cfg.Methods, cfg.Protocol, cfg.Ks, cfg.Classifiers = prep, []method.Spec{{Name: "fstat"}}, experiment.DRAGS2008, []int{10}, []string{"svm"}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := BuildSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 10, Classifier: "svm"}, "g2")
	if err != nil {
		t.Fatal(err)
	}
	files, err := sig.Files()
	if err != nil {
		t.Fatal(err)
	}
	modelPath := filepath.Join(dir, "model.json")
	if err := os.WriteFile(modelPath, files["model.json"], 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := signature.ReadModel(modelPath)
	if err != nil {
		t.Fatal(err)
	}
	if m.Norm == nil || len(m.NormGenes) != 1657 {
		t.Fatalf("the model's normalisation: %v, %d reference genes (edgeR keeps 1657)", m.Norm != nil, len(m.NormGenes))
	}
	v, err := Validate(context.Background(), m, cohort, CohortOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join("..", "counts", "testdata", "norm_logcpm.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, _ := csv.NewReader(f).ReadAll()
	want := map[string][]string{}
	for _, r := range recs[1:] {
		want[r[0]] = r[11:] // s06, s07, s13, s14
	}
	checked := 0
	for g, mt := range v.Matches {
		w, ok := want[m.Genes[g].ID]
		if !ok || len(mt.Probes) != 1 {
			t.Fatalf("signature gene %s: not among edgeR's kept genes, or not matched (%v)", m.Genes[g].ID, mt.Probes)
		}
		for i := range v.Samples {
			ref, _ := strconv.ParseFloat(strings.TrimSpace(w[i]), 64)
			if got := v.Values[g][i]; math.Abs(got-ref) > 1e-10 {
				t.Errorf("%s %s: log-CPM %.15g, edgeR %.15g", v.Samples[i], m.Genes[g].ID, got, ref)
			}
			checked++
		}
	}
	if !slices.ContainsFunc(v.Notes, func(n string) bool {
		return strings.Contains(n, "normalised against the model's TMM reference, sample by sample: 1657 of its 1657 genes")
	}) {
		t.Errorf("notes %q", v.Notes)
	}
	t.Logf("%d cohort values checked", checked)
	// the cohort's genes named otherwise: refused, naming the reference's ids
	b, _ := os.ReadFile(cohort)
	renamed := filepath.Join(dir, "renamed.csv")
	os.WriteFile(renamed, []byte(strings.ReplaceAll(string(b), ",gene", ",ENSG")), 0o644)
	if _, err := Validate(context.Background(), m, renamed, CohortOptions{}); err == nil || !strings.Contains(err.Error(), "only 0 of the 1657 genes of the model's normalisation reference") {
		t.Errorf("a cohort of other gene ids: %v", err)
	}
}

// A signature of read counts reports limma-voom's statistics: on all 14 simulated
// samples (g2 positive) each signature gene's log2 fold change, p and BH FDR equal
// limma 3.54's topTable after voom, lmFit and eBayes (compute/counts/testdata/voom.csv,
// voom_ref.R) to 1e-8 relative, and the gene table names the test.
func TestCountsSignatureUsesVoom(t *testing.T) {
	dir := t.TempDir()
	all := countsCSV(t, dir, "all.csv", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13})
	prep := dataset.Prep{LogCPM: true, TMM: true, DropConstant: true}
	ds, err := Open(all, dataset.Options{}, prep)
	if err != nil {
		t.Fatal(err)
	}
	cfg := experiment.DefaultConfig()
	cfg.Prep, cfg.Methods, cfg.Protocol, cfg.Ks, cfg.Classifiers = prep, []method.Spec{{Name: "fstat"}}, experiment.DRAGS2008, []int{10}, []string{"svm"}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := BuildSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 10, Classifier: "svm"}, "g2")
	if err != nil {
		t.Fatal(err)
	}
	if !sig.Scale.Moderated || !slices.Contains(sig.GeneTable()[0], "limma_voom_p") {
		t.Fatalf("not limma-voom: %+v, header %v", sig.Scale, sig.GeneTable()[0])
	}
	f, err := os.Open(filepath.Join("..", "counts", "testdata", "voom.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, _ := csv.NewReader(f).ReadAll()
	ref := map[string][]string{}
	for _, r := range recs[1:] {
		ref[r[0]] = r
	}
	rel := func(a float64, s string) float64 {
		b, _ := strconv.ParseFloat(strings.TrimSpace(s), 64)
		return math.Abs(a-b) / math.Abs(b)
	}
	for _, g := range sig.Genes {
		r, ok := ref[g.ID]
		if !ok {
			t.Fatalf("%s: not among limma's genes", g.ID)
		}
		if rel(g.Log2FC, r[1]) > 1e-8 || rel(g.P, r[4]) > 1e-8 || rel(g.FDR, r[5]) > 1e-8 {
			t.Errorf("%s: logFC %.12g p %.12g FDR %.12g, limma %s %s %s", g.ID, g.Log2FC, g.P, g.FDR, r[1], r[4], r[5])
		}
	}
}

// Counts and intensities do not mix, and the outputs say so: a count-trained model
// refuses a cohort whose values are not whole numbers (microarray intensities), naming
// what to do; a microarray-trained model (Colon) given whole-number counts warns that
// the scales differ and offers the remedies.
func TestCountsAndMicroarraysDoNotMix(t *testing.T) {
	dir := t.TempDir()
	train := countsCSV(t, dir, "train.csv", []int{0, 1, 2, 3, 4, 7, 8, 9, 10, 11})
	prep := dataset.Prep{LogCPM: true, TMM: true, DropConstant: true}
	ds, err := Open(train, dataset.Options{}, prep)
	if err != nil {
		t.Fatal(err)
	}
	cfg := experiment.DefaultConfig()
	cfg.Prep, cfg.Methods, cfg.Protocol, cfg.Ks, cfg.Classifiers = prep, []method.Spec{{Name: "fstat"}}, experiment.DRAGS2008, []int{10}, []string{"svm"}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := BuildSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 10, Classifier: "svm"}, "g2")
	if err != nil {
		t.Fatal(err)
	}
	cohort := countsCSV(t, dir, "cohort.csv", []int{5, 6, 12, 13})
	b, _ := os.ReadFile(cohort)
	var out []string
	for i, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if i == 0 {
			out = append(out, l)
			continue
		}
		f := strings.Split(l, ",")
		for j := 2; j < len(f); j++ {
			v, _ := strconv.ParseFloat(f[j], 64)
			f[j] = strconv.FormatFloat(math.Log2(v+1)+0.37, 'f', 4, 64) // logged intensities
		}
		out = append(out, strings.Join(f, ","))
	}
	intensities := filepath.Join(dir, "intensities.csv")
	os.WriteFile(intensities, []byte(strings.Join(out, "\n")+"\n"), 0o644)
	if _, err := Validate(context.Background(), sig.Model, intensities, CohortOptions{}); err == nil || !strings.Contains(err.Error(), "are not whole numbers") {
		t.Errorf("a count model on intensities: %v", err)
	}
	s := newColonSplit(t, false)
	counted := s.write(t, dir, "colon-counts.csv", cohortFile{samples: s.cohort, value: func(i, j int) string {
		return strconv.Itoa(int(math.Round(s.raw.X.At(i, j))))
	}})
	v := s.validate(t, counted, CohortOptions{})
	if !slices.ContainsFunc(v.Notes, func(n string) bool {
		return strings.Contains(n, "as RNA-seq read counts are, while the model was trained on microarray values")
	}) {
		t.Errorf("a microarray model on counts: notes %q", v.Notes)
	}
}

// The signature of a study of counts in three classes (GSE63310's nine samples read by
// accession, LP, ML and Basal) describes its genes by limma-voom's moderated F-test:
// at the genes of limma's reference (every 10th kept gene, ../counts/testdata/voom3.csv,
// limma 3.54's topTable over coefficients 2:3) Describe gives its p and BH FDR to 1e-8
// and the log2 fold change of the highest class against the lowest as the difference of
// limma's fitted values to 1e-9; the gene table names the test limma_voom_F_p.
func TestCountsSignatureOfThreeClassesUsesVoomF(t *testing.T) {
	gse63310Server(t, func(string) {}, func() string { return `<a href="GSE63310_RAW.tar">x</a> <a href="filelist.txt">x</a>` })
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	raw, err := ReadData(context.Background(), "GSE63310", dataset.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	prep := dataset.Prep{LogCPM: true, TMM: true}
	ds, _, err := Prepare(raw, prep)
	if err != nil {
		t.Fatal(err)
	}
	cfg := experiment.DefaultConfig()
	cfg.Prep, cfg.Methods, cfg.Protocol, cfg.Ks, cfg.Classifiers = prep, []method.Spec{{Name: "fstat"}}, experiment.DRAGS2008, []int{10}, []string{"svm"}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := BuildSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 10, Classifier: "svm"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if !sig.Scale.Moderated || !slices.Contains(sig.GeneTable()[0], "limma_voom_F_p") {
		t.Fatalf("not limma-voom's F: %+v, header %v", sig.Scale, sig.GeneTable()[0])
	}
	// the report's full model has a coefficient column and an intercept a class, its
	// checklist no operating points or calibration (two classes only), its digest a value
	head, rows := sig.FullModel()
	if len(head) != 7 || head[4] != "coefficient, "+ds.Classes[0]+" vs rest" || rows[len(rows)-1][0] != "intercept" || len(rows) != 11 {
		t.Errorf("full model: %v, %d rows, last %v", head, len(rows), rows[len(rows)-1])
	}
	for _, r := range sig.TRIPOD(res) {
		if strings.Contains(r[2], "operating points table") || strings.Contains(r[2], "calibration figure") {
			t.Errorf("TRIPOD %s points at a table or figure three classes do not have: %s", r[0], r[2])
		}
	}
	if d := sig.Model.DigestText(); strings.Contains(d, "content digest ,") {
		t.Errorf("no digest: %s", d)
	}
	f, err := os.Open(filepath.Join("..", "counts", "testdata", "voom3.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, _ := csv.NewReader(f).ReadAll()
	at := map[string]int{}
	for j, id := range ds.Features {
		at[id] = j
	}
	var feats []int
	for _, r := range recs[1:] {
		feats = append(feats, at[r[0]])
	}
	genes := signature.Describe(res, ds, signature.Choice{Method: 0, K: 10}, feats, sig.Scale, -1)
	num := func(s string) float64 { v, _ := strconv.ParseFloat(strings.TrimSpace(s), 64); return v }
	col := map[string]int{"Basal": 4, "LP": 5, "ML": 6}
	for i, g := range genes {
		r := recs[i+1]
		if g.ID != r[0] {
			t.Fatalf("gene %d is %s, limma's %s", i, g.ID, r[0])
		}
		fc := num(r[col[g.Higher]]) - num(r[col[g.Against]])
		if rel := math.Abs(g.P-num(r[2])) / num(r[2]); rel > 1e-8 || math.Abs(g.FDR-num(r[3]))/num(r[3]) > 1e-8 || math.Abs(g.Log2FC-fc) > 1e-9 {
			t.Errorf("%s: p %.12g FDR %.12g log2FC %s vs %s %.12g; limma %s %s %.12g", g.ID, g.P, g.FDR, g.Higher, g.Against, g.Log2FC, r[2], r[3], fc)
		}
	}
}
