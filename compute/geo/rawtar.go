package geo

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"steadfast/compute/dataset"
)

var (
	// sampleTable is a sample's own text table in a series' RAW.tar: GSM1545535_10_6_5_11.txt.gz.
	sampleTable = regexp.MustCompile(`^(GSM[0-9]{1,9})_[A-Za-z0-9._-]{0,200}\.(txt|tsv|csv|tab|counts?)(\.gz)?$`)
	// otherValues are names of sample files holding something else than raw counts.
	otherValues = regexp.MustCompile(`(?i)fpkm|rpkm|tpm|cpm|normali[sz]ed|isoform|peaks?|\.bed|wig|vcf|methyl|junction|splice`)
	// countsName marks a sample's file of counts among several of its files.
	countsName = regexp.MustCompile(`(?i)count|htseq|readspergene`)
)

// maxSampleFiles bounds the count files read from one RAW.tar.
const maxSampleFiles = 5000

// rawCounts reads the per-sample count files in the series' RAW.tar (GSE..._RAW.tar,
// one GSM..._name.txt.gz a sample, as GSE63310's): chosen from the suppl folder's
// filelist.txt (GEO's list of the archive's members with their sizes) before anything
// is downloaded, when the folder has one; then the archive is fetched into the cache
// and the chosen members are unpacked beside it, and f.CountFiles names them. False when
// the folder has no RAW.tar or its members are not per-sample tables of counts.
func (c *Client) rawCounts(ctx context.Context, gse string, names []string, f *Fetched) (bool, error) {
	archive := gse + "_RAW.tar"
	if !slices.Contains(names, archive) {
		return false, nil
	}
	var want []string
	if slices.Contains(names, "filelist.txt") {
		path, err := c.file(ctx, supplDir(gse)+"filelist.txt", f)
		if err != nil {
			return false, err
		}
		b, err := dataset.ReadLimited(path, 16<<20)
		if err != nil {
			return false, err
		}
		members, err := fileList(b)
		if err != nil {
			return false, err
		}
		if want, err = countMembers(gse, members); err != nil || len(want) == 0 {
			return false, err
		}
	}
	tarPath, err := c.file(ctx, supplDir(gse)+archive, f)
	if err != nil {
		return false, err
	}
	dir := strings.TrimSuffix(tarPath, ".tar")
	files, err := unpackCounts(ctx, tarPath, dir, gse, want)
	if err != nil || len(files) == 0 {
		return false, err
	}
	f.CountFiles = files
	f.CountsOrigin = fmt.Sprintf("RNA-seq counts from the %d per-sample count files in %s (%s, ...), each a sample's by the GSM id opening its name", len(files), archive, filepath.Base(files[0]))
	f.Notes = append(f.Notes, fmt.Sprintf("GEO computed no counts for %s and its supplementary files hold no count table: the per-sample count files in its %s are read", gse, archive))
	return true, nil
}

// fileList reads GEO's filelist.txt: tab-separated lines "File  NAME  TIME  SIZE  TYPE"
// under a "#Archive/File" header (the archive's own line, "Archive", is skipped); it
// returns each member's name and size in bytes.
func fileList(b []byte) (map[string]int64, error) {
	out := map[string]int64{}
	for i, l := range strings.Split(strings.ReplaceAll(string(b), "\r", ""), "\n") {
		f := strings.Split(l, "\t")
		if len(f) < 4 || f[0] != "File" {
			continue
		}
		size, err := strconv.ParseInt(strings.TrimSpace(f[3]), 10, 64)
		if err != nil || size < 0 {
			return nil, fmt.Errorf("GEO's filelist.txt, line %d: the size %q is not a number of bytes", i+1, f[3])
		}
		if len(out) >= 100_000 {
			return nil, fmt.Errorf("GEO's filelist.txt lists more than 100,000 files")
		}
		out[strings.TrimSpace(f[1])] = size
	}
	return out, nil
}

// countMembers picks among an archive's members (name -> size) one count file a sample:
// the sample tables that do not say they hold other values (FPKM, TPM, ...); of a
// sample with several, the one named as counts. Nil when fewer than two samples have
// one; an error when a sample's several files cannot be told apart, or the files are
// larger than Steadfast reads.
func countMembers(gse string, members map[string]int64) ([]string, error) {
	bySample := map[string][]string{}
	for name := range members {
		if m := sampleTable.FindStringSubmatch(name); m != nil && !otherValues.MatchString(name) {
			bySample[m[1]] = append(bySample[m[1]], name)
		}
	}
	if len(bySample) < 2 {
		return nil, nil
	}
	if len(bySample) > maxSampleFiles {
		return nil, fmt.Errorf("%s_RAW.tar holds tables of %d samples, more than the %d Steadfast reads", gse, len(bySample), maxSampleFiles)
	}
	var out []string
	var total int64
	for gsm, names := range bySample {
		slices.Sort(names)
		if len(names) > 1 {
			named := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !countsName.MatchString(n) })
			if len(named) != 1 {
				return nil, fmt.Errorf("%s_RAW.tar holds %d tables of sample %s (%s) and Steadfast cannot tell which holds its read counts: download the archive from GEO and open the count table you build from it (File > Open data...)", gse, len(names), gsm, strings.Join(names, ", "))
			}
			names = named
		}
		out = append(out, names[0])
		total += members[names[0]]
	}
	if total > dataset.MaxFileSize {
		return nil, fmt.Errorf("%s_RAW.tar's count files take %s, more than the %s Steadfast reads", gse, size(total), size(dataset.MaxFileSize))
	}
	slices.Sort(out)
	return out, nil
}

// unpackCounts writes the members of the tar archive at path named in want (all the
// per-sample tables of counts when want is nil) into dir, each through a temporary file
// renamed into place when whole, and returns their paths in name order. Only regular
// files with names a sample table has are written, each within MaxFileSize.
func unpackCounts(ctx context.Context, path, dir, gse string, want []string) ([]string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot make the GEO cache folder %s: %v", dir, err)
	}
	members := map[string]int64{}
	tr := tar.NewReader(fh)
	var out []string
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s in the GEO cache is not a whole tar archive (%v): clear the GEO cache and fetch the series again", filepath.Base(path), err)
		}
		name := filepath.Base(filepath.FromSlash(h.Name))
		if h.Typeflag != tar.TypeReg || !sampleTable.MatchString(name) || h.Size > dataset.MaxFileSize {
			continue
		}
		members[name] = h.Size
		if want != nil && !slices.Contains(want, name) {
			continue
		}
		if want == nil && otherValues.MatchString(name) {
			continue
		}
		local := filepath.Join(dir, name)
		if err := writeMember(local, tr, h.Size); err != nil {
			return nil, err
		}
		out = append(out, local)
	}
	if want == nil { // no filelist.txt: choose now, from the archive's own list
		chosen, err := countMembers(gse, members)
		if err != nil {
			return nil, err
		}
		out = slices.DeleteFunc(out, func(p string) bool { return !slices.Contains(chosen, filepath.Base(p)) })
	} else if len(out) != len(want) {
		return nil, fmt.Errorf("%s lacks count files its filelist.txt lists (%d of %d found): clear the GEO cache and fetch the series again", filepath.Base(path), len(out), len(want))
	}
	slices.Sort(out)
	return out, nil
}

// writeMember copies n bytes of r to local through a temporary file beside it.
func writeMember(local string, r io.Reader, n int64) error {
	tmp, err := os.CreateTemp(filepath.Dir(local), ".part-*")
	if err != nil {
		return fmt.Errorf("cannot write to the GEO cache folder %s: %v", filepath.Dir(local), err)
	}
	defer os.Remove(tmp.Name())
	if _, err := io.CopyN(tmp, r, n); err != nil {
		tmp.Close()
		return fmt.Errorf("%s is cut short in its archive (%v): clear the GEO cache and fetch the series again", filepath.Base(local), err)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), local)
}
