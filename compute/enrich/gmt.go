package enrich

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// GMT limits: the file's size, and a set's genes.
const (
	maxGMTBytes = 256 << 20
	maxSetGenes = 50_000
)

// ReadGMT reads a gene-set file in GMT format (MSigDB, Reactome, WikiPathways): a set a
// line, its name, a description and its gene symbols, tab-separated. Sets of fewer than
// minSize or more than maxSize genes are left out, as the shipped GO's are; a line
// without a gene, a duplicated set name or an oversized file is refused with its line.
func ReadGMT(path string, minSize, maxSize int) (*Collection, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > maxGMTBytes {
		return nil, fmt.Errorf("%s: %d MB; a gene-set file of more than %d MB is not read", path, st.Size()>>20, maxGMTBytes>>20)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(path)
	c := &Collection{Name: name, Source: name, Species: "as the file's gene symbols are (said by its source, not by Steadfast)"}
	gene := map[string]int{}
	names := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for line := 1; sc.Scan(); line++ {
		l := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Split(l, "\t")
		if len(f) < 3 {
			return nil, fmt.Errorf("%s, line %d: a set needs a name, a description and its genes, separated by tabs; this line has %d fields", name, line, len(f))
		}
		id := strings.TrimSpace(f[0])
		if at, dup := names[id]; dup {
			return nil, fmt.Errorf("%s, line %d: the set %q was already given on line %d", name, line, id, at)
		}
		names[id] = line
		if len(f)-2 > maxSetGenes {
			return nil, fmt.Errorf("%s, line %d: %d genes in one set; at most %d", name, line, len(f)-2, maxSetGenes)
		}
		s := Set{ID: id, Name: strings.TrimSpace(f[1])}
		seen := map[int]bool{}
		for _, g := range f[2:] {
			g = strings.TrimSpace(g)
			if g == "" {
				continue
			}
			k := strings.ToUpper(g)
			i, ok := gene[k]
			if !ok {
				i = len(c.Genes)
				gene[k] = i
				c.Genes = append(c.Genes, g)
			}
			if !seen[i] {
				seen[i] = true
				s.Genes = append(s.Genes, i)
			}
		}
		if len(s.Genes) == 0 {
			return nil, fmt.Errorf("%s, line %d: the set %q has no gene", name, line, id)
		}
		if len(s.Genes) >= minSize && len(s.Genes) <= maxSize {
			c.Sets = append(c.Sets, s)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(c.Sets) == 0 {
		return nil, fmt.Errorf("%s: no set of %d to %d genes", name, minSize, maxSize)
	}
	return c, nil
}
