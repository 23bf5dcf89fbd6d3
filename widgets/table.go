package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// StringTable shows rows of text with a sticky header row; set rows with SetRows.
type StringTable struct {
	*widget.Table
	header []string
	rows   [][]string
}

// NewStringTable returns an empty table.
func NewStringTable() *StringTable {
	t := &StringTable{}
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
	t.header, t.rows = header, rows
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
