package signature

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/rstat"
	"steadfast/internal/text"
)

// GeneShift is how one signature gene's cohort values sit against its training values
// (both after the model's preprocessing): the standardised mean difference SMD =
// (mean_c - mean_t) / sqrt((sd_c^2 + sd_t^2)/2), the variance ratio sd_c^2/sd_t^2 and the
// share of cohort values outside the training range.
type GeneShift struct {
	Gene                   string
	SMD, VarRatio, Outside float64
	// Index is the gene's place in the model; Train and Cohort its values (the
	// cohort's as given, before any harmonisation)
	Index         int
	Train, Cohort []float64 `json:"-"`
}

// Shift is the cohort against the training data: per gene, and the scores of the
// positive class (two classes) of both and their SMD, and the class shares: the
// training samples' classes against the cohort's predicted classes.
type Shift struct {
	Genes                     []GeneShift
	MedianAbsSMD, MedianOut   float64
	TrainScores, CohortScores []float64
	ScoreSMD                  float64
	TrainShares, CohortShares []float64
	Limit                     float64 // the median |SMD| above which OffScale (smdLimit)
	OffScale                  bool
}

// Off-scale thresholds: a cohort is off the training scale when the median over the
// genes found of |SMD| exceeds max(ShiftSMD, 3 sqrt(1/n_t + 1/n_c)) or the median
// share outside the training range exceeds ShiftOutside. Half a pooled SD is Cohen's
// medium effect: a shift of that size in every gene moves a linear score by about half
// its spread when the genes' weights agree in sign, enough to move the cut between the
// classes; sqrt(1/n_t + 1/n_c) is about the SMD's standard error with no shift at all,
// so small cohorts are not flagged for their sampling noise (two halves of Colon, 31
// arrays each, differ by a median |SMD| of 0.42 on their signature genes). A fifth of
// the values beyond anything the model saw in training is extrapolation.
const (
	ShiftSMD     = 0.5
	ShiftOutside = 0.2
)

// smdLimit is the |SMD| above which a cohort of nc samples is off the scale of nt
// training samples.
func smdLimit(nt, nc int) float64 {
	return math.Max(ShiftSMD, 3*math.Sqrt(1/float64(nt)+1/float64(max(nc, 1))))
}

// shiftOf measures the cohort's values x (samples x model genes, NaN missing) of the
// genes found against the model's reference values.
func (v *Validation) shiftOf(x *mat.Dense) *Shift {
	m := v.Model
	if m.Ref == nil {
		return nil
	}
	n, g := x.Dims()
	s := &Shift{}
	var abs, out []float64
	for j := 0; j < g; j++ {
		if v.Matches[j].By == "" {
			continue
		}
		c := present(x, j)
		if len(c) == 0 {
			continue
		}
		gs := geneShift(m.Ref[j], c)
		gs.Gene, gs.Index, gs.Train, gs.Cohort = geneName(v.Matches[j]), j, m.Ref[j], c
		s.Genes = append(s.Genes, gs)
		abs, out = append(abs, math.Abs(gs.SMD)), append(out, gs.Outside)
	}
	if len(abs) == 0 {
		return nil
	}
	s.MedianAbsSMD, s.MedianOut = rstat.Median(abs), rstat.Median(out)
	s.Limit = smdLimit(len(m.RefY), n)
	s.OffScale = s.MedianAbsSMD > s.Limit || s.MedianOut > ShiftOutside
	s.TrainShares = make([]float64, len(m.Classes))
	for _, y := range m.RefY {
		s.TrainShares[y] += 1 / float64(len(m.RefY))
	}
	return s
}

// geneShift compares cohort values c with training values t.
func geneShift(t, c []float64) GeneShift {
	mt, vt := meanVar(t)
	mc, vc := meanVar(c)
	lo, hi := slices.Min(t), slices.Max(t)
	outside := 0
	for _, x := range c {
		if x < lo || x > hi {
			outside++
		}
	}
	gs := GeneShift{SMD: math.NaN(), VarRatio: math.NaN(), Outside: float64(outside) / float64(len(c))}
	if pooled := math.Sqrt((vt + vc) / 2); pooled > 0 {
		gs.SMD = (mc - mt) / pooled
	} else if mc == mt {
		gs.SMD = 0
	}
	if vt > 0 && len(c) > 1 {
		gs.VarRatio = vc / vt
	}
	return gs
}

// scoreShift adds the scores and predicted class shares once the cohort is predicted:
// the training samples' scores by the model on its reference values.
func (v *Validation) scoreShift() {
	s, m := v.Shift, v.Model
	if s == nil || len(v.Pred) == 0 {
		return
	}
	s.CohortShares = make([]float64, len(m.Classes))
	for _, p := range v.Pred {
		s.CohortShares[p] += 1 / float64(len(v.Pred))
	}
	if len(m.Classes) != 2 {
		return
	}
	tx := mat.NewDense(len(m.RefY), len(m.Genes), nil)
	for g, r := range m.Ref {
		tx.SetCol(g, r)
	}
	ts, _, err := m.Scores(tx)
	if err != nil {
		return
	}
	p := m.Positive
	for _, sc := range ts {
		s.TrainScores = append(s.TrainScores, sc[p])
	}
	for _, sc := range v.Scores {
		s.CohortScores = append(s.CohortScores, sc[p])
	}
	s.ScoreSMD = geneShift(s.TrainScores, s.CohortScores).SMD
}

// Says is the shift in words, with the warning and the remedy the data allow when the
// cohort is off the training scale.
func (s *Shift) Says(v *Validation) string {
	if s == nil {
		return ""
	}
	m := v.Model
	var b strings.Builder
	fmt.Fprintf(&b, "Against the training data (the cohort's values as given, after the model's preprocessing): median |standardised mean difference| %.2f over the %s found, median share outside the training range %.2f",
		s.MedianAbsSMD, text.Count(len(s.Genes), "gene"), s.MedianOut)
	if len(s.CohortShares) > 0 {
		var parts []string
		for c, name := range m.Classes {
			parts = append(parts, fmt.Sprintf("%s %.0f%% (training %.0f%%)", name, 100*s.CohortShares[c], 100*s.TrainShares[c]))
		}
		fmt.Fprintf(&b, "; predicted %s", strings.Join(parts, ", "))
	}
	if !math.IsNaN(s.ScoreSMD) && len(s.CohortScores) > 0 {
		fmt.Fprintf(&b, "; the scores' SMD %.2f", s.ScoreSMD)
	}
	b.WriteString(".")
	if s.OffScale {
		fmt.Fprintf(&b, " WARNING: the cohort is off the training scale (median |SMD| above %.2f or more than %.0f%% of values outside the training range): ", s.Limit, 100*ShiftOutside)
		h := v.Options.Harmonize
		switch {
		case m.Classifier == "ktsp":
			b.WriteString("k-TSP compares genes within each sample, so a shift common to a sample's genes does not move its votes; only a shift that reorders the genes within samples does.")
		case h != "" && h != "none":
			fmt.Fprintf(&b, "harmonised (%s); the shift above is before it.", h)
		case len(v.Samples) >= 10:
			b.WriteString("accuracy and sensitivity at the model's threshold mean little here, while the AUC (a ranking) still does; harmonise it (--harmonize combat, or standardize; the Validate dialog's Harmonisation), which assumes the cohort's classes are mixed much as the training's.")
		default:
			b.WriteString("too few samples to harmonise a batch reliably (fewer than 10); read the AUC, not the accuracy.")
		}
	}
	return b.String()
}
