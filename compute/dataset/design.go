package dataset

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"steadfast/internal/text"
)

// MaxDesignFile bounds a design table (one line a sample).
const MaxDesignFile = 16 << 20

// conditionNames are the columns of a design table taken as the class, in order of
// preference (Proteus and DEP write condition).
var conditionNames = append([]string{"condition"}, classNames...)

// Design is a design table: each sample's class.
type Design struct {
	File         string
	SampleColumn string
	ClassColumn  string
	Class        map[string]string
	Samples      []string // in the table's order
	// RNames is set when the data name the samples as R's make.names writes them (A-1
	// as A.1, an R-written MaxQuant table) and the design's names were matched so.
	RNames bool
}

// ReadDesign reads a design table (tab, comma or semicolon separated, a header line):
// the class is the column named className, else the first named condition, class,
// label, group, ...; the samples are named by the column whose values name the most
// of samples (the data's samples, as the intensity columns name them; ties to the
// first column).
func ReadDesign(path, className string, samples []string) (*Design, error) {
	name := filepath.Base(path)
	b, err := ReadLimited(path, MaxDesignFile)
	if err != nil {
		return nil, err
	}
	b, _, err = gunzip(name, b, decompressLimit())
	if err != nil {
		return nil, err
	}
	b, _ = toUTF8(b)
	ls, _, err := lines(name, b)
	if err != nil {
		return nil, err
	}
	sep := detectSep(ls)
	head := splitFields(ls[0], sep)
	classCol := -1
	for j, h := range head {
		if className != "" && h == className || className == "" && classCol < 0 && strings.EqualFold(h, "condition") {
			classCol = j
		}
	}
	for j, h := range head {
		if classCol < 0 && className == "" && oneOf(h, conditionNames) {
			classCol = j
		}
	}
	if classCol < 0 {
		want := "condition (or class, group, label, ...)"
		if className != "" {
			want = fmt.Sprintf("%q", className)
		}
		return nil, &ParseError{File: name, Line: 1, Msg: fmt.Sprintf("no column named %s among %s; a design table needs a column naming the samples and one giving their condition", want, listNames(head, 8))}
	}
	rows := make([][]string, 0, len(ls)-1)
	for i, l := range ls[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		f := splitFields(l, sep)
		if len(f) != len(head) {
			return nil, &ParseError{File: name, Line: i + 2, Column: min(len(f), len(head)) + 1, Msg: fmt.Sprintf("has %d fields but the header has %d", len(f), len(head))}
		}
		rows = append(rows, f)
	}
	want := map[string]bool{}
	for _, s := range samples {
		want[s] = true
	}
	sampleCol, best := -1, 0
	rNames := false
	for _, asR := range []bool{false, true} { // R's names only when no column names any as they are
		for j := range head {
			if j == classCol || sampleCol >= 0 && !asR {
				continue
			}
			n := 0
			for _, r := range rows {
				if want[r[j]] || asR && want[makeName(r[j])] {
					n++
				}
			}
			if n > best {
				sampleCol, best, rNames = j, n, asR
			}
		}
		if sampleCol >= 0 {
			break
		}
	}
	if sampleCol < 0 {
		return nil, &ParseError{File: name, Msg: fmt.Sprintf("no column names any of the data's samples (%s); a design table needs a column naming them as the data do", listNames(samples, 5))}
	}
	d := &Design{File: name, SampleColumn: head[sampleCol], ClassColumn: head[classCol], Class: map[string]string{}, RNames: rNames}
	for i, r := range rows {
		s := r[sampleCol]
		if rNames && !want[s] {
			s = makeName(s)
		}
		if _, ok := d.Class[s]; ok {
			return nil, &ParseError{File: name, Line: i + 2, Column: sampleCol + 1, Msg: fmt.Sprintf("names the sample %q a second time", s)}
		}
		d.Class[s] = r[classCol]
		d.Samples = append(d.Samples, s)
	}
	return d, nil
}

// applyDesign gives d's samples the classes of the design at path: samples the design
// does not name, or names without a class, are left out (kept of class "" when
// unlabelled: a cohort to predict); a note says which column gave what and names the
// design's samples the data lack.
func (d *Dataset) applyDesign(path, className string, unlabelled bool) error {
	des, err := ReadDesign(path, className, d.Samples)
	if err != nil {
		return err
	}
	var keep []int
	var values, without []string
	for i, s := range d.Samples {
		c, ok := des.Class[s]
		if !ok || isMissingLabel(c) {
			without = append(without, s)
			if !unlabelled {
				continue
			}
			c = ""
		}
		keep, values = append(keep, i), append(values, c)
	}
	if len(keep) == 0 {
		return &ParseError{File: des.File, Msg: fmt.Sprintf("gives none of the data's samples a class (%s)", listNames(d.Samples, 5))}
	}
	if len(keep) < len(d.Samples) {
		d.keepSamples(keep)
	}
	d.setLabels(values)
	if d.Groups != nil && len(d.Groups) != len(d.Samples) {
		d.Groups = nil
	}
	counts := d.ClassCounts()
	parts := make([]string, len(d.Classes))
	for c, name := range d.Classes {
		parts[c] = fmt.Sprintf("%s %d", name, counts[c])
	}
	note := fmt.Sprintf("classes from the design table %s (samples in %q, classes in %q): %s", des.File, des.SampleColumn, des.ClassColumn, strings.Join(parts, ", "))
	if des.RNames {
		note += "; its sample names matched as R writes them (make.names: A-1 as A.1)"
	}
	if len(without) > 0 {
		what := "left out"
		if unlabelled {
			what = "unlabelled"
		}
		note += fmt.Sprintf("; %s the design gives no class %s: %s", text.Count(len(without), "sample"), what, listNames(without, 5))
	}
	var absent []string
	for _, s := range des.Samples {
		if !slices.Contains(d.Samples, s) && !slices.Contains(without, s) {
			absent = append(absent, s)
		}
	}
	if len(absent) > 0 {
		note += fmt.Sprintf("; %s of the design not in the data: %s", text.Count(len(absent), "sample"), listNames(absent, 5))
	}
	d.Notes = append(d.Notes, note)
	return d.tidyLabels(unlabelled)
}
