package dataset

import (
	"testing"
)

// FuzzSheetRows feeds the sheet scanner arbitrary XML: it returns rows or an error, and
// never panics or holds more than a bounded number of cells.
func FuzzSheetRows(f *testing.F) {
	f.Add([]byte(`<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1"><v>1.5</v></c></row><row r="3"><c r="B3" t="inlineStr"><is><t>a&amp;b</t></is></c></row></sheetData></worksheet>`))
	f.Add([]byte(`<x:worksheet><x:sheetData><x:row><x:c><x:v>2</x:v></x:c><x:c/></x:row></x:sheetData></x:worksheet>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		w := &workbook{strs: []string{"gene"}}
		rows, err := w.sheetRows(b)
		if err != nil {
			return
		}
		n := 0
		for _, r := range rows {
			n += len(r)
		}
		if n > 100*len(b)+1<<21 {
			t.Fatalf("%d cells held for %d bytes", n, len(b))
		}
	})
}
