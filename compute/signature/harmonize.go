package signature

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/harmonize"
	"steadfast/internal/text"
)

// Harmonizations are the ways a cohort can be put on the training scale, as
// ApplyOptions.Harmonize names them: none (the model's own scaling), standardize (each
// gene centred and scaled within the cohort, then put on the training scale) and
// ComBat with the training data as the reference batch (parametric or not, mean-only or
// not; harmonize.ComBat).
var Harmonizations = []string{"none", "standardize", "combat", "combat-nonparametric", "combat-mean", "combat-nonparametric-mean"}

// HarmonizationText says what a harmonisation does, for outputs and methods.
func HarmonizationText(h string) string {
	switch h {
	case "standardize":
		return "each gene standardised within the cohort and put on the training scale (mean_t + sd_t z)"
	case "combat", "combat-nonparametric", "combat-mean", "combat-nonparametric-mean":
		prior := "parametric"
		if strings.Contains(h, "nonparametric") {
			prior = "non-parametric"
		}
		what := "location and scale"
		if strings.HasSuffix(h, "-mean") {
			what = "location only (mean-only)"
		}
		return fmt.Sprintf("ComBat with the training data as the reference batch (%s empirical Bayes, %s; Johnson et al. 2007, sva's ComBat(ref.batch =)), on the signature genes, without the cohort's classes", prior, what)
	}
	return "none: the cohort's values scaled with the training means and SDs, as the model was trained"
}

// unbalanced warns when a harmonisation that uses the cohort's own levels meets a
// cohort whose classes, as it gives them (never used to harmonise), are mixed unlike
// the training data's by more than 15 points: it then removes part of the biology
// (Nygaard, Rodland and Hovig 2016).
func (v *Validation) unbalanced() string {
	h := v.Options.Harmonize
	if h == "" || h == "none" || v.Shift == nil {
		return ""
	}
	counts := make([]float64, len(v.Model.Classes))
	n := 0.0
	for _, t := range v.Truth {
		if t >= 0 {
			counts[t]++
			n++
		}
	}
	if n < 2 {
		why := "the cohort gives no classes to check it"
		if n == 1 {
			why = "one sample of a known class is too few to check it"
		}
		return fmt.Sprintf("%s assumes the cohort's classes are mixed much as the training data's (%s); %s", h, shares(v.Model.Classes, v.Shift.TrainShares), why)
	}
	worst := 0.0
	for c := range counts {
		counts[c] /= n
		worst = math.Max(worst, math.Abs(counts[c]-v.Shift.TrainShares[c]))
	}
	if worst <= 0.15 {
		return ""
	}
	return fmt.Sprintf("warning: %s used the cohort's own gene levels, and its classes (%s, as it gives them; not used to harmonise) are mixed unlike the training data's (%s): the adjustment removed part of the difference between the classes, so its metrics are biased (Nygaard et al. 2016, Biostatistics 17:29-39)",
		h, shares(v.Model.Classes, counts), shares(v.Model.Classes, v.Shift.TrainShares))
}

func shares(classes []string, s []float64) string {
	var parts []string
	for c, name := range classes {
		parts = append(parts, fmt.Sprintf("%s %.0f%%", name, 100*s[c]))
	}
	return strings.Join(parts, ", ")
}

// HarmonizeMin is the fewest cohort samples (with values) the harmonisation h needs:
// 3 for those that estimate each gene's scale within the cohort (standardize, ComBat
// of location and scale: on 1 sample every z is 0, on 2 every z is +-1/sqrt(2), whatever
// the values), 2 for ComBat of location only (on 1 sample the batch's location is the
// sample's own deviation), 0 for none.
func HarmonizeMin(h string) int {
	switch {
	case h == "" || h == "none":
		return 0
	case strings.HasSuffix(h, "-mean"):
		return 2
	}
	return 3
}

// enoughToHarmonize refuses a cohort with fewer samples than its harmonisation needs,
// counted per gene found (standardize) or with a value in every gene found (ComBat):
// below them the harmonised values would hardly depend on the sample.
func (v *Validation) enoughToHarmonize(x *mat.Dense) error {
	h := v.Options.Harmonize
	need := HarmonizeMin(h)
	if need == 0 {
		return nil
	}
	n, g := x.Dims()
	have := n
	for i := 0; i < n && h != "standardize"; i++ {
		for j := 0; j < g; j++ {
			if v.Matches[j].By != "" && math.IsNaN(x.At(i, j)) {
				have--
				break
			}
		}
	}
	for j := 0; j < g && h == "standardize"; j++ {
		if v.Matches[j].By != "" {
			have = min(have, len(present(x, j)))
		}
	}
	if have >= need {
		return nil
	}
	what := "each gene's mean and SD"
	if strings.HasSuffix(h, "-mean") {
		what = "each gene's mean"
	}
	return fmt.Errorf("%s estimates %s within the cohort and needs %d cohort samples with values at least; this cohort has %d, so the harmonised values would hardly depend on the sample. Predict it with --harmonize none (its values as they are, scaled as the training data were; in the window, Harmonisation: none) when it was measured as the training data were, or build the signature with the k-TSP classifier, which compares genes within each sample and predicts one sample alone",
		h, what, need, have)
}

// harmonizeValues applies the harmonisation h to the cohort's values x (samples x
// model genes) of the genes found, the samples with a value in every gene found taking
// part (the others are left out of the predictions anyway).
func (v *Validation) harmonizeValues(x *mat.Dense) error {
	h := v.Options.Harmonize
	if err := v.enoughToHarmonize(x); err != nil {
		return err
	}
	switch h {
	case "", "none":
		return nil
	case "standardize":
		v.standardize(x)
		return nil
	}
	m := v.Model
	if m.Ref == nil {
		return fmt.Errorf("this model file keeps no training values, which ComBat needs as its reference: build the signature again with this version")
	}
	n, g := x.Dims()
	var genes, rows []int
	for j := 0; j < g; j++ {
		if v.Matches[j].By != "" {
			genes = append(genes, j)
		}
	}
	for i := 0; i < n; i++ {
		ok := true
		for _, j := range genes {
			ok = ok && !math.IsNaN(x.At(i, j))
		}
		if ok {
			rows = append(rows, i)
		}
	}
	if len(genes) < 2 || len(rows) == 0 {
		return fmt.Errorf("ComBat needs 2 signature genes found and a sample with a value in each; the cohort has %d and %d", len(genes), len(rows))
	}
	ref, batch := make([][]float64, len(genes)), make([][]float64, len(genes))
	for k, j := range genes {
		ref[k] = m.Ref[j]
		for _, i := range rows {
			batch[k] = append(batch[k], x.At(i, j))
		}
	}
	o := harmonize.Options{NonParametric: strings.Contains(h, "nonparametric"), MeanOnly: strings.HasSuffix(h, "-mean")}
	adj, fit, err := harmonize.ComBat(ref, batch, o)
	if err != nil {
		return err
	}
	for k, j := range genes {
		for r, i := range rows {
			x.Set(i, j, adj[k][r])
		}
	}
	note := HarmonizationText(h) + fmt.Sprintf(": %s, %s against %s", text.Count(len(genes), "gene"), text.Count(len(rows), "cohort sample"), text.Count(len(m.RefY), "training sample"))
	if len(fit.Unadjusted) > 0 {
		note += fmt.Sprintf("; %s constant within a batch left unadjusted", text.Count(len(fit.Unadjusted), "gene"))
	}
	if len(rows) < 10 {
		note += fmt.Sprintf("; only %s: the batch's location and scale are poorly estimated", text.Count(len(rows), "cohort sample"))
	}
	v.Notes = append(v.Notes, note)
	return nil
}

// standardize puts each gene found on the training scale: x' = mean_t + sd_t (x -
// mean_c)/sd_c over the cohort's values (NaN left out).
func (v *Validation) standardize(x *mat.Dense) {
	n, g := x.Dims()
	for j := 0; j < g; j++ {
		if v.Matches[j].By == "" {
			continue
		}
		mean, variance := meanVar(present(x, j))
		sd := math.Sqrt(variance)
		for i := 0; i < n; i++ {
			val := x.At(i, j)
			if math.IsNaN(val) {
				continue
			}
			z := 0.0
			if sd > 1e-12*math.Max(1, math.Abs(mean)) {
				z = (val - mean) / sd
			}
			x.Set(i, j, v.Model.Mean[j]+v.Model.SD[j]*z)
		}
	}
	v.Notes = append(v.Notes, "each gene standardised within the cohort and put on the training scale (mean_t + sd_t z): for another platform or batch; the cohort's own level of each gene is not used")
}
