// Package genes knows human gene symbols across annotation vintages: the current HGNC
// symbol of a previous or alias symbol (SEPT7 is SEPTIN7 now, MARCH1 MARCHF1, KIAA0101
// PCLAF), from a table shipped with Steadfast (data/hs_aliases.tsv.gz, built by
// scripts/build-aliases.R from Bioconductor's org.Hs.eg.db; NCBI Gene data, public
// domain).
package genes

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"slices"
	"strings"
	"sync"
)

//go:embed data/hs_aliases.tsv.gz
var aliasesGz []byte

// Table maps symbols to current symbols.
type Table struct {
	Source  string              // the table's first comment line: its source and version
	current map[string]string   // current symbol, upper case -> as spelt
	alias   map[string][]string // previous or alias symbol, upper case -> current symbols
}

// Human is the shipped human table, read once.
var Human = sync.OnceValue(func() *Table {
	t, err := parse(aliasesGz)
	if err != nil {
		panic("genes: the shipped alias table is damaged: " + err.Error()) // caught by the tests
	}
	return t
})

func parse(gz []byte) (*Table, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	t := &Table{current: map[string]string{}, alias: map[string][]string{}}
	bySymbolID := map[string]string{} // entrez -> current symbol
	type pair struct{ alias, id string }
	var aliases []pair
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			if t.Source == "" {
				t.Source = strings.TrimSpace(strings.TrimPrefix(line, "#"))
			}
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			continue
		}
		switch f[0] {
		case "S":
			t.current[strings.ToUpper(f[1])] = f[1]
			bySymbolID[f[2]] = f[1]
		case "A":
			aliases = append(aliases, pair{f[1], f[2]})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, a := range aliases {
		cur, ok := bySymbolID[a.id]
		if !ok {
			continue
		}
		k := strings.ToUpper(a.alias)
		if !slices.Contains(t.alias[k], cur) {
			t.alias[k] = append(t.alias[k], cur)
		}
	}
	for _, v := range t.alias {
		slices.Sort(v)
	}
	return t, nil
}

// Current is the current symbol of s: s itself (as the table spells it) when it is a
// current symbol, else the one current symbol its alias names; ok is false for a
// symbol the table does not know, and for an ambiguous alias, whose candidates are
// returned in ambiguous (never guessed).
func (t *Table) Current(s string) (cur string, ambiguous []string, ok bool) {
	k := strings.ToUpper(strings.TrimSpace(s))
	if c, found := t.current[k]; found {
		return c, nil, true
	}
	switch a := t.alias[k]; len(a) {
	case 0:
		return "", nil, false
	case 1:
		return a[0], nil, true
	default:
		return "", a, false
	}
}
