package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
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
	ClassName   string      `json:"className,omitempty"` // class column (rows) or row (columns); "" detects
	// GroupName names the sample annotation (a column, a GEO characteristic) whose equal
	// values mark samples of one group, say one patient's tumour and normal tissue:
	// resampling keeps each group on one side of every split (see GroupedFolds)
	GroupName   string `json:"groupName,omitempty"`
	CLSPath     string `json:"clsPath,omitempty"`     // GCT label file; "" means the .cls beside the .gct
	Sheet       string `json:"sheet,omitempty"`       // workbook sheet; "" means the first
	SymbolsPath string `json:"symbolsPath,omitempty"` // probe-to-symbol annotation (see ReadSymbols)
	// Unlabelled makes the class optional, for a cohort to predict: with no ClassName,
	// a column or row named like a class (class, label, ...), a GEO annotation that
	// splits the samples or a GCT's CLS file is taken when there is one, else every
	// sample is unlabelled (class ""); samples whose class is missing keep class "".
	Unlabelled bool `json:"unlabelled,omitempty"`
	// Platform chooses the platform of a GEO series on several (GPL96), when the data
	// are a GEO accession.
	Platform string `json:"platform,omitempty"`
	// DesignPath is a design table giving the samples' classes (see ReadDesign): a
	// column naming the samples as the data do, and a condition column (ClassName
	// names it when given).
	DesignPath string `json:"designPath,omitempty"`
	// Intensity chooses a MaxQuant proteinGroups.txt's intensities: "lfq", "intensity"
	// or "ibaq"; "" takes LFQ intensity when the file has it, else Intensity.
	Intensity string `json:"intensity,omitempty"`
	// Outcome names a survival outcome's time and event columns; empty, a pair named
	// as SurvivalPair knows is taken when the file names no class column. A
	// configuration keeps it as its own "outcome" (experiment.Config.Outcome).
	Outcome Outcome `json:"-"`
	// Covariates name columns (rows, samples being columns) to read as clinical
	// covariates, sample annotations kept apart from the features (Dataset.Covariates),
	// besides those found by their names (IsCovariateName: age, grade, stage, ER...).
	Covariates []string `json:"covariates,omitempty"`
	// AsFeatures name columns found by their names as clinical covariates that are to be
	// analysed as features all the same.
	AsFeatures []string `json:"asFeatures,omitempty"`
}

// Check refuses options no reader knows: an orientation other than "", "rows" and
// "columns" (it had fallen back to detection without a word).
func (o Options) Check() error {
	if _, ok := intensityPrefix[o.Intensity]; !ok && o.Intensity != "" {
		return fmt.Errorf("intensity %q: choose lfq (MaxQuant's LFQ intensity), intensity or ibaq, or leave it out (LFQ when the file has it)", o.Intensity)
	}
	if err := o.Outcome.Check(); err != nil {
		return err
	}
	if err := o.checkCovariates(); err != nil {
		return err
	}
	if o.ClassName != "" && o.Outcome.Set() {
		return fmt.Errorf("both a class (%q) and a survival outcome (%q, %q) were named: the outcome is one or the other", o.ClassName, o.Outcome.Time, o.Outcome.Event)
	}
	if o.DesignPath != "" && o.Outcome.Set() {
		return fmt.Errorf("both a design table (%s, the samples' classes) and a survival outcome (%q, %q) were named: the outcome is one or the other; leave out the design table (--design, the Data tab's Design table) to study the survival outcome", filepath.Base(o.DesignPath), o.Outcome.Time, o.Outcome.Event)
	}
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
func ReadFile(path string, o Options) (*Dataset, error) { return readFile(path, o, nil) }

// readFile is ReadFile with edit applied to a text file's contents before the table is
// read (nil: none); edit's note joins the data's notes.
func readFile(path string, o Options, edit func(name string, b []byte) ([]byte, string, error)) (*Dataset, error) {
	name := filepath.Base(path)
	if err := o.Check(); err != nil {
		return nil, err
	}
	b, zipped, note, err := readText(path)
	if err != nil {
		return nil, err
	}
	edited := ""
	if !isXLSX(b) { // a workbook's parts are checked as they are unzipped
		if err := checkTextMemory(name, b); err != nil {
			return nil, err
		}
		if edit != nil {
			if b, edited, err = edit(name, b); err != nil {
				return nil, err
			}
		}
	}
	plain := strings.TrimSuffix(strings.TrimSuffix(path, ".gz"), ".GZ") // the name without .gz
	ro := o
	if o.DesignPath != "" { // the classes come from the design: its class column is ClassName
		ro.ClassName, ro.Unlabelled = "", true
	}
	ds, err := readAs(path, plain, name, b, ro)
	if err != nil {
		return nil, err
	}
	if o.DesignPath != "" {
		if sv := ds.Survival; sv != nil {
			return nil, &ParseError{File: name, Msg: fmt.Sprintf("holds a survival outcome (time %q, event %q) and a design table (%s) gives the samples' classes: the outcome is one or the other; leave out the design table (--design, the Data tab's Design table) to study the survival outcome, or remove the time and event columns to study the design's classes", sv.TimeName, sv.EventName, filepath.Base(o.DesignPath))}
		}
		if err := ds.applyDesign(o.DesignPath, o.ClassName, o.Unlabelled); err != nil {
			return nil, err
		}
	}
	if edited != "" {
		ds.Notes = append(ds.Notes, edited)
	}
	if o.GroupName != "" && ds.Groups == nil {
		return nil, &ParseError{File: name, Msg: fmt.Sprintf("samples cannot be grouped by %q in this kind of file: groups come from a column of a CSV, TSV or workbook, a GCT 1.3 column annotation, or a GEO sample characteristic", o.GroupName)}
	}
	if err := covariatesRead(name, ds, o); err != nil {
		return nil, err
	}
	if zipped {
		ds.Notes = append([]string{"gzip-compressed file decompressed"}, ds.Notes...)
	}
	if o.SymbolsPath != "" {
		if err := ds.joinSymbols(o.SymbolsPath); err != nil {
			return nil, err
		}
	}
	if note != "" {
		ds.Notes = append([]string{note}, ds.Notes...)
	}
	return ds, nil
}

// readText is the file at path as UTF-8: read within MaxFileSize, decompressed when
// gzipped (within what the machine can read; zipped says so), decoded from UTF-16 with
// a note.
func readText(path string) (b []byte, zipped bool, note string, err error) {
	if b, err = ReadLimited(path, MaxFileSize); err != nil {
		return nil, false, "", err
	}
	if b, zipped, err = gunzip(filepath.Base(path), b, decompressLimit()); err != nil {
		return nil, false, "", err
	}
	b, note = toUTF8(b)
	return b, zipped, note, nil
}

// joinSymbols gives d's features the gene symbols of the annotation at path, with a
// note; an annotation naming none of them is refused.
func (d *Dataset) joinSymbols(path string) error {
	sym, used, err := ReadSymbols(path)
	if err != nil {
		return err
	}
	found := d.SetSymbols(sym)
	if found == 0 {
		return &ParseError{File: filepath.Base(path), Msg: fmt.Sprintf("names none of the %d features of %s; is it the annotation of this platform?", len(d.Features), d.Name)}
	}
	d.Notes = append(d.Notes, fmt.Sprintf("gene symbols for %d of %d features from %s (%s)", found, len(d.Features), filepath.Base(path), used))
	return nil
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
	if isMaxQuant(b) {
		return ReadMaxQuant(name, b, o)
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
		if err != nil && o.Unlabelled && o.CLSPath == "" {
			ds, err := ReadGCT(name, b, clsName, nil)
			if ds != nil {
				ds.Notes = append(ds.Notes, "no class label file "+clsName+" beside it: the samples are unlabelled (predictions only)")
			}
			return ds, err
		}
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
