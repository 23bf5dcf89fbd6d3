package dataset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/parallel"
)

// ParseError locates a problem in an input file. Line and Column count from 1;
// zero means the whole file or the whole line.
type ParseError struct {
	File   string
	Line   int
	Column int
	Msg    string
}

func (e *ParseError) Error() string {
	switch {
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("%s, line %d, column %d: %s", e.File, e.Line, e.Column, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s, line %d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Orientation says whether the samples of a delimited table are its rows or its columns.
type Orientation string

const (
	Auto             Orientation = ""
	SamplesAsRows    Orientation = "rows"
	SamplesAsColumns Orientation = "columns"
)

// Options steer the readers; the zero value detects everything.
type Options struct {
	Orientation Orientation `json:"orientation,omitempty"`
	ClassName   string      `json:"className,omitempty"`   // class column (rows) or row (columns); "" detects
	CLSPath     string      `json:"clsPath,omitempty"`     // GCT label file; "" means the .cls beside the .gct
	Sheet       string      `json:"sheet,omitempty"`       // workbook sheet; "" means the first
	SymbolsPath string      `json:"symbolsPath,omitempty"` // probe-to-symbol annotation (see ReadSymbols)
}

// Check refuses options no reader knows: an orientation other than "", "rows" and
// "columns" (it had fallen back to detection without a word).
func (o Options) Check() error {
	switch o.Orientation {
	case Auto, SamplesAsRows, SamplesAsColumns:
		return nil
	}
	return fmt.Errorf("orientation %q: give \"rows\" (samples are the table's rows), \"columns\" (samples are its columns) or leave it out to detect it", o.Orientation)
}

// MaxFileSize is the largest file the readers accept (2 GiB).
const MaxFileSize = 2 << 30

// ReadLimited reads the regular file at path, refusing folders, pipes, devices and
// files over limit bytes (also a file that grows past the limit while it is read).
func ReadLimited(path string, limit int64) ([]byte, error) {
	name := filepath.Base(path)
	// stat before opening: opening a pipe would wait for a writer
	st, err := os.Stat(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &ParseError{File: name, Msg: "cannot open: " + err.Error()}
	}
	if err := regular(name, st, limit); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &ParseError{File: name, Msg: "cannot open: " + err.Error()}
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, &ParseError{File: name, Msg: "cannot read: " + err.Error()}
	}
	if err := regular(name, st, limit); err != nil { // replaced since the first look
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, &ParseError{File: name, Msg: "cannot read: " + err.Error()}
	}
	if int64(len(b)) > limit {
		return nil, &ParseError{File: name, Msg: fmt.Sprintf("grew past the %s Steadfast reads while it was read", bytesText(limit))}
	}
	return b, nil
}

// regular refuses folders, pipes, devices and files over limit bytes.
func regular(name string, st os.FileInfo, limit int64) error {
	switch {
	case st.IsDir():
		return &ParseError{File: name, Msg: "is a folder, not a data file"}
	case !st.Mode().IsRegular():
		return &ParseError{File: name, Msg: "is not a regular file (a pipe or a device?); save the data to a file first"}
	case st.Size() > limit:
		return &ParseError{File: name, Msg: fmt.Sprintf("is %s, larger than the %s Steadfast reads", bytesText(st.Size()), bytesText(limit))}
	}
	return nil
}

// bytesText formats a size: 1.5 GB, 12 MB, 300 bytes.
func bytesText(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.0f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ReadFile reads a dataset, choosing the reader by the file's extension:
// .gct (with its .cls), .arff, anything else as delimited text.
func ReadFile(path string, o Options) (*Dataset, error) {
	name := filepath.Base(path)
	if err := o.Check(); err != nil {
		return nil, err
	}
	b, err := ReadLimited(path, MaxFileSize)
	if err != nil {
		return nil, err
	}
	b, zipped, err := gunzip(name, b, MaxFileSize)
	if err != nil {
		return nil, err
	}
	b, note := toUTF8(b)
	plain := strings.TrimSuffix(strings.TrimSuffix(path, ".gz"), ".GZ") // the name without .gz
	ds, err := readAs(path, plain, name, b, o)
	if err != nil {
		return nil, err
	}
	if zipped {
		ds.Notes = append([]string{"gzip-compressed file decompressed"}, ds.Notes...)
	}
	if o.SymbolsPath != "" {
		sym, used, err := ReadSymbols(o.SymbolsPath)
		if err != nil {
			return nil, err
		}
		found := ds.SetSymbols(sym)
		if found == 0 {
			return nil, &ParseError{File: filepath.Base(o.SymbolsPath), Msg: fmt.Sprintf("names none of the %d features of %s; is it the annotation of this platform?", len(ds.Features), name)}
		}
		ds.Notes = append(ds.Notes, fmt.Sprintf("gene symbols for %d of %d features from %s (%s)", found, len(ds.Features), filepath.Base(o.SymbolsPath), used))
	}
	if note != "" {
		ds.Notes = append([]string{note}, ds.Notes...)
	}
	return ds, nil
}

// readGCT13File reads a GCT 1.3 file with its CLS file when there is one.
func readGCT13File(path, plain, name string, b []byte, o Options) (*Dataset, error) {
	clsName, cls, err := readCLSBeside(path, plain, o)
	if err != nil {
		cls = nil // the class may be a column-metadata row
	}
	return ReadGCT13(name, b, o, clsName, cls)
}

// readCLSBeside reads the CLS file of the GCT at path: o.CLSPath, else the .cls beside
// it (or .cls.gz beside a .gct.gz), gzipped or not, as UTF-8 text; with its name.
func readCLSBeside(path, plain string, o Options) (string, []byte, error) {
	cls := o.CLSPath
	if cls == "" {
		cls = strings.TrimSuffix(plain, filepath.Ext(plain)) + ".cls"
		if _, err := os.Stat(cls); err != nil && path != plain {
			cls += ".gz"
		}
	}
	b, err := ReadLimited(cls, MaxFileSize)
	if err == nil {
		b, _, err = gunzip(filepath.Base(cls), b, MaxFileSize)
	}
	if err != nil {
		return filepath.Base(cls), nil, err
	}
	b, _ = toUTF8(b)
	return filepath.Base(cls), b, nil
}

// readAs reads the text b of the file at path with the reader its extension (without a
// .gz) names.
func readAs(path, plain, name string, b []byte, o Options) (*Dataset, error) {
	if isXLSX(b) {
		return ReadXLSX(name, b, o)
	}
	if isSeriesMatrix(b) {
		return ReadSeriesMatrix(name, b, o)
	}
	switch kind := softKind(b); kind {
	case "dataset":
		return ReadGDS(name, b, o)
	case "platform", "sample", "family":
		return nil, softError(name, kind)
	}
	switch strings.ToLower(filepath.Ext(plain)) {
	case ".gct":
		if strings.HasPrefix(strings.TrimLeft(string(b[:min(len(b), 16)]), "\ufeff \t\r\n"), "#1.3") { // a BOM too
			return readGCT13File(path, plain, name, b, o)
		}
		clsName, cls, err := readCLSBeside(path, plain, o)
		if err != nil {
			return nil, &ParseError{File: name, Msg: fmt.Sprintf("needs its class label file %s beside it (GenePattern CLS); it could not be read", clsName)}
		}
		return ReadGCT(name, b, clsName, cls)
	case ".arff":
		return ReadARFF(name, b, o)
	}
	return ReadDelimited(name, b, o)
}

// lines checks that b is text and splits it into lines without the BOM and line ends.
func lines(file string, b []byte) ([]string, []string, error) {
	var notes []string
	if len(b) == 0 || len(bytes.TrimSpace(b)) == 0 {
		return nil, nil, &ParseError{File: file, Msg: "the file is empty"}
	}
	if bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}) {
		b = b[3:]
		notes = append(notes, "UTF-8 byte-order mark removed")
	}
	head := b[:min(len(b), 8192)]
	if bytes.IndexByte(head, 0) >= 0 || !utf8.Valid(head[:max(0, len(head)-4)]) {
		return nil, nil, &ParseError{File: file, Msg: "looks like a binary file (a spreadsheet or archive?); save it as CSV or tab-separated text"}
	}
	s := string(b)
	if strings.Contains(s, "\r") {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	}
	ls := strings.Split(s, "\n")
	for len(ls) > 0 && strings.TrimSpace(ls[len(ls)-1]) == "" {
		ls = ls[:len(ls)-1]
	}
	if len(ls) == 0 {
		return nil, nil, &ParseError{File: file, Msg: "the file is empty"}
	}
	return ls, notes, nil
}

// splitFields splits a line at sep, honouring double quotes ("" is a literal quote).
func splitFields(line string, sep byte) []string {
	if strings.IndexByte(line, '"') < 0 {
		f := strings.Split(line, string(sep))
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		return f
	}
	var out []string
	var cur strings.Builder
	inQ := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '"' && inQ && i+1 < len(line) && line[i+1] == '"':
			cur.WriteByte('"')
			i++
		case c == '"':
			inQ = !inQ
		case c == sep && !inQ:
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(out, strings.TrimSpace(cur.String()))
}

// parseCell reads one numeric cell. Empty, NA, NaN, ? and null are missing (NaN).
// decimalComma accepts 1,5 for 1.5.
func parseCell(s string, decimalComma bool) (float64, bool) {
	if decimalComma && strings.IndexByte(s, ',') >= 0 {
		s = strings.Replace(s, ",", ".", 1)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err == nil {
		return v, true
	}
	var ne *strconv.NumError
	if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
		return v, true // ±Inf, reported as non-finite later
	}
	switch strings.ToLower(s) {
	case "", "na", "nan", "?", "null", "n/a", "#n/a":
		return math.NaN(), true
	}
	return 0, false
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	_, err := strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64)
	return err == nil
}

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
	ds, err := fromRows(file, rows, lineOf, orient, classIdx, decimalComma, sep)
	if err != nil {
		return nil, err
	}
	ds.Notes = append(notes, ds.Notes...)
	return ds, ds.tidyLabels()
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
func fromRows(file string, rows [][]string, lineOf []int, orient Orientation, classIdx int, decimalComma bool, sep byte) (*Dataset, error) {
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
	if classIdx < 0 {
		for j, h := range header {
			if isClassName(h) {
				classIdx = j
			}
		}
	}
	if classIdx < 0 {
		classIdx = len(header) - 1
	}
	idCol, skip, notes := idColumns(rows, classIdx, orient)
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
		labels[i] = strings.TrimSpace(r[classIdx])
		if idCol >= 0 {
			ds.Samples = append(ds.Samples, r[idCol])
		} else {
			ds.Samples = append(ds.Samples, fmt.Sprintf("sample%d", i+1))
		}
	}
	ds.setLabels(labels)
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
	return fmt.Sprintf("%d %s hold text or dates, not measurements, and are left out of the features as sample annotations: %s (to take one as the class, name it: --class NAME, or Class on the Data tab)", len(names), what, someIDs(names))
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

// described reports whether a Description column holds something beside the names.
func described(descs, names []string) bool {
	for g, d := range descs {
		if d != "" && d != names[g] {
			return true
		}
	}
	return false
}

// ReadGCT reads a GenePattern GCT expression file (genes as rows, after a #1.2 line,
// a dimensions line and a Name/Description header) with its CLS label file.
func ReadGCT(file string, b []byte, clsFile string, cls []byte) (*Dataset, error) {
	ls, notes, err := lines(file, b)
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(strings.TrimSpace(ls[0]), "#1.") {
		return nil, &ParseError{File: file, Line: 1, Msg: fmt.Sprintf("a GCT file starts with #1.2, not %q", trunc(ls[0]))}
	}
	if len(ls) < 4 {
		return nil, &ParseError{File: file, Msg: "a GCT file needs a version line, a dimensions line, a header and data lines"}
	}
	dims := strings.Fields(ls[1])
	if len(dims) < 2 {
		return nil, &ParseError{File: file, Line: 2, Msg: "expected two numbers: genes and samples"}
	}
	nGenes, e1 := strconv.Atoi(dims[0])
	nSamp, e2 := strconv.Atoi(dims[1])
	if e1 != nil || e2 != nil || nGenes <= 0 || nSamp <= 0 {
		return nil, &ParseError{File: file, Line: 2, Msg: fmt.Sprintf("expected two positive whole numbers, found %q", ls[1])}
	}
	header := strings.Split(ls[2], "\t")
	if len(header) != nSamp+2 {
		return nil, &ParseError{File: file, Line: 3, Msg: fmt.Sprintf("header has %d sample columns, line 2 says %d", len(header)-2, nSamp)}
	}
	if len(ls)-3 != nGenes {
		return nil, &ParseError{File: file, Msg: fmt.Sprintf("has %d gene lines, line 2 says %d", len(ls)-3, nGenes)}
	}
	labels, classes, err := readCLS(clsFile, cls, nSamp)
	if err != nil {
		return nil, err
	}
	x := mat.NewDense(nSamp, nGenes, nil)
	raw := x.RawMatrix()
	names := make([]string, nGenes)
	descs := make([]string, nGenes) // the Description column: gene symbols, often
	for g := 0; g < nGenes; g++ {
		f := strings.Split(ls[g+3], "\t")
		if len(f) != nSamp+2 {
			return nil, &ParseError{File: file, Line: g + 4, Column: min(len(f), nSamp+2) + 1,
				Msg: fmt.Sprintf("has %d fields, the header has %d (ragged row)", len(f), nSamp+2)}
		}
		names[g] = strings.TrimSpace(f[0])
		descs[g] = cleanSymbol(f[1])
		for s := 0; s < nSamp; s++ {
			v, ok := parseCell(strings.TrimSpace(f[s+2]), false)
			if !ok {
				return nil, &ParseError{File: file, Line: g + 4, Column: s + 3, Msg: fmt.Sprintf("%q for gene %q is not a number", f[s+2], names[g])}
			}
			raw.Data[s*raw.Stride+g] = v
		}
	}
	ds := &Dataset{Name: file, X: x, Labels: labels, Classes: classes, Notes: notes}
	ds.setGenes(names, descs)
	_, ds.Samples = uniqueNames(header[2:], "sample")
	return ds, ds.tidyLabels()
}

// readCLS reads a categorical CLS file: "n k 1", "# name1 name2 ...", then n labels.
func readCLS(file string, b []byte, nSamp int) ([]int, []string, error) {
	ls, _, err := lines(file, b)
	if err != nil {
		return nil, nil, err
	}
	if len(ls) < 3 {
		return nil, nil, &ParseError{File: file, Msg: "a CLS file has three lines: counts, # class names, labels"}
	}
	head := strings.Fields(ls[0])
	if len(head) < 2 {
		return nil, nil, &ParseError{File: file, Line: 1, Msg: "expected: samples classes 1"}
	}
	n, err := strconv.Atoi(head[0])
	if err != nil {
		return nil, nil, &ParseError{File: file, Line: 1, Column: 1, Msg: fmt.Sprintf("%q is not a sample count", head[0])}
	}
	if n != nSamp {
		return nil, nil, &ParseError{File: file, Line: 1, Column: 1, Msg: fmt.Sprintf("says %d samples but the GCT file has %d", n, nSamp)}
	}
	names := strings.Fields(strings.TrimPrefix(strings.TrimSpace(ls[1]), "#"))
	labs := strings.Fields(ls[2])
	if len(labs) != nSamp {
		return nil, nil, &ParseError{File: file, Line: 3, Msg: fmt.Sprintf("has %d labels but the GCT file has %d samples", len(labs), nSamp)}
	}
	numeric := true
	for _, l := range labs {
		if _, err := strconv.Atoi(l); err != nil {
			numeric = false
		}
	}
	var classes []string
	idx := map[string]int{}
	labels := make([]int, nSamp)
	for i, l := range labs {
		name := l
		switch {
		case numeric && len(names) > 0:
			k, _ := strconv.Atoi(l)
			if k < 0 || k >= len(names) {
				return nil, nil, &ParseError{File: file, Line: 3, Column: i + 1, Msg: fmt.Sprintf("label %d of sample %d has no class name on line 2 (%d names: 0 to %d)", k, i+1, len(names), len(names)-1)}
			}
			name = names[k]
		case !numeric && len(names) > 0 && !slices.Contains(names, l):
			return nil, nil, &ParseError{File: file, Line: 3, Column: i + 1, Msg: fmt.Sprintf("label %q of sample %d is not among the class names on line 2 (%s)", l, i+1, strings.Join(names, ", "))}
		}
		c, ok := idx[name]
		if !ok {
			c = len(classes)
			idx[name] = c
			classes = append(classes, name)
		}
		labels[i] = c
	}
	return labels, classes, nil
}

// nominalValues returns the values of a nominal type {a, b, 'c d'}, or nil.
func nominalValues(typ string) []string {
	typ = strings.TrimSpace(typ)
	if !strings.HasPrefix(typ, "{") || !strings.HasSuffix(typ, "}") {
		return nil
	}
	var out []string
	for _, v := range strings.Split(typ[1:len(typ)-1], ",") {
		out = append(out, strings.Trim(strings.TrimSpace(v), `'"`))
	}
	return out
}

// ReadARFF reads a WEKA ARFF file (dense or sparse data). The class is the attribute
// named by o.ClassName, else one named like "class", else the last nominal attribute.
func ReadARFF(file string, b []byte, o Options) (*Dataset, error) {
	ls, notes, err := lines(file, b)
	if err != nil {
		return nil, err
	}
	type attr struct {
		name    string
		nominal bool
		line    int
		values  []string // a nominal attribute's declared values
	}
	var attrs []attr
	data := -1
	for i, l := range ls {
		t := strings.TrimSpace(l)
		if t == "" || t[0] == '%' {
			continue
		}
		low := strings.ToLower(t)
		switch {
		case strings.HasPrefix(low, "@relation"):
		case strings.HasPrefix(low, "@attribute"):
			rest := strings.TrimSpace(t[len("@attribute"):])
			var name string
			if rest != "" && (rest[0] == '\'' || rest[0] == '"') {
				end := strings.IndexByte(rest[1:], rest[0])
				if end < 0 {
					return nil, &ParseError{File: file, Line: i + 1, Msg: "unclosed quote in attribute name"}
				}
				name, rest = rest[1:end+1], strings.TrimSpace(rest[end+2:])
			} else {
				f := strings.Fields(rest)
				if len(f) < 2 {
					return nil, &ParseError{File: file, Line: i + 1, Msg: "an attribute needs a name and a type"}
				}
				name, rest = f[0], strings.TrimSpace(rest[len(f[0]):])
			}
			typ := strings.ToLower(rest)
			nominal := strings.HasPrefix(typ, "{")
			if !nominal && !strings.HasPrefix(typ, "numeric") && !strings.HasPrefix(typ, "real") && !strings.HasPrefix(typ, "integer") {
				return nil, &ParseError{File: file, Line: i + 1, Msg: fmt.Sprintf("attribute %q has type %q; Steadfast reads numeric attributes and one nominal class", name, rest)}
			}
			attrs = append(attrs, attr{name, nominal, i + 1, nominalValues(rest)})
		case strings.HasPrefix(low, "@data"):
			data = i + 1
		default:
			if data < 0 {
				return nil, &ParseError{File: file, Line: i + 1, Msg: fmt.Sprintf("unexpected %q before @data", trunc(t))}
			}
		}
		if data >= 0 {
			break
		}
	}
	if data < 0 || len(attrs) < 2 {
		return nil, &ParseError{File: file, Msg: "an ARFF file needs @attribute lines (features and a nominal class) and @data"}
	}
	classIdx := -1
	for j, a := range attrs {
		if (o.ClassName != "" && a.name == o.ClassName) || (o.ClassName == "" && isClassName(a.name) && a.nominal) {
			classIdx = j
		}
	}
	if classIdx < 0 {
		for j, a := range attrs {
			if a.nominal {
				classIdx = j
			}
		}
	}
	if classIdx < 0 {
		return nil, &ParseError{File: file, Msg: "no nominal class attribute (declared as {a,b,...})"}
	}
	var feat []int
	var names []string
	for j, a := range attrs {
		if j != classIdx {
			if a.nominal {
				return nil, &ParseError{File: file, Line: a.line, Msg: fmt.Sprintf("attribute %q is nominal; only the class may be", a.name)}
			}
			feat = append(feat, j)
			names = append(names, a.name)
		}
	}
	col := make([]int, len(attrs)) // attribute -> feature column or -1
	for j := range col {
		col[j] = -1
	}
	for jj, j := range feat {
		col[j] = jj
	}
	var vals []float64
	var labNames []string
	var labLines []int
	for i := data; i < len(ls); i++ {
		t := strings.TrimSpace(ls[i])
		if t == "" || t[0] == '%' {
			continue
		}
		row := make([]float64, len(feat))
		lab := ""
		if t[0] == '{' {
			if !strings.HasSuffix(t, "}") {
				return nil, &ParseError{File: file, Line: i + 1, Msg: "sparse row without closing }"}
			}
			for _, kv := range splitFields(t[1:len(t)-1], ',') {
				f := strings.Fields(kv)
				if len(f) != 2 {
					return nil, &ParseError{File: file, Line: i + 1, Msg: fmt.Sprintf("sparse entry %q is not 'index value'", kv)}
				}
				k, err := strconv.Atoi(f[0])
				if err != nil || k < 0 || k >= len(attrs) {
					return nil, &ParseError{File: file, Line: i + 1, Msg: fmt.Sprintf("sparse index %q out of range", f[0])}
				}
				if k == classIdx {
					lab = strings.Trim(f[1], "'\"")
					continue
				}
				v, ok := parseCell(f[1], false)
				if !ok {
					return nil, &ParseError{File: file, Line: i + 1, Msg: fmt.Sprintf("%q for %q is not a number", f[1], attrs[k].name)}
				}
				row[col[k]] = v
			}
		} else {
			f := splitFields(t, ',')
			if len(f) != len(attrs) {
				return nil, &ParseError{File: file, Line: i + 1, Column: min(len(f), len(attrs)) + 1,
					Msg: fmt.Sprintf("has %d values but %d attributes are declared (ragged row)", len(f), len(attrs))}
			}
			for j, s := range f {
				if j == classIdx {
					lab = strings.Trim(s, "'\"")
					continue
				}
				v, ok := parseCell(s, false)
				if !ok {
					return nil, &ParseError{File: file, Line: i + 1, Column: j + 1, Msg: fmt.Sprintf("%q for %q is not a number", s, attrs[j].name)}
				}
				row[col[j]] = v
			}
		}
		if !isMissingLabel(lab) && attrs[classIdx].values != nil && !slices.Contains(attrs[classIdx].values, lab) {
			return nil, &ParseError{File: file, Line: i + 1, Msg: fmt.Sprintf("the class value %q is not among those declared for %q at line %d: {%s}", lab, attrs[classIdx].name, attrs[classIdx].line, strings.Join(attrs[classIdx].values, ","))}
		}
		vals = append(vals, row...)
		labNames = append(labNames, lab)
		labLines = append(labLines, i+1)
	}
	if len(labNames) == 0 {
		return nil, &ParseError{File: file, Line: data, Msg: "no data rows after @data"}
	}
	ds := &Dataset{Name: file, X: mat.NewDense(len(labNames), len(feat), vals), Notes: notes}
	ds.setLabels(labNames)
	for _, l := range labLines {
		ds.Samples = append(ds.Samples, fmt.Sprintf("line%d", l))
	}
	note, uniq := uniqueNames(names, "feature")
	ds.Features = uniq
	if note != "" {
		ds.Notes = append(ds.Notes, note)
	}
	return ds, ds.tidyLabels()
}

func trunc(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
