package dataset

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"html"
	"io"
	"path"
	"strconv"
	"strings"

	"steadfast/compute/memlimit"
)

// workbook is an Office Open XML workbook opened for reading cell text: its parts, its
// sheets in workbook order with the part of each, and its shared strings.
//
// The sheet data are scanned directly instead of through encoding/xml, which took
// 4.3 s for Chowdary's 2.3 million cells (excelize's GetRows) against 0.3 s for its
// CSV. TestWorkbookRowsEqualExcelize checks the rows against excelize's.
type workbook struct {
	parts   map[string]*zip.File
	sheets  []string
	sheetAt []string // the zip path of each sheet's worksheet part
	hidden  []bool   // each sheet's state is hidden or veryHidden
	active  int      // the sheet shown when the workbook is opened
	strs    []string
	dates   []bool // for each cell style (cellXfs), whether it shows a date
	// what the last sheetRows call found besides text: formula cells without a saved
	// value (read as empty) and merged ranges
	noValue []cellPos
	merged  []cellRange
}

// cellPos is a cell's row and column from 0; cellRange a merged range's corners.
type (
	cellPos   struct{ row, col int }
	cellRange struct{ from, to cellPos }
)

// ref writes a cell position as Excel does ("B12").
func (c cellPos) ref() string {
	col := ""
	for n := c.col + 1; n > 0; n = (n - 1) / 26 {
		col = string(rune('A'+(n-1)%26)) + col
	}
	return fmt.Sprintf("%s%d", col, c.row+1)
}

// Excel's sheet limits; a cell reference beyond them is a damaged file, and taking it
// at its word would allocate without bound.
const (
	maxSheetRows = 1 << 20
	maxSheetCols = 1 << 14
)

// openWorkbook reads the workbook's sheet list, their parts and its shared strings.
func openWorkbook(b []byte) (*workbook, error) {
	z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	w := &workbook{parts: map[string]*zip.File{}}
	for _, f := range z.File {
		w.parts[strings.TrimPrefix(f.Name, "/")] = f
	}
	var book struct {
		Sheets []struct {
			Name  string `xml:"name,attr"`
			State string `xml:"state,attr"`
			ID    string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sheets>sheet"`
		Views []struct {
			Active int `xml:"activeTab,attr"`
		} `xml:"bookViews>workbookView"`
	}
	var rels struct {
		Rel []struct {
			ID     string `xml:"Id,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	if err := w.decode("xl/workbook.xml", &book); err != nil {
		return nil, err
	}
	if err := w.decode("xl/_rels/workbook.xml.rels", &rels); err != nil {
		return nil, err
	}
	target := map[string]string{}
	for _, r := range rels.Rel {
		t := strings.TrimPrefix(r.Target, "/")
		if !strings.HasPrefix(t, "xl/") {
			t = path.Join("xl", t)
		}
		target[r.ID] = t
	}
	for _, s := range book.Sheets {
		w.sheets = append(w.sheets, s.Name)
		w.sheetAt = append(w.sheetAt, target[s.ID])
		w.hidden = append(w.hidden, s.State == "hidden" || s.State == "veryHidden")
	}
	if len(book.Views) > 0 && book.Views[0].Active >= 0 && book.Views[0].Active < len(w.sheets) {
		w.active = book.Views[0].Active
	}
	if _, ok := w.parts["xl/styles.xml"]; ok {
		st, err := w.read("xl/styles.xml")
		if err != nil {
			return nil, err
		}
		w.dates = dateStyles(st)
	}
	if _, ok := w.parts["xl/sharedStrings.xml"]; ok {
		sst, err := w.read("xl/sharedStrings.xml")
		if err != nil {
			return nil, err
		}
		w.strs = sharedStrings(sst)
	}
	return w, nil
}

// xlsxPerByte is what reading a part takes a byte of its XML at the peak: the bytes
// and the cells' text taken from them (measured: a sheet of 60 MB, 1.9 bytes a byte).
const xlsxPerByte = 3

// read returns the unzipped bytes of a part (at most decompressLimit): refused before
// it is unzipped when the size the archive declares is over that or needs more memory
// than the machine can give, and read into one buffer of that size.
func (w *workbook) read(name string) ([]byte, error) {
	f, ok := w.parts[name]
	if !ok {
		return nil, fmt.Errorf("the workbook lacks its part %s", name)
	}
	limit := decompressLimit()
	if f.UncompressedSize64 > uint64(limit) {
		return nil, fmt.Errorf("part %s unzips to %s, more than the %s Steadfast reads on this machine", name, bytesText(int64(min(f.UncompressedSize64, 1<<62))), bytesText(limit))
	}
	if err := memlimit.Check(fmt.Sprintf("reading part %s (%s unzipped)", name, memlimit.Size(float64(f.UncompressedSize64))), xlsxPerByte*float64(f.UncompressedSize64)); err != nil {
		return nil, err
	}
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b := make([]byte, f.UncompressedSize64)
	if _, err := io.ReadFull(rc, b); err != nil {
		return nil, fmt.Errorf("part %s is shorter than the archive says (%v)", name, err)
	}
	if n, _ := rc.Read(make([]byte, 1)); n > 0 {
		return nil, fmt.Errorf("part %s is longer than the archive says", name)
	}
	return b, nil
}

// decode unmarshals a small XML part.
func (w *workbook) decode(name string, v any) error {
	b, err := w.read(name)
	if err != nil {
		return err
	}
	return xml.Unmarshal(b, v)
}

// rows returns the text of sheet i's cells, row by row as the sheet numbers them (rows
// and cells it leaves out are empty); shared strings are looked up, other cells are as
// stored (numbers as written, booleans 1 or 0), as excelize's GetRows with RawCellValue.
func (w *workbook) rows(i int) ([][]string, error) {
	b, err := w.read(w.sheetAt[i])
	if err != nil {
		return nil, err
	}
	return w.sheetRows(b)
}

// sheetRows scans a worksheet part's XML (see rows).
func (w *workbook) sheetRows(b []byte) ([][]string, error) {
	w.noValue, w.merged = nil, nil
	var rows [][]string
	s := xmlScan{b: b}
	row, col := -1, 0
	cells, slots := 0, 0 // cells read, and cells held with the empty ones padding them
	for s.next() {
		switch string(s.name) {
		case "row":
			row = s.index("r", row+1, false)
			if row >= maxSheetRows {
				return nil, fmt.Errorf("row %d is beyond Excel's last row (%d)", row+1, maxSheetRows)
			}
			for len(rows) <= row {
				rows = append(rows, nil)
			}
			col = 0
		case "c":
			if row < 0 {
				return nil, fmt.Errorf("a cell outside a row at byte %d", s.at)
			}
			col = s.index("r", col, true)
			if col >= maxSheetCols {
				return nil, fmt.Errorf("a cell of row %d is beyond Excel's last column (%d)", row+1, maxSheetCols)
			}
			text, formula, err := w.cell(&s)
			if err != nil {
				return nil, err
			}
			if formula && text == "" {
				w.noValue = append(w.noValue, cellPos{row, col})
			}
			r := rows[row]
			cells, slots = cells+1, slots+max(0, col+1-len(r))
			if slots > 100*cells+1<<20 {
				return nil, fmt.Errorf("the sheet's cells are scattered far apart (row %d, column %d), not a table", row+1, col+1)
			}
			for len(r) <= col {
				r = append(r, "")
			}
			r[col] = text
			rows[row] = r
			col++
		case "mergeCell":
			if m, ok := parseRange(s.attr("ref")); ok {
				w.merged = append(w.merged, m)
			}
		}
	}
	return rows, s.err
}

// parseRange reads a range reference ("C2:C5").
func parseRange(ref string) (cellRange, bool) {
	a, b, ok := strings.Cut(ref, ":")
	if !ok {
		return cellRange{}, false
	}
	from, ok1 := parseRef(a)
	to, ok2 := parseRef(b)
	return cellRange{from, to}, ok1 && ok2 && from.row <= to.row && from.col <= to.col && to.row < maxSheetRows && to.col < maxSheetCols
}

// parseRef reads a cell reference ("B12").
func parseRef(ref string) (cellPos, bool) {
	s := xmlScan{attrs: []byte(` r="` + ref + `"`)}
	p := cellPos{row: s.index("r", -1, false), col: s.index("r", -1, true)}
	return p, p.row >= 0 && p.col >= 0
}

// cell reads the cell whose start tag s has just read, to its end: its text (a
// date-styled number as an ISO date) and whether it holds a formula.
func (w *workbook) cell(s *xmlScan) (text string, formula bool, err error) {
	typ := s.attr("t")
	style, serr := strconv.Atoi(s.attr("s"))
	date := serr == nil && style >= 0 && style < len(w.dates) && w.dates[style]
	if s.closed {
		return "", false, nil
	}
	var v, inline string
	for s.next() {
		switch string(s.name) {
		case "/c":
			text, err := w.value(typ, v, inline)
			if date && err == nil && (typ == "" || typ == "n") { // a number, typed or not
				text = excelDate(text)
			}
			return text, formula, err
		case "v":
			v = s.text("v")
		case "f":
			formula = true
		case "t":
			inline += s.text("t")
		case "rPh":
			s.skipTo("</rPh>")
		}
	}
	return "", false, fmt.Errorf("a cell not closed before byte %d", s.at)
}

// value is a cell's text from its type and its <v> or inline text.
func (w *workbook) value(typ, v, inline string) (string, error) {
	switch typ {
	case "s":
		k, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || k < 0 || k >= len(w.strs) {
			return "", fmt.Errorf("shared string %q is not in the table of %d", v, len(w.strs))
		}
		return w.strs[k], nil
	case "inlineStr":
		return inline, nil
	}
	return v, nil
}

// sharedStrings lists the <si> items of a shared-string part, each the joined text of
// its <t> runs (phonetic runs left out).
func sharedStrings(b []byte) []string {
	var out []string
	var cur strings.Builder
	s := xmlScan{b: b}
	for s.next() {
		switch string(s.name) {
		case "si":
			cur.Reset()
		case "/si":
			out = append(out, cur.String())
		case "t":
			cur.WriteString(s.text("t"))
		case "rPh":
			s.skipTo("</rPh>")
		}
	}
	return out
}

// xmlScan walks the tags of an XML part without building tokens for text it does not
// ask for: name is the current tag's name ("c", "/c"), its attributes are read with
// attr, closed says it was self-closing.
type xmlScan struct {
	b      []byte
	at     int
	name   []byte // the tag's name without a namespace prefix, "/c" for an end tag
	attrs  []byte
	closed bool
	err    error
}

// next moves to the next tag, skipping comments, processing instructions and text.
func (s *xmlScan) next() bool {
	for {
		k := bytes.IndexByte(s.b[s.at:], '<')
		if k < 0 {
			return false
		}
		s.at += k + 1
		if s.at < len(s.b) && (s.b[s.at] == '?' || s.b[s.at] == '!') {
			end := bytes.IndexByte(s.b[s.at:], '>')
			if end < 0 {
				return false
			}
			s.at += end + 1
			continue
		}
		end := bytes.IndexByte(s.b[s.at:], '>')
		if end < 0 {
			s.err = fmt.Errorf("a tag not closed at byte %d", s.at)
			return false
		}
		tag := s.b[s.at : s.at+end]
		s.at += end + 1
		s.closed = len(tag) > 0 && tag[len(tag)-1] == '/'
		if s.closed {
			tag = tag[:len(tag)-1]
		}
		name := tag
		if sp := bytes.IndexAny(tag, " \t\r\n"); sp >= 0 {
			name, s.attrs = tag[:sp], tag[sp:]
		} else {
			s.attrs = nil
		}
		if c := bytes.IndexByte(name, ':'); c >= 0 { // a prefixed name: x:c, /x:c
			if name[0] == '/' {
				name = append([]byte{'/'}, name[c+1:]...)
			} else {
				name = name[c+1:]
			}
		}
		s.name = name
		return true
	}
}

// attr returns the value of the current tag's attribute key, unescaped, or "".
func (s *xmlScan) attr(key string) string {
	return unescapeXML(s.rawAttr(key))
}

// rawAttr returns the value of the current tag's attribute key as written, or nil.
func (s *xmlScan) rawAttr(key string) []byte {
	a := s.attrs
	for len(a) > 0 {
		eq := bytes.IndexByte(a, '=')
		if eq < 0 {
			return nil
		}
		name := bytes.TrimSpace(a[:eq])
		rest := bytes.TrimLeft(a[eq+1:], " \t\r\n")
		if len(rest) == 0 {
			return nil
		}
		q := rest[0]
		end := bytes.IndexByte(rest[1:], q)
		if end < 0 {
			return nil
		}
		if string(name) == key {
			return rest[1 : 1+end]
		}
		a = rest[end+2:]
	}
	return nil
}

// index reads attribute key as a cell reference ("B12": column 1 when col, else row
// 11), or returns def when the tag has none.
func (s *xmlScan) index(key string, def int, col bool) int {
	c, r := 0, 0
	for _, b := range s.rawAttr(key) {
		switch {
		case b >= 'A' && b <= 'Z':
			c = min(c*26+int(b-'A'+1), 1<<30)
		case b >= 'a' && b <= 'z':
			c = min(c*26+int(b-'a'+1), 1<<30)
		case b >= '0' && b <= '9':
			r = min(r*10+int(b-'0'), 1<<30)
		case b != '$':
			return def
		}
	}
	if col && c > 0 {
		return c - 1
	}
	if !col && r > 0 {
		return r - 1
	}
	return def
}

// text returns the text up to the closing tag of name (unescaped), or "" for a
// self-closing tag.
func (s *xmlScan) text(name string) string {
	if s.closed {
		return ""
	}
	end := bytes.Index(s.b[s.at:], []byte("</"))
	if end < 0 {
		s.at = len(s.b)
		return ""
	}
	t := s.b[s.at : s.at+end]
	s.at += end
	return unescapeXML(t)
}

// skipTo moves past the next occurrence of end.
func (s *xmlScan) skipTo(end string) {
	if k := bytes.Index(s.b[s.at:], []byte(end)); k >= 0 {
		s.at += k + len(end)
		return
	}
	s.at = len(s.b)
}

// unescapeXML resolves XML's character and entity references.
func unescapeXML(b []byte) string {
	if bytes.IndexByte(b, '&') < 0 {
		return string(b)
	}
	return html.UnescapeString(string(b))
}
