package dataset

import (
	"archive/zip"
	"bytes"
	"fmt"
	"steadfast/internal/text"
	"strings"
)

// isXLSX reports whether b is an Office Open XML workbook: a zip whose directory (at
// its end, so a large part stored first does not hide it) lists xl/workbook.xml.
func isXLSX(b []byte) bool {
	if !bytes.HasPrefix(b, []byte("PK\x03\x04")) {
		return false
	}
	z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return bytes.Contains(b[:min(len(b), 1<<16)], []byte("xl/")) // damaged: ReadXLSX says so
	}
	for _, f := range z.File {
		if strings.TrimPrefix(f.Name, "/") == "xl/workbook.xml" {
			return true
		}
	}
	return false
}

// ReadXLSX reads one worksheet of an Excel workbook (.xlsx): the sheet named o.Sheet,
// else the active one when it is visible, else the first visible one; its cells are
// read as a delimited table is (samples as rows or columns, detected; the class as
// o.ClassName says or detected). Dates become text (ISO dates), merged cells take their
// range's value, and empty rows and columns around the table are dropped, as are title
// rows above an empty row; a row shorter than the header is padded with empty cells
// (missing values). Formula cells without a saved value are missing, and named.
func ReadXLSX(file string, b []byte, o Options) (*Dataset, error) {
	wb, err := openWorkbook(b)
	if err != nil {
		return nil, &ParseError{File: file, Msg: "is not a readable Excel workbook: " + err.Error()}
	}
	at, note, err := wb.choose(file, o.Sheet)
	if err != nil {
		return nil, err
	}
	sheet := wb.sheets[at]
	rows, err := wb.rows(at)
	if err != nil {
		return nil, &ParseError{File: file, Msg: fmt.Sprintf("sheet %q cannot be read: %v; the file may be damaged: open it in Excel and save it again, or save the sheet as CSV", sheet, err)}
	}
	notes := []string{note}
	notes = append(notes, wb.fillMerged(rows)...)
	notes = append(notes, wb.formulaNote()...)
	rows, trimmed, err := tableOf(rows)
	if err != nil {
		return nil, &ParseError{File: file + " sheet " + sheet, Msg: err.Error() + wb.otherSheets(at)}
	}
	if trimmed != "" {
		notes = append(notes, trimmed)
	}
	ds, err := fromTable(file, gridOf(rows), nil, notes, false, ',', o)
	if err != nil && len(wb.sheets) > 1 && o.Sheet == "" {
		return nil, fmt.Errorf("%w (read sheet %q%s)", err, sheet, wb.otherSheets(at))
	}
	return ds, err
}

// choose returns the sheet to read: the one named, else the active sheet when visible,
// else the first visible; and a note saying which it took and what else there is.
func (w *workbook) choose(file, name string) (int, string, error) {
	if len(w.sheets) == 0 {
		return 0, "", &ParseError{File: file, Msg: "the workbook has no sheets"}
	}
	if name != "" {
		for i, s := range w.sheets {
			if strings.EqualFold(s, name) {
				return i, fmt.Sprintf("read sheet %q of %d (%s)", s, len(w.sheets), w.sheetList()), nil
			}
		}
		return 0, "", &ParseError{File: file, Msg: fmt.Sprintf("has no sheet %q; its sheets are %s", name, strings.Join(w.sheets, ", "))}
	}
	at := w.active
	why := "the active sheet"
	if w.hidden[at] {
		at, why = -1, "the first visible sheet"
		for i, h := range w.hidden {
			if !h {
				at = i
				break
			}
		}
		if at < 0 {
			at, why = 0, "the first sheet (every sheet is hidden)"
		}
	}
	note := fmt.Sprintf("read sheet %q", w.sheets[at])
	if len(w.sheets) > 1 {
		note += fmt.Sprintf(", %s, of %d (%s); choose another with --sheet or the window's sheet field", why, len(w.sheets), w.sheetList())
	}
	return at, note, nil
}

// sheetList names the sheets, marking the hidden ones.
func (w *workbook) sheetList() string {
	var names []string
	for i, s := range w.sheets {
		if w.hidden[i] {
			s += " (hidden)"
		}
		names = append(names, s)
	}
	return strings.Join(names, ", ")
}

// otherSheets is advice naming the sheets besides at, "" when there are none.
func (w *workbook) otherSheets(at int) string {
	if len(w.sheets) < 2 {
		return ""
	}
	var others []string
	for i, s := range w.sheets {
		if i != at {
			others = append(others, fmt.Sprintf("%q", s))
		}
	}
	return fmt.Sprintf("; the workbook's other sheets are %s: name the one holding the table with --sheet NAME (or the Data tab's sheet field)", strings.Join(others, ", "))
}

// fillMerged gives every cell of a merged range its top-left cell's value (Excel shows
// it across the range; the file stores it once) and notes the ranges filled.
func (w *workbook) fillMerged(rows [][]string) []string {
	var filled []string
	for _, m := range w.merged {
		if m.from.row >= len(rows) || m.from.col >= len(rows[m.from.row]) || rows[m.from.row][m.from.col] == "" {
			continue
		}
		v := rows[m.from.row][m.from.col]
		for r := m.from.row; r <= m.to.row && r < len(rows); r++ {
			for len(rows[r]) <= m.to.col {
				rows[r] = append(rows[r], "")
			}
			for c := m.from.col; c <= m.to.col; c++ {
				rows[r][c] = v
			}
		}
		filled = append(filled, fmt.Sprintf("%s:%s (%q)", m.from.ref(), m.to.ref(), v))
	}
	if len(filled) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("merged cells take their value in every cell they span: %s", listNames(filled, 6))}
}

// formulaNote names the formula cells without a saved value, which are read as empty.
func (w *workbook) formulaNote() []string {
	if len(w.noValue) == 0 {
		return nil
	}
	var refs []string
	for _, c := range w.noValue {
		refs = append(refs, c.ref())
	}
	return []string{fmt.Sprintf("%s without a saved result (%s), read as missing; open the workbook in Excel or LibreOffice and save it, so the values are stored", text.Count(len(refs), "cell holds a formula|cells hold formulas"), listNames(refs, 6))}
}

// tableOf cuts the table out of a sheet's rows: empty rows and columns around it are
// dropped, and rows above an empty row that are no wider than one cell (a title) are
// skipped with a note. Any other empty row inside is refused.
func tableOf(rows [][]string) ([][]string, string, error) {
	for len(rows) > 0 && blank(rows[len(rows)-1]) {
		rows = rows[:len(rows)-1]
	}
	top := 0
	for top < len(rows) && blank(rows[top]) {
		top++
	}
	note := ""
	for i := top; i < len(rows); i++ {
		if !blank(rows[i]) {
			continue
		}
		if titles(rows[top:i]) {
			note = fmt.Sprintf("rows %d to %d, above the table, hold a title and are skipped", top+1, i)
			top = i
			for top < len(rows) && blank(rows[top]) {
				top++
			}
			i = top
			continue
		}
		return nil, "", fmt.Errorf("row %d is empty inside the table; remove it, or save the table alone", i+1)
	}
	rows = rows[top:]
	if len(rows) < 2 {
		return nil, "", fmt.Errorf("needs a header row and at least one data row")
	}
	left, width := maxSheetCols, 0
	for _, r := range rows {
		for j, c := range r {
			if strings.TrimSpace(c) != "" {
				left, width = min(left, j), max(width, j+1)
			}
		}
	}
	for i, r := range rows {
		for len(r) < width {
			r = append(r, "")
		}
		rows[i] = r[left:width]
	}
	if left > 0 || top > 0 {
		at := cellPos{top, left}
		note = strings.TrimPrefix(note+fmt.Sprintf("; the table starts at cell %s", at.ref()), "; ")
	}
	return rows, note, nil
}

// titles reports whether rows are a title block: no row has more than one cell.
func titles(rows [][]string) bool {
	for _, r := range rows {
		n := 0
		for _, c := range r {
			if strings.TrimSpace(c) != "" {
				n++
			}
		}
		if n > 1 {
			return false
		}
	}
	return true
}

func blank(r []string) bool {
	for _, c := range r {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}
