package dataset

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/internal/text"
)

// countColumns are headers of the column of read counts in one sample's count file,
// best first: "Count" (as in GSE63310's files), RSEM's expected_count, Salmon's NumReads.
var countColumns = []string{"count", "counts", "read_count", "readcount", "reads", "raw_count", "rawcount", "expected_count", "numreads"}

// sampleFile is a GSM id opening a sample's file name.
var sampleFile = regexp.MustCompile(`^(GSM[0-9]{1,9})_`)

// readSampleCounts reads one count file a sample (GEO's per-sample supplementary files,
// named GSM..._name) into a table of the samples' counts: rows the samples, named by
// the GSM id opening each file's name; columns the genes every file has, in the first
// file's order. In each file the first column is the gene id and the counts are the
// column headed like a count (countColumns), the second of a two-column file (as
// htseq-count writes it, without a header), or the last of featureCounts' table; lines
// starting with # are comments, and htseq-count's summary rows (__no_feature, ...) are
// left out, named in a note. A file whose counts column cannot be told, a gene given
// twice or a cell that is not a number is refused with its place.
func readSampleCounts(paths []string) (*Dataset, error) {
	var samples []string
	var cols []map[string]float64
	var genes []string
	var notes []string
	summary := map[string]bool{}
	for _, path := range paths {
		name := filepath.Base(path)
		m := sampleFile.FindStringSubmatch(name)
		if m == nil {
			return nil, &ParseError{File: name, Msg: "does not name its sample: a per-sample count file's name starts with the sample's GSM id (GSM123456_...)"}
		}
		if slices.Contains(samples, m[1]) {
			return nil, &ParseError{File: name, Msg: fmt.Sprintf("is a second count file of sample %s", m[1])}
		}
		ids, counts, left, note, err := readCountFile(path)
		if err != nil {
			return nil, err
		}
		if genes == nil {
			genes = ids
			if note != "" {
				notes = append(notes, note)
			}
		}
		for _, s := range left {
			summary[s] = true
		}
		samples, cols = append(samples, m[1]), append(cols, counts)
	}
	var common []string
	for _, g := range genes {
		every := true
		for _, c := range cols {
			if _, ok := c[g]; !ok {
				every = false
				break
			}
		}
		if every {
			common = append(common, g)
		}
	}
	if len(common) == 0 {
		return nil, &ParseError{File: filepath.Base(paths[0]), Msg: "shares no gene id with the other samples' count files: they were counted against different annotations and cannot be joined"}
	}
	if len(common) < len(genes) {
		k := len(genes) - len(common)
		notes = append(notes, fmt.Sprintf("%s of %s %s not in every sample's file and %s left out", text.Count(k, "gene"), filepath.Base(paths[0]), text.Plural(k, "is|are"), text.Plural(k, "is|are")))
	}
	if len(summary) > 0 {
		var s []string
		for k := range summary {
			s = append(s, k)
		}
		slices.Sort(s)
		notes = append(notes, fmt.Sprintf("htseq-count's summary rows left out of the genes: %s", listNames(s, 6)))
	}
	x := mat.NewDense(len(samples), len(common), nil)
	for i, c := range cols {
		row := x.RawRowView(i)
		for j, g := range common {
			row[j] = c[g]
		}
	}
	return &Dataset{Name: filepath.Base(filepath.Dir(paths[0])), X: x, Samples: samples, Features: common, Notes: notes}, nil
}

// readCountFile reads one sample's count file: its gene ids in order, their counts, the
// htseq-count summary rows it left out, and a note saying which column it took.
func readCountFile(path string) (ids []string, counts map[string]float64, left []string, note string, err error) {
	name := filepath.Base(path)
	b, _, _, err := readText(path)
	if err != nil {
		return nil, nil, nil, "", err
	}
	if err := checkTextMemory(name, b); err != nil {
		return nil, nil, nil, "", err
	}
	ls, _, err := lines(name, b)
	if err != nil {
		return nil, nil, nil, "", err
	}
	first := 0
	for first < len(ls) && strings.HasPrefix(ls[first], "#") {
		first++
	}
	if first == len(ls) {
		return nil, nil, nil, "", &ParseError{File: name, Msg: "holds only comments, no counts"}
	}
	sep := detectSep(ls[first:])
	head := splitFields(ls[first], sep)
	col, header, err := countColumn(name, first+1, head)
	if err != nil {
		return nil, nil, nil, "", err
	}
	if header {
		note = fmt.Sprintf("the counts are the column %q of each sample's file", head[col])
		first++
	}
	counts = make(map[string]float64, len(ls)-first)
	for i := first; i < len(ls); i++ {
		f := splitFields(ls[i], sep)
		if len(f) == 1 && f[0] == "" {
			continue
		}
		if len(f) != len(head) {
			return nil, nil, nil, "", &ParseError{File: name, Line: i + 1, Msg: fmt.Sprintf("has %d fields where the first line has %d", len(f), len(head))}
		}
		id := f[0]
		if strings.HasPrefix(id, "__") { // htseq-count's summary: __no_feature, __ambiguous, ...
			left = append(left, id)
			continue
		}
		v, ok := parseCell(f[col], false)
		if !ok {
			return nil, nil, nil, "", &ParseError{File: name, Line: i + 1, Column: col + 1, Msg: fmt.Sprintf("%q, the count of %q, is not a number", f[col], id)}
		}
		if _, twice := counts[id]; twice {
			return nil, nil, nil, "", &ParseError{File: name, Line: i + 1, Msg: fmt.Sprintf("gives gene %q a second time", id)}
		}
		counts[id] = v
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return nil, nil, nil, "", &ParseError{File: name, Msg: "holds no gene's count"}
	}
	return ids, counts, left, note, nil
}

// countColumn is the column of counts given a count file's first line (at line): the
// one headed like a count, the second of two, or featureCounts' last (after Length);
// header reports whether the line is a header rather than a gene's counts.
func countColumn(name string, line int, head []string) (col int, header bool, err error) {
	if len(head) < 2 {
		return 0, false, &ParseError{File: name, Line: line, Msg: "has one column: a count file gives each gene id and its count"}
	}
	for _, want := range countColumns {
		for j, h := range head[1:] {
			if strings.EqualFold(strings.TrimSpace(h), want) {
				return j + 1, true, nil
			}
		}
	}
	_, numeric := parseCell(head[len(head)-1], false)
	switch {
	case len(head) == 2:
		return 1, !numeric, nil
	case len(head) > 2 && !numeric && strings.EqualFold(head[len(head)-2], "length"): // featureCounts: Geneid Chr Start End Strand Length file.bam
		return len(head) - 1, true, nil
	}
	return 0, false, &ParseError{File: name, Line: line, Msg: fmt.Sprintf("has %d columns (%s) and none is headed as the read counts (Count, counts, expected_count, ...): rename the column of counts and open the files again", len(head), listNames(head, 6))}
}
