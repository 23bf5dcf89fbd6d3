package dataset

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// symbolHeaders name a symbol column in an annotation table (a GEO platform table, a
// GCT's row metadata), best first: a column named for symbols wins over an IDENTIFIER,
// and both over Agilent's GENE (Entrez ids) or a description.
var symbolHeaders = []string{"gene symbol", "gene_symbol", "genesymbol", "symbol", "gene symbols", "hgnc symbol", "hgnc_symbol", "identifier", "gene", "description"}

// idHeaders name the feature-id column of an annotation table.
var idHeaders = []string{"id", "id_ref", "probe", "probeid", "probe_id", "probe id", "probeset", "probeset_id", "probe set id", "probe_set_id", "feature", "feature_id", "spot_id", "name"}

// symbolRank is h's place among symbolHeaders, len(symbolHeaders) when it is none.
func symbolRank(h string) int {
	h = strings.TrimSpace(strings.Trim(strings.TrimSpace(h), `"`))
	for i, s := range symbolHeaders {
		if strings.EqualFold(h, s) {
			return i
		}
	}
	return len(symbolHeaders)
}

// bestSymbolColumn returns the index of the header that names symbols best, -1 when
// none does.
func bestSymbolColumn(head []string) int {
	best, rank := -1, len(symbolHeaders)
	for j, h := range head {
		if r := symbolRank(h); r < rank {
			best, rank = j, r
		}
	}
	return best
}

// cleanSymbol tidies a symbol cell: several symbols ("DDR1 /// MIR4640", "A // B")
// are kept, joined by " /// ", and placeholders ("---", "NA") dropped.
func cleanSymbol(s string) string {
	var parts []string
	for _, p := range strings.Split(strings.ReplaceAll(s, "///", "//"), "//") {
		p = strings.TrimSpace(strings.Trim(strings.TrimSpace(p), `"`))
		switch strings.ToLower(p) {
		case "", "na", "---", "-", "null":
			continue
		}
		if !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " /// ")
}

// joinSymbols adds b's symbols to a's, each once ("A /// B").
func joinSymbols(a, b string) string {
	if a == "" {
		return b
	}
	return cleanSymbol(a + " /// " + b)
}

// ReadSymbols reads a probe-to-symbol annotation: two columns (id, symbol), or a table
// whose header names an ID column and a symbol column (a GEO platform table: "ID" and
// "Gene Symbol"; a GEO .annot or SOFT file's platform table; a GDS's ID_REF and
// IDENTIFIER; the symbol column chosen by symbolHeaders' order); tab- or
// comma-separated; lines starting with #, ! or ^ are skipped. A probe given several
// symbols (in one cell or on several lines) gets them all, joined by " /// ". It also
// says which columns it used.
func ReadSymbols(path string) (map[string]string, string, error) {
	b, err := ReadLimited(path, MaxFileSize)
	if err != nil {
		return nil, "", err
	}
	name := filepath.Base(path)
	if b, _, err = gunzip(name, b, MaxFileSize); err != nil {
		return nil, "", err
	}
	b, _ = toUTF8(b)
	ls, _, err := lines(name, b)
	if err != nil {
		return nil, "", err
	}
	rows := annotationRows(ls)
	if len(rows) == 0 {
		return nil, "", &ParseError{File: name, Msg: "holds no annotation lines"}
	}
	sep := detectSep(rows)
	head := splitFields(rows[0], sep)
	if len(head) < 2 {
		return nil, "", &ParseError{File: name, Line: 1, Msg: "needs two columns: a feature id and its gene symbol"}
	}
	idCol, symCol, start := symbolColumns(head)
	out := map[string]string{}
	for _, l := range rows[start:] {
		f := splitFields(l, sep)
		if len(f) <= max(idCol, symCol) {
			continue
		}
		if sym := cleanSymbol(f[symCol]); sym != "" {
			id := strings.TrimSpace(strings.Trim(f[idCol], `"`))
			out[id] = joinSymbols(out[id], sym)
		}
	}
	if len(out) == 0 {
		return nil, "", &ParseError{File: name, Msg: fmt.Sprintf("no symbols found in column %d (%q)", symCol+1, head[symCol])}
	}
	used := fmt.Sprintf("ids from column %d, symbols from column %d", idCol+1, symCol+1)
	if start == 1 {
		used = fmt.Sprintf("ids from column %d (%q), symbols from column %d (%q)", idCol+1, unquote(head[idCol]), symCol+1, unquote(head[symCol]))
	}
	return out, used, nil
}

// symbolColumns chooses the id and symbol columns from a header and says whether it
// is one (start 1) or already a data line (start 0: column 1 ids, column 2 symbols).
func symbolColumns(head []string) (idCol, symCol, start int) {
	symCol = bestSymbolColumn(head)
	idCol = -1
	for j, h := range head {
		if j != symCol && oneOf(strings.Trim(strings.TrimSpace(h), `"`), idHeaders) {
			idCol = j
			break
		}
	}
	switch {
	case symCol < 0 && idCol < 0:
		return 0, 1, 0
	case symCol < 0:
		return idCol, map[bool]int{true: 1, false: 0}[idCol == 0], 1
	case idCol < 0:
		return map[bool]int{true: 1, false: 0}[symCol == 0], symCol, 1
	}
	return idCol, symCol, 1
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
