package geo

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// DefaultDownload is GEO's download service, where the RNA-seq counts NCBI computes for
// a series are offered (https://www.ncbi.nlm.nih.gov/geo/info/rnaseqcounts.html): its
// page ?acc=GSE... links the raw counts, ?format=file&type=rnaseq_counts&acc=GSE...&file=
// GSE..._raw_counts_GRCh38.p13_NCBI.tsv.gz, and the genome's annotation,
// ?format=file&type=rnaseq_counts&file=Human.GRCh38.p13.annot.tsv.gz (the links
// GEOquery's getRNASeqData follows).
const DefaultDownload = "https://www.ncbi.nlm.nih.gov/geo/download/"

// service is the download service: DefaultDownload beside NCBI's file server, a
// mirror's "download/" folder beside a mirror.
func (c *Client) service() *url.URL {
	if c.Base.String() == DefaultBase {
		u, _ := url.Parse(DefaultDownload)
		return u
	}
	u := *c.Base
	u.Path = strings.TrimSuffix(u.Path, "/") + "/download/"
	return &u
}

var (
	countsLink = regexp.MustCompile(`href="([^"]*type=rnaseq_counts[^"]*)"`)
	rawCounts  = regexp.MustCompile(`^(GSE[0-9]{1,9})_raw_counts_[A-Za-z0-9.]{1,40}_NCBI\.tsv\.gz$`)
	genomeAnn  = regexp.MustCompile(`^[A-Za-z]{1,40}\.[A-Za-z0-9.]{1,40}\.annot\.tsv\.gz$`)
)

// rnaseqCounts fetches the raw counts GEO computed for the series gse and its genome's
// annotation into the cache (the names GEO's page gave are kept there too, so the cache
// works offline) and sets f.Counts and f.Symbols; false when GEO computed none.
func (c *Client) rnaseqCounts(ctx context.Context, gse string, f *Fetched) (bool, error) {
	dir := "rnaseq_counts/" + gse + "/"
	names := filepath.Join(c.Cache, filepath.FromSlash(dir), listingFile)
	var raw, ann string
	if b, err := os.ReadFile(names); err == nil {
		fs := strings.Fields(string(b))
		if len(fs) == 1 && fs[0] == noneComputed {
			return false, nil
		}
		if len(fs) == 2 && rawCounts.MatchString(fs[0]) && genomeAnn.MatchString(fs[1]) {
			raw, ann = fs[0], fs[1]
		}
	}
	if raw == "" {
		var err error
		if raw, ann, err = c.countsNames(ctx, gse); err != nil {
			return false, err
		}
		keep := raw + "\n" + ann + "\n"
		if raw == "" {
			keep = noneComputed + "\n"
		}
		if err := os.MkdirAll(filepath.Dir(names), 0o755); err == nil {
			writeAtomic(names, []byte(keep))
		}
		if raw == "" {
			return false, nil
		}
	}
	u := c.service()
	u.RawQuery = url.Values{"format": {"file"}, "type": {"rnaseq_counts"}, "acc": {gse}, "file": {raw}}.Encode()
	path, err := c.fileAt(ctx, u, dir+raw, f)
	if err != nil {
		return false, err
	}
	f.Counts, f.CountsOrigin = path, "RNA-seq counts computed by GEO (NCBI's pipeline: HISAT2 alignment, featureCounts), "+raw
	if ann != "" {
		u := c.service()
		u.RawQuery = url.Values{"format": {"file"}, "type": {"rnaseq_counts"}, "file": {ann}}.Encode()
		if p, err := c.fileAt(ctx, u, "rnaseq_counts/"+ann, f); err == nil {
			f.Symbols, f.SymbolsFile = p, "rnaseq_counts/"+ann
		} else {
			f.Notes = append(f.Notes, fmt.Sprintf("gene symbols not joined: GEO's %s could not be fetched (%v); the genes keep their Entrez ids", ann, err))
		}
	}
	return true, nil
}

// noneComputed is what the cache keeps for a series GEO's page offers no counts for,
// so that the cache answers offline (clearing it asks GEO again).
const noneComputed = "none"

// countsNames reads GEO's download page of gse for the names of its raw counts file
// and of its genome's annotation; "" when the page offers none.
func (c *Client) countsNames(ctx context.Context, gse string) (raw, ann string, err error) {
	page := c.service()
	page.RawQuery = url.Values{"acc": {gse}}.Encode()
	body, err := c.getAt(ctx, page)
	if err != nil {
		var nf *notFound
		if errors.As(err, &nf) {
			return "", "", nil
		}
		return "", "", err
	}
	defer body.Close()
	b, err := io.ReadAll(io.LimitReader(body, 4<<20))
	if err != nil {
		return "", "", c.netError(err)
	}
	for _, m := range countsLink.FindAllStringSubmatch(string(b), -1) {
		q, err := url.ParseQuery(strings.ReplaceAll(m[1][strings.Index(m[1], "?")+1:], "&amp;", "&"))
		if err != nil {
			continue
		}
		name := q.Get("file")
		switch {
		case raw == "" && rawCounts.MatchString(name) && rawCounts.FindStringSubmatch(name)[1] == gse:
			raw = name
		case ann == "" && genomeAnn.MatchString(name):
			ann = name
		}
	}
	return raw, ann, nil
}

// emptyMatrix reports whether the series matrix at path holds no values: its table
// begins and ends with nothing but the header between, as an RNA-seq series' does.
func emptyMatrix(path string) bool {
	fh, err := os.Open(path)
	if err != nil {
		return false
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		return false
	}
	sc := bufio.NewScanner(io.LimitReader(zr, 64<<20))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	rows := -1
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "!series_matrix_table_begin"):
			rows = 0
		case strings.HasPrefix(l, "!series_matrix_table_end"):
			return rows <= 1
		case rows >= 0:
			if rows++; rows > 1 {
				return false
			}
		}
	}
	return false
}

// countTable matches a supplementary file that looks like a count table: "count" in its
// name, a text (.txt, .tsv, .csv, gzipped or not) or Excel file; archives (RAW.tar)
// are not read.
var countTable = regexp.MustCompile(`(?i)count.*\.(txt|tsv|csv)(\.gz)?$|count.*\.xlsx$`)

// submitterCounts fetches the count table among the series' supplementary files (the
// first whose name says raw counts, else counts) and sets f.Counts; without one, the
// per-sample count files in its RAW.tar (rawCounts); false when neither is there.
func (c *Client) submitterCounts(ctx context.Context, gse string, f *Fetched) (bool, error) {
	names, err := c.listing(ctx, supplDir(gse))
	if err != nil {
		var nf *notFound
		if errors.As(err, &nf) {
			return false, nil
		}
		return false, err
	}
	pick := ""
	for _, n := range names {
		if !countTable.MatchString(n) {
			continue
		}
		if pick == "" || strings.Contains(strings.ToLower(n), "raw") && !strings.Contains(strings.ToLower(pick), "raw") {
			pick = n
		}
	}
	if pick == "" {
		return c.rawCounts(ctx, gse, names, f)
	}
	path, err := c.file(ctx, supplDir(gse)+pick, f)
	if err != nil {
		return false, err
	}
	f.Counts, f.CountsOrigin = path, "the submitter's RNA-seq count table "+pick
	f.Notes = append(f.Notes, fmt.Sprintf("GEO computed no counts for %s: the submitter's count table %s from its supplementary files is read (its columns joined to the series' samples by GSM id or title)", gse, pick))
	return true, nil
}
