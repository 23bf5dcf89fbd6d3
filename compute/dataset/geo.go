package dataset

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// isSeriesMatrix reports whether text is a GEO series matrix file.
func isSeriesMatrix(b []byte) bool {
	head := string(b[:min(len(b), 4096)])
	return strings.HasPrefix(strings.TrimLeft(head, "\ufeff \r\n"), "!Series_") || bytes.Contains(b, []byte("!series_matrix_table_begin"))
}

// annotation is one sample annotation of a series matrix: a characteristics key
// ("tissue"), or "source_name" or "title", with each sample's value.
type annotation struct {
	key    string
	values []string
}

// classChoice describes what an annotation would give as classes.
func (a annotation) classChoice() string {
	return fmt.Sprintf("%q (%s)", a.key, a.counts())
}

// counts lists the annotation's values with their counts, in order of first appearance
// (the first six).
func (a annotation) counts() string {
	count := map[string]int{}
	var order []string
	for _, v := range a.values {
		if count[v] == 0 {
			order = append(order, v)
		}
		count[v]++
	}
	var parts []string
	for _, v := range order[:min(len(order), 6)] {
		parts = append(parts, fmt.Sprintf("%s %d", v, count[v]))
	}
	more := ""
	if len(order) > 6 {
		more = fmt.Sprintf(", ... %d values", len(order))
	}
	return strings.Join(parts, ", ") + more
}

// usable reports whether the annotation splits the samples into 2 to 10 classes of two
// samples or more.
func (a annotation) usable() bool {
	count := map[string]int{}
	for _, v := range a.values {
		if isMissingLabel(v) {
			continue
		}
		count[v]++
	}
	if len(count) < 2 || len(count) > 10 {
		return false
	}
	for _, c := range count {
		if c < 2 {
			return false
		}
	}
	return true
}

// ReadSeriesMatrix reads a GEO series matrix file (GSE..._series_matrix.txt): the
// values between !series_matrix_table_begin and !series_matrix_table_end (probes as
// rows, samples as columns; "null" or empty cells missing), the class from a sample
// annotation: o.ClassName names a characteristics key ("tissue" in "tissue: tumor"),
// "source_name" or "title"; without it the first characteristic that splits the samples
// into 2 to 10 classes of two or more is taken, and a note lists the other choices.
func ReadSeriesMatrix(file string, b []byte, o Options) (*Dataset, error) {
	ls, notes, err := lines(file, b)
	if err != nil {
		return nil, err
	}
	var anns []annotation
	byKey := map[string]int{}
	add := func(key string, i int, v string) {
		k, ok := byKey[key]
		if !ok {
			k = len(anns)
			byKey[key] = k
			anns = append(anns, annotation{key: key})
		}
		for len(anns[k].values) <= i {
			anns[k].values = append(anns[k].values, "")
		}
		anns[k].values[i] = v
	}
	begin, end := -1, -1
	for i, l := range ls {
		switch {
		case strings.HasPrefix(l, "!series_matrix_table_begin"):
			begin = i + 1
		case strings.HasPrefix(l, "!series_matrix_table_end"):
			end = i
		case begin < 0 && strings.HasPrefix(l, "!Sample_characteristics_ch1"):
			for s, cell := range strings.Split(l, "\t")[1:] {
				cell = unquote(cell)
				key, val, ok := strings.Cut(cell, ":")
				if !ok {
					key, val = "characteristics", cell
				}
				add(strings.TrimSpace(key), s, strings.TrimSpace(val))
			}
		case begin < 0 && (strings.HasPrefix(l, "!Sample_source_name_ch1") || strings.HasPrefix(l, "!Sample_title")):
			key := "title"
			if strings.HasPrefix(l, "!Sample_source_name_ch1") {
				key = "source_name"
			}
			for s, cell := range strings.Split(l, "\t")[1:] {
				add(key, s, unquote(cell))
			}
		}
	}
	if begin < 0 || end < 0 || end < begin {
		return nil, &ParseError{File: file, Msg: "a GEO series matrix without its !series_matrix_table_begin ... _end table; is the file complete?"}
	}
	if end-begin < 2 {
		return nil, &ParseError{File: file, Line: begin, Msg: "the series matrix table holds no expression values; many RNA-seq series keep them in the series' supplementary files (download the count table there)"}
	}
	header := strings.Split(ls[begin], "\t")
	n := len(header) - 1
	samples := make([]string, n)
	for s := range samples {
		samples[s] = unquote(header[s+1])
	}
	ann, note, err := chooseAnnotation(file, anns, n, o.ClassName)
	if err != nil {
		return nil, err
	}
	t, err := readGEOTable(file, ls, begin, end, 1)
	if err != nil {
		return nil, err
	}
	ds := &Dataset{Name: file, X: t.x, Samples: samples, Notes: append(notes, note), ClassChoices: classChoices(anns)}
	ds.setLabels(ann.values[:n])
	return t.finish(ds)
}

// geoTable is the value table of a GEO file: probes as rows, samples as columns.
type geoTable struct {
	x       *mat.Dense
	names   []string // the probe ids (first column)
	descs   []string // the second column when it describes the probe (a GDS IDENTIFIER)
	missing int
}

// readGEOTable reads the table whose header is line begin and whose rows end before line
// end; the first lead columns describe the probe, the rest are samples ("null", "NA" or
// empty cells are missing).
func readGEOTable(file string, ls []string, begin, end, lead int) (*geoTable, error) {
	width := len(strings.Split(ls[begin], "\t"))
	n, p := width-lead, end-begin-1
	if n < 1 {
		return nil, &ParseError{File: file, Line: begin + 1, Msg: "the table's header names no samples"}
	}
	if p < 1 {
		return nil, &ParseError{File: file, Line: begin + 1, Msg: "the table holds no probes: its header is followed by its end line; is the file complete?"}
	}
	t := &geoTable{x: mat.NewDense(n, p, nil), names: make([]string, p)}
	if lead > 1 {
		t.descs = make([]string, p)
	}
	for g := 0; g < p; g++ {
		f := strings.Split(ls[begin+1+g], "\t")
		if len(f) != width {
			return nil, &ParseError{File: file, Line: begin + 2 + g, Column: min(len(f), width) + 1,
				Msg: fmt.Sprintf("has %d fields, the table's header %d (ragged row)", len(f), width)}
		}
		t.names[g] = unquote(f[0])
		if lead > 1 {
			t.descs[g] = unquote(f[1])
		}
		for s := 0; s < n; s++ {
			cell := unquote(f[lead+s])
			if cell == "" || strings.EqualFold(cell, "null") || strings.EqualFold(cell, "NA") {
				t.x.Set(s, g, math.NaN())
				t.missing++
				continue
			}
			v, ok := parseCell(cell, false)
			if !ok {
				return nil, &ParseError{File: file, Line: begin + 2 + g, Column: lead + s + 1, Msg: fmt.Sprintf("%q for probe %q is not a number", cell, t.names[g])}
			}
			t.x.Set(s, g, v)
		}
	}
	return t, nil
}

// finish names ds's features from the table (with symbols when the table has them),
// notes missing cells, and leaves out unlabelled samples.
func (t *geoTable) finish(ds *Dataset) (*Dataset, error) {
	ds.setGenes(t.names, t.descs)
	if t.missing > 0 {
		ds.Notes = append(ds.Notes, fmt.Sprintf("%d cells are null or empty (missing)", t.missing))
	}
	return ds, ds.tidyLabels()
}

// chooseAnnotation picks the annotation named by want, or the first usable one, and
// says what it took and what else the user could take.
func chooseAnnotation(file string, anns []annotation, n int, want string) (annotation, string, error) {
	for i := range anns {
		for len(anns[i].values) < n {
			anns[i].values = append(anns[i].values, "")
		}
	}
	var choices []string
	for _, a := range anns {
		choices = append(choices, a.classChoice())
	}
	sort.Strings(choices)
	list := strings.Join(choices, "; ")
	if want != "" {
		for _, a := range anns {
			if strings.EqualFold(a.key, want) {
				return a, fmt.Sprintf("class from the sample annotation %s", a.classChoice()), nil
			}
		}
		return annotation{}, "", &ParseError{File: file, Msg: fmt.Sprintf("no sample annotation is named %q; the annotations are: %s", want, list)}
	}
	for _, a := range anns {
		if a.key != "title" && a.usable() {
			return a, fmt.Sprintf("class from the sample annotation %s; to choose another, name it as the class (--class KEY, or Class column/row on the Data tab): %s", a.classChoice(), list), nil
		}
	}
	return annotation{}, "", &ParseError{File: file, Msg: fmt.Sprintf("no sample annotation splits the samples into 2 to 10 classes of two or more; name the one to use as the class (--class KEY, or Class column/row in the window): %s", list)}
}

// unquote removes the double quotes GEO puts around text cells.
func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}

// classChoices lists the annotations as class choices.
func classChoices(anns []annotation) []ClassChoice {
	out := make([]ClassChoice, len(anns))
	for i, a := range anns {
		out[i] = ClassChoice{Key: a.key, Counts: a.counts()}
	}
	return out
}
