package dataset

import (
	"context"
	"math"
	"strings"

	"steadfast/compute/parallel"
)

// grid is a table of text cells held compactly: each record keeps its line and the byte
// offsets where its fields end (4 bytes a cell, where a string per cell takes 16), and
// a cell is cut out and trimmed of spaces when read. A record holding quotes keeps its
// unquoted fields as strings instead. A transposed grid reads the same records column
// by column, without a copy: a 60,000 x 1,000 count table with samples as columns costs
// 240 MB of offsets, not 1.9 GB of strings and another 1.9 GB for their transpose.
type grid struct {
	recs []record
	t    bool // transposed: row i is field i of every record
}

// record is one line of a grid: line cut at ends (field j is line[ends[j-1]+1:ends[j]],
// field 0 starting at 0), or, for a line with quotes, its fields.
type record struct {
	line   string
	ends   []int32
	fields []string
}

// splitRecord cuts line at sep into a record, unquoting as splitFields does.
func splitRecord(line string, sep byte) record {
	if strings.IndexByte(line, '"') >= 0 || len(line) > math.MaxInt32 {
		return record{fields: splitFields(line, sep)}
	}
	ends := make([]int32, 0, strings.Count(line, string(sep))+1)
	for i := 0; i < len(line); i++ {
		if line[i] == sep {
			ends = append(ends, int32(i))
		}
	}
	return record{line: line, ends: append(ends, int32(len(line)))}
}

// width is the number of fields of r.
func (r record) width() int {
	if r.fields != nil {
		return len(r.fields)
	}
	return len(r.ends)
}

// field is field j of r, trimmed of spaces.
func (r record) field(j int) string {
	if r.fields != nil {
		return strings.TrimSpace(r.fields[j])
	}
	start := int32(0)
	if j > 0 {
		start = r.ends[j-1] + 1
	}
	return strings.TrimSpace(r.line[start:r.ends[j]])
}

// splitGrid cuts every line at sep (in parallel; the records keep the lines).
func splitGrid(ls []string, sep byte) grid {
	recs := make([]record, len(ls))
	parallel.For(context.Background(), 0, len(ls), func(i int) error { recs[i] = splitRecord(ls[i], sep); return nil })
	return grid{recs: recs}
}

// gridOf holds rows of cells (a worksheet's) as a grid.
func gridOf(rows [][]string) grid {
	recs := make([]record, len(rows))
	for i, r := range rows {
		recs[i] = record{fields: r}
	}
	return grid{recs: recs}
}

// rows is the number of rows of g.
func (g grid) rows() int {
	if g.t {
		return g.recs[0].width()
	}
	return len(g.recs)
}

// cols is the number of columns of g (its first row's width).
func (g grid) cols() int {
	if g.t {
		return len(g.recs)
	}
	return g.recs[0].width()
}

// at is the cell at row i, column j.
func (g grid) at(i, j int) string {
	if g.t {
		return g.recs[j].field(i)
	}
	return g.recs[i].field(j)
}

// row is a copy of row i's cells.
func (g grid) row(i int) []string {
	out := make([]string, g.cols())
	for j := range out {
		out[j] = g.at(i, j)
	}
	return out
}

// column is a copy of column j's cells from row from on.
func (g grid) column(j, from int) []string {
	out := make([]string, 0, max(0, g.rows()-from))
	for i := from; i < g.rows(); i++ {
		out = append(out, g.at(i, j))
	}
	return out
}

// transposed is g with rows and columns exchanged (a view, not a copy).
func (g grid) transposed() grid { return grid{recs: g.recs, t: !g.t} }
