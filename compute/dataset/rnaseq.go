package dataset

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"steadfast/internal/text"
)

// ReadSeriesCounts reads a GEO series of RNA-seq: its raw counts, either one table
// (counts[0]: GEO's own GSE..._raw_counts_GRCh38.p13_NCBI.tsv.gz or the submitter's, the
// gene ids as rows and a column a sample) or one file a sample (readSampleCounts), with
// the class and the other sample annotations of the series matrix (matrixPath, whose own
// table is empty), joined by GSM id, never by position; o.SymbolsPath is the genome's
// annotation (Human.GRCh38.p13.annot.tsv.gz: GeneID and Symbol). origin says where the
// counts came from, for the notes. The matrix's samples without counts are left out,
// named in a note; counts of a sample the matrix does not list are refused.
func ReadSeriesCounts(matrixPath string, counts []string, origin string, o Options) (*Dataset, error) {
	var ds *Dataset
	var err error
	if len(counts) == 1 {
		ds, err = readCounts(counts[0], Options{Orientation: SamplesAsColumns, Unlabelled: true, SymbolsPath: o.SymbolsPath})
	} else {
		ds, err = readSampleCounts(counts)
		if err == nil && o.SymbolsPath != "" {
			err = ds.joinSymbols(o.SymbolsPath)
		}
	}
	if err != nil {
		return nil, err
	}
	ds.Notes = slices.DeleteFunc(ds.Notes, func(n string) bool { return strings.HasPrefix(n, "no column or row is named class") })
	file := filepath.Base(matrixPath)
	b, _, _, err := readText(matrixPath)
	if err != nil {
		return nil, err
	}
	ls, _, err := lines(file, b)
	if err != nil {
		return nil, err
	}
	sc := seriesScan{begin: -1, end: -1, byKey: map[string]int{}}
	for i, l := range ls {
		sc.line(i, l)
	}
	if len(sc.ids) == 0 {
		return nil, &ParseError{File: file, Msg: "the series matrix has no !Sample_geo_accession line, so its classes cannot be joined to the counts' samples by GSM id"}
	}
	if err := sc.nameByGSM(file, ds); err != nil {
		return nil, err
	}
	kept, absent, err := sc.keepSamples(file, ds.Samples)
	if err != nil {
		return nil, err
	}
	anns, note, err := kept.bySample(file, ds.Samples)
	if err != nil {
		return nil, err
	}
	notes := append(sc.notes, fmt.Sprintf("%s, joined by GSM id to the sample annotations of %s", origin, file))
	if note != "" {
		notes = append(notes, note)
	}
	if len(absent) > 0 {
		notes = append(notes, fmt.Sprintf("%s of the series %s no counts from GEO and %s left out: %s", text.Count(len(absent), "sample"), text.Plural(len(absent), "has|have"), text.Plural(len(absent), "is|are"), listNames(absent, 6)))
	}
	ann, note, err := chooseClass(file, anns, len(ds.Samples), o)
	if err != nil {
		return nil, err
	}
	ds.Notes = append(append(ds.Notes, notes...), note)
	ds.ClassChoices, ds.Accession, ds.Platform = classChoices(anns), sc.accession, sc.platform
	ds.Labels, ds.Classes = nil, nil
	ds.setLabels(ann.values)
	if err := ds.groupFrom(file, anns, o.GroupName); err != nil {
		return nil, err
	}
	return ds, ds.tidyLabels(o.Unlabelled)
}

// keepSamples is sc with its samples cut to samples (GSM ids, each once), and the ids of
// sc it left out; a sample sc does not list is refused.
func (sc seriesScan) keepSamples(file string, samples []string) (seriesScan, []string, error) {
	at := map[string]int{}
	for i, id := range sc.ids {
		at[id] = i
	}
	var unknown []string
	keep := map[int]bool{}
	for _, s := range samples {
		i, ok := at[s]
		if !ok {
			unknown = append(unknown, s)
		}
		keep[i] = true
	}
	if len(unknown) > 0 {
		return sc, nil, &ParseError{File: file, Line: sc.idLine, Msg: fmt.Sprintf("GEO's counts have samples the series matrix does not list (%s): the two files are of different versions of the series; clear the GEO cache and fetch it again", listNames(unknown, 6))}
	}
	out := sc
	out.ids, out.anns = nil, make([]annotation, len(sc.anns))
	var absent []string
	for i, id := range sc.ids {
		if keep[i] {
			out.ids = append(out.ids, id)
		} else {
			absent = append(absent, id)
		}
	}
	for k, a := range sc.anns {
		out.anns[k] = annotation{key: a.key}
		for i, v := range a.values {
			if keep[i] {
				out.anns[k].values = append(out.anns[k].values, v)
			}
		}
	}
	return out, absent, nil
}

// nameByGSM renames ds's samples (a count table's columns) to the series' GSM ids: a
// column named by a GSM id keeps it, one named by a sample's title (!Sample_title) takes
// that sample's id; columns naming neither (a gene length, a symbol) are left out when
// at least half the columns are samples, and a note names them. Else it refuses,
// naming both kinds of names, for the columns cannot be joined by position.
func (sc seriesScan) nameByGSM(file string, ds *Dataset) error {
	isID := map[string]bool{}
	for _, id := range sc.ids {
		isID[id] = true
	}
	byTitle := map[string]string{}
	if k, ok := sc.byKey["title"]; ok {
		for i, t := range sc.anns[k].values {
			if i < len(sc.ids) && strings.TrimSpace(t) != "" {
				byTitle[strings.TrimSpace(t)] = sc.ids[i]
			}
		}
	}
	var keep []int
	var names, other []string
	seen := map[string]string{}
	titled := 0
	for i, s := range ds.Samples {
		id := strings.TrimSpace(s)
		if !isID[id] {
			if id = byTitle[id]; id != "" {
				titled++
			}
		}
		if id == "" {
			other = append(other, s)
			continue
		}
		if was, twice := seen[id]; twice {
			return &ParseError{File: file, Msg: fmt.Sprintf("the count table's columns %q and %q are both sample %s", was, s, id)}
		}
		seen[id] = s
		keep, names = append(keep, i), append(names, id)
	}
	if len(keep) < 2 || 2*len(keep) < len(ds.Samples) {
		var titles []string
		for t := range byTitle {
			titles = append(titles, t)
		}
		slices.Sort(titles)
		return &ParseError{File: ds.Name, Msg: fmt.Sprintf("the count table's columns (%s) name neither the series' samples' GSM ids (%s) nor their titles (%s), so its values cannot be joined to the samples' classes; name each column by its GSM id and open the table with the classes (File > Open data...)", listNames(ds.Samples, 4), listNames(sc.ids, 4), listNames(titles, 4))}
	}
	if len(other) > 0 {
		ds.keepSamples(keep)
		ds.Notes = append(ds.Notes, fmt.Sprintf("%s of the count table left out, naming no sample of the series: %s", text.Count(len(other), "column"), listNames(other, 6)))
	}
	if titled > 0 {
		ds.Notes = append(ds.Notes, fmt.Sprintf("%s of the count table matched to the series' samples by their titles", text.Count(titled, "column")))
	}
	ds.Samples = names
	return nil
}

// readCounts reads a count table as ReadFile does (samples as columns), first leaving
// out of a text table the columns that hold no number at all (a submitter's table
// often carries gene names, chromosomes and strands beside the counts, as
// featureCounts writes them), named in a note.
func readCounts(path string, o Options) (*Dataset, error) {
	return readFile(path, o, func(name string, b []byte) ([]byte, string, error) {
		b, dropped, err := dropTextColumns(name, b)
		if err != nil || len(dropped) == 0 {
			return b, "", err
		}
		return b, fmt.Sprintf("%s of the count table %s text, not counts, and %s left out: %s", text.Count(len(dropped), "column"), text.Plural(len(dropped), "holds|hold"), text.Plural(len(dropped), "is|are"), listNames(dropped, 6)), nil
	})
}

// dropTextColumns is the table b without the columns after the first that hold no
// number in any line (missing cells aside), and their headers.
func dropTextColumns(file string, b []byte) ([]byte, []string, error) {
	ls, _, err := lines(file, b)
	if err != nil || len(ls) < 2 {
		return b, nil, err
	}
	sep := detectSep(ls)
	g := splitGrid(ls, sep)
	width := g.recs[0].width()
	text := make([]bool, width)
	for c := 1; c < width; c++ {
		text[c] = true
		for _, r := range g.recs[1:] {
			if c < r.width() && !isMissingCell(r.field(c)) {
				if _, ok := parseCell(r.field(c), sep != ','); ok {
					text[c] = false
					break
				}
			}
		}
	}
	var dropped []string
	for c, t := range text {
		if t {
			dropped = append(dropped, g.recs[0].field(c))
		}
	}
	if len(dropped) == 0 {
		return b, nil, nil
	}
	var out strings.Builder
	for _, r := range g.recs {
		first := true
		for c := range r.width() {
			if c < len(text) && text[c] {
				continue
			}
			if !first {
				out.WriteByte(sep)
			}
			out.WriteString(quoteField(r.field(c), sep))
			first = false
		}
		out.WriteByte('\n')
	}
	return []byte(out.String()), dropped, nil
}

// quoteField writes a field back as a delimited file holds it: quoted when it holds
// the separator, a quote or a line break.
func quoteField(f string, sep byte) string {
	if strings.ContainsAny(f, string(sep)+"\"\n\r") {
		return `"` + strings.ReplaceAll(f, `"`, `""`) + `"`
	}
	return f
}
