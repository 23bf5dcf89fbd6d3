package dataset

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"steadfast/internal/text"
)

// softKind says which GEO SOFT file b is: "dataset" (a GDS, with its value table),
// "platform" (a GPL table), "sample" (one GSM), "family" (a GSE family file), or "".
func softKind(b []byte) string {
	head := bytes.TrimLeft(b[:min(len(b), 4096)], "\ufeff \r\n")
	if !bytes.HasPrefix(head, []byte("^")) {
		return ""
	}
	switch {
	case bytes.Contains(b, []byte("!dataset_table_begin")):
		return "dataset"
	case bytes.HasPrefix(head, []byte("^SAMPLE")):
		return "sample"
	case bytes.Contains(head, []byte("^SERIES")) || bytes.Contains(b, []byte("\n^SAMPLE")):
		return "family"
	case bytes.Contains(b, []byte("!platform_table_begin")):
		return "platform"
	}
	return ""
}

// softError explains a SOFT file that holds no sample table Steadfast reads.
func softError(file, kind string) error {
	const instead = "Open the series matrix instead (GSE..._series_matrix.txt.gz, under \"Series Matrix File(s)\" on the series' GEO page) or a GEO DataSet file (GDS....soft.gz)"
	switch kind {
	case "platform":
		return &ParseError{File: file, Msg: "a GEO platform (GPL) file: it describes the probes, not samples. Give it as the gene-symbol annotation (--symbols, or Gene symbols on the Data tab) and open the series' values"}
	case "sample":
		return &ParseError{File: file, Msg: "a GEO sample (GSM) file, which holds one sample. " + instead}
	}
	return &ParseError{File: file, Msg: "a GEO family SOFT file, which keeps each sample in its own table. " + instead}
}

// ReadGDS reads a GEO DataSet SOFT file (GDS....soft): the values between
// !dataset_table_begin and !dataset_table_end (ID_REF, IDENTIFIER, then one column per
// sample), IDENTIFIER as the probes' gene symbols, and the class from a subset type
// ("disease state": each ^SUBSET names its samples and their value). o.ClassName names
// the subset type; without it the first that splits the samples into 2 to 10 classes
// of two or more is taken, and a note lists the others.
func ReadGDS(file string, b []byte, o Options) (*Dataset, error) {
	ls, notes, err := lines(file, b)
	if err != nil {
		return nil, err
	}
	s := gdsScan{begin: -1, end: -1, valueOf: map[string][]subset{}}
	for i, l := range ls {
		s.line(i, l)
	}
	if s.begin < 0 || s.end < s.begin {
		return nil, &ParseError{File: file, Msg: "a GEO DataSet without its !dataset_table_begin ... _end table; is the file complete?"}
	}
	header := strings.Split(ls[s.begin], "\t")
	if len(header) < 3 || !strings.EqualFold(unquote(header[1]), "IDENTIFIER") {
		return nil, &ParseError{File: file, Line: s.begin + 1, Msg: "the DataSet table should start with the columns ID_REF and IDENTIFIER"}
	}
	samples := make([]string, len(header)-2)
	for j := range samples {
		samples[j] = unquote(header[j+2])
	}
	anns, conflicts := s.annotations(samples)
	if len(anns) == 0 && o.ClassName == "" && !o.Unlabelled {
		return nil, &ParseError{File: file, Msg: "the DataSet defines no subsets (^SUBSET blocks naming the samples' groups), so it says nothing of the samples' classes; open the series matrix of its GSE series instead (GSE..._series_matrix.txt.gz), which holds the sample characteristics"}
	}
	ann, note, err := chooseClass(file, anns, len(samples), o)
	if err != nil {
		return nil, err
	}
	if c, ok := conflicts[ann.key]; ok {
		return nil, &ParseError{File: file, Msg: c + ", so the samples' classes by it are not defined; name another subset type as the class (--class TYPE, or Class on the Data tab), or correct the file"}
	}
	t, err := readGEOTable(file, ls, s.begin, s.end, 2)
	if err != nil {
		return nil, err
	}
	ds := &Dataset{Name: file, X: t.x, Samples: samples, Notes: append(notes, note), ClassChoices: classChoices(anns),
		Accession: s.accession, Platform: s.platform}
	ds.setLabels(ann.values)
	if err := ds.groupFrom(file, anns, o.GroupName); err != nil {
		return nil, err
	}
	ds, err = t.finish(ds, o.Unlabelled)
	if err == nil && ds.Symbols != nil {
		ds.Notes = append(ds.Notes, identifierSymbols(ds.Symbols))
	}
	return ds, err
}

// accession matches a GenBank or RefSeq nucleotide accession (AA123456, M12345.1,
// NM_000546.5; never an HGNC symbol, which has no 1-2 letters before 5 digits),
// which a GDS's IDENTIFIER gives for a probe of no known gene.
var accession = regexp.MustCompile(`^(?:[A-Z]{1,2}\d{5,6}|[A-Z]{2}_\d{6,9})(?:\.\d+)?$`)

// identifierSymbols clears, in a GDS's IDENTIFIER symbols, the accessions that stand in
// for a gene symbol, and says where the symbols came from and what it cleared.
func identifierSymbols(sym []string) string {
	cleared := 0
	for i, v := range sym {
		if accession.MatchString(v) {
			sym[i], cleared = "", cleared+1
		}
	}
	note := "gene symbols: the DataSet's IDENTIFIER column (GEO's symbol for each probe, as of the DataSet's curation)"
	if cleared > 0 {
		note += fmt.Sprintf("; %s a GenBank or RefSeq accession there, not a symbol, and %s none", text.Count(cleared, "probe has|probes have"), text.Plural(cleared, "is|are")+" given")
	}
	return note
}

// gdsScan collects a GDS file's subsets and table lines.
type gdsScan struct {
	begin, end int
	// accession and platform: ^DATASET's id and !dataset_platform
	accession, platform string
	types               []string            // subset types in order of appearance
	valueOf             map[string][]subset // subset type -> its subsets
	cur                 *subset
	curType             string
}

// subset is one ^SUBSET block: a value and the samples that have it.
type subset struct {
	value   string
	samples []string
}

// line takes in line i of the file.
func (s *gdsScan) line(i int, l string) {
	key, val, _ := strings.Cut(l, "=")
	key, val = strings.TrimSpace(key), strings.TrimSpace(val)
	switch {
	case strings.HasPrefix(l, "!dataset_table_begin"):
		s.flush()
		s.begin = i + 1
	case strings.HasPrefix(l, "!dataset_table_end"):
		s.end = i
	case strings.EqualFold(key, "^DATASET") && s.accession == "":
		s.flush()
		s.accession = geoID(val)
	case key == "!dataset_platform" && s.platform == "":
		s.platform = geoID(val)
	case strings.HasPrefix(l, "^"):
		s.flush()
		if strings.EqualFold(key, "^SUBSET") {
			s.cur = &subset{}
		}
	case s.cur == nil:
	case key == "!subset_description":
		s.cur.value = val
	case key == "!subset_type":
		s.curType = val
	case key == "!subset_sample_id":
		for _, id := range strings.Split(val, ",") {
			s.cur.samples = append(s.cur.samples, strings.TrimSpace(id))
		}
	}
}

// flush files the subset being read under its type.
func (s *gdsScan) flush() {
	if s.cur != nil && s.curType != "" {
		if _, ok := s.valueOf[s.curType]; !ok {
			s.types = append(s.types, s.curType)
		}
		s.valueOf[s.curType] = append(s.valueOf[s.curType], *s.cur)
	}
	s.cur, s.curType = nil, ""
}

// annotations turns the subset types into sample annotations over the table's samples,
// joined by GSM id (a sample in no subset of a type has no value for it), and for each
// type in which a sample is in two subsets, what is wrong with it.
func (s *gdsScan) annotations(samples []string) ([]annotation, map[string]string) {
	col := map[string]int{}
	for j, id := range samples {
		col[id] = j
	}
	var anns []annotation
	conflicts := map[string]string{}
	for _, typ := range s.types {
		a := annotation{key: typ, values: make([]string, len(samples))}
		in := map[string]string{}
		for _, sub := range s.valueOf[typ] {
			for _, id := range sub.samples {
				if prev, ok := in[id]; ok && conflicts[typ] == "" {
					conflicts[typ] = fmt.Sprintf("sample %s is in two subsets of the type %q (%q and %q)", id, typ, prev, sub.value)
				}
				in[id] = sub.value
				if j, ok := col[id]; ok {
					a.values[j] = sub.value
				}
			}
		}
		anns = append(anns, a)
	}
	return anns, conflicts
}

// geoID is v when it is a GEO id (GSE, GDS or GPL and digits, as GEO writes them), else
// "": a file's header is data, not trusted to name anything else.
func geoID(v string) string {
	v = unquote(strings.TrimSpace(v))
	if len(v) < 4 || len(v) > 16 {
		return ""
	}
	switch v[:3] {
	case "GSE", "GDS", "GPL":
	default:
		return ""
	}
	for _, c := range v[3:] {
		if c < '0' || c > '9' {
			return ""
		}
	}
	return v
}
