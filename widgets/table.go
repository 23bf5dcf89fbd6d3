package widgets

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// StringTable shows rows of text with a sticky header row; set rows with SetRows.
type StringTable struct {
	*widget.Table
	header   []string
	rows     [][]string
	selected int // the row last selected, -1 for none
	// OnSelected, when set, is called with the row the user selects.
	OnSelected func(row int)
}

// NewStringTable returns an empty table.
func NewStringTable() *StringTable {
	t := &StringTable{selected: -1}
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
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	t.Table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Row < 0 && id.Col >= 0 && id.Col < len(t.header) {
			o.(*widget.Label).SetText(t.header[id.Col])
		}
	}
	return t
}

// SetRows replaces the header and rows; widths are column widths (the last repeats).
func (t *StringTable) SetRows(header []string, rows [][]string, widths ...float32) {
	t.header, t.rows, t.selected = header, rows, -1
	t.Table.UnselectAll()
	for c := range header {
		w := float32(120)
		if len(widths) > 0 {
			w = widths[min(c, len(widths)-1)]
		}
		t.Table.SetColumnWidth(c, w)
	}
	t.Table.Refresh()
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
