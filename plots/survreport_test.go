package plots

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/study"
)

// The report of a survival signature (DLBCL CHOP, the Cox score test under 2 x 5-fold
// CV, 10 genes): its methods paragraph names the Cox model, its ridge penalty and
// Harrell's C with their references; REMARK's checklist; the figures (Kaplan-Meier,
// forest, calibration, heat map); numbers to at most 6 significant digits (the CSVs
// keep every digit); no symbol column for data without symbols. The PDF is written
// too. The data missing fails the test.
func TestSurvivalReport(t *testing.T) {
	ds, err := dataset.ReadFile(dlbclPath, dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	cfg := experiment.DefaultSurvivalConfig()
	cfg.Repeats, cfg.Folds, cfg.Ks = 2, 5, []int{10}
	res, err := experiment.Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := study.BuildSurvivalSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 10}, study.SurvivalOptions{Unit: "years"})
	if err != nil {
		t.Fatal(err)
	}
	var html bytes.Buffer
	if err := SurvivalReportWith(context.Background(), &html, res, s, nil, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	h := html.String()
	for _, want := range []string{"proportional-hazards", "Harrell", "REMARK", "Kaplan-Meier", "Cox DR", "The locked Cox model, to 6 significant digits"} {
		if !strings.Contains(h, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(h, "<th>symbol</th>") {
		t.Error("a symbol column for data without symbols")
	}
	// every decimal number in a table cell has at most 6 significant digits
	for _, m := range regexp.MustCompile(`<td>-?(\d*\.\d+)(e[-+]\d+)?</td>`).FindAllStringSubmatch(h, -1) {
		digits := strings.TrimLeft(strings.Replace(m[1], ".", "", 1), "0")
		if len(digits) > 6 {
			t.Errorf("a number printed with more than 6 significant digits: %s", m[0])
			break
		}
	}
	if n := strings.Count(h, "<svg"); n < 4 {
		t.Errorf("%d figures in the report, want the Kaplan-Meier, forest, calibration and heat map", n)
	}
	var pdf bytes.Buffer
	if err := SurvivalReportPDFWith(context.Background(), &pdf, res, s, nil); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf.Bytes(), []byte("%PDF")) || pdf.Len() < 10000 {
		t.Errorf("the PDF report: %d bytes", pdf.Len())
	}
}
