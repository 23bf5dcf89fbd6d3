package dataset

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// TestReadXLSX: a workbook written by excelize reads as the same table as its CSV, from
// the first sheet or the one named; an unknown sheet is refused with the list.
func TestReadXLSX(t *testing.T) {
	wb := excelize.NewFile()
	wb.SetSheetName("Sheet1", "notes")
	wb.SetCellValue("notes", "A1", "read me")
	wb.NewSheet("expression")
	rows := [][]any{{"sample", "g1", "g2", "class"}, {"s1", 1.5, 2, "tumour"}, {"s2", 2, nil, "normal"}, {"s3", 3, 1, "tumour"}, {"s4", 4, 3.25, "normal"}}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		wb.SetSheetRow("expression", cell, &r)
	}
	path := filepath.Join(t.TempDir(), "data.xlsx")
	if err := wb.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	ds, err := ReadFile(path, Options{Sheet: "expression"})
	if err != nil {
		t.Fatal(err)
	}
	if n, p := ds.Dims(); n != 4 || p != 2 || ds.X.At(3, 1) != 3.25 || ds.Samples[0] != "s1" || strings.Join(ds.Classes, ",") != "tumour,normal" {
		t.Errorf("%d x %d, %v %v", n, p, ds.Samples, ds.Classes)
	}
	if s := Summarize(ds); s.MissingCells != 1 {
		t.Errorf("the empty cell: %d missing", s.MissingCells)
	}
	if !strings.Contains(strings.Join(ds.Notes, ";"), `read sheet "expression" of 2`) {
		t.Errorf("notes %v", ds.Notes)
	}
	if _, err := ReadFile(path, Options{Sheet: "counts"}); err == nil || !strings.Contains(err.Error(), "notes, expression") {
		t.Errorf("unknown sheet: %v", err)
	}
	if _, err := ReadFile(path, Options{}); err == nil {
		t.Error("the first sheet (a note, no table) was read as data")
	}
	os.Remove(path)
}

// TestWorkbookRowsEqualExcelize: the sheet scanner reads the same cell text as
// excelize's GetRows with raw values, on a workbook holding every kind of cell excelize
// writes (shared, rich and stream-written strings, escaped characters, numbers from
// 1e-300 to 1e300, booleans, formulas, gaps between cells and rows) and on two sheets.
func TestWorkbookRowsEqualExcelize(t *testing.T) {
	wb := excelize.NewFile()
	wb.SetCellValue("Sheet1", "A1", "gene & <co> \"quoted\" 'x'")
	wb.SetCellValue("Sheet1", "C1", 1.0/3)
	wb.SetCellValue("Sheet1", "D1", -1e-300)
	wb.SetCellValue("Sheet1", "E1", 1e300)
	wb.SetCellValue("Sheet1", "F1", 123456789)
	wb.SetCellValue("Sheet1", "B2", true)
	wb.SetCellValue("Sheet1", "C2", false)
	wb.SetCellFormula("Sheet1", "D2", "C1*2")
	wb.SetCellRichText("Sheet1", "A4", []excelize.RichTextRun{{Text: "ri"}, {Text: "ch ü"}})
	wb.SetCellValue("Sheet1", "AB4", "far column")
	wb.NewSheet("streamed")
	sw, err := wb.NewStreamWriter("streamed")
	if err != nil {
		t.Fatal(err)
	}
	for r := 1; r <= 50; r++ {
		row := []any{"g" + strconv.Itoa(r), float64(r) / 7, nil, r%2 == 0, "a&b"}
		cell, _ := excelize.CoordinatesToCellName(1, r+r/10)
		sw.SetRow(cell, row)
	}
	sw.Flush()
	path := filepath.Join(t.TempDir(), "kinds.xlsx")
	if err := wb.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	ours, err := openWorkbook(b)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := excelize.OpenFile(path)
	defer ref.Close()
	if strings.Join(ours.sheets, ",") != strings.Join(ref.GetSheetList(), ",") {
		t.Fatalf("sheets %v, excelize %v", ours.sheets, ref.GetSheetList())
	}
	for i, name := range ours.sheets {
		got, err := ours.rows(i)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ref.GetRows(name, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		if g, w := trimRows(got), trimRows(want); !reflect.DeepEqual(g, w) {
			t.Errorf("sheet %s:\n ours    %q\n excelize %q", name, g, w)
		}
	}
}

// trimRows drops trailing empty cells and rows, which excelize leaves out.
func trimRows(rows [][]string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		for len(r) > 0 && r[len(r)-1] == "" {
			r = r[:len(r)-1]
		}
		out[i] = r
	}
	for len(out) > 0 && len(out[len(out)-1]) == 0 {
		out = out[:len(out)-1]
	}
	return out
}

// TestDamagedWorkbooksRefused: a workbook whose sheet is cut short, malformed, or names
// a cell far beyond Excel's limits is refused with a message, never read at its word
// (a reference like XFDZZZZZ1 would otherwise ask for billions of cells).
func TestDamagedWorkbooksRefused(t *testing.T) {
	wb := excelize.NewFile()
	wb.SetCellValue("Sheet1", "A1", "gene")
	var buf bytes.Buffer
	if err := wb.Write(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	for name, sheet := range map[string]string{
		"far column": `<worksheet><sheetData><row r="1"><c r="XFDZZZZZZZ1"><v>1</v></c></row></sheetData></worksheet>`,
		"far row":    `<worksheet><sheetData><row r="99999999999"><c><v>1</v></c></row></sheetData></worksheet>`,
		"cut short":  `<worksheet><sheetData><row r="1"><c r="A1"><v>1`,
		"cell alone": `<worksheet><sheetData><c r="A1"><v>1</v></c></sheetData></worksheet>`,
		"bad string": `<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>99</v></c></row></sheetData></worksheet>`,
	} {
		b := replacePart(t, good, "xl/worksheets/sheet1.xml", sheet)
		if _, err := ReadXLSX("damaged.xlsx", b, Options{}); err == nil || !strings.Contains(err.Error(), "damaged.xlsx") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := ReadXLSX("trunc.xlsx", good[:len(good)/2], Options{}); err == nil {
		t.Error("a truncated workbook was read")
	}
}

// replacePart returns the zip b with part name's content replaced.
func replacePart(t *testing.T, b []byte, name, content string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		w, _ := zw.Create(f.Name)
		if f.Name == name {
			w.Write([]byte(content))
			continue
		}
		rc, _ := f.Open()
		io.Copy(w, rc)
		rc.Close()
	}
	zw.Close()
	return out.Bytes()
}
