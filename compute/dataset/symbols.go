package dataset

import (
	"fmt"
	"path/filepath"
	"strings"
)

// symbolHeaders name a symbol column in an annotation table (a GEO platform table, a
// GCT's row metadata).
var symbolHeaders = []string{"gene symbol", "gene_symbol", "symbol", "genesymbol", "gene", "description", "identifier"}

func isSymbolHeader(s string) bool { return oneOf(s, symbolHeaders) }

// cleanSymbol keeps the first of several symbols ("DDR1 /// MIR4640" -> "DDR1") and
// drops placeholders.
func cleanSymbol(s string) string {
	s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), `"`))
	if i := strings.Index(s, "///"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	switch strings.ToLower(s) {
	case "", "na", "---", "-", "null":
		return ""
	}
	return s
}

// ReadSymbols reads a probe-to-symbol annotation: two columns (id, symbol), or a table
// whose header names an ID column and a symbol column (a GEO platform table: "ID" and
// "Gene Symbol"; a GEO .annot or SOFT file's platform table; a GDS's ID_REF and
// IDENTIFIER); tab- or comma-separated; lines starting with #, ! or ^ are skipped.
func ReadSymbols(path string) (map[string]string, error) {
	b, err := ReadLimited(path, MaxFileSize)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(path)
	if b, _, err = gunzip(name, b, MaxFileSize); err != nil {
		return nil, err
	}
	b, _ = toUTF8(b)
	ls, _, err := lines(name, b)
	if err != nil {
		return nil, err
	}
	rows := annotationRows(ls)
	if len(rows) == 0 {
		return nil, &ParseError{File: name, Msg: "holds no annotation lines"}
	}
	sep := detectSep(rows)
	head := splitFields(rows[0], sep)
	idCol, symCol, start := 0, 1, 0
	named := false
	for j, h := range head {
		switch h = strings.TrimSpace(strings.Trim(h, `"`)); {
		case strings.EqualFold(h, "ID") || strings.EqualFold(h, "ID_REF") || strings.EqualFold(h, "probe"):
			idCol, start = j, 1
		case isSymbolHeader(h) && !named:
			symCol, start, named = j, 1, true
		}
	}
	if len(head) < 2 {
		return nil, &ParseError{File: name, Line: 1, Msg: "needs two columns: a feature id and its gene symbol"}
	}
	out := map[string]string{}
	for _, l := range rows[start:] {
		f := splitFields(l, sep)
		if len(f) <= max(idCol, symCol) {
			continue
		}
		if sym := cleanSymbol(f[symCol]); sym != "" {
			out[strings.Trim(f[idCol], `"`)] = sym
		}
	}
	if len(out) == 0 {
		return nil, &ParseError{File: name, Msg: fmt.Sprintf("no symbols found in column %d (%q)", symCol+1, head[symCol])}
	}
	return out, nil
}

// SetSymbols gives the features their symbols from an annotation and returns how many
// were found.
func (d *Dataset) SetSymbols(sym map[string]string) int {
	d.Symbols = make([]string, len(d.Features))
	found := 0
	for j, f := range d.Features {
		if s, ok := sym[f]; ok {
			d.Symbols[j] = s
			found++
		}
	}
	return found
}

// setGenes names the features (duplicates renamed, with a note) and, when the
// descriptions say more than the names, takes them as gene symbols.
func (d *Dataset) setGenes(names, descs []string) {
	if described(descs, names) {
		d.Symbols = descs
	}
	note, uniq := uniqueNames(names, "gene")
	d.Features = uniq
	if note != "" {
		d.Notes = append(d.Notes, note)
	}
}

// annotationRows keeps the table lines of an annotation file: those between a SOFT
// file's !..._table_begin and !..._table_end when it has them, else every line that is
// not blank or a #, ! or ^ header line.
func annotationRows(ls []string) []string {
	for i, l := range ls {
		if strings.HasPrefix(l, "!") && strings.HasSuffix(strings.TrimSpace(l), "_table_begin") {
			end := len(ls)
			for k := i + 1; k < len(ls); k++ {
				if strings.HasPrefix(ls[k], "!") && strings.HasSuffix(strings.TrimSpace(ls[k]), "_table_end") {
					end = k
					break
				}
			}
			ls = ls[i+1 : end]
			break
		}
	}
	var rows []string
	for _, l := range ls {
		if t := strings.TrimSpace(l); t != "" && t[0] != '#' && t[0] != '!' && t[0] != '^' {
			rows = append(rows, l)
		}
	}
	return rows
}
