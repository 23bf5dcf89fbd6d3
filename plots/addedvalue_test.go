package plots

import (
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

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
		C: survival.ConcordanceDiff{A: survival.Concordance{C: 0.68}, B: survival.Concordance{C: 0.72}, Diff: 0.04, Low: 0.01, High: 0.07},
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
	want := []string{"Age (alone)", "Age (with score)", "Grade: 3 vs 1 (alone)", "Grade: 3 vs 1 (with score)", "risk score, cross-validated, per SD (given the covariates)"}
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
