package app

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/study"
	"steadfast/internal/text"
	"steadfast/plots"
	"steadfast/widgets"
)

// copyText puts text on the clipboard and says what was copied.
func (u *UI) copyText(text, what string) {
	u.app.Clipboard().SetContent(text)
	u.progress.Status.SetText("Copied " + what + " to the clipboard.")
}

// tableActions are the buttons that take a table out of the window: its genes (column
// geneCol, one a line; none when geneCol < 0), the selected row, the whole table
// (tab-separated: it pastes into a spreadsheet), and an export to CSV or TSV. Selecting
// a row also makes Ctrl+C copy it.
func (u *UI) tableActions(t *widgets.StringTable, geneCol int, name string) fyne.CanvasObject {
	prev := t.OnSelected
	t.OnSelected = func(row int) {
		u.lastTable = t
		if prev != nil {
			prev(row)
		}
	}
	box := container.NewHBox()
	if geneCol >= 0 {
		var b *widget.Button
		b = widget.NewButtonWithIcon("Copy genes", theme.ContentCopyIcon(), func() {
			if slices.Index(t.Header(), symbolColumn) < 0 {
				u.copyGenes(t, geneCol, copyIDs)
				return
			}
			// symbols known: the user chooses ids, symbols or both
			menu := fyne.NewMenu("",
				fyne.NewMenuItem("Feature ids", func() { u.copyGenes(t, geneCol, copyIDs) }),
				fyne.NewMenuItem("Gene symbols", func() { u.copyGenes(t, geneCol, copySymbols) }),
				fyne.NewMenuItem("Both (id, tab, symbol)", func() { u.copyGenes(t, geneCol, copyBoth) }))
			pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(b).Add(fyne.NewPos(0, b.Size().Height))
			widget.ShowPopUpMenuAtPosition(menu, u.win.Canvas(), pos)
		})
		box.Add(b)
	}
	box.Add(widget.NewButtonWithIcon("Copy row", theme.ContentCopyIcon(), func() { u.copySelectedRow(t) }))
	box.Add(widget.NewButtonWithIcon("Copy table", theme.ContentCopyIcon(), func() {
		u.copyText(t.TSV(), fmt.Sprintf("the table (%s)", text.Count(len(t.Rows()), "row")))
	}))
	box.Add(widget.NewButtonWithIcon("Export table...", theme.DocumentSaveIcon(), func() { u.exportTable(t, name) }))
	return box
}

// symbolColumn heads a table's gene-symbol column (the top features' and the
// signature's), so that Copy genes offers symbols.
const symbolColumn = "gene symbol"

// What Copy genes copies from a table with gene symbols.
const (
	copyIDs = iota
	copySymbols
	copyBoth
)

// copyGenes copies the genes of t's column geneCol, one a line: their ids, their
// symbols (each once, in the table's order; features without one are counted in the
// status line), or both, tab-separated.
func (u *UI) copyGenes(t *widgets.StringTable, geneCol, what int) {
	symCol := slices.Index(t.Header(), symbolColumn)
	if symCol < 0 {
		what = copyIDs
	}
	var b strings.Builder
	seen, missing, n := map[string]bool{}, 0, 0
	for _, row := range t.Rows() {
		if geneCol >= len(row) || symCol >= len(row) {
			continue
		}
		switch what {
		case copyIDs:
			b.WriteString(row[geneCol] + "\n")
			n++
		case copyBoth:
			b.WriteString(row[geneCol] + "\t" + row[symCol] + "\n")
			n++
		case copySymbols:
			s := row[symCol]
			if s == "" {
				missing++
				continue
			}
			if !seen[s] {
				seen[s] = true
				b.WriteString(s + "\n")
				n++
			}
		}
	}
	what2 := text.Count(n, "gene")
	if what == copySymbols {
		what2 = text.Count(n, "gene symbol")
		if missing > 0 {
			what2 += fmt.Sprintf(" (%s no symbol)", text.Count(missing, "feature has|features have"))
		}
	}
	u.copyText(b.String(), what2)
}

// copySelectedRow copies the row selected in t, tab-separated.
func (u *UI) copySelectedRow(t *widgets.StringTable) {
	row := t.Selected()
	if row == nil {
		u.progress.Status.SetText("Select a row first (click it), then copy it.")
		return
	}
	u.copyText(strings.Join(row, "\t")+"\n", "the row")
}

// exportTable writes t as CSV (or TSV for a .tsv name) where the user chooses.
func (u *UI) exportTable(t *widgets.StringTable, name string) {
	u.saveAs(name+".csv", []string{".csv", ".tsv"}, func(path string) error {
		var err error
		if strings.EqualFold(filepath.Ext(path), ".tsv") {
			err = study.WriteFile(path, []byte(t.TSV()))
		} else {
			err = plots.WriteCSV(path, append([][]string{t.Header()}, t.Rows()...))
		}
		if err == nil {
			u.progress.Status.SetText("Wrote " + filepath.Base(path))
		}
		return err
	})
}

// copyTabGenes copies the genes of the table on the tab shown (Ctrl+Shift+C): the top
// features, the selection grid's features, the groups' representatives or the MIDS
// genes; on the charts' tabs, the top features.
func (u *UI) copyTabGenes() {
	t, col := u.results.topTable, 0
	switch u.selectedTab() {
	case tabGrid:
		t = u.results.gridTable
	case tabGroups:
		t, col = u.groups.table, 1
	case tabMIDS:
		t = u.mids.table
	case tabSignature:
		t = u.sigView.table
	}
	if len(t.Rows()) == 0 {
		u.progress.Status.SetText("No genes to copy on this tab yet.")
		return
	}
	u.copyText(t.Column(col), text.Count(len(t.Rows()), "gene"))
}
