package plots

import (
	"fmt"

	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/compute/survival"
)

// SurvivalSignatureFigures are a survival signature's figures: the Kaplan-Meier curves
// of its cross-validated risk groups (the first repetition's, each sample cut by the
// resample that held it out), the hazard ratios of its genes and risk score, the
// calibration at the first horizon, the heat map of its genes over the samples ordered
// by risk group, and the permutation test of C when it was run (signature-permutations).
func SurvivalSignatureFigures(res *experiment.Result, s *study.SurvivalSignature) []Figure {
	m := res.Methods[s.Choice.Method].Label
	names := s.Model.Cox.GroupNames()
	cv := s.CV
	km := KaplanMeierFigure(fmt.Sprintf("%s: %s top %d, Cox model, cross-validated risk groups", res.Data.Name, m, s.Choice.K),
		kmCurves(s.Outcome, cv.Groups, names), s.Opts.Unit, cv.LogRank[0],
		"cut by each sample's held-out resample (repetition 1); p approximate")
	rows := []HRRow{{Name: "risk score (cross-validated)", HR: cv.HR[0].HR, Low: cv.HR[0].Low, High: cv.HR[0].High, P: cv.HR[0].P, N: len(s.Samples), Events: s.Outcome.Events(), Infinite: cv.HR[0].Infinite}}
	for i, g := range s.Genes {
		rows = append(rows, HRRow{Name: s.GeneLabels()[i], HR: g.HR, Low: g.HRLow, High: g.HRHigh, P: g.WaldP, Infinite: g.Infinite})
	}
	forest := HazardForest(fmt.Sprintf("%s: hazard ratios per SD, the risk score's and each gene's in the locked Cox model", res.Data.Name), rows)
	figs := []Figure{km, forest}
	if len(cv.Calibration) > 0 {
		figs = append(figs, SurvivalCalibration(fmt.Sprintf("%s: predicted and observed survival at %s, cross-validated", res.Data.Name, timeText(cv.Horizons[0], s.Opts.Unit)),
			cv.Calibration[0], names, cv.Horizons[0], s.Opts.Unit))
	}
	figs = append(figs, SignatureHeatmap(fmt.Sprintf("%s: the %d signature genes (%s) across the samples", res.Data.Name, len(s.Genes), m),
		s.GeneLabels(), s.Samples, names, s.CV.Groups, s.Values))
	if s.Perm != nil {
		figs = append(figs, PermutationFigure(res.Data.Name, s.Perm))
	}
	return figs
}

// kmCurves are the Kaplan-Meier curves of the groups of o (named by names).
func kmCurves(o survival.Outcome, groups []int, names []string) []KMCurve {
	var out []KMCurve
	for g, name := range names {
		var idx []int
		for i, gi := range groups {
			if gi == g {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			continue
		}
		fit, err := survival.KM(o.Subset(idx))
		if err != nil {
			continue
		}
		out = append(out, KMCurve{Name: name, Fit: fit})
	}
	return out
}

// timeText is a time with its unit: "7.62 years".
func timeText(t float64, unit string) string {
	if unit == "" {
		return fmtNum(t)
	}
	return fmtNum(t) + " " + unit
}

// cohortSurvivalFigures are a survival signature's figures on a cohort with its own
// outcome: the Kaplan-Meier curves of its risk groups (cut at the training cut-offs)
// and the calibration at the first horizon within its follow-up.
func cohortSurvivalFigures(v *signature.Validation, scaling string) []Figure {
	m := v.Survival
	if m == nil {
		return nil
	}
	c := v.Model.Cox
	o := survival.Outcome{Time: v.Time, Event: v.Event}
	km := KaplanMeierFigure(fmt.Sprintf("%s: the locked signature's risk groups on %s (%s)", v.Cohort, v.CohortKind(), scaling),
		kmCurves(o, v.Pred, c.GroupNames()), c.Unit, m.LogRank, "cut at the training risk scores' "+cutWords(c))
	km.Name = "cohort-km"
	figs := []Figure{km}
	if len(m.Horizons) > 0 {
		cal := SurvivalCalibration(fmt.Sprintf("%s: predicted and observed survival at %s", v.Cohort, timeText(m.Horizons[0], c.Unit)),
			m.Calibration[0], c.GroupNames(), m.Horizons[0], c.Unit)
		cal.Name = "cohort-survival-calibration"
		figs = append(figs, cal)
	}
	return figs
}

// cutWords says where the risk groups are cut.
func cutWords(c *signature.CoxLock) string {
	switch c.Cut.Kind {
	case "tertiles":
		return "tertiles"
	case "value":
		return "value " + fmtNum(c.Cuts[0])
	}
	return "median"
}
