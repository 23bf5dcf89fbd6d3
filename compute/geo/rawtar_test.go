package geo

import (
	"archive/tar"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A RAW.tar is read as untrusted: only regular files named as a sample's table are
// unpacked, by their base name into the cache folder (a member "../GSM9_x.txt" lands
// inside it, a link is not followed), FPKM tables are passed over, and the choice is
// the same as from filelist.txt. Worked by hand from the members below.
func TestUnpackCountsTrustsNoMember(t *testing.T) {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	add := func(h *tar.Header, body string) {
		h.Mode, h.Size = 0o644, int64(len(body))
		if h.Typeflag == tar.TypeSymlink {
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body)[:h.Size])
	}
	add(&tar.Header{Name: "GSM1_a.txt", Typeflag: tar.TypeReg}, "gene\tcount\ng1\t5\n")
	add(&tar.Header{Name: "../../GSM2_b.txt", Typeflag: tar.TypeReg}, "gene\tcount\ng1\t7\n")
	add(&tar.Header{Name: "GSM3_c.txt", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"}, "")
	add(&tar.Header{Name: "GSM1_a_FPKM.txt", Typeflag: tar.TypeReg}, "gene\tfpkm\ng1\t0.5\n")
	add(&tar.Header{Name: "GSM4_d.bw", Typeflag: tar.TypeReg}, "binary")
	tw.Close()
	root := t.TempDir()
	path := filepath.Join(root, "cache", "GSE9_RAW.tar")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, b.Bytes(), 0o644)
	dir := strings.TrimSuffix(path, ".tar")
	got, err := unpackCounts(context.Background(), path, dir, "GSE9", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "GSM1_a.txt"), filepath.Join(dir, "GSM2_b.txt")}
	if !slices.Equal(got, want) {
		t.Errorf("unpacked %v, want %v", got, want)
	}
	if _, err := os.Stat(filepath.Join(root, "GSM2_b.txt")); err == nil {
		t.Error("a member named ../../ was written outside the cache folder")
	}
	if _, err := os.Lstat(filepath.Join(dir, "GSM3_c.txt")); err == nil {
		t.Error("a link was unpacked")
	}
	fromList, err := countMembers("GSE9", map[string]int64{"GSM1_a.txt": 20, "GSM2_b.txt": 20, "GSM1_a_FPKM.txt": 20, "GSM4_d.bw": 6})
	if err != nil || !slices.Equal(fromList, []string{"GSM1_a.txt", "GSM2_b.txt"}) {
		t.Errorf("from filelist.txt: %v, %v", fromList, err)
	}
}

// A sample with two tables neither named as counts cannot be told apart and is refused
// with both names; one named as counts is taken.
func TestCountMembersOfASampleWithSeveralFiles(t *testing.T) {
	_, err := countMembers("GSE9", map[string]int64{"GSM1_a.txt.gz": 1, "GSM1_b.txt.gz": 1, "GSM2_a.txt.gz": 1})
	if err == nil || !strings.Contains(err.Error(), "holds 2 tables of sample GSM1 (GSM1_a.txt.gz, GSM1_b.txt.gz)") {
		t.Errorf("two tables of a sample: %v", err)
	}
	got, err := countMembers("GSE9", map[string]int64{"GSM1_genes.txt.gz": 1, "GSM1_htseq_counts.txt.gz": 1, "GSM2_htseq_counts.txt.gz": 1})
	if err != nil || !slices.Equal(got, []string{"GSM1_htseq_counts.txt.gz", "GSM2_htseq_counts.txt.gz"}) {
		t.Errorf("the one named as counts: %v, %v", got, err)
	}
	if got, err := countMembers("GSE9", map[string]int64{"GSM1_a.txt.gz": 1}); got != nil || err != nil {
		t.Errorf("one sample's table is not a count table of a series: %v, %v", got, err)
	}
}
