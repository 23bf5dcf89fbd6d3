package dataset

import (
	"bytes"
	"fmt"
	"strings"
)

// isXLSX reports whether b is an Office Open XML workbook (a zip holding xl/).
func isXLSX(b []byte) bool {
	return bytes.HasPrefix(b, []byte("PK\x03\x04")) && bytes.Contains(b[:min(len(b), 1<<16)], []byte("xl/"))
}

// ReadXLSX reads one worksheet of an Excel workbook (.xlsx): the sheet named o.Sheet, or
// the first; its cells are read as a delimited table is (samples as rows or columns,
// detected; the class as o.ClassName says or detected). Empty rows and columns at the
// sheet's edges are dropped; a row shorter than the header is padded with empty cells
// (missing values).
func ReadXLSX(file string, b []byte, o Options) (*Dataset, error) {
	wb, err := openWorkbook(b)
	if err != nil {
		return nil, &ParseError{File: file, Msg: "is not a readable Excel workbook: " + err.Error()}
	}
	sheets := wb.sheets
	if len(sheets) == 0 {
		return nil, &ParseError{File: file, Msg: "the workbook has no sheets"}
	}
	at := 0
	if o.Sheet != "" {
		at = -1
		for i, s := range sheets {
			if strings.EqualFold(s, o.Sheet) {
				at = i
			}
		}
		if at < 0 {
			return nil, &ParseError{File: file, Msg: fmt.Sprintf("has no sheet %q; its sheets are %s", o.Sheet, strings.Join(sheets, ", "))}
		}
	}
	sheet := sheets[at]
	rows, err := wb.rows(at)
	if err != nil {
		return nil, &ParseError{File: file, Msg: fmt.Sprintf("sheet %q cannot be read: %v; the file may be damaged: open it in Excel and save it again, or save the sheet as CSV", sheet, err)}
	}
	for len(rows) > 0 && blank(rows[len(rows)-1]) {
		rows = rows[:len(rows)-1]
	}
	if len(rows) < 2 {
		return nil, &ParseError{File: file, Msg: fmt.Sprintf("sheet %q needs a header row and at least one data row", sheet)}
	}
	width := 0
	for _, r := range rows {
		for len(r) > 0 && strings.TrimSpace(r[len(r)-1]) == "" {
			r = r[:len(r)-1]
		}
		width = max(width, len(r))
	}
	for i, r := range rows {
		if blank(r) {
			return nil, &ParseError{File: file + " sheet " + sheet, Line: i + 1, Msg: "empty row inside the table"}
		}
		for len(r) < width {
			r = append(r, "")
		}
		rows[i] = r[:width]
	}
	notes := []string{fmt.Sprintf("read sheet %q", sheet)}
	if len(sheets) > 1 {
		notes[0] += fmt.Sprintf(" of %d (%s); choose another with --sheet or the window's sheet field", len(sheets), strings.Join(sheets, ", "))
	}
	return fromTable(file, rows, nil, notes, false, ',', o)
}

func blank(r []string) bool {
	for _, c := range r {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}
