package dataset

import (
	"strings"
	"unicode"
)

// maxQuantColumns are the MaxQuant columns the reader uses, named as MaxQuant names
// them; rColumn maps their R names (make.names: Majority.protein.IDs) back.
var maxQuantColumns = []string{"Protein IDs", "Majority protein IDs", "Gene names", "Protein names", "Fasta headers",
	"Reverse", "Potential contaminant", "Contaminant", "Only identified by site", "Ratio H/L", "id"}

// maxQuantPrefixes are the per-sample column families, named as MaxQuant names them.
var maxQuantPrefixes = []string{"LFQ intensity ", "Intensity ", "iBAQ ", "Reporter intensity "}

// maxQuantHeader splits the header line of a MaxQuant table as it comes: tab-separated
// as MaxQuant writes it, or comma-separated (R's write.csv), its names quoted or not,
// and named as R names columns (make.names: LFQ.intensity.A.1, Potential.contaminant)
// or as MaxQuant does. It returns the names as MaxQuant writes them (LFQ intensity
// A.1: a sample keeps the name R gave it), the separator, whether the names were
// quoted and whether they were R's.
func maxQuantHeader(line string) (head []string, sep byte, quoted, rNamed bool) {
	line = strings.TrimLeft(strings.TrimRight(line, "\r"), "\ufeff")
	sep = '\t'
	if !strings.Contains(line, "\t") && strings.Contains(line, ",") {
		sep = ','
	}
	quoted = strings.HasPrefix(strings.TrimSpace(line), `"`)
	head = splitFields(line, sep)
	for _, h := range head {
		rNamed = rNamed || h == makeName("Protein IDs") || h == makeName("Majority protein IDs")
	}
	if rNamed {
		for j, h := range head {
			head[j] = fromRName(h)
		}
	}
	return head, sep, quoted, rNamed
}

// fromRName is the MaxQuant name of a column R named (make.names): Majority.protein.IDs
// is Majority protein IDs, LFQ.intensity.A.1 is LFQ intensity A.1; other names as they
// are.
func fromRName(h string) string {
	for _, c := range maxQuantColumns {
		if h == makeName(c) {
			return c
		}
	}
	for _, p := range maxQuantPrefixes {
		if s, ok := strings.CutPrefix(h, makeName(p)); ok && s != "" {
			return p + s
		}
	}
	return h
}

// makeName is s as R's make.names writes it: every character but a letter, a digit,
// '.' and '_' replaced by '.', and an X put before a name that does not start with a
// letter or with a '.' not followed by a digit.
func makeName(s string) string {
	r := []rune(s)
	for i, c := range r {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '.' && c != '_' {
			r[i] = '.'
		}
	}
	if len(r) == 0 || !unicode.IsLetter(r[0]) && (r[0] != '.' || len(r) > 1 && unicode.IsDigit(r[1])) {
		r = append([]rune("X"), r...)
	}
	return string(r)
}
