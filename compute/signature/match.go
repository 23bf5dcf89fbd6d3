package signature

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/genes"
	"steadfast/internal/text"
)

// Match is how one model gene was found in the cohort: By "id" (the same feature id),
// "symbol" (the cohort's features of its gene symbol, Probes of them averaged) or ""
// (not found).
type Match struct {
	ID, Symbol string
	By         string // "id", "symbol", "alias" (through the current symbol), "" missing
	Probes     []string
	// Current is the current symbol the gene was matched through (By "alias");
	// Ambiguous the current symbols its own symbol may mean, when it was not matched
	// because of that.
	Current   string
	Ambiguous []string
}

// Found is the number of signature genes found in the cohort.
func (v *Validation) Found() int { return len(v.Matches) - len(v.missing()) }

// missing are the model genes not found in the cohort, named.
// bySymbolAdvice says how the missing genes could still be found: by the cohort's
// annotation when it has none, else why symbols do not find them (the genes have no
// symbol in the training annotation, or the cohort has none of their symbols).
func (v *Validation) bySymbolAdvice(cohortSymbols bool) string {
	var noSymbol, absent int
	for _, mt := range v.Matches {
		switch {
		case mt.By != "":
		case mt.Symbol == "":
			noSymbol++
		default:
			absent++
		}
	}
	switch {
	case !cohortSymbols && absent > 0:
		return ", or give the cohort's annotation (--symbols FILE, or Gene symbols in the dialog) to match them by gene symbol"
	case !cohortSymbols:
		return "; matching by symbol cannot help: the training annotation gives " + text.Plural(noSymbol, "this gene|these genes") + " no symbol"
	case noSymbol == 0:
		return "; the cohort's annotation was used, and none of its probes carries " + text.Plural(absent, "this gene's symbol|these genes' symbols")
	}
	return fmt.Sprintf("; the cohort's annotation was used: %d of the missing genes %s no symbol in the training annotation, and the cohort's probes carry none of the others' symbols", noSymbol, text.Plural(noSymbol, "has|have"))
}

func (v *Validation) missing() []string {
	var out []string
	for _, mt := range v.Matches {
		if mt.By == "" {
			out = append(out, geneName(mt))
		}
	}
	return out
}

// MatchGenes matches each of m's genes to the cohort's features: by id, else by gene
// symbol (every cohort feature one of whose symbols is the gene's first symbol).
func MatchGenes(m *Model, ids, symbols []string) []Match {
	byID := make(map[string]int, len(ids))
	for j, id := range ids {
		byID[id] = j
	}
	bySym := map[string][]int{}
	for j, s := range symbols {
		for _, t := range symbolTokens(s) {
			bySym[t] = append(bySym[t], j)
		}
	}
	out := make([]Match, len(m.Genes))
	var byCur map[string][]int // current symbol -> cohort features, made when needed
	for g, gene := range m.Genes {
		mt := Match{ID: gene.ID, Symbol: gene.Symbol}
		if j, ok := byID[gene.ID]; ok {
			mt.By, mt.Probes = "id", []string{ids[j]}
		} else if t := symbolTokens(gene.Symbol); len(t) > 0 && len(bySym[t[0]]) > 0 {
			mt.By = "symbol"
			for _, j := range bySym[t[0]] {
				mt.Probes = append(mt.Probes, ids[j])
			}
			sort.Strings(mt.Probes) // the cohort's feature order does not matter
		} else if len(t) > 0 {
			byAlias(&mt, t[0], ids, symbols, &byCur)
		}
		out[g] = mt
	}
	return out
}

// aliasNotes says which genes were found through the alias table, and which were not
// because their symbol is an ambiguous alias.
func (v *Validation) aliasNotes() {
	var via, amb []string
	for _, mt := range v.Matches {
		switch {
		case mt.By == "alias":
			via = append(via, mt.Symbol+" = "+mt.Current)
		case mt.By == "" && len(mt.Ambiguous) > 0:
			amb = append(amb, fmt.Sprintf("%s (%s)", mt.Symbol, strings.Join(mt.Ambiguous, " or ")))
		}
	}
	if len(via) > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("%s matched by current symbol through the alias table (%s): %s", text.Count(len(via), "gene"), genes.Human().Source, listSome(via, 8)))
	}
	if len(amb) > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("%s not matched: an alias of several current genes, not guessed: %s", text.Count(len(amb), "symbol"), listSome(amb, 8)))
	}
}

// byAlias matches a gene by its current symbol (genes.Human): the cohort's symbols
// turned into current ones too, once (byCur), so SEPT7 finds SEPTIN7 and the reverse.
// An alias naming several current genes is not guessed: mt keeps the candidates.
func byAlias(mt *Match, sym string, ids, symbols []string, byCur *map[string][]int) {
	h := genes.Human()
	cur, amb, ok := h.Current(sym)
	if !ok {
		mt.Ambiguous = amb
		return
	}
	if *byCur == nil {
		*byCur = map[string][]int{}
		for j, s := range symbols {
			for _, t := range symbolTokens(s) {
				if c, _, ok := h.Current(t); ok {
					(*byCur)[c] = append((*byCur)[c], j)
				}
			}
		}
	}
	if js := (*byCur)[cur]; len(js) > 0 {
		mt.By, mt.Current = "alias", cur
		for _, j := range js {
			mt.Probes = append(mt.Probes, ids[j])
		}
		sort.Strings(mt.Probes)
	}
}

// symbolTokens are a symbol cell's symbols ("DDR1 /// MIR4640"), upper-cased.
func symbolTokens(s string) []string {
	var out []string
	for _, t := range strings.Split(s, "///") {
		if t = strings.ToUpper(strings.TrimSpace(t)); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// values returns the cohort's values of the model genes (n x genes; NaN for a gene not
// found), probes of one gene averaged over those with a value, standardised within the
// cohort when asked.
func (v *Validation) values(c *Cohort) *mat.Dense {
	n, _ := c.X.Dims()
	col := make(map[string]int, len(c.Features))
	for j, f := range c.Features {
		col[f] = j
	}
	x := mat.NewDense(n, len(v.Matches), nil)
	averaged := 0
	for g, mt := range v.Matches {
		if len(mt.Probes) > 1 {
			averaged++
		}
		for i := 0; i < n; i++ {
			sum, k := 0.0, 0
			for _, p := range mt.Probes {
				if val := c.X.At(i, col[p]); !math.IsNaN(val) && !math.IsInf(val, 0) {
					sum, k = sum+val, k+1
				}
			}
			val := math.NaN()
			if k > 0 {
				val = sum / float64(k)
			}
			x.Set(i, g, val)
		}
	}
	if averaged > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("%d signature genes matched by symbol to several probes of the cohort: each sample's value is the mean of those probes (after the model's preprocessing)", averaged))
	}
	return x
}

// present are column j's values that are not missing.
func present(x *mat.Dense, j int) []float64 {
	n, _ := x.Dims()
	var vals []float64
	for i := 0; i < n; i++ {
		if val := x.At(i, j); !math.IsNaN(val) {
			vals = append(vals, val)
		}
	}
	return vals
}

// geneName is m's GeneName.
func geneName(m Match) string { return GeneName(m.ID, m.Symbol) }

// GeneName is "id (symbol)", or the id when the symbol is unknown or the id itself:
// "1007_s_at (DDR1)".
func GeneName(id, symbol string) string {
	if symbol != "" && symbol != id {
		return id + " (" + symbol + ")"
	}
	return id
}
