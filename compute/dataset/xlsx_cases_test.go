package dataset

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// expressionRows is a four-sample table with a class column.
var expressionRows = [][]any{{"sample", "g1", "g2", "class"}, {"s1", 1.5, 2, "tumour"}, {"s2", 2, 1, "normal"}, {"s3", 3, 1, "tumour"}, {"s4", 4, 3.25, "normal"}}

// putRows writes rows into sheet from cell on.
func putRows(t *testing.T, wb *excelize.File, sheet, cell string, rows [][]any) {
	t.Helper()
	col, row, err := excelize.CellNameToCoordinates(cell)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		at, _ := excelize.CoordinatesToCellName(col, row+i)
		if err := wb.SetSheetRow(sheet, at, &r); err != nil {
			t.Fatal(err)
		}
	}
}

// saveXLSX writes wb into a temporary file and returns its path.
func saveXLSX(t *testing.T, wb *excelize.File) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "w.xlsx")
	if err := wb.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// readXLSXFile reads path and checks it gives expressionRows' table (values read off it
// by hand); it returns the notes.
func readXLSXFile(t *testing.T, path string, o Options) string {
	t.Helper()
	ds, err := ReadFile(path, o)
	if err != nil {
		t.Fatal(err)
	}
	if n, p := ds.Dims(); n != 4 || p != 2 || ds.X.At(3, 1) != 3.25 || ds.Samples[0] != "s1" || strings.Join(ds.Classes, ",") != "tumour,normal" {
		t.Errorf("%d x %d, samples %v, classes %v", n, p, ds.Samples, ds.Classes)
	}
	return strings.Join(ds.Notes, "; ")
}

// TestXLSXReadsTheActiveVisibleSheet: a hidden first sheet is passed over for the
// active one (it had been read), and without an active visible sheet the first visible.
func TestXLSXReadsTheActiveVisibleSheet(t *testing.T) {
	wb := excelize.NewFile()
	putRows(t, wb, "Sheet1", "A1", [][]any{{"old", "x", "y"}, {"a", 9, 9}, {"b", 8, 8}})
	wb.NewSheet("data")
	putRows(t, wb, "data", "A1", expressionRows)
	wb.SetActiveSheet(1)
	if err := wb.SetSheetVisible("Sheet1", false); err != nil {
		t.Fatal(err)
	}
	notes := readXLSXFile(t, saveXLSX(t, wb), Options{})
	if !strings.Contains(notes, `read sheet "data", the active sheet`) || !strings.Contains(notes, "Sheet1 (hidden)") {
		t.Errorf("notes: %s", notes)
	}
	wb.NewSheet("last")
	b := replacePart(t, mustBytes(t, wb), "xl/workbook.xml", strings.Replace(partText(t, wb, "xl/workbook.xml"), `activeTab="1"`, `activeTab="0"`, 1))
	path := filepath.Join(t.TempDir(), "hidden-active.xlsx")
	os.WriteFile(path, b, 0o644)
	if notes := readXLSXFile(t, path, Options{}); !strings.Contains(notes, "the first visible sheet") {
		t.Errorf("notes: %s", notes)
	}
}

// mustBytes returns wb as the bytes of an .xlsx file.
func mustBytes(t *testing.T, wb *excelize.File) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := wb.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// partText returns the text of one part of wb's file.
func partText(t *testing.T, wb *excelize.File, name string) string {
	t.Helper()
	b := mustBytes(t, wb)
	zr, _ := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	for _, f := range zr.File {
		if f.Name == name {
			rc, _ := f.Open()
			defer rc.Close()
			text, _ := io.ReadAll(rc)
			return string(text)
		}
	}
	t.Fatalf("no part %s", name)
	return ""
}

// TestXLSXReadmeSheetFirstNamesSheet: a workbook whose first (active) sheet is a README
// is refused with the other sheets' names and --sheet (it had said nothing of them).
func TestXLSXReadmeSheetFirstNamesSheet(t *testing.T) {
	wb := excelize.NewFile()
	wb.SetSheetName("Sheet1", "README")
	putRows(t, wb, "README", "A1", [][]any{{"This workbook holds the expression values"}, {"of the tumour study, sheet 2"}})
	wb.NewSheet("values")
	putRows(t, wb, "values", "A1", expressionRows)
	_, err := ReadFile(saveXLSX(t, wb), Options{})
	if err == nil || !strings.Contains(err.Error(), `other sheets are "values"`) || !strings.Contains(err.Error(), "--sheet") {
		t.Errorf("%v", err)
	}
}

// TestXLSXTableAwayFromA1: a table starting at C4, and one under a title with an empty
// row between, are read (they had been "empty row inside the table").
func TestXLSXTableAwayFromA1(t *testing.T) {
	wb := excelize.NewFile()
	putRows(t, wb, "Sheet1", "C4", expressionRows)
	if notes := readXLSXFile(t, saveXLSX(t, wb), Options{}); !strings.Contains(notes, "the table starts at cell C4") {
		t.Errorf("notes: %s", notes)
	}
	wb = excelize.NewFile()
	wb.SetCellValue("Sheet1", "A1", "Tumour study, 2024")
	putRows(t, wb, "Sheet1", "A3", expressionRows)
	if notes := readXLSXFile(t, saveXLSX(t, wb), Options{}); !strings.Contains(notes, "hold a title") {
		t.Errorf("notes: %s", notes)
	}
	wb = excelize.NewFile()
	putRows(t, wb, "Sheet1", "A1", expressionRows[:3])
	putRows(t, wb, "Sheet1", "A5", expressionRows[3:])
	if _, err := ReadFile(saveXLSX(t, wb), Options{}); err == nil || !strings.Contains(err.Error(), "row 4 is empty inside the table") {
		t.Errorf("a gap inside the table: %v", err)
	}
}

// TestXLSXDateAndTextColumnsAreAnnotations: a date column (a number shown as a date)
// is left out of the features with a note (the date had been ranked as a gene), and a
// text column named sex is a clinical covariate.
func TestXLSXDateAndTextColumnsAreAnnotations(t *testing.T) {
	wb := excelize.NewFile()
	rows := [][]any{{"sample", "collected", "sex", "g1", "g2", "class"}}
	for i, r := range expressionRows[1:] {
		rows = append(rows, []any{r[0], time.Date(2024, 3, 1+i, 0, 0, 0, 0, time.UTC), []string{"F", "M"}[i%2], r[1], r[2], r[3]})
	}
	putRows(t, wb, "Sheet1", "A1", rows)
	style, _ := wb.NewStyle(&excelize.Style{NumFmt: 14})
	wb.SetColStyle("Sheet1", "B", style)
	for i := range rows[1:] {
		wb.SetCellStyle("Sheet1", "B"+string(rune('2'+i)), "B"+string(rune('2'+i)), style)
	}
	notes := readXLSXFile(t, saveXLSX(t, wb), Options{})
	// sex is a clinical covariate, found by its name
	if !strings.Contains(notes, `1 columns hold text or dates`) || !strings.Contains(notes, `annotations: "collected"`) || !strings.Contains(notes, `covariates (sample annotations, not features): "sex"`) {
		t.Errorf("notes: %s", notes)
	}
}

// TestXLSXFormulasWithoutValuesNamed: formula cells saved without a result are named in
// a note and read as missing (they had been dropped without a word).
func TestXLSXFormulasWithoutValuesNamed(t *testing.T) {
	wb := excelize.NewFile()
	putRows(t, wb, "Sheet1", "A1", expressionRows)
	wb.SetCellValue("Sheet1", "C3", nil)
	wb.SetCellFormula("Sheet1", "C3", "B3*2") // on an empty cell: no cached value
	ds, err := ReadFile(saveXLSX(t, wb), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(ds.Notes, "; "); !strings.Contains(notes, "1 cell holds a formula without a saved result (C3)") {
		t.Errorf("notes: %s", notes)
	}
	if s := Summarize(ds); s.MissingCells != 1 {
		t.Errorf("%d missing cells, want the formula's 1", s.MissingCells)
	}
}

// TestXLSXMergedClassCells: a class cell merged over several samples gives each of them
// the class, and the note names the range (they had become unlabelled).
func TestXLSXMergedClassCells(t *testing.T) {
	wb := excelize.NewFile()
	rows := [][]any{{"sample", "g1", "g2", "class"}, {"s1", 1.5, 2, "tumour"}, {"s3", 3, 1, nil}, {"s2", 2, 1, "normal"}, {"s4", 4, 3.25, nil}}
	putRows(t, wb, "Sheet1", "A1", rows)
	wb.MergeCell("Sheet1", "D2", "D3")
	wb.MergeCell("Sheet1", "D4", "D5")
	ds, err := ReadFile(saveXLSX(t, wb), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := ds.Dims(); n != 4 || strings.Join(ds.Classes, ",") != "tumour,normal" || ds.Classes[ds.Labels[1]] != "tumour" {
		t.Errorf("%d samples, classes %v %v", n, ds.Classes, ds.Labels)
	}
	if notes := strings.Join(ds.Notes, "; "); !strings.Contains(notes, `D2:D3 ("tumour")`) {
		t.Errorf("notes: %s", notes)
	}
}

// TestXLSXWithALargePartFirst: a workbook whose zip stores a large part before xl/ is
// still recognised (it had been "a binary file").
func TestXLSXWithALargePartFirst(t *testing.T) {
	wb := excelize.NewFile()
	putRows(t, wb, "Sheet1", "A1", expressionRows)
	var buf bytes.Buffer
	wb.Write(&buf)
	zr, _ := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "docProps/thumbnail.jpeg", Method: zip.Store})
	w.Write(bytes.Repeat([]byte{0xd8}, 200_000))
	for _, f := range zr.File {
		w, _ := zw.Create(f.Name)
		rc, _ := f.Open()
		io.Copy(w, rc)
		rc.Close()
	}
	zw.Close()
	path := filepath.Join(t.TempDir(), "big.xlsx")
	os.WriteFile(path, out.Bytes(), 0o644)
	readXLSXFile(t, path, Options{})
}

// A column of dates stored as numbers under custom date formats, each cell typed t="n"
// as some writers mark numbers (LibreOffice, .NET), is a date column: an annotation with
// a note, not a gene (it was ranked as a gene: only untyped cells were taken as dates).
// The formats are custom codes (ids 164 and up), one of them quoted and one with a
// locale; the serial numbers are read off the dates by Excel's 1900 system.
func TestXLSXCustomDateFormatsTypedAsNumbers(t *testing.T) {
	for _, code := range []string{"dd/mm/yyyy", "[$-409]mmmm d, yyyy;@", `yyyy"年"m"月"d"日"`, "mm/dd/yy h:mm AM/PM"} {
		wb := excelize.NewFile()
		rows := [][]any{{"sample", "collected", "g1", "g2", "class"}}
		for i, r := range expressionRows[1:] {
			rows = append(rows, []any{r[0], time.Date(2024, 3, 1+i, 0, 0, 0, 0, time.UTC), r[1], r[2], r[3]})
		}
		putRows(t, wb, "Sheet1", "A1", rows)
		c := code
		style, err := wb.NewStyle(&excelize.Style{CustomNumFmt: &c})
		if err != nil {
			t.Fatal(err)
		}
		for i := range rows[1:] {
			cell := fmt.Sprintf("B%d", i+2)
			wb.SetCellStyle("Sheet1", cell, cell, style)
		}
		path := saveXLSX(t, wb)
		retype(t, path, "xl/worksheets/sheet1.xml", func(s string) string {
			return regexp.MustCompile(`(<c r="[A-Z]+[0-9]+"(?: s="[0-9]+")?)>`).ReplaceAllString(s, `$1 t="n">`)
		})
		ds, err := ReadFile(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(ds.Features, "collected") || !strings.Contains(strings.Join(ds.Notes, " "), `"collected"`) {
			t.Errorf("%s: features %v, notes %v", code, ds.Features, ds.Notes)
		}
	}
}

// retype rewrites the part name of the workbook at path with edit.
func retype(t *testing.T, path, name string, edit func(string) string) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		r, _ := f.Open()
		b, _ := io.ReadAll(r)
		r.Close()
		if f.Name == name {
			b = []byte(edit(string(b)))
		}
		w, _ := zw.Create(f.Name)
		w.Write(b)
	}
	zr.Close()
	zw.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
