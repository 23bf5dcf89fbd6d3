// Package enrich tests what a gene signature means: over-representation of its genes
// in gene sets (the Gene Ontology shipped with Steadfast, or any GMT file), against the
// genes the platform measured.
package enrich

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"steadfast/compute/genes"
	"steadfast/compute/signature"
)

//go:embed data/go_hs.tsv.gz
var goGz []byte

// Collection is a set of gene sets over genes named by symbol.
type Collection struct {
	Name, Source, Species string
	Genes                 []string // symbols; Set.Genes index them
	Sets                  []Set
}

// Set is one gene set: its id, its ontology (GO's BP, MF, CC; "" for a GMT set), its
// name and its genes (indices into Collection.Genes, ascending).
type Set struct {
	ID, Ontology, Name string
	Genes              []int
}

// GO is the human Gene Ontology shipped with Steadfast (data/go_hs.tsv.gz, built by
// scripts/build-go.R): every term of the three ontologies with 10 to 500 genes, its
// genes propagated from its descendants. Read once.
var GO = sync.OnceValue(func() *Collection {
	c, err := parseGO(goGz)
	if err != nil {
		panic("enrich: the shipped GO table is damaged: " + err.Error()) // caught by the tests
	}
	return c
})

func parseGO(gz []byte) (*Collection, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	c := &Collection{Name: "GO", Species: "human (Homo sapiens)"}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			if c.Source == "" {
				c.Source = strings.TrimSpace(strings.TrimPrefix(line, "#"))
			}
			continue
		}
		f := strings.Split(line, "\t")
		switch {
		case f[0] == "G" && len(f) == 3:
			c.Genes = append(c.Genes, f[2])
		case f[0] == "T" && len(f) == 5:
			s := Set{ID: f[1], Ontology: f[2], Name: f[3]}
			at := 0
			for _, d := range strings.Split(f[4], ",") {
				k, err := strconv.Atoi(d)
				if err != nil {
					return nil, fmt.Errorf("term %s: %v", s.ID, err)
				}
				at += k
				if at < 0 || at >= len(c.Genes) {
					return nil, fmt.Errorf("term %s: gene %d of %d", s.ID, at, len(c.Genes))
				}
				s.Genes = append(s.Genes, at)
			}
			c.Sets = append(c.Sets, s)
		default:
			return nil, fmt.Errorf("a line of %d fields: %.40q", len(f), line)
		}
	}
	return c, sc.Err()
}

// Ontology is the collection's sets of one GO ontology (BP, MF or CC).
func (c *Collection) Ontology(o string) *Collection {
	out := &Collection{Name: c.Name + " " + o, Source: c.Source, Species: c.Species, Genes: c.Genes}
	for _, s := range c.Sets {
		if s.Ontology == o {
			out.Sets = append(out.Sets, s)
		}
	}
	return out
}

// Term is one set's over-representation among the selected genes: of the universe's N
// genes, M are in the set; of the n selected, X are, the selected genes Genes; P =
// P(hypergeometric >= X), one-sided, and Q its Benjamini-Hochberg adjustment over the
// sets tested.
type Term struct {
	Set           *Set
	M, X          int
	P, Q          float64
	Genes         []string
	Ratio, Ratio0 float64 // X/n and M/N
	// Stability is the share of resamples whose own selection makes the term
	// significant (see Universe.Stability); NaN without resamples.
	Stability float64
}

// Result is an over-representation analysis: the universe (the measured genes that have
// an annotation in the collection), the selected genes in it, the terms tested (those
// with a universe gene), by P, and what was not used.
type Result struct {
	Collection   *Collection
	N, n         int
	Terms        []Term
	NotAnnotated []string // selected genes with no set in the collection
	Renamed      int      // symbols matched through the alias table
	UniverseNote string
	Resamples    int // the resamples Stability counted over, 0 none
}

// Selected is the number of selected genes in the universe.
func (r *Result) Selected() int { return r.n }

// Universe is a collection's genes the platform measured that have an annotation in
// it: the background of every test.
type Universe struct {
	c       *Collection
	index   map[string]int
	in      []bool
	N       int
	Renamed int // measured symbols matched through the alias table
}

// NewUniverse takes the measured symbols (the platform's genes: probes collapse to
// their symbols; "A /// B" gives both; a symbol the collection spells otherwise is
// matched through its current symbol, genes.Human) that have any set in c.
func NewUniverse(c *Collection, measured []string) *Universe {
	u := &Universe{c: c, index: make(map[string]int, len(c.Genes)), in: make([]bool, len(c.Genes))}
	annotated := make([]bool, len(c.Genes))
	for _, s := range c.Sets {
		for _, g := range s.Genes {
			annotated[g] = true
		}
	}
	for i, g := range c.Genes {
		if annotated[i] {
			u.index[strings.ToUpper(g)] = i
		}
	}
	for _, m := range measured {
		if i, renamed, ok := u.lookup(m); ok && !u.in[i] {
			u.in[i] = true
			u.N++
			if renamed {
				u.Renamed++
			}
		}
	}
	return u
}

// Gene is the collection gene a measured symbol names (directly, or through its current
// symbol), whether or not it is in the universe.
func (u *Universe) Gene(sym string) (int, bool) {
	i, _, ok := u.lookup(sym)
	return i, ok
}

// lookup finds a symbol's annotated gene, directly or through its current symbol.
func (u *Universe) lookup(sym string) (i int, renamed, ok bool) {
	for _, t := range strings.Split(sym, "///") {
		t = strings.ToUpper(strings.TrimSpace(t))
		if t == "" {
			continue
		}
		if i, ok := u.index[t]; ok {
			return i, false, true
		}
		if cur, _, ok := genes.Human().Current(t); ok {
			if i, ok := u.index[strings.ToUpper(cur)]; ok {
				return i, true, true
			}
		}
	}
	return 0, false, false
}

// ORA tests every set of c for over-representation of the selected symbols among the
// measured ones (NewUniverse). A selected gene outside the universe is named, never
// counted.
func ORA(c *Collection, selected, measured []string) *Result {
	return NewUniverse(c, measured).Test(selected)
}

// Test tests every set with a universe gene for over-representation of selected.
func (u *Universe) Test(selected []string) *Result {
	c := u.c
	r := &Result{Collection: c, N: u.N, Renamed: u.Renamed}
	chosen := map[int]bool{}
	for _, s := range selected {
		if i, _, ok := u.lookup(s); ok && u.in[i] {
			chosen[i] = true
		} else if strings.TrimSpace(s) != "" {
			r.NotAnnotated = append(r.NotAnnotated, s)
		}
	}
	r.n = len(chosen)
	r.UniverseNote = fmt.Sprintf("the universe: the %d genes the platform measured that have an annotation in %s", r.N, c.Name)
	var ps []float64
	for si := range c.Sets {
		s := &c.Sets[si]
		t := Term{Set: s, Stability: math.NaN()}
		for _, g := range s.Genes {
			if u.in[g] {
				t.M++
				if chosen[g] {
					t.X++
					t.Genes = append(t.Genes, c.Genes[g])
				}
			}
		}
		if t.M == 0 {
			continue
		}
		sort.Strings(t.Genes)
		t.P = HyperUpper(t.X, t.M, r.N, r.n)
		if r.n > 0 {
			t.Ratio = float64(t.X) / float64(r.n)
		}
		t.Ratio0 = float64(t.M) / float64(r.N)
		r.Terms = append(r.Terms, t)
		ps = append(ps, t.P)
	}
	for i, q := range signature.BH(ps) {
		r.Terms[i].Q = q
	}
	sort.SliceStable(r.Terms, func(a, b int) bool {
		if r.Terms[a].P != r.Terms[b].P {
			return r.Terms[a].P < r.Terms[b].P
		}
		return r.Terms[a].Set.ID < r.Terms[b].Set.ID
	})
	return r
}

// HyperUpper is P(X >= x) for X hypergeometric: x or more of a set of m among n drawn
// from N without replacement, R's phyper(x - 1, m, N - m, n, lower.tail = FALSE):
// the terms from x up, each from the previous by t(k+1)/t(k) = (m-k)(n-k) / ((k+1)(N-m-n+k+1)),
// the first from log-gamma functions, summed from the smallest.
func HyperUpper(x, m, N, n int) float64 {
	lo, hi := max(0, n-(N-m)), min(m, n)
	if x <= lo {
		return 1
	}
	if x > hi {
		return 0
	}
	lchoose := func(a, b int) float64 {
		la, _ := math.Lgamma(float64(a + 1))
		lb, _ := math.Lgamma(float64(b + 1))
		lc, _ := math.Lgamma(float64(a - b + 1))
		return la - lb - lc
	}
	first := math.Exp(lchoose(m, x) + lchoose(N-m, n-x) - lchoose(N, n))
	terms := []float64{1}
	t := 1.0
	for k := x; k < hi; k++ {
		t *= float64(m-k) * float64(n-k) / (float64(k+1) * float64(N-m-n+k+1))
		terms = append(terms, t)
	}
	sum := 0.0
	for i := len(terms) - 1; i >= 0; i-- {
		sum += terms[i]
	}
	return math.Min(1, first*sum)
}

// Stability adds to r, for each term, the share of resamples whose own selection
// (resamples[i], symbols) makes the term significant at q < Alpha in the same universe:
// how much the term's enrichment depends on which samples chose the genes.
func (u *Universe) Stability(r *Result, resamples [][]string) {
	if len(resamples) == 0 {
		return
	}
	hits := map[string]int{}
	for _, sel := range resamples {
		for _, t := range u.Test(sel).Terms {
			if t.Q < Alpha {
				hits[t.Set.ID]++
			}
		}
	}
	r.Resamples = len(resamples)
	for i := range r.Terms {
		r.Terms[i].Stability = float64(hits[r.Terms[i].Set.ID]) / float64(len(resamples))
	}
}

// Alpha is the false discovery rate at which a term counts as enriched.
const Alpha = 0.05
