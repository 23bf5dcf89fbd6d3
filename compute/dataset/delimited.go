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
	g := splitGrid(ls, sep)
	width := 0
	for _, r := range g.recs {
		width = max(width, r.width())
	}
	if len(g.recs) < 2 || width < 2 {
		return nil, &ParseError{File: file, Msg: "needs a header line and at least one data line with two or more columns; is the separator a comma, semicolon or tab?"}
	}
	head := g.recs[0].width()
	for i, r := range g.recs {
		if strings.TrimSpace(ls[i]) == "" {
			return nil, &ParseError{File: file, Line: lineOf[i], Msg: "empty line inside the table"}
		}
		if r.width() != head {
			return nil, &ParseError{File: file, Line: lineOf[i], Column: min(r.width(), head) + 1,
				Msg: fmt.Sprintf("has %d fields but the header has %d (ragged row)", r.width(), head)}
		}
	}
	return fromTable(file, g, lineOf, notes, sep != ',', sep, o)
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
func fromTable(file string, g grid, lineOf []int, notes []string, decimalComma bool, sep byte, o Options) (*Dataset, error) {
	orient := o.Orientation
	classIdx := -1
	if o.ClassName != "" {
		for j := range g.cols() {
			if g.at(0, j) == o.ClassName {
				classIdx, orient = j, SamplesAsRows
			}
		}
		if classIdx < 0 {
			for i := range g.rows() {
				if g.at(i, 0) == o.ClassName {
					classIdx, orient = i, SamplesAsColumns
				}
			}
		}
		if classIdx < 0 {
			return nil, &ParseError{File: file, Msg: fmt.Sprintf("no column or row is named %q", o.ClassName)}
		}
	}
	if classIdx < 0 && o.Unlabelled && !namesClass(g) && survivalOrientation(g, o.Outcome) == Auto {
		classIdx = noClass
		if orient == Auto {
			orient = SamplesAsRows
			if g.rows() > g.cols() { // expression tables have more features than samples
				orient = SamplesAsColumns
			}
		}
		notes = append(notes, fmt.Sprintf("no column or row is named class: the samples are unlabelled (predictions only), taken as the table's %s", map[Orientation]string{SamplesAsRows: "rows", SamplesAsColumns: "columns"}[orient]))
	}
	if orient == Auto && classIdx < 0 {
		orient = survivalOrientation(g, o.Outcome)
	}
	if orient == Auto {
		var note string
		orient, note = detectOrientation(g)
		if note != "" {
			notes = append(notes, note)
		}
	}
	if orient == SamplesAsColumns {
		g = g.transposed()
	}
	ds, err := fromRows(file, g, lineOf, orient, classIdx, decimalComma, sep, o)
	if err != nil {
		return nil, err
	}
	ds.Notes = append(notes, ds.Notes...)
	if ds.Survival != nil {
		return ds, nil
	}
	return ds, ds.tidyLabels(o.Unlabelled)
}

// noClass is the class column of a table without one (Options.Unlabelled).
const noClass = -2

// namesClass reports whether a column or a row is named like a class.
func namesClass(g grid) bool {
	return slices.ContainsFunc(g.row(0), isClassName) || slices.ContainsFunc(g.column(0, 0), isClassName)
}

// fromRows builds a dataset from a table with samples as rows after the header row.
// Positions in errors are mapped back to the file for transposed tables.
func fromRows(file string, g grid, lineOf []int, orient Orientation, classIdx int, decimalComma bool, sep byte, o Options) (*Dataset, error) {
	groupName := o.GroupName
	header := g.row(0)
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
	ti, ei, surv, err := survivalColumns(file, header, o.Outcome, classIdx, orient)
	if err != nil {
		return nil, err
	}
	if surv {
		classIdx = noClass
	}
	if classIdx == -1 {
		classIdx = len(header) - 1
		if err := notContinuous(file, g, header, classIdx, orient); err != nil {
			return nil, err
		}
	}
	idCol, skip, notes := idColumns(g, header, classIdx, orient)
	if surv {
		notes = append(notes, outcomeColumns(header, ti, ei, skip)...)
	}
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
	role := map[int]string{}
	for _, r := range []struct {
		j    int
		name string
	}{{classIdx, "class"}, {idCol, "sample ids"}, {ti, "survival time"}, {ei, "event"}} {
		if r.j >= 0 && (r.name == "class" || r.name == "sample ids" || surv) {
			role[r.j] = r.name
		}
	}
	for j := range skip {
		if _, ok := role[j]; !ok && !findColumnIn(o.Covariates, header[j]) {
			role[j] = "an annotation left out of the features"
		}
	}
	covs, covNotes, err := readCovariates(file, g, header, o, role, skip, decimalComma, orient)
	if err != nil {
		return nil, err
	}
	notes = append(notes, covNotes...)
	if note := textColumns(g, header, classIdx, idCol, skip, decimalComma, orient); note != "" {
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
	if err := headerless(file, g, header, featCols, classIdx, orient); err != nil {
		return nil, err
	}
	n, p := g.rows()-1, len(featCols)
	if p == 0 {
		return nil, &ParseError{File: file, Msg: "no feature columns besides the class"}
	}
	x := mat.NewDense(n, p, nil)
	ds := &Dataset{Name: file, X: x, Notes: notes, Covariates: covs}
	labels := make([]string, n)
	for i := range n {
		if classIdx >= 0 {
			labels[i] = g.at(i+1, classIdx)
		}
		if idCol >= 0 {
			ds.Samples = append(ds.Samples, g.at(i+1, idCol))
		} else {
			ds.Samples = append(ds.Samples, fmt.Sprintf("sample%d", i+1))
		}
	}
	ds.setLabels(labels)
	if surv {
		if ds.Survival, err = readSurvival(file, g, header, ti, ei, ds.Samples, pos); err != nil {
			return nil, err
		}
		ds.survivalLabels()
		ds.Notes = append(ds.Notes, survivalNote(ds.Survival, o.Outcome.Set()))
	}
	if groupIdx >= 0 {
		ds.Groups = g.column(groupIdx, 1)
		ds.Notes = append(ds.Notes, groupNote(groupName, ds.Groups))
	}
	bad := func(i, j int) error {
		cell := g.at(i, j)
		l, c := pos(i, j)
		msg := fmt.Sprintf("%q in feature %q is not a number", cell, header[j])
		if sep == ',' && strings.Count(cell, ".") == 0 && isNumber(strings.Replace(cell, ",", ".", 1)) {
			msg += " (decimal comma? use ; or tab as separator)"
		}
		return &ParseError{File: file, Line: l, Column: c, Msg: msg}
	}
	if err := parseCells(g, x, featCols, decimalComma, bad); err != nil {
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

// parseCells parses the feature columns featCols of g's data rows (all rows but the
// header) into x; an error is bad of the first cell, in the file's order, that is not a
// number. A transposed grid is parsed 64 features (the file's lines) at a time, every
// sample through them, so that the block's records stay in the cache.
func parseCells(g grid, x *mat.Dense, featCols []int, decimalComma bool, bad func(i, j int) error) error {
	n := g.rows() - 1
	if !g.t {
		return parallel.For(context.Background(), 0, n, func(i int) error {
			row := x.RawRowView(i)
			for jj, j := range featCols {
				v, ok := parseCell(g.at(i+1, j), decimalComma)
				if !ok {
					return bad(i+1, j)
				}
				row[jj] = v
			}
			return nil
		})
	}
	const block = 64
	return parallel.For(context.Background(), 0, (len(featCols)+block-1)/block, func(b int) error {
		cols := featCols[b*block : min(len(featCols), (b+1)*block)]
		ok := true
		for i := range n {
			row := x.RawRowView(i)[b*block:]
			for jj, j := range cols {
				v, good := parseCell(g.at(i+1, j), decimalComma)
				row[jj], ok = v, ok && good
			}
		}
		for _, j := range cols { // the file's order: line by line
			for i := 1; i <= n && !ok; i++ {
				if _, good := parseCell(g.at(i, j), decimalComma); !good {
					return bad(i, j)
				}
			}
		}
		return nil
	})
}

// textColumns marks in skip the columns (rows, when samples are columns) besides the
// class and the ids that hold text or dates and no number at all: annotations such as
// a sex or a sampling date, not measurements. The note names them.
func textColumns(g grid, header []string, classIdx, idCol int, skip map[int]bool, decimalComma bool, orient Orientation) string {
	var names []string
	for j := range header {
		if j == classIdx || j == idCol || skip[j] {
			continue
		}
		text := false
		for i := 1; i < g.rows(); i++ {
			c := g.at(i, j)
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
			names = append(names, fmt.Sprintf("%q", header[j]))
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
func idColumns(g grid, header []string, classIdx int, orient Orientation) (idCol int, skip map[int]bool, notes []string) {
	idCol, skip = -1, map[int]bool{}
	what := func(j int) string {
		if orient == SamplesAsColumns {
			return fmt.Sprintf("row %d (%q)", j+1, header[j])
		}
		return fmt.Sprintf("column %d (%q)", j+1, header[j])
	}
	for j := range header {
		if j == classIdx {
			continue
		}
		idLike := slices.Contains(idNames, strings.ToLower(header[j]))
		if j > 0 && !idLike {
			continue
		}
		text, distinct := columnKind(g, j)
		switch {
		case j == 0 && text:
			idCol = 0
		case j == 0 && distinct && idLike:
			idCol = 0
			notes = append(notes, fmt.Sprintf("%s numbers the samples: taken as sample names, not as a feature", what(j)))
		case j > 0 && distinct && idLike && header[j] != "":
			skip[j] = true
			notes = append(notes, fmt.Sprintf("%s numbers the samples: left out of the features", what(j)))
		}
	}
	return idCol, skip, notes
}

// columnKind reports whether column j of the data rows is all text, or all distinct
// integers.
func columnKind(g grid, j int) (text, distinct bool) {
	text, distinct = true, true
	seen := map[int]bool{}
	for i := 1; i < g.rows(); i++ {
		v := g.at(i, j)
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
func headerless(file string, g grid, header []string, featCols []int, classIdx int, orient Orientation) error {
	for _, j := range featCols {
		if !isNumber(header[j]) {
			return nil
		}
	}
	if classIdx < 0 { // numeric names alone are fine (m/z values)
		return nil
	}
	classCell := header[classIdx]
	isLabel := false
	for i := 1; i < g.rows(); i++ {
		if g.at(i, classIdx) == classCell {
			isLabel = true
			break
		}
	}
	if !isLabel {
		return nil
	}
	msg := fmt.Sprintf("holds numbers (%s) where the feature names belong: the file seems to have no header. Add a first line naming every feature (and \"class\" for the class)", trunc(strings.Join(header[:min(4, len(header))], ", ")))
	if orient == SamplesAsColumns {
		return &ParseError{File: file, Msg: "column 1 " + strings.Replace(msg, "a first line", "a first column", 1)}
	}
	return &ParseError{File: file, Line: 1, Msg: msg}
}
