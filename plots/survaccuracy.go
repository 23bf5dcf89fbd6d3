package plots

import (
	"strconv"

	"steadfast/compute/experiment"
)

// withUno adds to a survival study's accuracy table (method, classifier, k, mean, sd,
// ...) Uno's C truncated at the default horizon at each k (experiment.UnoByK: its
// mean and SD over the resamples' own held-out patients: not the signature's pooled
// value), named with its tau and _resamples; the table as it was for a
// study of classes, or when Uno's C cannot be had.
func withUno(res *experiment.Result, table [][]string) [][]string {
	if res.Data.Survival == nil || len(table) == 0 {
		return table
	}
	tau, uno, err := experiment.UnoByK(res, 0)
	if err != nil {
		return table
	}
	name := "uno_c_tau_" + strconv.FormatFloat(tau, 'g', 4, 64) + "_resamples"
	table[0] = append(table[0], name+"_mean", name+"_sd")
	row := 1 // the rows as AccuracyVsK writes them: each method's points in turn
	for m, mr := range res.Methods {
		for _, a := range mr.Accuracy["cox"] {
			cells := []string{"", ""}
			for _, u := range uno[m] {
				if u.K == a.K {
					cells = []string{f4(u.Mean), f4(u.SD)}
				}
			}
			if row < len(table) {
				table[row] = append(table[row], cells...)
			}
			row++
		}
	}
	return table
}
