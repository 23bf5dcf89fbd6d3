package plots

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/study"
)

// A survival signature whose method and k the advice chose, with its nested C and a
// permutation test of C (DLBCL CHOP, ../shared/data; the Cox score test at k = 10 and
// 20 under 2 x 4-fold CV, 3 permutations): the permutation figure names Harrell's C and
// tables each permuted C; the paragraph of the report gives the nested C as the
// headline and the test's p (the permutations' own); the report carries both, its
// measures and genes in words and the inner choices as one table of counts; a choice
// given by hand says its plain C is the headline.
func TestSurvivalNestedAndPermutationInTheReport(t *testing.T) {
	ctx := context.Background()
	ds, err := dataset.ReadFile(filepath.Join("..", "..", "shared", "data", "dlbcl_chop_survival.csv"), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	cfg := experiment.DefaultSurvivalConfig()
	cfg.Repeats, cfg.Folds, cfg.Ks = 2, 4, []int{10, 20}
	res, err := experiment.Run(ctx, cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, k, _ := signature.Advice(res, "cox")
	s, err := study.BuildSurvivalSignature(ctx, res, ds, signature.Choice{Method: m, K: k}, study.SurvivalOptions{Unit: "years"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Nest(ctx, res, ds, nil); err != nil {
		t.Fatal(err)
	}
	if s.Perm, err = study.PermuteSurvival(ctx, res, ds, s, 3, 1, nil); err != nil {
		t.Fatal(err)
	}
	f := PermutationFigure(res.Data.Name, s.Perm)
	if len(f.Table) != 1+3+2 || f.Table[0][1] != "c_index" || !strings.Contains(f.Title, fmt.Sprintf("p = %.3g", s.Perm.P)) {
		t.Errorf("figure %q, table %v", f.Title, f.Table)
	}
	if _, err := Render(f, 600, 400, 96); err != nil {
		t.Fatal(err)
	}
	para := SurvivalParagraph(res, s)
	h := s.Headline()
	for _, want := range []string{fmt.Sprintf("this nested cross-validated Harrell's C, %.3f (95%% CI %.3f-%.3f), is the headline", h.C.Mean, h.C.Low, h.C.High),
		"(time, event) pairs were permuted together 3 times", fmt.Sprintf("p = %.3g", s.Perm.P)} {
		if !strings.Contains(para, want) {
			t.Errorf("the paragraph lacks %q: %s", want, para)
		}
	}
	var b bytes.Buffer
	size, _ := NewExportOptions(16, 10, "cm", 96)
	if err := SurvivalReportWith(ctx, &b, res, s, nil, size); err != nil {
		t.Fatal(err)
	}
	if r := b.String(); !strings.Contains(r, "Headline: nested cross-validated Harrell&#39;s C") || !strings.Contains(r, "permutation test") || !strings.Contains(r, "Permutation test p") {
		t.Error("the report lacks the headline C, the nested C or the permutation test")
	}
	// the report reads like a paper: measures and genes in words, no metrics.csv key,
	// the inner choices one table of counts adding up to the outer training sets
	r := b.String()
	for _, key := range []string{"c_index_headline", "nested_choice", "cox_coefficient_per_sd", "uno_c_tau", "_is<"} {
		if strings.Contains(r, key) {
			t.Errorf("the report shows the raw key %q", key)
		}
	}
	for _, want := range []string{"hazard ratio per SD (95% CI)", "Uno&#39;s C truncated at", "Inner choices of the nested estimate", fmt.Sprintf("outer training sets that chose it (of %d)", len(s.Nested.Choices))} {
		if !strings.Contains(r, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if _, rows := study.NestedCountDisplay(s.Nested.Choices); len(rows) == 0 || !strings.Contains(r, "<td>"+rows[0][0]+"</td><td>"+rows[0][1]+"</td><td>"+rows[0][2]+"</td>") {
		t.Errorf("the report lacks the inner choices' first row %v", rows)
	}
	given, err := study.BuildSurvivalSignature(ctx, res, ds, signature.Choice{Method: m, K: 30 - k}, study.SurvivalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p := SurvivalParagraph(res, given); !strings.Contains(p, "were given, fixed before the study, so the cross-validated C is the headline") {
		t.Errorf("a given choice's paragraph: %s", p)
	}
}
