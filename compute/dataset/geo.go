package dataset

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"
	"steadfast/internal/text"
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
	set    map[int]bool // while reading: the samples given a value
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
// Annotations join the table's columns by GSM id (!Sample_geo_accession), never by
// position; a key given on two characteristics lines is offered twice ("key (2)").
func ReadSeriesMatrix(file string, b []byte, o Options) (*Dataset, error) {
	ls, notes, err := lines(file, b)
	if err != nil {
		return nil, err
	}
	sc := seriesScan{begin: -1, end: -1, byKey: map[string]int{}}
	for i, l := range ls {
		sc.line(i, l)
	}
	if sc.begin < 0 || sc.end < 0 || sc.end < sc.begin {
		return nil, &ParseError{File: file, Msg: "a GEO series matrix without its !series_matrix_table_begin ... _end table; is the file complete?"}
	}
	if sc.end-sc.begin < 2 {
		return nil, &ParseError{File: file, Line: sc.begin, Msg: "the series matrix table holds no expression values; many RNA-seq series keep them in the series' supplementary files (download the count table there)"}
	}
	header := strings.Split(ls[sc.begin], "\t")
	samples := make([]string, len(header)-1)
	for s := range samples {
		samples[s] = unquote(header[s+1])
	}
	anns, note, err := sc.bySample(file, samples)
	if err != nil {
		return nil, err
	}
	notes = append(notes, sc.notes...)
	if note != "" {
		notes = append(notes, note)
	}
	ann, note, err := chooseClass(file, anns, len(samples), o)
	if err != nil {
		return nil, err
	}
	t, err := readGEOTable(file, ls, sc.begin, sc.end, 1)
	if err != nil {
		return nil, err
	}
	ds := &Dataset{Name: file, X: t.x, Samples: samples, Notes: append(notes, note), ClassChoices: classChoices(anns),
		Accession: sc.accession, Platform: sc.platform}
	ds.setLabels(ann.values)
	if err := ds.groupFrom(file, anns, o.GroupName); err != nil {
		return nil, err
	}
	return t.finish(ds, o.Unlabelled)
}

// seriesScan collects a series matrix's sample annotations, in the order of its
// !Sample_geo_accession line, and where its table lies.
type seriesScan struct {
	begin, end int
	ids        []string // the GSM ids of !Sample_geo_accession
	// accession and platform: !Series_geo_accession and !Series_platform_id
	accession, platform string
	idLine              int
	anns                []annotation
	byKey               map[string]int
	notes               []string
}

// line takes in line i of the file.
func (sc *seriesScan) line(i int, l string) {
	cells := func() []string {
		f := strings.Split(l, "\t")[1:]
		for k := range f {
			f[k] = unquote(f[k])
		}
		return f
	}
	switch {
	case strings.HasPrefix(l, "!series_matrix_table_begin"):
		sc.begin = i + 1
	case strings.HasPrefix(l, "!series_matrix_table_end"):
		sc.end = i
	case sc.begin >= 0:
	case strings.HasPrefix(l, "!Series_geo_accession") && sc.accession == "":
		if c := cells(); len(c) > 0 {
			sc.accession = geoID(c[0])
		}
	case strings.HasPrefix(l, "!Series_platform_id") && sc.platform == "":
		if c := cells(); len(c) > 0 {
			sc.platform = geoID(c[0])
		}
	case strings.HasPrefix(l, "!Sample_geo_accession"):
		sc.ids, sc.idLine = cells(), i+1
	case strings.HasPrefix(l, "!Sample_characteristics_ch1"):
		sc.characteristics(cells())
	case strings.HasPrefix(l, "!Sample_source_name_ch1"):
		sc.whole("source_name", cells())
	case strings.HasPrefix(l, "!Sample_title"):
		sc.whole("title", cells())
	}
}

// characteristics takes in one characteristics line ("key: value" per sample). A key a
// sample already has from an earlier line is filed as "key (2)", "key (3)", ...
func (sc *seriesScan) characteristics(cells []string) {
	renamed := map[string]string{}
	for s, cell := range cells {
		key, val, ok := strings.Cut(cell, ":")
		if !ok {
			key, val = "characteristics", cell
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		name := key
		for k := 2; sc.has(name, s); k++ {
			name = fmt.Sprintf("%s (%d)", key, k)
		}
		if name != key {
			renamed[key] = name
		}
		sc.add(name, s, val)
	}
	for key, name := range renamed {
		sc.notes = append(sc.notes, fmt.Sprintf("the sample characteristic %q is given on more than one line; each is offered as a class: %q and %q", key, key, name))
	}
}

// whole files a line that is one annotation (title, source name).
func (sc *seriesScan) whole(key string, cells []string) {
	for s, v := range cells {
		sc.add(key, s, v)
	}
}

// has reports whether sample s has a value for key.
func (sc *seriesScan) has(key string, s int) bool {
	k, ok := sc.byKey[key]
	return ok && s < len(sc.anns[k].values) && sc.anns[k].set[s]
}

func (sc *seriesScan) add(key string, s int, v string) {
	k, ok := sc.byKey[key]
	if !ok {
		k = len(sc.anns)
		sc.byKey[key] = k
		sc.anns = append(sc.anns, annotation{key: key, set: map[int]bool{}})
	}
	a := &sc.anns[k]
	for len(a.values) <= s {
		a.values = append(a.values, "")
	}
	a.values[s], a.set[s] = v, true
}

// bySample returns the annotations with one value per table column, joined by GSM id.
// Without an accession line the columns are taken in the annotations' order, and the
// note says so; ids the table and the accession line do not share are refused.
func (sc *seriesScan) bySample(file string, samples []string) ([]annotation, string, error) {
	if len(sc.ids) == 0 {
		return sc.anns, "the file has no !Sample_geo_accession line, so sample annotations are matched to the table's columns by position", nil
	}
	at := map[string]int{}
	for i, id := range sc.ids {
		if _, twice := at[id]; twice {
			return nil, "", &ParseError{File: file, Line: sc.idLine, Column: i + 2, Msg: fmt.Sprintf("sample %s is listed twice on the !Sample_geo_accession line", id)}
		}
		at[id] = i
	}
	var unknown []string
	pos := make([]int, len(samples))
	seen := map[string]bool{}
	for s, id := range samples {
		i, ok := at[id]
		if !ok || seen[id] {
			unknown = append(unknown, id)
		}
		pos[s], seen[id] = i, true
	}
	var absent []string
	for _, id := range sc.ids {
		if !seen[id] {
			absent = append(absent, id)
		}
	}
	if len(unknown) > 0 || len(absent) > 0 {
		return nil, "", &ParseError{File: file, Line: sc.begin + 1, Msg: fmt.Sprintf("the table's columns and the !Sample_geo_accession line (line %d) disagree: %s; annotations join samples by GSM id, so the file must name each sample once in both (download it again from GEO)", sc.idLine, idMismatch(unknown, absent))}
	}
	out := make([]annotation, len(sc.anns))
	for k, a := range sc.anns {
		out[k] = annotation{key: a.key, values: make([]string, len(samples))}
		for s, i := range pos {
			if i < len(a.values) {
				out[k].values[s] = a.values[i]
			}
		}
	}
	return out, "", nil
}

// idMismatch says which ids only the table has (or has twice) and which only the
// accession line has.
func idMismatch(unknown, absent []string) string {
	var parts []string
	if len(unknown) > 0 {
		parts = append(parts, fmt.Sprintf("table columns without annotations or given twice: %s", listNames(unknown, 6)))
	}
	if len(absent) > 0 {
		parts = append(parts, fmt.Sprintf("annotated samples without a table column: %s", listNames(absent, 6)))
	}
	return strings.Join(parts, "; ")
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
func (t *geoTable) finish(ds *Dataset, unlabelled bool) (*Dataset, error) {
	ds.setGenes(t.names, t.descs)
	if t.missing > 0 {
		ds.Notes = append(ds.Notes, fmt.Sprintf("%s null or empty (missing)", text.Count(t.missing, "cell is|cells are")))
	}
	return ds, ds.tidyLabels(unlabelled)
}

// chooseClass is chooseAnnotation, except that with o.Unlabelled and no class named
// the samples are left unlabelled when no annotation gives classes.
func chooseClass(file string, anns []annotation, n int, o Options) (annotation, string, error) {
	a, note, err := chooseAnnotation(file, anns, n, o.ClassName)
	if err != nil && o.Unlabelled && o.ClassName == "" {
		return annotation{values: make([]string, n)}, "no sample annotation gives classes: the samples are unlabelled (predictions only)", nil
	}
	return a, note, err
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

// groupFrom sets the samples' groups from the annotation named name ("" none).
func (d *Dataset) groupFrom(file string, anns []annotation, name string) error {
	if name == "" {
		return nil
	}
	a, _, err := chooseAnnotation(file, anns, len(d.Samples), name)
	if err != nil {
		return err
	}
	d.Groups = trimAll(a.values)
	d.Notes = append(d.Notes, groupNote(name, d.Groups))
	return nil
}

// groupNote says how the samples are grouped.
func groupNote(name string, groups []string) string {
	seen := map[string]int{}
	for _, g := range groups {
		seen[g]++
	}
	multi := 0
	for _, k := range seen {
		if k > 1 {
			multi++
		}
	}
	return fmt.Sprintf("samples grouped by %q: %d groups, %d of them with more than one sample; each group stays on one side of every split", name, len(seen), multi)
}

// classChoices lists the annotations as class choices.
func classChoices(anns []annotation) []ClassChoice {
	out := make([]ClassChoice, len(anns))
	for i, a := range anns {
		out[i] = ClassChoice{Key: a.key, Counts: a.counts()}
	}
	return out
}
