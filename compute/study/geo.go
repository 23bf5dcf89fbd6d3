package study

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"steadfast/compute/dataset"
	"steadfast/compute/geo"
)

// newGEOClient makes the GEO client data are fetched with (tests point it elsewhere).
var newGEOClient = geo.NewClient

// IsAccession reports whether path names GEO data (GSE2034, GDS507) rather than a file.
func IsAccession(path string) bool { return geo.IsAccession(path) }

// ReadData reads the data at where: a file, or a GEO accession fetched into the cache
// (o.Platform choosing a series' platform) with its platform's annotation joined as the
// gene symbols unless o names its own; progress reports the downloads. The dataset's
// Source records the GEO files used; the notes say where they came from.
func ReadData(ctx context.Context, where string, o dataset.Options, progress geo.Progress) (*dataset.Dataset, error) {
	if !IsAccession(where) {
		if o.Platform != "" {
			return nil, fmt.Errorf("--platform %s is for a GEO accession, not a file (%s)", o.Platform, where)
		}
		return dataset.ReadFile(where, o)
	}
	c, err := newGEOClient()
	if err != nil {
		return nil, err
	}
	c.Progress = progress
	f, err := c.Fetch(ctx, where, o.Platform)
	if err != nil {
		return nil, err
	}
	read := o
	read.Platform = ""
	var notes []string
	for _, file := range f.Files {
		how := "downloaded from GEO"
		if file.FromCache {
			how = "from the GEO cache"
		}
		notes = append(notes, fmt.Sprintf("%s %s", path.Base(file.Name), how))
	}
	if read.SymbolsPath == "" && f.Symbols != "" {
		read.SymbolsPath = f.Symbols
	}
	if read.SymbolsPath == "" && (f.Counts != "" || f.CountFiles != nil) {
		notes = append(notes, "no gene annotation came with the counts: the genes keep the ids the counts give; for gene symbols give a file of ids and symbols (Gene symbols on the Data tab, or --symbols)")
	}
	var ds *dataset.Dataset
	switch {
	case f.Counts != "":
		ds, err = dataset.ReadSeriesCounts(f.Data, []string{f.Counts}, f.CountsOrigin, read)
	case f.CountFiles != nil:
		ds, err = dataset.ReadSeriesCounts(f.Data, f.CountFiles, f.CountsOrigin, read)
	default:
		ds, err = dataset.ReadFile(f.Data, read)
	}
	if err != nil {
		var pe *dataset.ParseError
		if errors.As(err, &pe) && strings.Contains(pe.Msg, "supplementary files") && f.Suppl != "" {
			return nil, fmt.Errorf("%v: %s", err, f.Suppl)
		}
		return nil, err
	}
	if f.Platform != "" && ds.Platform != "" && ds.Platform != f.Platform {
		return nil, fmt.Errorf("%s is measured on %s, not %s: leave out the platform, or give %s", f.Accession, ds.Platform, f.Platform, ds.Platform)
	}
	ds.Name = f.Accession
	if f.Platform != "" && f.Accession[:3] == "GSE" {
		ds.Name += "-" + f.Platform
	}
	ds.Source = f.Source()
	if ds.Source.Platform == "" {
		ds.Source.Platform = ds.Platform
	}
	ds.Notes = append(append(notes, f.Notes...), ds.Notes...)
	return ds, nil
}

// SourceChanges says which of the GEO files recorded in was now have other contents
// (GEO revised them, or the cache was refilled with a newer file), nil when none.
func SourceChanges(was, now *dataset.Source) []string {
	if was == nil || now == nil {
		return nil
	}
	sums := map[string]string{}
	for _, f := range now.Files {
		sums[f.Name] = f.SHA256
	}
	var out []string
	for _, f := range was.Files {
		if s, ok := sums[f.Name]; ok && s != f.SHA256 {
			out = append(out, fmt.Sprintf("GEO's %s has changed since this configuration was saved (SHA-256 %s then, %s now): the results may differ", path.Base(f.Name), short(f.SHA256), short(s)))
		}
	}
	return out
}

func short(s string) string {
	if len(s) > 12 {
		return s[:12] + "..."
	}
	return s
}
