package geo

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"steadfast/compute/dataset"
)

// Progress reports a download: bytes done of total (-1 when the server does not say)
// of the file named what.
type Progress func(what string, done, total int64)

// Client fetches GEO files into its cache.
type Client struct {
	Base  *url.URL
	Cache string       // the cache folder (CacheDir)
	HTTP  *http.Client // nil: one honouring HTTPS_PROXY, with the redirect rule
	// Stall is how long a download may receive nothing before it is given up (0: 60 s).
	Stall    time.Duration
	Progress Progress
}

// NewClient is a Client on Base() and CacheDir().
func NewClient() (*Client, error) {
	base, err := Base()
	if err != nil {
		return nil, err
	}
	dir, err := CacheDir()
	if err != nil {
		return nil, err
	}
	return &Client{Base: base, Cache: dir}, nil
}

// File is one file a fetch used: its path in GEO's layout, its SHA-256, and whether it
// came from the cache.
type File struct {
	Name      string `json:"name"`
	SHA256    string `json:"sha256"`
	FromCache bool   `json:"-"`
}

// Fetched is what a fetch gives: the data file and the annotation (when there is one)
// as local paths, and what it used.
type Fetched struct {
	Accession, Platform string
	Data, Symbols       string // local paths; Symbols "" when none
	// Counts is the raw counts GEO computed for an RNA-seq series (its matrix, Data,
	// holding only the sample annotations), or the submitter's count table among its
	// supplementary files; "" otherwise. CountFiles are instead one count file a
	// sample, unpacked from the series' RAW.tar. CountsOrigin says where they came from.
	Counts       string
	CountFiles   []string
	CountsOrigin string
	SymbolsFile  string // the annotation's name in GEO's layout
	Files        []File
	Notes        []string
	Suppl        string // a series' supplementary files' address
}

// Source is what f used, as the data's record.
func (f *Fetched) Source() *dataset.Source {
	s := &dataset.Source{Accession: f.Accession, Platform: f.Platform}
	for _, x := range f.Files {
		s.Files = append(s.Files, dataset.SourceFile{Name: x.Name, SHA256: x.SHA256})
	}
	return s
}

// PlatformsError is a series on several platforms fetched without choosing one.
type PlatformsError struct {
	Accession string
	Platforms []string
}

func (e *PlatformsError) Error() string {
	return fmt.Sprintf("%s spans %d platforms (%s): choose one (--platform %s, or Platform in the Open GEO accession dialog)",
		e.Accession, len(e.Platforms), strings.Join(e.Platforms, ", "), e.Platforms[0])
}

// notFound is a file the server does not have (HTTP 404).
type notFound struct{ url string }

func (e *notFound) Error() string { return "not found at " + e.url }

var seriesMatrix = regexp.MustCompile(`^(GSE[0-9]{1,9})(-(GPL[0-9]{1,9}))?_series_matrix\.txt\.gz$`)

// Fetch downloads (or takes from the cache) the data of the accession acc: a series'
// matrix (of platform, when it spans several) with its platform's annotation, or a
// DataSet's SOFT file. A platform alone is refused: it holds no samples.
func (c *Client) Fetch(ctx context.Context, acc, platform string) (*Fetched, error) {
	a, ok := Parse(acc)
	if !ok {
		return nil, fmt.Errorf("%q is not a GEO accession: give GSE or GDS and its number (GSE2034, GDS507)", acc)
	}
	if platform != "" {
		p, ok := Parse(platform)
		if !ok || !strings.HasPrefix(p, "GPL") {
			return nil, fmt.Errorf("--platform %q: give a GEO platform, GPL and its number (GPL96)", platform)
		}
		platform = p
	}
	f := &Fetched{Accession: a}
	switch a[:3] {
	case "GPL":
		return nil, fmt.Errorf("%s is a platform (its probes and their annotation), not data: give a GSE series or a GDS DataSet measured on it", a)
	case "GDS":
		path, err := c.file(ctx, gdsPath(a), f)
		if err != nil {
			return nil, c.explain(a, err)
		}
		f.Data, f.Platform = path, platform // the reader checks the platform
		return f, nil
	}
	f.Suppl = c.Base.String() + "/" + supplDir(a)
	name, err := c.chooseMatrix(ctx, a, platform)
	if err != nil {
		return nil, c.explain(a, err)
	}
	if f.Data, err = c.file(ctx, matrixDir(a)+name, f); err != nil {
		return nil, c.explain(a, err)
	}
	if f.Platform = seriesMatrix.FindStringSubmatch(name)[3]; f.Platform == "" {
		f.Platform = platformOf(f.Data)
	}
	if emptyMatrix(f.Data) { // RNA-seq: the values are counts, GEO's own or the submitter's
		ok, err := c.rnaseqCounts(ctx, a, f)
		if err == nil && !ok {
			ok, err = c.submitterCounts(ctx, a, f)
		}
		if err != nil {
			return nil, c.explain(a, err)
		}
		if !ok {
			return nil, c.noCounts(ctx, a)
		}
		return f, ctx.Err()
	}
	if f.Platform != "" {
		c.annotation(ctx, f)
	}
	return f, ctx.Err()
}

// chooseMatrix lists the series' matrix files (from the cache when it has the list) and
// picks the one of platform, or the only one.
func (c *Client) chooseMatrix(ctx context.Context, gse, platform string) (string, error) {
	names, err := c.listing(ctx, matrixDir(gse))
	if err != nil {
		return "", err
	}
	var mine []string
	byPlatform := map[string]string{}
	for _, n := range names {
		m := seriesMatrix.FindStringSubmatch(n)
		if m == nil || m[1] != gse {
			continue
		}
		mine = append(mine, n)
		byPlatform[m[3]] = n
	}
	switch {
	case len(mine) == 0:
		return "", fmt.Errorf("%s has no series matrix on GEO (often an RNA-seq series, whose values are in its supplementary files: %s/%s); download the count table there and open it (File > Open data...)", gse, c.Base, supplDir(gse))
	case platform != "":
		if n, ok := byPlatform[platform]; ok {
			return n, nil
		}
		if len(mine) == 1 && byPlatform[""] != "" {
			return mine[0], nil // one matrix: its platform is checked when it is read
		}
		return "", fmt.Errorf("%s has no series matrix for %s; its platforms are %s", gse, platform, strings.Join(platforms(byPlatform), ", "))
	case len(mine) == 1:
		return mine[0], nil
	}
	return "", &PlatformsError{Accession: gse, Platforms: platforms(byPlatform)}
}

func platforms(by map[string]string) []string {
	var out []string
	for p := range by {
		if p != "" {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// annotation fetches the platform's annotation (GEO's .annot, else the platform's full
// SOFT table) for its gene symbols; when neither can be had the data stay without
// symbols and a note says why.
func (c *Client) annotation(ctx context.Context, f *Fetched) {
	for _, rel := range []string{annotPath(f.Platform), softPath(f.Platform)} {
		path, err := c.file(ctx, rel, f)
		if err == nil {
			f.Symbols, f.SymbolsFile = path, rel
			return
		}
		var nf *notFound
		if !errors.As(err, &nf) {
			f.Notes = append(f.Notes, fmt.Sprintf("gene symbols not joined: %s's annotation could not be fetched (%v); the probes keep their ids", f.Platform, err))
			return
		}
	}
	f.Notes = append(f.Notes, fmt.Sprintf("GEO has no annotation for %s (neither %s nor %s): the probes keep their ids", f.Platform, annotPath(f.Platform), softPath(f.Platform)))
}

// noCounts is the refusal of an RNA-seq series GEO computed no counts for: its
// supplementary files, listed (those that look like count tables first), to download
// and open by hand.
func (c *Client) noCounts(ctx context.Context, gse string) error {
	where := c.Base.String() + "/" + supplDir(gse)
	names, err := c.listing(ctx, supplDir(gse))
	if err != nil || len(names) == 0 {
		return fmt.Errorf("%s is an RNA-seq series (its series matrix holds no values) and GEO computed no counts for it; its supplementary files are at %s: download the count table there and open it (File > Open data...)", gse, where)
	}
	sort.SliceStable(names, func(a, b int) bool {
		return strings.Contains(strings.ToLower(names[a]), "count") && !strings.Contains(strings.ToLower(names[b]), "count")
	})
	return fmt.Errorf("%s is an RNA-seq series (its series matrix holds no values) and GEO computed no counts for it; its supplementary files (%s) are %s: download the count table among them and open it (File > Open data...), with the classes in its first row or a column", gse, where, strings.Join(names[:min(len(names), 8)], ", "))
}

// platformOf reads a series matrix's !Series_platform_id ("" if none).
func platformOf(path string) string {
	fh, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(io.LimitReader(zr, 16<<20))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "!series_matrix_table_begin") {
			break
		}
		if v, ok := strings.CutPrefix(l, "!Series_platform_id"); ok {
			if p, ok := Parse(strings.Trim(strings.TrimSpace(v), `"`)); ok {
				return p
			}
		}
	}
	return ""
}

// explain turns a fetch's error into what a biologist can act on.
func (c *Client) explain(acc string, err error) error {
	var nf *notFound
	var pe *PlatformsError
	switch {
	case errors.As(err, &pe), errors.Is(err, context.Canceled):
		return err
	case errors.As(err, &nf):
		return fmt.Errorf("GEO has no %s (%v): check the accession on https://www.ncbi.nlm.nih.gov/geo/", acc, err)
	}
	return err
}

// listing returns the file names of a GEO folder: from the cache when it was listed
// before, else from the server's index page (its links), then kept.
func (c *Client) listing(ctx context.Context, dir string) ([]string, error) {
	local := filepath.Join(c.Cache, filepath.FromSlash(dir), listingFile)
	if b, err := os.ReadFile(local); err == nil {
		return strings.Fields(string(b)), nil
	}
	body, err := c.get(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	page, err := io.ReadAll(io.LimitReader(body, 4<<20))
	if err != nil {
		return nil, c.netError(err)
	}
	var names []string
	for _, m := range href.FindAllStringSubmatch(string(page), -1) {
		if n := m[1]; safeName.MatchString(n) && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if err := os.MkdirAll(filepath.Dir(local), 0o755); err == nil {
		writeAtomic(local, []byte(strings.Join(names, "\n")+"\n"))
	}
	return names, nil
}

// listingFile is where a folder's list of files is kept in the cache.
const listingFile = ".listing"

var (
	href     = regexp.MustCompile(`(?i)href="([^"?/#]+)"`)
	safeName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$`)
)
