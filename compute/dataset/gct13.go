package dataset

import (
	"fmt"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// ReadGCT13 reads a GCT 1.3 file: "#1.3", then rows, columns, row-metadata and
// column-metadata counts, a header (id, the row-metadata names, the sample ids), one
// line per column-metadata field, and the data lines (id, row metadata, values). The
// class is the column-metadata row named o.ClassName, else the first that splits the
// samples into 2 to 10 classes of two or more, else the CLS file (cls, may be nil).
func ReadGCT13(file string, b []byte, o Options, clsFile string, cls []byte) (*Dataset, error) {
	ls, notes, err := lines(file, b)
	if err != nil {
		return nil, err
	}
	dims := strings.Fields(ls[min(1, len(ls)-1)])
	nums := make([]int, 4)
	for i := range nums {
		if i >= len(dims) {
			return nil, &ParseError{File: file, Line: 2, Msg: "GCT 1.3 line 2 holds four numbers: rows, columns, row-metadata fields, column-metadata fields"}
		}
		v, err := strconv.Atoi(dims[i])
		if err != nil || v < 0 {
			return nil, &ParseError{File: file, Line: 2, Column: i + 1, Msg: fmt.Sprintf("%q is not a count", dims[i])}
		}
		nums[i] = v
	}
	nGenes, nSamp, nRowMeta, nColMeta := nums[0], nums[1], nums[2], nums[3]
	if nGenes == 0 || nSamp == 0 {
		return nil, &ParseError{File: file, Line: 2, Msg: "no rows or no columns"}
	}
	width := 1 + nRowMeta + nSamp
	if len(ls) != 3+nColMeta+nGenes {
		return nil, &ParseError{File: file, Msg: fmt.Sprintf("has %d lines after the header; line 2 says %d metadata and %d data lines", len(ls)-3, nColMeta, nGenes)}
	}
	split := func(i int) ([]string, error) {
		f := strings.Split(ls[i], "\t")
		if len(f) != width {
			return nil, &ParseError{File: file, Line: i + 1, Column: min(len(f), width) + 1, Msg: fmt.Sprintf("has %d fields, the header %d (ragged row)", len(f), width)}
		}
		return f, nil
	}
	header, err := split(2)
	if err != nil {
		return nil, err
	}
	var anns []annotation
	for m := 0; m < nColMeta; m++ {
		f, err := split(3 + m)
		if err != nil {
			return nil, err
		}
		anns = append(anns, annotation{key: strings.TrimSpace(f[0]), values: trimAll(f[1+nRowMeta:])})
	}
	ds := &Dataset{Name: file, X: mat.NewDense(nSamp, nGenes, nil), Samples: trimAll(header[1+nRowMeta:]), Notes: notes, ClassChoices: classChoices(anns)}
	names := make([]string, nGenes)
	symCol := -1 // the row-metadata column that names symbols best
	if j := bestSymbolColumn(header[1 : 1+nRowMeta]); j >= 0 {
		symCol = j + 1
		ds.Notes = append(ds.Notes, fmt.Sprintf("gene symbols from the row-metadata column %q", strings.TrimSpace(header[symCol])))
	}
	descs := make([]string, nGenes)
	for g := 0; g < nGenes; g++ {
		line := 3 + nColMeta + g
		f, err := split(line)
		if err != nil {
			return nil, err
		}
		names[g] = strings.TrimSpace(f[0])
		if symCol > 0 {
			descs[g] = cleanSymbol(f[symCol])
		}
		for s := 0; s < nSamp; s++ {
			v, ok := parseCell(strings.TrimSpace(f[1+nRowMeta+s]), false)
			if !ok {
				return nil, &ParseError{File: file, Line: line + 1, Column: 2 + nRowMeta + s, Msg: fmt.Sprintf("%q for %q is not a number", f[1+nRowMeta+s], names[g])}
			}
			ds.X.Set(s, g, v)
		}
	}
	ds.setGenes(names, descs)
	if err := ds.gct13Classes(file, anns, o, clsFile, cls); err != nil {
		return nil, err
	}
	if err := ds.groupFrom(file, anns, o.GroupName); err != nil {
		return nil, err
	}
	return ds, ds.tidyLabels(o.Unlabelled)
}

// gct13Classes labels the samples from a column-metadata row or the CLS file.
func (d *Dataset) gct13Classes(file string, anns []annotation, o Options, clsFile string, cls []byte) error {
	n := len(d.Samples)
	if o.ClassName != "" || cls == nil {
		a, note, err := chooseClass(file, anns, n, o)
		if err != nil {
			if cls == nil || o.ClassName != "" {
				return err
			}
		} else {
			d.Notes = append(d.Notes, note)
			d.setLabels(a.values)
			return nil
		}
	}
	labels, classes, err := readCLS(clsFile, cls, n)
	if err != nil {
		return err
	}
	d.Labels, d.Classes = labels, classes
	if len(anns) > 0 {
		var keys []string
		for _, a := range anns {
			keys = append(keys, a.classChoice())
		}
		d.Notes = append(d.Notes, fmt.Sprintf("class from %s, beside the file; its column-metadata rows offer classes too (%s): to use one, name it as the class (--class KEY, or Class on the Data tab)", clsFile, strings.Join(keys, "; ")))
	}
	return nil
}

// setLabels sets the classes from one value per sample, in order of first appearance.
func (d *Dataset) setLabels(values []string) {
	classOf := map[string]int{}
	d.Labels, d.Classes = nil, nil
	for _, v := range values {
		k, ok := classOf[v]
		if !ok {
			k = len(d.Classes)
			classOf[v] = k
			d.Classes = append(d.Classes, v)
		}
		d.Labels = append(d.Labels, k)
	}
}

func trimAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = strings.TrimSpace(v)
	}
	return out
}
