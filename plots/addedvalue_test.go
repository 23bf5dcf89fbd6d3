package plots

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/compute/survival"
)

// The added value's forest plot: each covariate term alone and then with the score,
// the score last with the complete cases and events; named
// signature-forest-covariates, its legend giving the likelihood-ratio test and the
// change in C; it exports.
func TestAddedValueForest(t *testing.T) {
	term := func(model, name, cov string, hr float64) study.AddedTerm {
		return study.AddedTerm{Model: model, Term: name, Covariate: cov, HR: hr, Low: hr / 2, High: hr * 2, P: 0.04}
	}
	av := &study.AddedValue{N: 120, Events: 40, LRT: 6.5, LRTP: 0.0108,
		C: survival.ConcordanceDiff{A: survival.Concordance{C: 0.68}, B: survival.Concordance{C: 0.72}, Diff: 0.04, SE: 0.015, Low: 0.01, High: 0.07},
		Terms: []study.AddedTerm{
			term(study.CovariatesModel, "Age", "Age", 0.97), term(study.CovariatesModel, "Grade: 3 vs 1", "Grade", 2.4),
			term(study.WithScoreModel, "Age", "Age", 0.98), term(study.WithScoreModel, "Grade: 3 vs 1", "Grade", 1.9), term(study.WithScoreModel, study.ScoreTerm, "", 1.6),
		}}
	f := AddedValueForest("NKI", av)
	if f.Name != "signature-forest-covariates" {
		t.Errorf("name %s", f.Name)
	}
	var names []string
	for _, r := range f.Table[1:] {
		names = append(names, r[0])
	}
	want := []string{"Age (alone)", "Age (with score)", "Grade: 3 vs 1 (alone)", "Grade: 3 vs 1 (with score)", "risk score per SD (given the covariates)"}
	if !slices.Equal(names, want) || f.Table[5][5] != "120" || f.Table[5][6] != "40" || f.Table[4][1] != "1.9" {
		t.Errorf("table %v", f.Table)
	}
	for _, size := range [][2]vg.Length{{16 * vg.Centimeter, max(12*vg.Centimeter, f.MinHeight)}, {600, 400}} {
		texts := drawRecorded(t, f, size[0], size[1])
		checkTexts(t, "added value", texts, size[0], size[1])
		all := ""
		for _, d := range texts {
			all += d.s + "\n"
		}
		if !strings.Contains(all, "likelihood ratio 6.50 on 1 df, p = 0.011") || !strings.Contains(all, "Harrell's C 0.680 -> 0.720, change +0.040 (95% CI +0.010 to +0.070)") {
			t.Errorf("at %v: the legend lacks the test or the change in C: %q", size, all)
		}
	}
	size, _ := NewExportOptions(16, 12, "cm", 100)
	if _, err := Export(f, t.TempDir(), []string{"png", "svg"}, size); err != nil {
		t.Fatal(err)
	}
}

// A term whose coefficient may be infinite (coxph's warning; a covariate that
// separates the events, HR 1.2e11 (0-Inf) as R gives for stage in
// compute/study's TestAddedValueSeparation) is not drawn: its row says "may be
// infinite: no estimate", the legend names it with its numbers, the table's warning
// column carries study.InfiniteWarning; a change in C with no spread is said so.
func TestAddedValueForestInfinite(t *testing.T) {
	stage := study.AddedTerm{Model: study.CovariatesModel, Term: "stage: 2 vs 1", Covariate: "stage", HR: 1.2e11, Low: 0, High: math.Inf(1), P: 0.9996, Infinite: true}
	with := stage
	with.Model = study.WithScoreModel
	score := study.AddedTerm{Model: study.WithScoreModel, Term: study.ScoreTerm, HR: 0.76, Low: 0.05, High: 12.2, P: 0.85}
	av := &study.AddedValue{N: 30, Events: 3, LRT: 0.04, LRTP: 0.85, Terms: []study.AddedTerm{stage, with, score},
		C: survival.ConcordanceDiff{A: survival.Concordance{C: 0.98}, B: survival.Concordance{C: 0.98}}}
	f := AddedValueForest("DLBCL", av)
	if f.Table[1][7] != study.InfiniteWarning || f.Table[2][7] != study.InfiniteWarning || f.Table[3][7] != "" {
		t.Errorf("table %v", f.Table)
	}
	w, h := 16*vg.Centimeter, max(12*vg.Centimeter, f.MinHeight)
	all := ""
	for _, d := range drawRecorded(t, f, w, h) {
		all += d.s + "\n"
	}
	for _, want := range []string{"may be infinite: no estimate", "warning: stage: 2 vs 1 (alone): coefficient may be infinite", "warning: stage: 2 vs 1 (with score): coefficient may be infinite", "0.76 (0.05-12.2)", "with no interval: both models rank"} {
		if !strings.Contains(all, want) {
			t.Errorf("the figure lacks %q: %q", want, all)
		}
	}
	if lo, hi := forestRange(f2rows(av)); hi > 100 {
		t.Errorf("the axis reaches %g-%g: the infinite estimate set it", lo, hi)
	}
}

// f2rows are the rows AddedValueForest draws, for forestRange.
func f2rows(av *study.AddedValue) []HRRow {
	var rows []HRRow
	for _, t := range av.Terms {
		rows = append(rows, HRRow{Name: t.Term, HR: t.HR, Low: t.Low, High: t.High, Infinite: t.Infinite})
	}
	return rows
}

// The survival report of a signature with its added value (the NKI 70-gene data,
// compute/study/testdata/nki70.csv; 144 patients and 48 events as its PROVENANCE.md
// says): the methods paragraph says how the added value was assessed, the Signature
// section gives its sentence, its table and its forest plot, REMARK's items 12 and 14
// point at them; HTML and PDF. Without it the report says none of this.
func TestSurvivalReportAddedValue(t *testing.T) {
	ds, err := dataset.ReadFile(filepath.Join("..", "compute", "study", "testdata", "nki70.csv"), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := experiment.DefaultSurvivalConfig()
	cfg.Repeats, cfg.Folds, cfg.Ks = 1, 5, []int{5}
	res, err := experiment.Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := study.BuildSurvivalSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 5}, study.SurvivalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	size, _ := NewExportOptions(16, 10, "cm", 100)
	report := func() (string, string) {
		var h, p bytes.Buffer
		if err := SurvivalReportWith(context.Background(), &h, res, s, nil, size); err != nil {
			t.Fatal(err)
		}
		if err := SurvivalReportPDFWith(context.Background(), &p, res, s, nil); err != nil {
			t.Fatal(err)
		}
		return h.String(), p.String()
	}
	html, _ := report()
	if strings.Contains(html, "added value") || strings.Contains(html, "Added value") {
		t.Error("a report without added value mentions it")
	}
	if _, err := s.AddedValue(ds, []string{"Grade", "Age"}); err != nil || s.Added == nil {
		t.Fatal(err)
	}
	html, pdf := report()
	for _, w := range []string{
		"The added value of the signature over the clinical covariates Grade and Age (Grade coded by indicators of each level against the first) was assessed on the 144 patients with every covariate (48 events)",
		"Concordance. Vignette of the R package survival",
		"Added value over Grade, Age (144 patients, 48 events)", "c_covariates_plus_score", "alone and with the cross-validated risk score",
		"the added value over Grade, Age", "the Cox model of Grade, Age and the cross-validated risk score",
	} {
		if !strings.Contains(html, w) {
			t.Errorf("the HTML report lacks %q", w)
		}
	}
	if !strings.HasPrefix(pdf, "%PDF") || len(pdf) < 10000 {
		t.Errorf("the PDF: %d bytes", len(pdf))
	}
}

// A name's parenthesis stays on one line when it fits: "(with score)" is not broken
// after "(with"; one longer than a line is wrapped as words are (32 characters a line,
// as forestName wraps).
func TestWrapNameKeepsParentheses(t *testing.T) {
	for _, c := range [][2]string{
		{"ER: Positive vs Negative (with score)", "ER: Positive vs Negative\n(with score)"},
		{"Grade: Intermediate vs Well diff (alone)", "Grade: Intermediate vs Well diff\n(alone)"},
		{"a (b c d e f g h i j k l m n o p q r s)", "a (b c d e f g h i j k l m n o p\nq r s)"},
		{"short (a b)", "short (a b)"},
	} {
		if got := wrapName(c[0], 32); got != c[1] {
			t.Errorf("%q: %q, want %q", c[0], got, c[1])
		}
	}
}
