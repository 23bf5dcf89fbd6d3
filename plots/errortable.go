package plots

import (
	"fmt"
	"strconv"

	"steadfast/compute/experiment"
)

// hasTests says whether res stored McNemar's tests for classifier cl.
func hasTests(res *experiment.Result, cl string) bool {
	for _, c := range res.Comparisons {
		if c.Classifier == cl {
			return true
		}
	}
	return false
}

// ErrorTable is Kalousis et al.'s Table 3 for classifier cl: for k = 10, 20, ..., 50 (or
// every accuracy k when the grid has none of them), each method's test error in % and
// its S_S stability, and whether it is in the top group: the method of least error and
// every method McNemar's test (p >= 0.05) does not separate from it. A run of one
// method has no top group: its error and S_S alone.
func ErrorTable(res *experiment.Result, cl string) Figure {
	f := Figure{Name: "error-table-" + safeName(cl), Title: fmt.Sprintf("%s: test error (%%) and S_S stability, %s; top group by McNemar's test at 0.05%s", res.Data.Name, experiment.ClassifierLabel(cl), leakNote(res))}
	if one := len(res.Methods) == 1; one { // no top group to test: error and S_S only
		f.Title = fmt.Sprintf("%s: test error (%%) and S_S stability, %s; one method, so no top group%s", res.Data.Name, experiment.ClassifierLabel(cl), leakNote(res))
	}
	header := []string{"k"}
	for _, m := range res.Methods {
		header = append(header, m.Label+" error %", m.Label+" S_S", m.Label+" top group")
	}
	f.Table = [][]string{header}
	if len(res.Methods) > 1 && !hasTests(res, cl) {
		f.Title += " (this run stored no tests: only the least error is marked)"
	}
	for _, k := range experiment.ErrorKs(res, cl) {
		errs, top, _ := experiment.TopGroup(res, cl, k)
		row := []string{strconv.Itoa(k)}
		for m, mr := range res.Methods {
			ss := ""
			for _, s := range mr.Stability {
				if s.K == k {
					ss = f4(s.SS)
				}
			}
			mark := ""
			if top[m] {
				mark = "yes"
			}
			row = append(row, strconv.FormatFloat(100*errs[m], 'f', 2, 64), ss, mark)
		}
		f.Table = append(f.Table, row)
	}
	if len(res.Methods) == 1 {
		for i := range f.Table {
			f.Table[i] = f.Table[i][:3]
		}
	}
	return f
}
