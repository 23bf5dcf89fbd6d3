package plots

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"steadfast/compute/enrich"
	"steadfast/compute/study"
)

// The Meaning dot plot says when no term is significant (it had shown 20 terms, none
// significant, without a word) and how many are when some are; a term's long name is
// wrapped onto lines of at most 40 characters, every word of it kept (names had been cut
// at 45 characters with "..."); the export is tall enough for its rows.
func TestEnrichmentFigureSaysWhatIsSignificant(t *testing.T) {
	long := "regulation of transcription by RNA polymerase II in response to endoplasmic reticulum stress"
	mk := func(qs ...float64) *study.Enrichment {
		r := &enrich.Result{Collection: &enrich.Collection{Name: "GO"}}
		for i, q := range qs {
			r.Terms = append(r.Terms, enrich.Term{Set: &enrich.Set{ID: fmt.Sprint(i), Name: fmt.Sprintf("%s %d", long, i)}, X: 2 + i, M: 20, P: q / 10, Q: q, Ratio: 0.1 * float64(i+1)})
		}
		return &study.Enrichment{Method: "F-statistic", K: 50, Result: r}
	}
	none := EnrichmentFigure("colon.csv", mk(0.3, 0.6, 0.9))
	if !strings.Contains(none.Title, "no term significant (every q >= 0.05)") {
		t.Errorf("no significant term, title %q", none.Title)
	}
	some := EnrichmentFigure("colon.csv", mk(0.001, 0.04, 0.9))
	if !strings.Contains(some.Title, "2 of 3 terms at q < 0.05") {
		t.Errorf("two significant, title %q", some.Title)
	}
	p, err := some.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		lines := strings.Split(tk.Label, "\n")
		if strings.Join(lines, " ") != wrapName(tk.Label, 1000) || strings.Contains(tk.Label, "...") || !strings.HasPrefix(tk.Label, "regulation") {
			t.Errorf("a term's name cut or changed: %q", tk.Label)
		}
		for _, l := range lines {
			if len(l) > termWidth {
				t.Errorf("a line of %d characters: %q", len(l), l)
			}
		}
	}
	if dir := os.Getenv("STEADFAST_FIGURES"); dir != "" {
		Export(none, dir, []string{"png", "pdf"}, ExportOptions{Width: 16 * 28.35, Height: 10 * 28.35, DPI: 150})
	}
}
