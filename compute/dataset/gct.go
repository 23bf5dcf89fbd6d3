package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// readGCT13File reads a GCT 1.3 file with its CLS file when there is one.
func readGCT13File(path, plain, name string, b []byte, o Options) (*Dataset, error) {
	clsName, cls, err := readCLSBeside(path, plain, o)
	if err != nil {
		cls = nil // the class may be a column-metadata row
	}
	return ReadGCT13(name, b, o, clsName, cls)
}

// readCLSBeside reads the CLS file of the GCT at path: o.CLSPath, else the .cls beside
// it (or .cls.gz beside a .gct.gz), gzipped or not, as UTF-8 text; with its name.
func readCLSBeside(path, plain string, o Options) (string, []byte, error) {
	cls := o.CLSPath
	if cls == "" {
		cls = strings.TrimSuffix(plain, filepath.Ext(plain)) + ".cls"
		if _, err := os.Stat(cls); err != nil && path != plain {
			cls += ".gz"
		}
	}
	b, err := ReadLimited(cls, MaxFileSize)
	if err == nil {
		b, _, err = gunzip(filepath.Base(cls), b, MaxFileSize)
	}
	if err != nil {
		return filepath.Base(cls), nil, err
	}
	b, _ = toUTF8(b)
	return filepath.Base(cls), b, nil
}

// described reports whether a Description column holds something beside the names.
func described(descs, names []string) bool {
	for g, d := range descs {
		if d != "" && d != names[g] {
			return true
		}
	}
	return false
}

// ReadGCT reads a GenePattern GCT expression file (genes as rows, after a #1.2 line,
// a dimensions line and a Name/Description header) with its CLS label file (nil: the
// samples are unlabelled, class "").
func ReadGCT(file string, b []byte, clsFile string, cls []byte) (*Dataset, error) {
	ls, notes, err := lines(file, b)
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(strings.TrimSpace(ls[0]), "#1.") {
		return nil, &ParseError{File: file, Line: 1, Msg: fmt.Sprintf("a GCT file starts with #1.2, not %q", trunc(ls[0]))}
	}
	if len(ls) < 4 {
		return nil, &ParseError{File: file, Msg: "a GCT file needs a version line, a dimensions line, a header and data lines"}
	}
	dims := strings.Fields(ls[1])
	if len(dims) < 2 {
		return nil, &ParseError{File: file, Line: 2, Msg: "expected two numbers: genes and samples"}
	}
	nGenes, e1 := strconv.Atoi(dims[0])
	nSamp, e2 := strconv.Atoi(dims[1])
	if e1 != nil || e2 != nil || nGenes <= 0 || nSamp <= 0 {
		return nil, &ParseError{File: file, Line: 2, Msg: fmt.Sprintf("expected two positive whole numbers, found %q", ls[1])}
	}
	header := strings.Split(ls[2], "\t")
	if len(header) != nSamp+2 {
		return nil, &ParseError{File: file, Line: 3, Msg: fmt.Sprintf("header has %d sample columns, line 2 says %d", len(header)-2, nSamp)}
	}
	if len(ls)-3 != nGenes {
		return nil, &ParseError{File: file, Msg: fmt.Sprintf("has %d gene lines, line 2 says %d", len(ls)-3, nGenes)}
	}
	labels, classes := make([]int, nSamp), []string{""} // no CLS: unlabelled
	if cls != nil {
		if labels, classes, err = readCLS(clsFile, cls, nSamp); err != nil {
			return nil, err
		}
	}
	x := mat.NewDense(nSamp, nGenes, nil)
	raw := x.RawMatrix()
	names := make([]string, nGenes)
	descs := make([]string, nGenes) // the Description column: gene symbols, often
	for g := 0; g < nGenes; g++ {
		f := strings.Split(ls[g+3], "\t")
		if len(f) != nSamp+2 {
			return nil, &ParseError{File: file, Line: g + 4, Column: min(len(f), nSamp+2) + 1,
				Msg: fmt.Sprintf("has %d fields, the header has %d (ragged row)", len(f), nSamp+2)}
		}
		names[g] = strings.TrimSpace(f[0])
		descs[g] = cleanSymbol(f[1])
		for s := 0; s < nSamp; s++ {
			v, ok := parseCell(strings.TrimSpace(f[s+2]), false)
			if !ok {
				return nil, &ParseError{File: file, Line: g + 4, Column: s + 3, Msg: fmt.Sprintf("%q for gene %q is not a number", f[s+2], names[g])}
			}
			raw.Data[s*raw.Stride+g] = v
		}
	}
	ds := &Dataset{Name: file, X: x, Labels: labels, Classes: classes, Notes: notes}
	ds.setGenes(names, descs)
	_, ds.Samples = uniqueNames(header[2:], "sample")
	return ds, ds.tidyLabels(cls == nil)
}

// readCLS reads a categorical CLS file: "n k 1", "# name1 name2 ...", then n labels.
func readCLS(file string, b []byte, nSamp int) ([]int, []string, error) {
	ls, _, err := lines(file, b)
	if err != nil {
		return nil, nil, err
	}
	if len(ls) < 3 {
		return nil, nil, &ParseError{File: file, Msg: "a CLS file has three lines: counts, # class names, labels"}
	}
	head := strings.Fields(ls[0])
	if len(head) < 2 {
		return nil, nil, &ParseError{File: file, Line: 1, Msg: "expected: samples classes 1"}
	}
	n, err := strconv.Atoi(head[0])
	if err != nil {
		return nil, nil, &ParseError{File: file, Line: 1, Column: 1, Msg: fmt.Sprintf("%q is not a sample count", head[0])}
	}
	if n != nSamp {
		return nil, nil, &ParseError{File: file, Line: 1, Column: 1, Msg: fmt.Sprintf("says %d samples but the GCT file has %d", n, nSamp)}
	}
	names := strings.Fields(strings.TrimPrefix(strings.TrimSpace(ls[1]), "#"))
	labs := strings.Fields(ls[2])
	if len(labs) != nSamp {
		return nil, nil, &ParseError{File: file, Line: 3, Msg: fmt.Sprintf("has %d labels but the GCT file has %d samples", len(labs), nSamp)}
	}
	numeric := true
	for _, l := range labs {
		if _, err := strconv.Atoi(l); err != nil {
			numeric = false
		}
	}
	var classes []string
	idx := map[string]int{}
	labels := make([]int, nSamp)
	for i, l := range labs {
		name := l
		switch {
		case numeric && len(names) > 0:
			k, _ := strconv.Atoi(l)
			if k < 0 || k >= len(names) {
				return nil, nil, &ParseError{File: file, Line: 3, Column: i + 1, Msg: fmt.Sprintf("label %d of sample %d has no class name on line 2 (%d names: 0 to %d)", k, i+1, len(names), len(names)-1)}
			}
			name = names[k]
		case !numeric && len(names) > 0 && !slices.Contains(names, l):
			return nil, nil, &ParseError{File: file, Line: 3, Column: i + 1, Msg: fmt.Sprintf("label %q of sample %d is not among the class names on line 2 (%s)", l, i+1, strings.Join(names, ", "))}
		}
		c, ok := idx[name]
		if !ok {
			c = len(classes)
			idx[name] = c
			classes = append(classes, name)
		}
		labels[i] = c
	}
	return labels, classes, nil
}
