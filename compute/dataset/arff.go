package dataset

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// nominalValues returns the values of a nominal type {a, b, 'c d'}, or nil.
func nominalValues(typ string) []string {
	typ = strings.TrimSpace(typ)
	if !strings.HasPrefix(typ, "{") || !strings.HasSuffix(typ, "}") {
		return nil
	}
	var out []string
	for _, v := range strings.Split(typ[1:len(typ)-1], ",") {
		out = append(out, strings.Trim(strings.TrimSpace(v), `'"`))
	}
	return out
}

// ReadARFF reads a WEKA ARFF file (dense or sparse data). The class is the attribute
// named by o.ClassName, else one named like "class", else the last nominal attribute.
func ReadARFF(file string, b []byte, o Options) (*Dataset, error) {
	ls, notes, err := lines(file, b)
	if err != nil {
		return nil, err
	}
	a := arff{file: file, ls: ls}
	if err := a.header(); err != nil {
		return nil, err
	}
	if err := a.chooseClass(o.ClassName); err != nil {
		return nil, err
	}
	if err := a.rows(); err != nil {
		return nil, err
	}
	return a.dataset(notes, o.Unlabelled)
}

// arff is an ARFF file being read: its lines, attributes, class and values.
type arff struct {
	file     string
	ls       []string
	attrs    []arffAttr
	data     int   // the line index after @data
	class    int   // the class attribute
	col      []int // attribute -> feature column, -1 for the class
	names    []string
	vals     []float64 // the rows' feature values, row after row
	labels   []string
	labLines []int
}

// arffAttr is one @attribute line.
type arffAttr struct {
	name    string
	nominal bool
	line    int
	values  []string // a nominal attribute's declared values
}

// header reads the @attribute lines up to @data.
func (a *arff) header() error {
	a.data = -1
	for i, l := range a.ls {
		t := strings.TrimSpace(l)
		if t == "" || t[0] == '%' {
			continue
		}
		low := strings.ToLower(t)
		switch {
		case strings.HasPrefix(low, "@relation"):
		case strings.HasPrefix(low, "@attribute"):
			at, err := a.attribute(i, strings.TrimSpace(t[len("@attribute"):]))
			if err != nil {
				return err
			}
			a.attrs = append(a.attrs, at)
		case strings.HasPrefix(low, "@data"):
			a.data = i + 1
		default:
			return &ParseError{File: a.file, Line: i + 1, Msg: fmt.Sprintf("unexpected %q before @data", trunc(t))}
		}
		if a.data >= 0 {
			break
		}
	}
	if a.data < 0 || len(a.attrs) < 2 {
		return &ParseError{File: a.file, Msg: "an ARFF file needs @attribute lines (features and a nominal class) and @data"}
	}
	return nil
}

// attribute reads the rest of the @attribute line i: a name, quoted or not, and a type.
func (a *arff) attribute(i int, rest string) (arffAttr, error) {
	var name string
	if rest != "" && (rest[0] == '\'' || rest[0] == '"') {
		end := strings.IndexByte(rest[1:], rest[0])
		if end < 0 {
			return arffAttr{}, &ParseError{File: a.file, Line: i + 1, Msg: "unclosed quote in attribute name"}
		}
		name, rest = rest[1:end+1], strings.TrimSpace(rest[end+2:])
	} else {
		f := strings.Fields(rest)
		if len(f) < 2 {
			return arffAttr{}, &ParseError{File: a.file, Line: i + 1, Msg: "an attribute needs a name and a type"}
		}
		name, rest = f[0], strings.TrimSpace(rest[len(f[0]):])
	}
	typ := strings.ToLower(rest)
	nominal := strings.HasPrefix(typ, "{")
	if !nominal && !strings.HasPrefix(typ, "numeric") && !strings.HasPrefix(typ, "real") && !strings.HasPrefix(typ, "integer") {
		return arffAttr{}, &ParseError{File: a.file, Line: i + 1, Msg: fmt.Sprintf("attribute %q has type %q; Steadfast reads numeric attributes and one nominal class", name, rest)}
	}
	return arffAttr{name, nominal, i + 1, nominalValues(rest)}, nil
}

// chooseClass takes the class attribute (named want, else named like a class and
// nominal, else the last nominal one) and makes every other attribute a feature.
func (a *arff) chooseClass(want string) error {
	a.class = -1
	for j, at := range a.attrs {
		if (want != "" && at.name == want) || (want == "" && isClassName(at.name) && at.nominal) {
			a.class = j
		}
	}
	if a.class < 0 {
		for j, at := range a.attrs {
			if at.nominal {
				a.class = j
			}
		}
	}
	if a.class < 0 {
		return &ParseError{File: a.file, Msg: "no nominal class attribute (declared as {a,b,...})"}
	}
	a.col = make([]int, len(a.attrs))
	for j, at := range a.attrs {
		a.col[j] = -1
		if j == a.class {
			continue
		}
		if at.nominal {
			return &ParseError{File: a.file, Line: at.line, Msg: fmt.Sprintf("attribute %q is nominal; only the class may be", at.name)}
		}
		a.col[j] = len(a.names)
		a.names = append(a.names, at.name)
	}
	return nil
}

// rows reads the data lines after @data, dense or sparse.
func (a *arff) rows() error {
	cls := a.attrs[a.class]
	for i := a.data; i < len(a.ls); i++ {
		t := strings.TrimSpace(a.ls[i])
		if t == "" || t[0] == '%' {
			continue
		}
		row := make([]float64, len(a.names))
		var lab string
		var err error
		if t[0] == '{' {
			lab, err = a.sparseRow(i, t, row)
		} else {
			lab, err = a.denseRow(i, t, row)
		}
		if err != nil {
			return err
		}
		if !isMissingLabel(lab) && cls.values != nil && !slices.Contains(cls.values, lab) {
			return &ParseError{File: a.file, Line: i + 1, Msg: fmt.Sprintf("the class value %q is not among those declared for %q at line %d: {%s}", lab, cls.name, cls.line, strings.Join(cls.values, ","))}
		}
		a.vals = append(a.vals, row...)
		a.labels = append(a.labels, lab)
		a.labLines = append(a.labLines, i+1)
	}
	if len(a.labels) == 0 {
		return &ParseError{File: a.file, Line: a.data, Msg: "no data rows after @data"}
	}
	return nil
}

// sparseRow reads line i, "{index value, ...}", into row and returns its class.
func (a *arff) sparseRow(i int, t string, row []float64) (string, error) {
	if !strings.HasSuffix(t, "}") {
		return "", &ParseError{File: a.file, Line: i + 1, Msg: "sparse row without closing }"}
	}
	lab := ""
	for _, kv := range splitFields(t[1:len(t)-1], ',') {
		f := strings.Fields(kv)
		if len(f) != 2 {
			return "", &ParseError{File: a.file, Line: i + 1, Msg: fmt.Sprintf("sparse entry %q is not 'index value'", kv)}
		}
		k, err := strconv.Atoi(f[0])
		if err != nil || k < 0 || k >= len(a.attrs) {
			return "", &ParseError{File: a.file, Line: i + 1, Msg: fmt.Sprintf("sparse index %q out of range", f[0])}
		}
		if k == a.class {
			lab = strings.Trim(f[1], "'\"")
			continue
		}
		v, ok := parseCell(f[1], false)
		if !ok {
			return "", &ParseError{File: a.file, Line: i + 1, Msg: fmt.Sprintf("%q for %q is not a number", f[1], a.attrs[k].name)}
		}
		row[a.col[k]] = v
	}
	return lab, nil
}

// denseRow reads line i, one value per attribute, into row and returns its class.
func (a *arff) denseRow(i int, t string, row []float64) (string, error) {
	f := splitFields(t, ',')
	if len(f) != len(a.attrs) {
		return "", &ParseError{File: a.file, Line: i + 1, Column: min(len(f), len(a.attrs)) + 1,
			Msg: fmt.Sprintf("has %d values but %d attributes are declared (ragged row)", len(f), len(a.attrs))}
	}
	lab := ""
	for j, s := range f {
		if j == a.class {
			lab = strings.Trim(s, "'\"")
			continue
		}
		v, ok := parseCell(s, false)
		if !ok {
			return "", &ParseError{File: a.file, Line: i + 1, Column: j + 1, Msg: fmt.Sprintf("%q for %q is not a number", s, a.attrs[j].name)}
		}
		row[a.col[j]] = v
	}
	return lab, nil
}

// dataset makes the dataset of the rows read, samples named by their lines.
func (a *arff) dataset(notes []string, unlabelled bool) (*Dataset, error) {
	ds := &Dataset{Name: a.file, X: mat.NewDense(len(a.labels), len(a.names), a.vals), Notes: notes}
	ds.setLabels(a.labels)
	for _, l := range a.labLines {
		ds.Samples = append(ds.Samples, fmt.Sprintf("line%d", l))
	}
	note, uniq := uniqueNames(a.names, "feature")
	ds.Features = uniq
	if note != "" {
		ds.Notes = append(ds.Notes, note)
	}
	return ds, ds.tidyLabels(unlabelled)
}

func trunc(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
