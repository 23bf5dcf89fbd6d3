package dataset

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The estimate, worked by hand for a 3-line table of 3 fields (24 bytes): 2 x 24 + 240 x 3
// + 20 x 9 = 948 bytes.
func TestTextMemoryEstimate(t *testing.T) {
	est, lines, cells := textMemory([]byte("g1,g2,class\n1,2,A\n3,4,B\n"))
	if est != 948 || lines != 3 || cells != 9 {
		t.Errorf("estimate %g for %d lines, %d cells; want 948, 3, 9", est, lines, cells)
	}
	if _, lines, _ := textMemory([]byte("a\tb\nc\td")); lines != 2 {
		t.Errorf("a last line without its end: %d lines", lines)
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A gzipped CSV that inflates far beyond what the machine can read (the 1.5 MB
// that became 1 GB, 170 million rows, and grew the process to 24 GB) is refused part
// way through decompressing, with the estimate. Here a machine of 1 GB is simulated
// (STEADFAST_MEMORY), and 20 million lines (120 MB of text) are refused after
// allocating less than the text itself would take.
func TestGzipBombRefusedPartWay(t *testing.T) {
	t.Setenv("STEADFAST_MEMORY", "1GB")
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	zw.Write([]byte("g1,g2,class\n"))
	line := bytes.Repeat([]byte("1,2,A\n"), 1<<16)
	for written := 0; written < 20_000_000; written += 1 << 16 {
		zw.Write(line)
	}
	zw.Close()
	path := filepath.Join(t.TempDir(), "bomb.csv.gz")
	if err := os.WriteFile(path, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var err error
	used := allocated(func() { _, err = ReadFile(path, Options{}) })
	if err == nil || !strings.Contains(err.Error(), "bomb.csv.gz: reading it (at least") || !strings.Contains(err.Error(), "part way through decompressing") {
		t.Fatalf("the bomb: %v", err)
	}
	if used > 120<<20 {
		t.Errorf("refusing it allocated %d MB, more than its 120 MB of text", used>>20)
	}
}

// A plain text file whose table would take more than the machine can give is refused
// with the estimate before it is parsed: 10,000 lines of three fields take 3.1 MB by
// the estimate, over the 0.75 MB a simulated 1 MB machine gives.
func TestTextTooLargeForMemoryRefused(t *testing.T) {
	t.Setenv("STEADFAST_MEMORY", "1MB")
	path := filepath.Join(t.TempDir(), "big.csv")
	os.WriteFile(path, []byte("g1,g2,class\n"+strings.Repeat("1,2,A\n3,1,B\n", 5000)), 0o644)
	_, err := ReadFile(path, Options{})
	if err == nil || !strings.Contains(err.Error(), "big.csv: reading it (") || !strings.Contains(err.Error(), "10001 lines") || !strings.Contains(err.Error(), "would need about 3 MB") {
		t.Errorf("%v", err)
	}
}

// An XLSX whose sheet inflates to more than this machine may read (the 1 MB
// workbook of 1 GB of blanks took 2.7 GB before its refusal) is refused from the size
// its archive declares, before unzipping: 100 MB of blanks on a simulated 200 MB machine.
func TestXLSXBombRefusedBeforeUnzipping(t *testing.T) {
	t.Setenv("STEADFAST_MEMORY", "200MB")
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for name, body := range map[string]string{
		"[Content_Types].xml":        `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
		"_rels/.rels":                `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		"xl/workbook.xml":            `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
	} {
		w, _ := zw.Create(name)
		w.Write([]byte(body))
	}
	w, _ := zw.Create("xl/worksheets/sheet1.xml")
	w.Write([]byte(`<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`))
	blank := bytes.Repeat([]byte(" "), 1<<20)
	for i := 0; i < 100; i++ {
		w.Write(blank)
	}
	w.Write([]byte(`</sheetData></worksheet>`))
	zw.Close()
	path := filepath.Join(t.TempDir(), "blank.xlsx")
	os.WriteFile(path, b.Bytes(), 0o644)
	var err error
	used := allocated(func() { _, err = ReadFile(path, Options{}) })
	if err == nil || !strings.Contains(err.Error(), "unzips to 105 MB, more than the 75 MB Steadfast reads on this machine") {
		t.Fatalf("the blank sheet: %v", err)
	}
	if used > 20<<20 {
		t.Errorf("refusing it allocated %d MB", used>>20)
	}
}
