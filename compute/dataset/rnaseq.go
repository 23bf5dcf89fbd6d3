package dataset

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"steadfast/internal/text"
)

// ReadSeriesCounts reads a GEO series of RNA-seq: the raw counts GEO's own pipeline
// computed (countsPath: GSE..._raw_counts_GRCh38.p13_NCBI.tsv.gz, the gene ids as rows
// and a column a GSM id) with the class and the other sample annotations of the
// series matrix (matrixPath, whose own table is empty), joined by GSM id, never by
// position; o.SymbolsPath is the genome's annotation (Human.GRCh38.p13.annot.tsv.gz:
// GeneID and Symbol). The matrix's samples without counts are left out, named in a note;
// counts of a sample the matrix does not list are refused.
func ReadSeriesCounts(matrixPath, countsPath string, o Options) (*Dataset, error) {
	co := Options{Orientation: SamplesAsColumns, Unlabelled: true, SymbolsPath: o.SymbolsPath}
	ds, err := ReadFile(countsPath, co)
	if err != nil {
		return nil, err
	}
	ds.Notes = slices.DeleteFunc(ds.Notes, func(n string) bool { return strings.HasPrefix(n, "no column or row is named class") })
	file := filepath.Base(matrixPath)
	b, err := ReadLimited(matrixPath, MaxFileSize)
	if err != nil {
		return nil, err
	}
	if b, _, err = gunzip(file, b, decompressLimit()); err != nil {
		return nil, err
	}
	b, _ = toUTF8(b)
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
	kept, absent, err := sc.keepSamples(file, ds.Samples)
	if err != nil {
		return nil, err
	}
	anns, note, err := kept.bySample(file, ds.Samples)
	if err != nil {
		return nil, err
	}
	notes := append(sc.notes, fmt.Sprintf("RNA-seq counts computed by GEO (NCBI's pipeline: HISAT2 alignment, featureCounts) from %s, joined by GSM id to the sample annotations of %s", filepath.Base(countsPath), file))
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
