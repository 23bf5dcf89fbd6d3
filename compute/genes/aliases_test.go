package genes

import (
	"slices"
	"strings"
	"testing"
)

// The shipped table turns the renamed genes of the issue into their current symbols
// (HGNC: SEPT7 -> SEPTIN7, MARCH1 -> MARCHF1, KIAA0101 -> PCLAF), keeps a current symbol
// as it is (even one that is also another gene's alias), names an ambiguous alias's candidates without guessing, and says its source.
func TestCurrentSymbols(t *testing.T) {
	h := Human()
	for alias, want := range map[string]string{"SEPT7": "SEPTIN7", "MARCH1": "MARCHF1", "KIAA0101": "PCLAF", "TP53": "TP53", "sept7": "SEPTIN7"} {
		if got, amb, ok := h.Current(alias); !ok || got != want {
			t.Errorf("%s: %q (ambiguous %q, %v), want %s", alias, got, amb, ok, want)
		}
	}
	amb := 0
	for k, v := range h.alias {
		if _, isCurrent := h.current[k]; len(v) > 1 && !isCurrent { // a current symbol is itself
			amb++
			if _, cands, ok := h.Current(k); ok || !slices.Equal(cands, v) {
				t.Fatalf("%s: ambiguous among %q, but Current gave ok %v, %q", k, v, ok, cands)
			}
		}
	}
	if amb == 0 {
		t.Error("no ambiguous alias: the table lost its duplicates")
	}
	if _, _, ok := h.Current("NOT_A_GENE_1"); ok {
		t.Error("an unknown symbol was known")
	}
	if !strings.Contains(h.Source, "org.Hs.eg.db 3.16.0") || len(h.current) < 60000 {
		t.Errorf("source %q, %d current symbols", h.Source, len(h.current))
	}
}
