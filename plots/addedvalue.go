package plots

import (
	"fmt"

	"gonum.org/v1/plot"

	"steadfast/compute/study"
)

// AddedValueForest draws the hazard ratios of the added-value analysis (av of a
// survival signature of data): each covariate term in the model of the covariates
// alone and, under it, in the model with the cross-validated risk score, then the
// score's (per SD, given the covariates, with the complete cases and their events).
// The legend gives the likelihood-ratio test and the change in Harrell's C. Named
// "signature-forest-covariates"; its table is HazardForest's.
func AddedValueForest(data string, av *study.AddedValue) Figure {
	byTerm := map[string][2]study.AddedTerm{}
	var order []string
	var score study.AddedTerm
	for _, t := range av.Terms {
		if t.Covariate == "" {
			score = t
			continue
		}
		pair, seen := byTerm[t.Term]
		if !seen {
			order = append(order, t.Term)
		}
		if t.Model == study.CovariatesModel {
			pair[0] = t
		} else {
			pair[1] = t
		}
		byTerm[t.Term] = pair
	}
	var rows []HRRow
	row := func(name string, t study.AddedTerm) HRRow {
		return HRRow{Name: name, HR: t.HR, Low: t.Low, High: t.High, P: t.P, Infinite: t.Infinite}
	}
	for _, term := range order {
		pair := byTerm[term]
		alone := row(term+" (alone)", pair[0])
		alone.Muted = true
		rows = append(rows, alone, row(term+" (with score)", pair[1]))
	}
	sr := row("risk score per SD (given the covariates)", score)
	sr.N, sr.Events = av.N, av.Events
	rows = append(rows, sr)
	f := HazardForest(data+": covariates alone and with the cross-validated risk score", rows)
	f.Name = "signature-forest-covariates"
	build := f.Build
	f.Build = func() (*plot.Plot, error) {
		p, err := build()
		if err != nil {
			return nil, err
		}
		p.Legend.Add("grey, open: a covariate in the model of the covariates alone; black: in the model with the score", noKey{})
		p.Legend.Add(fmt.Sprintf("adding the cross-validated risk score: likelihood ratio %.2f on 1 df, %s", av.LRT, formatP(av.LRTP)), noKey{})
		p.Legend.Add(fmt.Sprintf("Harrell's C %.3f -> %.3f, %s", av.C.A.C, av.C.B.C, av.CChange()), noKey{})
		return p, nil
	}
	return f
}
