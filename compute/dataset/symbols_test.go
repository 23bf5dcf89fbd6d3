package dataset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSymbolColumnChosenByHeader: the symbol column is the one whose header names
// symbols best, wherever it stands (an Agilent table's GENE column holds Entrez ids; a
// description may come first), the id column is found by its header ("ProbeID" after
// "Symbol"), a probe on two lines keeps both symbols, and the note names the columns.
// Expected symbols read off each table by hand.
func TestSymbolColumnChosenByHeader(t *testing.T) {
	dir := t.TempDir()
	gct := "#1.2\n3\t4\nName\tDescription\ts1\ts2\ts3\ts4\np1\tx\t1\t2\t3\t4\np2\ty\t5\t6\t5\t7\np3\tz\t3\t4\t1\t0\n"
	os.WriteFile(filepath.Join(dir, "x.gct"), []byte(gct), 0o644)
	os.WriteFile(filepath.Join(dir, "x.cls"), []byte("4 2 1\n# A B\n0 0 1 1\n"), 0o644)
	for _, tc := range []struct {
		name, text, want, note string
	}{
		{"agilent", "ID\tGENE\tGENE_SYMBOL\tGENE_NAME\np1\t780\tDDR1\tdiscoidin\np2\t5982\tRFC2\treplication\n", "DDR1,RFC2,", `symbols from column 3 ("GENE_SYMBOL")`},
		{"description first", "ID\tDescription\tGene Symbol\np1\tdiscoidin domain\tDDR1\np3\theat shock\tHSPA6\n", "DDR1,,HSPA6", `symbols from column 3 ("Gene Symbol")`},
		{"symbol before id", "Symbol,ProbeID\nDDR1,p1\nRFC2,p2\nHSPA6,p3\n", "DDR1,RFC2,HSPA6", `ids from column 2 ("ProbeID")`},
		{"probe twice", "ID\tSymbol\np1\tDDR1\np1\tMIR4640\np2\tRFC2\n", "DDR1 /// MIR4640,RFC2,", `symbols from column 2 ("Symbol")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".txt")
			os.WriteFile(path, []byte(tc.text), 0o644)
			ds, err := ReadFile(filepath.Join(dir, "x.gct"), Options{SymbolsPath: path})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(ds.Symbols, ","); got != tc.want {
				t.Errorf("symbols %q, want %q", got, tc.want)
			}
			if notes := strings.Join(ds.Notes, "; "); !strings.Contains(notes, tc.note) {
				t.Errorf("notes %q lack %q", notes, tc.note)
			}
		})
	}
}
