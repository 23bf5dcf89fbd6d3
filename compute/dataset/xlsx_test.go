package dataset

import (
	"os"
	"path/filepath"
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
