package study

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"steadfast/compute/dataset"
	"steadfast/compute/enrich"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/internal/text"
)

// Collection opens the gene sets named: "go" (the three ontologies), "go-bp", "go-mf",
// "go-cc", or a GMT file's path (sets of 10 to 500 genes kept, as GO's).
func Collection(name string) (*enrich.Collection, error) {
	switch strings.ToLower(name) {
	case "go", "":
		return enrich.GO(), nil
	case "go-bp":
		return enrich.GO().Ontology("BP"), nil
	case "go-mf":
		return enrich.GO().Ontology("MF"), nil
	case "go-cc":
		return enrich.GO().Ontology("CC"), nil
	}
	if _, err := os.Stat(name); err != nil && !strings.ContainsAny(name, `/\.`) {
		return nil, fmt.Errorf("%q is neither a gene-set collection (go, go-bp, go-mf, go-cc) nor a GMT file (no file of that name)", name)
	} else if err != nil {
		return nil, fmt.Errorf("gene-set file %s: %v; give a GMT file (MSigDB, Reactome, WikiPathways) or one of the collections go, go-bp, go-mf, go-cc", name, errors.Unwrap(err))
	}
	return enrich.ReadGMT(name, 10, 500)
}

// Enrichment is what a method's top k genes of a run mean: the over-representation of
// the genes it selects on all samples in each set of a collection, against the genes the
// platform measured, with each term's stability over the run's resamples.
type Enrichment struct {
	Method   string
	K        int
	Frequent bool // the genes tested are the K selected most often over the resamples
	*enrich.Result
	// Camera is camera's test of every set over the whole ranking, when it was run
	// (two classes), of CameraPositive against the other class.
	Camera         []CameraTerm
	CameraPositive string
}

// Enrich tests method m's top k genes on all samples of the run res for
// over-representation in c, and each resample's own top k for the terms' stability. The
// run's data must carry gene symbols (the platform's annotation).
func Enrich(res *experiment.Result, m, k int, frequent bool, c *enrich.Collection) (*Enrichment, error) {
	sym := res.Data.Symbols
	if sym == nil {
		return nil, fmt.Errorf("%s has no gene symbols, which gene sets are matched by: add the platform's annotation to the run (the Meaning tab's Gene symbols..., or enrich --symbols FILE); the study need not run again", res.Data.Name)
	}
	if m < 0 || m >= len(res.Methods) {
		return nil, fmt.Errorf("method %d of %d", m, len(res.Methods))
	}
	mr := res.Methods[m]
	if k < 1 || k > len(mr.Reference.Order) {
		return nil, fmt.Errorf("k = %d: the run kept the top %d of %s", k, len(mr.Reference.Order), mr.Label)
	}
	symbols := func(order []int) []string {
		var out []string
		for _, j := range order[:min(k, len(order))] {
			if j >= 0 && j < len(sym) && sym[j] != "" {
				out = append(out, sym[j])
			}
		}
		return out
	}
	u := enrich.NewUniverse(c, sym)
	tested := mr.Reference.Order
	if frequent { // the signature's genes when it took the most frequent ones
		feats, err := signature.Select(res, signature.Choice{Method: m, K: k, Frequent: true})
		if err != nil {
			return nil, err
		}
		tested = feats
	}
	r := u.Test(symbols(tested))
	var runs [][]string
	for _, run := range mr.Runs {
		runs = append(runs, symbols(run.Order))
	}
	u.Stability(r, runs)
	return &Enrichment{Method: mr.Label, K: k, Frequent: frequent, Result: r}, nil
}

// AddSymbols gives the finished run res (and ds, its data, when not nil) the gene
// symbols of the annotation at path (a probe-to-symbol table, as --symbols reads), so
// what its genes mean can be tested without running the study again; it returns how
// many features got a symbol, and refuses an annotation naming none of them.
func AddSymbols(res *experiment.Result, ds *dataset.Dataset, path string) (int, error) {
	sym, used, err := dataset.ReadSymbols(path)
	if err != nil {
		return 0, err
	}
	out := make([]string, len(res.Data.Features))
	found := 0
	for j, f := range res.Data.Features {
		if s, ok := sym[f]; ok {
			out[j] = s
			found++
		}
	}
	if found == 0 {
		return 0, fmt.Errorf("%s (%s) names none of the %d features of %s: is it the annotation of this platform?", filepath.Base(path), used, len(out), res.Data.Name)
	}
	res.Data.Symbols = out
	if ds != nil && slices.Equal(ds.Features, res.Data.Features) {
		ds.SetSymbols(sym)
	}
	return found, nil
}

// TakeSymbols gives the signature's genes, and its locked model's, the symbols of
// their features (symbols[j] of feature j, as AddSymbols gave the run).
func (s *Signature) TakeSymbols(symbols []string) {
	for i := range s.Genes {
		if f := s.Genes[i].Feature; f >= 0 && f < len(symbols) {
			s.Genes[i].Symbol = symbols[f]
			if s.Model != nil && i < len(s.Model.Genes) && s.Model.Genes[i].ID == s.Genes[i].ID {
				s.Model.Genes[i].Symbol = symbols[f]
			}
		}
	}
}

// Table is enrichment.csv: a term a row, most significant first.
func (e *Enrichment) Table() [][]string {
	rows := [][]string{{"term", "ontology", "name", "genes_in_universe", "selected_in_term", "gene_ratio", "background_ratio", "p", "q_bh", "stability", "genes"}}
	for _, t := range e.Terms {
		rows = append(rows, []string{t.Set.ID, t.Set.Ontology, t.Set.Name, strconv.Itoa(t.M), strconv.Itoa(t.X), num(t.Ratio), num(t.Ratio0), num(t.P), num(t.Q), num(t.Stability), strings.Join(t.Genes, ";")})
	}
	return rows
}

// CSV is rows as CSV bytes.
func CSV(rows [][]string) []byte { return csvOf(rows) }

// CSV is enrichment.csv's bytes.
func (e *Enrichment) CSV() []byte { return csvOf(e.Table()) }

// Says is the enrichment in words: what was tested against what, and the terms at q <
// enrich.Alpha with their stability.
func (e *Enrichment) Says() string {
	var b strings.Builder
	genes := fmt.Sprintf("%s's top %d genes", e.Method, e.K)
	if e.Frequent {
		genes = fmt.Sprintf("the %d genes %s selected most often over the resamples", e.K, e.Method)
	}
	fmt.Fprintf(&b, "%s, %d of them in the universe (%s; %s, %s), tested for over-representation in %d sets (one-sided hypergeometric, Benjamini-Hochberg q over the sets)",
		genes, e.Selected(), e.UniverseNote, e.Collection.Source, e.Collection.Species, len(e.Terms))
	if e.Resamples > 0 {
		fmt.Fprintf(&b, "; stability: the share of the %d resamples whose own top %d makes the term significant", e.Resamples, e.K)
	}
	sig := 0
	for _, t := range e.Terms {
		if t.Q < enrich.Alpha {
			sig++
		}
	}
	fmt.Fprintf(&b, ". %d terms at q < %.2f", sig, enrich.Alpha)
	for i, t := range e.Terms {
		if i == 5 || t.Q >= enrich.Alpha {
			break
		}
		stab := ""
		if !math.IsNaN(t.Stability) {
			stab = fmt.Sprintf(", in %.0f%% of resamples", 100*t.Stability)
		}
		fmt.Fprintf(&b, "; %s %s (%d of %d genes, q %.2g%s)", t.Set.ID, t.Set.Name, t.X, t.M, t.Q, stab)
	}
	if len(e.NotAnnotated) > 0 {
		fmt.Fprintf(&b, ". %d selected genes have no annotation in the collection and are not counted", len(e.NotAnnotated))
	}
	return b.String() + "."
}

// CameraTerm is a set's competitive test over the whole ranking (enrich.Camera).
type CameraTerm struct {
	Set *enrich.Set
	enrich.CameraSet
}

// CameraSets tests every set of c with a measured gene by limma's camera on the data ds
// (preprocessed as the study did), the positive class against the rest (two classes):
// a gene's probes each count, as in limma with ids2indices. Directions are of the
// positive class: "Up" means higher in it.
func CameraSets(ds *dataset.Dataset, positive int, c *enrich.Collection) ([]CameraTerm, error) {
	if err := classesOnly(ds, "camera (a test of the genes' differences between two classes)"); err != nil {
		return nil, err
	}
	if len(ds.Classes) != 2 || positive < 0 || positive > 1 {
		return nil, fmt.Errorf("camera compares two classes; these data have %d", len(ds.Classes))
	}
	if ds.Symbols == nil {
		return nil, fmt.Errorf("%s has no gene symbols, which gene sets are matched by: give the platform's annotation", ds.Name)
	}
	u := enrich.NewUniverse(c, nil)
	rows := map[int][]int{} // collection gene -> features
	for j, s := range ds.Symbols {
		if i, ok := u.Gene(s); ok {
			rows[i] = append(rows[i], j)
		}
	}
	var index [][]int
	var sets []*enrich.Set
	for si := range c.Sets {
		var set []int
		for _, g := range c.Sets[si].Genes {
			set = append(set, rows[g]...)
		}
		if len(set) > 0 {
			index, sets = append(index, set), append(sets, &c.Sets[si])
		}
	}
	labels := make([]int, len(ds.Labels))
	for i, l := range ds.Labels {
		if l == positive {
			labels[i] = 1
		}
	}
	res, err := enrich.Camera(ds.X, labels, index)
	if err != nil {
		return nil, err
	}
	out := make([]CameraTerm, len(res))
	for i, r := range res {
		out[i] = CameraTerm{Set: sets[r.Index], CameraSet: r}
	}
	return out, nil
}

// CameraSays says camera's result in a sentence: how many sets lie higher and lower in
// the positive class at FDR < 0.05; "" when camera was not run.
func (e *Enrichment) CameraSays() string {
	if e.Camera == nil {
		return ""
	}
	up, down := 0, 0
	for _, t := range e.Camera {
		if t.FDR < 0.05 && t.Direction == "Up" {
			up++
		} else if t.FDR < 0.05 {
			down++
		}
	}
	return fmt.Sprintf("Camera (limma's competitive test, inter-gene correlation 0.01) over all the genes measured, %s against the other class: %d of %s higher in %s and %d lower at FDR < 0.05 (camera.csv).",
		e.CameraPositive, up, text.Count(len(e.Camera), "set"), e.CameraPositive, down)
}

// CameraTable is camera.csv: a set a row, most significant first.
func CameraTable(terms []CameraTerm, positive string) [][]string {
	rows := [][]string{{"term", "ontology", "name", "genes", "direction_in_" + positive, "p", "fdr"}}
	for _, t := range terms {
		rows = append(rows, []string{t.Set.ID, t.Set.Ontology, t.Set.Name, strconv.Itoa(t.NGenes), t.Direction, num(t.P), num(t.FDR)})
	}
	return rows
}
