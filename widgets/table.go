package widgets

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// StringTable shows rows of text with a sticky header row; set rows with SetRows.
type StringTable struct {
	*widget.Table
	header   []string
	rows     [][]string
	selected int // the row last selected, -1 for none
	sortCol  int // the column last sorted by, -1 for none
	sortDesc bool
	// OnSelected, when set, is called with the row the user selects.
	OnSelected func(row int)
}

// NewStringTable returns an empty table.
func NewStringTable() *StringTable {
	t := &StringTable{selected: -1, sortCol: -1}
	t.Table = widget.NewTableWithHeaders(
		func() (int, int) { return len(t.rows), len(t.header) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			if id.Row < len(t.rows) && id.Col < len(t.rows[id.Row]) {
				o.(*widget.Label).SetText(t.rows[id.Row][id.Col])
			}
		})
	t.Table.ShowHeaderColumn = false
	t.Table.OnSelected = func(id widget.TableCellID) {
		t.selected = id.Row
		if t.OnSelected != nil {
			t.OnSelected(id.Row)
		}
	}
	t.Table.CreateHeader = func() fyne.CanvasObject {
		b := widget.NewButton("", nil)
		b.Alignment = widget.ButtonAlignLeading
		b.Importance = widget.LowImportance
		return b
	}
	t.Table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Row < 0 && id.Col >= 0 && id.Col < len(t.header) {
			b := o.(*widget.Button)
			text := t.header[id.Col]
			if id.Col == t.sortCol {
				text += map[bool]string{false: " ▲", true: " ▼"}[t.sortDesc]
			}
			b.SetText(text)
			col := id.Col
			b.OnTapped = func() { t.SortBy(col) }
		}
	}
	return t
}

// SetRows replaces the header and rows. A column empty in every row (a gene symbol of
// data without symbols) is left out. widths are the least column widths (the last
// repeats); a column is never narrower than its header with room for the sort mark, nor
// than its widest value (a text column wider than maxTextColumn is cut with an ellipsis
// there, a number never). The first column stays in view when the table scrolls
// sideways.
func (t *StringTable) SetRows(header []string, rows [][]string, widths ...float32) {
	header, rows, widths = dropEmptyColumns(header, rows, widths)
	t.header, t.rows, t.selected, t.sortCol = header, rows, -1, -1
	t.Table.UnselectAll()
	t.Table.StickyColumnCount = min(1, len(header))
	for c := range header {
		w := float32(120)
		if len(widths) > 0 {
			w = widths[min(c, len(widths)-1)]
		}
		t.Table.SetColumnWidth(c, max(w, HeaderWidth(header[c]), valueWidth(rows, c)))
	}
	t.Table.ScrollToTop() // an offset beyond the new rows would show a blank table
	t.Table.ScrollToLeading()
	t.Table.Refresh()
}

// maxTextColumn is the widest a column of text grows to fit its values; a column of
// numbers takes its widest value whatever it is.
const maxTextColumn = 480

// valueWidth is the width column c needs to show its widest value whole, measured on
// its longest values (by characters; at most 2,000 rows looked at), within
// maxTextColumn unless every value is a number.
func valueWidth(rows [][]string, c int) float32 {
	var longest []string
	numbers := true
	for i, r := range rows {
		if i == 2000 {
			break
		}
		if c >= len(r) || r[c] == "" {
			continue
		}
		numbers = numbers && isNumberCell(r[c])
		longest = append(longest, r[c])
	}
	slices.SortFunc(longest, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	w := float32(0)
	for _, v := range longest[:min(5, len(longest))] {
		w = max(w, fyne.MeasureText(v, theme.TextSize(), fyne.TextStyle{}).Width+4*theme.InnerPadding())
	}
	if !numbers {
		w = min(w, maxTextColumn)
	}
	return w
}

// isNumberCell reports whether a cell reads as a number ("0.0829", "2.6e-11", "3/10").
func isNumberCell(s string) bool {
	_, err := strconv.ParseFloat(leadingNumber(s), 64)
	return err == nil && len(leadingNumber(s)) >= len(strings.TrimSpace(s))-3
}

// dropEmptyColumns leaves out the columns (after the first) empty in every row, with
// their widths.
func dropEmptyColumns(header []string, rows [][]string, widths []float32) ([]string, [][]string, []float32) {
	if len(rows) == 0 {
		return header, rows, widths
	}
	var keep []int
	for c := range header {
		used := c == 0
		for _, r := range rows {
			if c < len(r) && strings.TrimSpace(r[c]) != "" {
				used = true
				break
			}
		}
		if used {
			keep = append(keep, c)
		}
	}
	if len(keep) == len(header) {
		return header, rows, widths
	}
	h := make([]string, len(keep))
	var w []float32
	for k, c := range keep {
		h[k] = header[c]
		if len(widths) > 0 {
			w = append(w, widths[min(c, len(widths)-1)])
		}
	}
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = make([]string, len(keep))
		for k, c := range keep {
			if c < len(r) {
				out[i][k] = r[c]
			}
		}
	}
	return h, out, w
}

// HeaderWidth is the width a column needs to show its header whole: the text, the
// sort mark and the button's padding.
func HeaderWidth(h string) float32 {
	text := fyne.MeasureText(h+" ▼", theme.TextSize(), fyne.TextStyle{})
	return text.Width + 4*theme.InnerPadding()
}

// Rows returns the rows shown, for tests.
func (t *StringTable) Rows() [][]string { return t.rows }

// Header returns the column names shown.
func (t *StringTable) Header() []string { return t.header }

// Selected returns the row last selected, or nil.
func (t *StringTable) Selected() []string {
	if t.selected < 0 || t.selected >= len(t.rows) {
		return nil
	}
	return t.rows[t.selected]
}

// TSV returns the header and rows as tab-separated lines, as a spreadsheet pastes them.
func (t *StringTable) TSV() string {
	var b strings.Builder
	for _, r := range append([][]string{t.header}, t.rows...) {
		b.WriteString(strings.Join(r, "\t") + "\n")
	}
	return b.String()
}

// Column returns column c's values, one a line.
func (t *StringTable) Column(c int) string {
	var b strings.Builder
	for _, r := range t.rows {
		if c < len(r) {
			b.WriteString(r[c] + "\n")
		}
	}
	return b.String()
}

// SortBy sorts the rows by column c, ascending, or descending when it was sorted
// ascending by c already; numbers compare as numbers ("3/10" by its first number), and
// rows that tie keep their order.
func (t *StringTable) SortBy(c int) {
	desc := t.sortCol == c && !t.sortDesc
	rows := slices.Clone(t.rows)
	slices.SortStableFunc(rows, func(a, b []string) int {
		var x, y string
		if c < len(a) {
			x = a[c]
		}
		if c < len(b) {
			y = b[c]
		}
		r := compareCells(x, y)
		if desc {
			r = -r
		}
		return r
	})
	t.rows, t.sortCol, t.sortDesc, t.selected = rows, c, desc, -1
	t.Table.UnselectAll()
	t.Table.Refresh()
}

// compareCells compares two cells as numbers when both start with one, else as text.
func compareCells(a, b string) int {
	x, errA := strconv.ParseFloat(leadingNumber(a), 64)
	y, errB := strconv.ParseFloat(leadingNumber(b), 64)
	if errA == nil && errB == nil {
		return cmp.Compare(x, y)
	}
	return strings.Compare(strings.ToLower(a), strings.ToLower(b))
}

// leadingNumber is the number a cell starts with ("3/10" -> "3").
func leadingNumber(s string) string {
	s = strings.TrimSpace(s)
	end := strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune("+-.0123456789eE", r) })
	if end >= 0 {
		s = s[:end]
	}
	return s
}
