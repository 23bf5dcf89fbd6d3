package dataset

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/internal/text"
)

// LeftOut is a feature the reading or the preprocessing left out (or, Ranked, kept but
// ranked last), with why.
type LeftOut struct {
	Feature string `json:"feature"`
	Symbol  string `json:"symbol,omitempty"`
	Reason  string `json:"reason"`
	// Ranked is set for a protein kept in the data but left out of every training set
	// whose valid-value filter it fails (ranked last there).
	Ranked bool `json:"ranked,omitempty"`
}

// The intensities of a MaxQuant proteinGroups.txt (Options.Intensity).
const (
	IntensityLFQ = "lfq"       // LFQ intensity <sample>, when present
	IntensityRaw = "intensity" // Intensity <sample>
	IntensityBAQ = "ibaq"      // iBAQ <sample>
)

var intensityPrefix = map[string]string{IntensityLFQ: "LFQ intensity ", IntensityRaw: "Intensity ", IntensityBAQ: "iBAQ "}

// isMaxQuant reports whether b is a MaxQuant proteinGroups table: its header naming
// Protein IDs or Majority protein IDs and columns of one of MaxQuant's intensity
// families (LFQ intensity, Intensity, iBAQ), as MaxQuant or R names them (see
// maxQuantHeader).
func isMaxQuant(b []byte) bool {
	line, _, _ := bytes.Cut(b[:min(len(b), 1<<20)], []byte("\n"))
	head, _, _, _ := maxQuantHeader(string(line))
	ids, intensities := false, false
	for _, h := range head {
		ids = ids || h == "Protein IDs" || h == "Majority protein IDs"
		for _, p := range intensityPrefix {
			intensities = intensities || strings.HasPrefix(h, p) && len(h) > len(p)
		}
	}
	return ids && intensities
}

// maxQuantFlags are the columns marking protein groups a proteomics analysis leaves
// out, with why (older MaxQuant writes Contaminant).
var maxQuantFlags = []struct{ column, reason string }{
	{"Reverse", "reverse hit (decoy)"},
	{"Potential contaminant", "potential contaminant"},
	{"Contaminant", "potential contaminant"},
	{"Only identified by site", "only identified by a modification site"},
}

// ReadMaxQuant reads MaxQuant's proteinGroups.txt as it comes: the samples' LFQ
// intensity columns (else Intensity; o.Intensity chooses, iBAQ on request), zeros
// (not quantified) as missing; the protein groups marked in Reverse, Potential
// contaminant or Only identified by site, and those with no intensity in any sample,
// left out and named (LeftOut); a group named by its leading protein (the first of
// Majority protein IDs, sp|P12345|NAME as P12345), its symbol the first of Gene names,
// else the GN= of its Fasta header, else its UniProt entry name's mnemonic (NAME of
// NAME_YEAST). The classes come from a design table (o.DesignPath, applied by
// ReadFile) or the sample names when they end in a replicate number (A-1, ctrl_2).
func ReadMaxQuant(file string, b []byte, o Options) (*Dataset, error) {
	ls, notes, err := lines(file, b)
	if err != nil {
		return nil, err
	}
	head, sep, quoted, rNamed := maxQuantHeader(ls[0])
	split := func(l string) []string { return strings.Split(l, string(sep)) }
	if quoted {
		split = func(l string) []string { return splitFields(l, sep) }
	}
	if len(ls) > 1 && len(split(ls[1])) == len(head)+1 { // R's write.table: row names without a header cell
		head = append([]string{""}, head...)
		notes = append(notes, "the first column, without a name, taken as R's row names and left out")
	}
	if rNamed {
		notes = append(notes, "the columns are named as R names them (make.names: LFQ.intensity.A.1, Potential.contaminant), read as MaxQuant's (LFQ intensity A.1, Potential contaminant); the samples keep the names R gave them")
	}
	col := map[string]int{}
	for j, h := range head {
		h = strings.TrimSpace(h)
		head[j] = h
		if _, ok := col[h]; !ok {
			col[h] = j
		}
	}
	if _, ok := col["Ratio H/L"]; ok {
		return nil, &ParseError{File: file, Line: 1, Msg: "a labelled (SILAC) experiment's proteinGroups.txt; Steadfast reads label-free intensities (LFQ, Intensity or iBAQ of each sample)"}
	}
	for _, h := range head {
		if strings.HasPrefix(h, "Reporter intensity ") {
			return nil, &ParseError{File: file, Line: 1, Msg: "an isobaric-labelled (TMT, iTRAQ) experiment's proteinGroups.txt (Reporter intensity columns); Steadfast reads label-free intensities (LFQ, Intensity or iBAQ of each sample)"}
		}
	}
	kind := o.Intensity
	if kind == "" {
		kind = IntensityRaw
		for _, h := range head {
			if strings.HasPrefix(h, intensityPrefix[IntensityLFQ]) {
				kind = IntensityLFQ
				break
			}
		}
	}
	prefix, ok := intensityPrefix[kind]
	if !ok {
		return nil, &ParseError{File: file, Msg: fmt.Sprintf("intensity %q: choose lfq, intensity or ibaq", kind)}
	}
	var cols []int
	var samples []string
	for j, h := range head {
		if s, ok := strings.CutPrefix(h, prefix); ok && strings.TrimSpace(s) != "" && h != "iBAQ peptides" {
			cols, samples = append(cols, j), append(samples, strings.TrimSpace(s))
		}
	}
	if len(cols) < 2 {
		return nil, &ParseError{File: file, Line: 1, Msg: fmt.Sprintf("has %d %q columns; MaxQuant writes one a sample (choose another intensity: lfq, intensity or ibaq)", len(cols), strings.TrimSpace(prefix))}
	}
	idCol, ok := col["Majority protein IDs"]
	if !ok {
		idCol = col["Protein IDs"]
	}
	genes, hasGenes := col["Gene names"]
	fasta, hasFasta := col["Fasta headers"]
	var ids, syms []string
	var values [][]float64
	var out []LeftOut
	flagged := map[string]int{}
	empty, measured, cells, marks := 0, 0, 0, 0
	for i, l := range ls[1:] {
		line := i + 2
		if strings.TrimSpace(l) == "" {
			continue
		}
		f := split(l)
		if len(f) != len(head) {
			return nil, &ParseError{File: file, Line: line, Column: min(len(f), len(head)) + 1, Msg: fmt.Sprintf("has %d fields but the header has %d (ragged row)", len(f), len(head))}
		}
		id, sym := leadingProtein(f[idCol])
		if hasGenes && f[genes] != "" {
			sym, _, _ = strings.Cut(f[genes], ";")
		} else if hasFasta {
			if g := fastaGene.FindStringSubmatch(f[fasta]); g != nil {
				sym = g[1]
			}
		}
		var why []string
		for _, fl := range maxQuantFlags {
			if j, ok := col[fl.column]; ok && strings.TrimSpace(f[j]) == "+" && !slices.Contains(why, fl.reason) {
				if len(why) == 0 {
					flagged[fl.reason]++ // a group counted once, under its first mark
				}
				why = append(why, fl.reason)
			}
		}
		if len(why) > 1 {
			marks++
		}
		row := make([]float64, len(cols))
		any := false
		for k, j := range cols {
			s := strings.TrimSpace(f[j])
			v, err := strconv.ParseFloat(s, 64)
			switch {
			case s == "" || strings.EqualFold(s, "nan") || strings.EqualFold(s, "na") || err == nil && v == 0:
				v = math.NaN()
			case err != nil || v < 0 || math.IsInf(v, 0):
				return nil, &ParseError{File: file, Line: line, Column: j + 1, Msg: fmt.Sprintf("%s%s is %q, not an intensity (a number >= 0)", prefix, samples[k], s)}
			default:
				any = true
			}
			row[k] = v
		}
		if len(why) == 0 && !any {
			why = append(why, "no "+strings.TrimSpace(prefix)+" in any sample")
			empty++
		}
		if len(why) > 0 {
			out = append(out, LeftOut{Feature: id, Symbol: sym, Reason: strings.Join(why, "; ")})
			continue
		}
		for _, v := range row {
			cells++
			if !math.IsNaN(v) {
				measured++
			}
		}
		ids, syms, values = append(ids, id), append(syms, sym), append(values, row)
	}
	if len(ids) == 0 {
		return nil, &ParseError{File: file, Msg: fmt.Sprintf("no protein group is left after leaving out %d (reverse hits, contaminants, groups only identified by site, groups without intensities)", len(out))}
	}
	ds := &Dataset{Name: file, X: mat.NewDense(len(samples), len(ids), nil), Samples: samples, LeftOut: out, MaxQuant: true, MassSpec: true}
	for j, row := range values {
		for i, v := range row {
			ds.X.Set(i, j, v)
		}
	}
	note, names := uniqueNames(ids, "protein")
	ds.Features, ds.Symbols = names, syms
	if note != "" {
		notes = append(notes, note)
	}
	if note, dup := uniqueNames(samples, "sample"); note != "" {
		ds.Samples, notes = dup, append(notes, note)
	}
	var flags []string
	for _, fl := range maxQuantFlags {
		if n := flagged[fl.reason]; n > 0 {
			flags = append(flags, fmt.Sprintf("%s %s", text.Thousands(n), fl.reason))
			delete(flagged, fl.reason)
		}
	}
	if empty > 0 {
		flags = append(flags, fmt.Sprintf("%s without any %s", text.Thousands(empty), strings.TrimSpace(prefix)))
	}
	counted := strings.Join(flags, ", ")
	if marks > 0 {
		counted += fmt.Sprintf("; each group counted once, under its first mark in this order (%s carry two marks or more)", text.Thousands(marks))
	}
	symbolsFrom := "Gene names"
	if !hasGenes {
		symbolsFrom = "the UniProt entry names (no Gene names column; GN= of the Fasta headers where given)"
	}
	notes = append(notes, fmt.Sprintf("MaxQuant proteinGroups table: the %q columns of %s; %s protein groups, %s left out (%s; each named in the left-out list), %s kept; symbols from %s",
		strings.TrimSpace(prefix), text.Count(len(samples), "sample"), text.Thousands(len(out)+len(ids)), text.Thousands(len(out)), counted, text.Thousands(len(ids)), symbolsFrom))
	notes = append(notes, fmt.Sprintf("zeros (MaxQuant's not quantified) read as missing: %s of %s values (%.1f%%)", text.Thousands(cells-measured), text.Thousands(cells), 100*float64(cells-measured)/float64(cells)))
	ds.Notes = notes
	if o.DesignPath == "" {
		classes, note, err := classesFromNames(file, ds.Samples)
		if err != nil {
			return nil, err
		}
		ds.setLabels(classes)
		ds.Notes = append(ds.Notes, note)
	} else {
		ds.setLabels(make([]string, len(ds.Samples))) // the design's, applied by ReadFile
	}
	return ds, nil
}

// fastaGene finds the gene name of a UniProt Fasta header (GN=ADH1).
var fastaGene = regexp.MustCompile(`\bGN=([^\s;]+)`)

// leadingProtein is the first protein of a MaxQuant id list (P12345;Q67890) as an id,
// sp|P12345|ADH1_YEAST written P12345, and its UniProt entry mnemonic (ADH1) as a
// symbol ("" when the id has no entry name).
func leadingProtein(s string) (id, symbol string) {
	first, _, _ := strings.Cut(strings.TrimSpace(s), ";")
	parts := strings.Split(first, "|")
	if len(parts) >= 3 && (parts[0] == "sp" || parts[0] == "tr") {
		mnemonic, _, _ := strings.Cut(parts[2], "_")
		return parts[1], mnemonic
	}
	return first, ""
}

// replicateName splits a sample name ending in a replicate number: A-1, ctrl_12,
// tumour.3, WT 2.
var replicateName = regexp.MustCompile(`^(.*?\S)[-_. ]?[0-9]+$`)

// classesFromNames takes each sample's class from its name, the part before a final
// replicate number (A-1 is of class A), when every name has one and they give two
// classes or more; else it asks for a design table.
func classesFromNames(file string, samples []string) ([]string, string, error) {
	out := make([]string, len(samples))
	seen := map[string]int{}
	for i, s := range samples {
		m := replicateName.FindStringSubmatch(s)
		if m == nil {
			return nil, "", &ParseError{File: file, Msg: fmt.Sprintf("the sample %q does not end in a replicate number, so its class cannot be read from its name; give a design table (--design FILE, or \"designPath\" in the configuration's \"read\"): a column naming the samples as the intensity columns do, and a condition column", s)}
		}
		out[i] = strings.TrimRight(m[1], "-_. ")
		seen[out[i]]++
	}
	if len(seen) < 2 {
		return nil, "", &ParseError{File: file, Msg: fmt.Sprintf("the sample names (%s) give one class; give a design table (--design FILE): a column naming the samples, and a condition column", listNames(samples, 4))}
	}
	var parts []string
	for _, c := range out {
		if n, ok := seen[c]; ok {
			parts = append(parts, fmt.Sprintf("%s %d", c, n))
			delete(seen, c)
		}
	}
	return out, fmt.Sprintf("classes read from the sample names (the part before the replicate number): %s; give a design table (--design FILE) to say otherwise", strings.Join(parts, ", ")), nil
}
