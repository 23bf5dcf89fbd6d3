package dataset

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/parallel"
)

var classNames = []string{"class", "label", "labels", "type", "group", "diagnosis", "phenotype", "outcome", "y", "target"}

func isClassName(s string) bool { return oneOf(s, classNames) }

// countUnquoted counts sep in l outside double-quoted fields ("IL1B; interleukin 1,
// beta" holds no separator).
func countUnquoted(l string, sep byte) int {
	n, quoted := 0, false
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case '"':
			quoted = !quoted
		case sep:
			if !quoted {
				n++
			}
		}
	}
	return n
}

// detectSep picks tab, semicolon or comma, whichever splits the header most
// consistently (separators inside quotes not counted).
func detectSep(ls []string) byte {
	best, bestN := byte(','), 0
	for _, sep := range []byte{'\t', ';', ','} {
		n := countUnquoted(ls[0], sep)
		if n == 0 {
			continue
		}
		ok := true
		for _, l := range ls[1:min(len(ls), 5)] {
			if countUnquoted(l, sep) != n {
				ok = false
			}
		}
		if ok && n > bestN || bestN == 0 {
			best, bestN = sep, n
		}
	}
	return best
}

// ReadDelimited reads a CSV, TSV or semicolon table with samples as rows (a header of
// feature names and a class column) or as columns (a first column of feature names and
// a class row). Decimal commas are accepted when the separator is not a comma.
func ReadDelimited(file string, b []byte, o Options) (*Dataset, error) {
	ls, notes, err := lines(file, b)
	if err != nil {
		return nil, err
	}
	ls, lineOf := joinQuoted(ls)
	sep := detectSep(ls)
	rows := make([][]string, len(ls))
	parallel.For(context.Background(), 0, len(ls), func(i int) error { rows[i] = splitFields(ls[i], sep); return nil })
	width := 0
	for _, r := range rows {
		width = max(width, len(r))
	}
	if len(rows) < 2 || width < 2 {
		return nil, &ParseError{File: file, Msg: "needs a header line and at least one data line with two or more columns; is the separator a comma, semicolon or tab?"}
	}
	for i, r := range rows {
		if strings.TrimSpace(ls[i]) == "" {
			return nil, &ParseError{File: file, Line: lineOf[i], Msg: "empty line inside the table"}
		}
		if len(r) != len(rows[0]) {
			return nil, &ParseError{File: file, Line: lineOf[i], Column: min(len(r), len(rows[0])) + 1,
				Msg: fmt.Sprintf("has %d fields but the header has %d (ragged row)", len(r), len(rows[0]))}
		}
	}
	return fromTable(file, rows, lineOf, notes, sep != ',', sep, o)
}

// joinQuoted joins the lines of a record whose quoted field holds line breaks (RFC 4180)
// and returns the records with the file line each starts on.
func joinQuoted(ls []string) ([]string, []int) {
	out := make([]string, 0, len(ls))
	lineOf := make([]int, 0, len(ls))
	for i := 0; i < len(ls); i++ {
		rec, start := ls[i], i+1
		for strings.Count(rec, `"`)%2 == 1 && i+1 < len(ls) {
			i++
			rec += "\n" + ls[i]
		}
		out = append(out, rec)
		lineOf = append(lineOf, start)
	}
	return out, lineOf
}

// fromTable reads a rectangular table of cells (a delimited file's, a worksheet's):
// orientation, class and features as ReadDelimited describes.
func fromTable(file string, rows [][]string, lineOf []int, notes []string, decimalComma bool, sep byte, o Options) (*Dataset, error) {
	orient := o.Orientation
	classIdx := -1
	if o.ClassName != "" {
		for j, h := range rows[0] {
			if h == o.ClassName {
				classIdx, orient = j, SamplesAsRows
			}
		}
		if classIdx < 0 {
			for i, r := range rows {
				if r[0] == o.ClassName {
					classIdx, orient = i, SamplesAsColumns
				}
			}
		}
		if classIdx < 0 {
			return nil, &ParseError{File: file, Msg: fmt.Sprintf("no column or row is named %q", o.ClassName)}
		}
	}
	if classIdx < 0 && o.Unlabelled && !namesClass(rows) {
		classIdx = noClass
		if orient == Auto {
			orient = SamplesAsRows
			if len(rows) > len(rows[0]) { // expression tables have more features than samples
				orient = SamplesAsColumns
			}
		}
		notes = append(notes, fmt.Sprintf("no column or row is named class: the samples are unlabelled (predictions only), taken as the table's %s", map[Orientation]string{SamplesAsRows: "rows", SamplesAsColumns: "columns"}[orient]))
	}
	if orient == Auto {
		var note string
		orient, note = detectOrientation(rows)
		if note != "" {
			notes = append(notes, note)
		}
	}
	if orient == SamplesAsColumns {
		rows = transpose(rows)
	}
	ds, err := fromRows(file, rows, lineOf, orient, classIdx, decimalComma, sep, o.GroupName)
	if err != nil {
		return nil, err
	}
	ds.Notes = append(notes, ds.Notes...)
	return ds, ds.tidyLabels(o.Unlabelled)
}

// noClass is the class column of a table without one (Options.Unlabelled).
const noClass = -2

// namesClass reports whether a column or a row is named like a class.
func namesClass(rows [][]string) bool {
	if slices.ContainsFunc(rows[0], isClassName) {
		return true
	}
	return slices.ContainsFunc(rows, func(r []string) bool { return isClassName(r[0]) })
}

// detectOrientation decides whether samples are rows or columns when the user has not
// said: a column or row named like a class (class, label, type, ...) decides; else the
// last column or last row that looks like a class (text, or a few small integers such
// as 0/1) does; else the shape does (expression tables have more features than samples).
// The note says what was assumed.
func detectOrientation(rows [][]string) (Orientation, string) {
	for _, h := range rows[0] {
		if isClassName(h) {
			return SamplesAsRows, ""
		}
	}
	for _, r := range rows {
		if isClassName(r[0]) {
			return SamplesAsColumns, ""
		}
	}
	last := len(rows[0]) - 1
	col := make([]string, 0, len(rows)-1)
	for _, r := range rows[1:] {
		col = append(col, r[last])
	}
	row := rows[len(rows)-1][1:]
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
		return SamplesAsRows, fmt.Sprintf("no column is named class: the last column %q (values %s) was taken as the class, samples as rows", rows[0][last], codeList(col))
	case rowCodes && !colCodes:
		return SamplesAsColumns, fmt.Sprintf("no row is named class: the last row %q (values %s) was taken as the class, samples as columns", rows[len(rows)-1][0], codeList(row))
	}
	if len(rows[0]) >= len(rows) {
		return SamplesAsRows, fmt.Sprintf("no column is named class: the last column %q was taken as the class and samples as rows (the table is wider than long); name the class column \"class\" to be sure", rows[0][last])
	}
	return SamplesAsColumns, fmt.Sprintf("no row is named class: the last row %q was taken as the class and samples as columns (the table is longer than wide); name the class row \"class\" to be sure", rows[len(rows)-1][0])
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

func transpose(rows [][]string) [][]string {
	t := make([][]string, len(rows[0]))
	for j := range t {
		t[j] = make([]string, len(rows))
		for i := range rows {
			t[j][i] = rows[i][j]
		}
	}
	return t
}

// fromRows builds a dataset from a table with samples as rows after the header row.
// Positions in errors are mapped back to the file for transposed tables.
func fromRows(file string, rows [][]string, lineOf []int, orient Orientation, classIdx int, decimalComma bool, sep byte, groupName string) (*Dataset, error) {
	header := rows[0]
	line := func(r int) int { // a row of the file -> its line
		if r < len(lineOf) {
			return lineOf[r]
		}
		return r + 1
	}
	pos := func(i, j int) (int, int) { // table cell -> file line, column
		if orient == SamplesAsColumns {
			return line(j), i + 1
		}
		return line(i), j + 1
	}
	if classIdx == -1 {
		for j, h := range header {
			if isClassName(h) {
				classIdx = j
			}
		}
	}
	if classIdx == -1 {
		classIdx = len(header) - 1
	}
	idCol, skip, notes := idColumns(rows, classIdx, orient)
	groupIdx := -1
	if groupName != "" {
		for j, h := range header {
			if j != classIdx && j != idCol && strings.EqualFold(strings.TrimSpace(h), groupName) {
				groupIdx = j
			}
		}
		if groupIdx < 0 {
			return nil, &ParseError{File: file, Msg: fmt.Sprintf("no column (or row, samples being columns) is named %q to group the samples by; name one of the file's annotation columns, such as a patient id", groupName)}
		}
		skip[groupIdx] = true
	}
	if note := textColumns(rows, classIdx, idCol, skip, decimalComma, orient); note != "" {
		notes = append(notes, note)
	}
	var featCols []int
	var names []string
	for j, h := range header {
		if j != classIdx && j != idCol && !skip[j] {
			featCols = append(featCols, j)
			names = append(names, h)
		}
	}
	if err := headerless(file, rows, featCols, classIdx, orient); err != nil {
		return nil, err
	}
	n, p := len(rows)-1, len(featCols)
	if p == 0 {
		return nil, &ParseError{File: file, Msg: "no feature columns besides the class"}
	}
	x := mat.NewDense(n, p, nil)
	ds := &Dataset{Name: file, X: x, Notes: notes}
	labels := make([]string, n)
	for i, r := range rows[1:] {
		if classIdx >= 0 {
			labels[i] = strings.TrimSpace(r[classIdx])
		}
		if idCol >= 0 {
			ds.Samples = append(ds.Samples, r[idCol])
		} else {
			ds.Samples = append(ds.Samples, fmt.Sprintf("sample%d", i+1))
		}
	}
	ds.setLabels(labels)
	if groupIdx >= 0 {
		for _, r := range rows[1:] {
			ds.Groups = append(ds.Groups, strings.TrimSpace(r[groupIdx]))
		}
		ds.Notes = append(ds.Notes, groupNote(groupName, ds.Groups))
	}
	err := parallel.For(context.Background(), 0, n, func(i int) error {
		r := rows[i+1]
		row := x.RawRowView(i)
		for jj, j := range featCols {
			v, ok := parseCell(r[j], decimalComma)
			if !ok {
				l, c := pos(i+1, j)
				msg := fmt.Sprintf("%q in feature %q is not a number", r[j], header[j])
				if sep == ',' && strings.Count(r[j], ".") == 0 && isNumber(strings.Replace(r[j], ",", ".", 1)) {
					msg += " (decimal comma? use ; or tab as separator)"
				}
				return &ParseError{File: file, Line: l, Column: c, Msg: msg}
			}
			row[jj] = v
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	note, uniq := uniqueNames(names, "feature")
	ds.Features = uniq
	if note != "" {
		ds.Notes = append(ds.Notes, note)
	}
	if note, s := uniqueNames(ds.Samples, "sample"); note != "" {
		ds.Samples, ds.Notes = s, append(ds.Notes, note)
	}
	if orient == SamplesAsColumns {
		ds.Notes = append(ds.Notes, "samples are the columns of this file")
	}
	return ds, nil
}

// textColumns marks in skip the columns (rows, when samples are columns) besides the
// class and the ids that hold text or dates and no number at all: annotations such as
// a sex or a sampling date, not measurements. The note names them.
func textColumns(rows [][]string, classIdx, idCol int, skip map[int]bool, decimalComma bool, orient Orientation) string {
	var names []string
	for j := range rows[0] {
		if j == classIdx || j == idCol || skip[j] {
			continue
		}
		text := false
		for _, r := range rows[1:] {
			c := strings.TrimSpace(r[j])
			if _, ok := parseCell(c, decimalComma); ok || isNumber(strings.Replace(c, ",", ".", 1)) {
				if !isMissingCell(c) {
					text = false
					break
				}
				continue
			}
			text = true
		}
		if text {
			skip[j] = true
			names = append(names, fmt.Sprintf("%q", rows[0][j]))
		}
	}
	if len(names) == 0 {
		return ""
	}
	what := "columns"
	if orient == SamplesAsColumns {
		what = "rows"
	}
	return fmt.Sprintf("%d %s hold text or dates, not measurements, and are left out of the features as sample annotations: %s (to take one as the class, name it: --class NAME, or Class on the Data tab)", len(names), what, listNames(names, 6))
}

// isMissingCell reports whether a cell is empty or a missing-value code (NA, NaN, ?).
func isMissingCell(s string) bool {
	v, ok := parseCell(strings.TrimSpace(s), false)
	return ok && math.IsNaN(v)
}

// idNames are headers of columns that number or name samples rather than measure them.
var idNames = []string{"", "id", "ids", "sample", "samples", "sample_id", "sampleid", "sample id", "index", "no", "no.", "number", "#", "patient", "patient_id", "subject", "case", "row", "rownames",
	// the corner cell of a table with samples as columns (numbered samples under it)
	"gene", "genes", "probe", "probe_id", "id_ref", "name", "feature"}

// idColumns finds the columns of a samples-as-rows table that identify samples: the
// first column when it is text, or distinct integers under an id-like header (id,
// sample, index, an empty one as R writes row names); other id-like columns of
// distinct integers are skipped. Notes say which were taken.
func idColumns(rows [][]string, classIdx int, orient Orientation) (idCol int, skip map[int]bool, notes []string) {
	idCol, skip = -1, map[int]bool{}
	what := func(j int) string {
		if orient == SamplesAsColumns {
			return fmt.Sprintf("row %d (%q)", j+1, rows[0][j])
		}
		return fmt.Sprintf("column %d (%q)", j+1, rows[0][j])
	}
	for j := range rows[0] {
		if j == classIdx {
			continue
		}
		idLike := slices.Contains(idNames, strings.ToLower(strings.TrimSpace(rows[0][j])))
		if j > 0 && !idLike {
			continue
		}
		text, distinct := columnKind(rows, j)
		switch {
		case j == 0 && text:
			idCol = 0
		case j == 0 && distinct && idLike:
			idCol = 0
			notes = append(notes, fmt.Sprintf("%s numbers the samples: taken as sample names, not as a feature", what(j)))
		case j > 0 && distinct && idLike && rows[0][j] != "":
			skip[j] = true
			notes = append(notes, fmt.Sprintf("%s numbers the samples: left out of the features", what(j)))
		}
	}
	return idCol, skip, notes
}

// columnKind reports whether column j of the data rows is all text, or all distinct
// integers.
func columnKind(rows [][]string, j int) (text, distinct bool) {
	text, distinct = true, true
	seen := map[int]bool{}
	for _, r := range rows[1:] {
		v := strings.TrimSpace(r[j])
		if isNumber(v) {
			text = false
		}
		k, err := strconv.Atoi(v)
		if err != nil || seen[k] {
			distinct = false
			if !text {
				break
			}
			continue
		}
		seen[k] = true
	}
	return text, distinct && !text
}

// headerless refuses a table whose header line is a data line (a file without a header,
// whose first sample would become the names): every feature name a number and the
// class cell one of the class values below it. Numeric names alone are fine: m/z values
// of a spectrum, Entrez gene ids.
func headerless(file string, rows [][]string, featCols []int, classIdx int, orient Orientation) error {
	for _, j := range featCols {
		if !isNumber(strings.TrimSpace(rows[0][j])) {
			return nil
		}
	}
	if classIdx < 0 { // numeric names alone are fine (m/z values)
		return nil
	}
	classCell := strings.TrimSpace(rows[0][classIdx])
	isLabel := false
	for _, r := range rows[1:] {
		if strings.TrimSpace(r[classIdx]) == classCell {
			isLabel = true
			break
		}
	}
	if !isLabel {
		return nil
	}
	msg := fmt.Sprintf("holds numbers (%s) where the feature names belong: the file seems to have no header. Add a first line naming every feature (and \"class\" for the class)", trunc(strings.Join(rows[0][:min(4, len(rows[0]))], ", ")))
	if orient == SamplesAsColumns {
		return &ParseError{File: file, Msg: "column 1 " + strings.Replace(msg, "a first line", "a first column", 1)}
	}
	return &ParseError{File: file, Line: 1, Msg: msg}
}
