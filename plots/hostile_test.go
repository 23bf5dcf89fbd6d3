package plots

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/font"
)

// TestPDFTakesNamesOutsideTheBasicPlane: feature names with an emoji, a CJK extension B
// ideograph and mathematical letters (as GEO and spreadsheets bring) are written into
// the report PDF and every figure's PDF; the PDF library had panicked ("index out of
// range [65536]") on any character beyond U+FFFF. Such a character is drawn as U+FFFD;
// the rest of the name, Chinese included (from the fallback font), is in the text layer
// as itself (read back with Ghostscript).
func TestPDFTakesNamesOutsideTheBasicPlane(t *testing.T) {
	res := smallResult(t)
	for i := range res.Data.Features {
		res.Data.Features[i] = fmt.Sprintf("Ünïcödé-γ-数据-😀-𠀀-𝔊%d", i)
	}
	res.Methods[0].Label = "F-statistic 😀"
	dir := t.TempDir()
	var b bytes.Buffer
	if err := ReportPDF(&b, res); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "report.pdf")
	os.WriteFile(path, b.Bytes(), 0o644)
	txt, err := exec.Command("gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=txtwrite", "-o", "-", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	// (Ghostscript lists the text of each font apart: the Latin, the fallback's Chinese)
	for _, want := range []string{"Ünïcödé-γ-", "数据", "-\uFFFD-\uFFFD-\uFFFD", "F-statistic \uFFFD"} {
		if !strings.Contains(string(txt), want) {
			t.Errorf("the PDF's text lacks %q", want)
		}
	}
	for _, f := range All(res) {
		if _, err := Export(f, dir, []string{"pdf"}, ExportOptions{Width: 400, Height: 300}); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
	}
}

// TestPDFReportOfAVeryLongNameEnds: a feature named by 20,000 characters is wrapped
// into the report PDF whole (its characters all in the text layer). Cutting the word
// had measured every head of it for every line, cubic in its length: the report ran
// for over 95 minutes. The limit only guards against such a hang.
func TestPDFReportOfAVeryLongNameEnds(t *testing.T) {
	res := smallResult(t)
	long := strings.Repeat("x", 20000)
	for i := range res.Data.Features {
		res.Data.Features[i] = fmt.Sprintf("%s%d", long, i)
	}
	done := make(chan error, 1)
	var b bytes.Buffer
	go func() { done <- ReportPDF(&b, res) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Minute):
		t.Fatal("the report still runs after 5 minutes: a hang")
	}
	face := font.DefaultCache.Lookup(font.Font{Typeface: "Liberation", Variant: "Sans", Size: 8.5}, 8.5)
	lines := wrap(long+" tail", face, 300)
	if got := strings.ReplaceAll(strings.Join(lines, ""), " ", ""); got != long+"tail" {
		t.Errorf("wrap lost characters: %d of %d", len(got), len(long)+4)
	}
	for _, l := range lines[:len(lines)-1] {
		if face.Width(l) > 300 {
			t.Fatalf("a line of %.1f pt is wider than 300 pt", face.Width(l).Points())
		}
	}
}

// TestReportsStopWhenCancelled: both report writers return the context's error, not a
// report, once it is cancelled (a signal stops the command that writes them).
func TestReportsStopWhenCancelled(t *testing.T) {
	res := smallResult(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var b bytes.Buffer
	if err := ReportPDFWith(ctx, &b, res, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("PDF: %v", err)
	}
	if err := ReportWith(ctx, &b, res, nil, ExportOptions{Width: 400, Height: 300}); !errors.Is(err, context.Canceled) {
		t.Errorf("HTML: %v", err)
	}
}
