package dataset

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"steadfast/internal/text"
)

func isClassName(s string) bool { return oneOf(s, classNames) }

// detectOrientation decides whether samples are rows or columns when the user has not
// said: a column or row named like a class (class, label, type, ...) decides; else the
// last column or last row that looks like a class (text, or a few small integers such
// as 0/1) does; else the shape does (expression tables have more features than samples).
// The note says what was assumed.
func detectOrientation(g grid) (Orientation, string) {
	header, first := g.row(0), g.column(0, 0)
	if slices.ContainsFunc(header, isClassName) {
		return SamplesAsRows, ""
	}
	if slices.ContainsFunc(first, isClassName) {
		return SamplesAsColumns, ""
	}
	last, bottom := len(header)-1, len(first)-1
	col := g.column(last, 1)
	row := g.row(bottom)[1:]
	colText, rowText := allText(col[:min(len(col), 20)]), allText(row)
	switch {
	case colText:
		return SamplesAsRows, ""
	case rowText:
		return SamplesAsColumns, ""
	}
	colCodes, rowCodes := classCodes(col), classCodes(row)
	switch {
	case colCodes && !rowCodes:
		return SamplesAsRows, fmt.Sprintf("no column is named class: the last column %q (values %s) was taken as the class, samples as rows", header[last], codeList(col))
	case rowCodes && !colCodes:
		return SamplesAsColumns, fmt.Sprintf("no row is named class: the last row %q (values %s) was taken as the class, samples as columns", first[bottom], codeList(row))
	}
	if len(header) >= len(first) {
		return SamplesAsRows, fmt.Sprintf("no column is named class: the last column %q was taken as the class and samples as rows (the table is wider than long); name the class column \"class\" to be sure", header[last])
	}
	return SamplesAsColumns, fmt.Sprintf("no row is named class: the last row %q was taken as the class and samples as columns (the table is longer than wide); name the class row \"class\" to be sure", first[bottom])
}

// allText reports whether no value is a number.
func allText(vals []string) bool {
	for _, v := range vals {
		if isNumber(v) {
			return false
		}
	}
	return true
}

// classCodes reports whether vals look like class codes: integers taking 2 to 10
// distinct values, one of them at least twice.
func classCodes(vals []string) bool {
	seen := map[string]int{}
	for _, v := range vals {
		v = strings.TrimSpace(v)
		if _, err := strconv.Atoi(v); err != nil {
			return false
		}
		seen[v]++
	}
	if len(seen) < 2 || len(seen) > 10 || len(seen) == len(vals) {
		return false
	}
	return true
}

// notContinuous refuses to take column j, chosen as the class for want of one named so,
// when it holds numbers that are no class codes: some not whole, or more than 10
// distinct values (a gene's values, a survival time, an age). It says how to name the
// class, and what a table of time and event columns is.
func notContinuous(file string, g grid, header []string, j int, orient Orientation) error {
	vals := g.column(j, 1)
	distinct := map[string]bool{}
	whole := true
	for _, v := range vals {
		v = strings.TrimSpace(v)
		if isMissingCell(v) {
			continue
		}
		f, err := strconv.ParseFloat(strings.Replace(v, ",", ".", 1), 64)
		if err != nil {
			return nil // text: class names
		}
		whole = whole && f == math.Trunc(f)
		distinct[v] = true
	}
	if len(distinct) == 0 || whole && len(distinct) <= 10 {
		return nil
	}
	what, where := "column", "the class column \"class\" (the first line's cell)"
	if orient == SamplesAsColumns {
		what, where = "row", "the class row \"class\" (its first cell)"
	}
	msg := fmt.Sprintf("no %s is named class (class, label, type, group, ...), and the last %s, %q, holds numbers (%s such as %s), not classes. Name %s, or give the class's name (--class NAME; in the window, the Data tab's Class)",
		what, what, header[j], text.Count(len(distinct), "distinct value"), someValues(vals, 3), where)
	msg += "; when the outcome is a survival time, name its time and event columns (--time COL --event COL; in the window, the Data tab's Outcome)"
	return &ParseError{File: file, Msg: msg}
}

// notClassText refuses to take column j, chosen as the class for want of one named so,
// when its text names no classes of samples: marks (one value, such as MaxQuant's "+",
// the other cells empty), or free text (more than 10 distinct values and more than
// half as many as the rows: names, descriptions, ids). Numbers are notContinuous's.
func notClassText(file string, g grid, header []string, j int, orient Orientation) error {
	vals := g.column(j, 1)
	distinct := map[string]int{}
	empty, numbers := 0, 0
	for _, v := range vals {
		switch v = strings.TrimSpace(v); {
		case isMissingCell(v):
			empty++
		case isNumber(v):
			numbers++
		default:
			distinct[v]++
		}
	}
	given := len(vals) - empty
	what, where := "column", "the class column \"class\" (the first line's cell)"
	if orient == SamplesAsColumns {
		what, where = "row", "the class row \"class\" (its first cell)"
	}
	var holds string
	switch {
	case numbers > 0 || len(distinct) == 0:
		return nil
	case len(distinct) == 1 && empty > 0:
		holds = fmt.Sprintf("marks (%q in %s of %s, the others empty)", someValues(vals, 1), text.Thousands(given), text.Count(len(vals), "row"))
	case len(distinct) > 10 && 2*len(distinct) > given:
		holds = fmt.Sprintf("text that names no classes (%s in %s, such as %s)", text.Count(len(distinct), "distinct value"), text.Count(len(vals), "row"), someValues(vals, 3))
	default:
		return nil
	}
	if orient == SamplesAsColumns {
		holds = strings.ReplaceAll(holds, " row", " column")
	}
	msg := fmt.Sprintf("no %s is named class (class, label, type, group, ...), and the last %s, %q, holds %s, not classes of samples. Name %s, or give the class's name (--class NAME; in the window, the Data tab's Class), or a design table (--design FILE) for intensities",
		what, what, header[j], holds, where)
	for _, h := range header {
		if l := strings.ToLower(h); strings.Contains(l, "protein") || strings.Contains(l, "intensity") {
			msg += "; a MaxQuant proteinGroups table is read as one when its header names Protein IDs or Majority protein IDs and a family of intensity columns (LFQ intensity, Intensity or iBAQ), as MaxQuant or R names them"
			break
		}
	}
	return &ParseError{File: file, Msg: msg}
}

// someValues lists the first n distinct values of vals.
func someValues(vals []string, n int) string {
	var out []string
	for _, v := range vals {
		if v = strings.TrimSpace(v); v != "" && !slices.Contains(out, v) && len(out) < n {
			out = append(out, v)
		}
	}
	return strings.Join(out, ", ")
}

// hasColumn reports whether header names a column name (case aside).
func hasColumn(header []string, name string) bool {
	return slices.ContainsFunc(header, func(h string) bool { return strings.EqualFold(strings.TrimSpace(h), name) })
}

// codeList lists the distinct values of vals in order of first appearance.
func codeList(vals []string) string {
	var out []string
	for _, v := range vals {
		v = strings.TrimSpace(v)
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return strings.Join(out, ", ")
}
