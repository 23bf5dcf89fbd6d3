package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A table without a column named like a class never takes a column of continuous
// values as the class: the survival tables of ../shared/data (sample, time, event,
// genes) had their last probe, 146 distinct real values, taken as 146 classes with only
// a note (they are read as survival now: TestSurvivalTablesOfSharedData). The refusal
// names the column, its values and how to name the class. Class codes (0/1, 1.0/2.0)
// and text in the last column are still taken.
func TestContinuousLastColumnIsNoClass(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, table string
		ok          bool
	}{
		{"reals.csv", "id,g1,g2,last\na,1,2,0.5\nb,2,3,1.7\nc,3,1,2.25\nd,4,4,3.1\n", false},
		{"ints.csv", "id,g1,g2,g3,g4,g5,g6,g7,g8,g9,g10,g11,g12,g13,age\n" + rows(12, func(i int) string { return strconv.Itoa(40 + 3*i) }), false},
		{"codes.csv", "id,g1,g2,grade\na,1,2,1.0\nb,2,3,2.0\nc,3,1,1.0\nd,4,4,2.0\n", true},
		{"binary.csv", "id,g1,g2,y\na,1,2,0\nb,2,3,1\nc,3,1,0\nd,4,4,1\n", true},
		{"text.csv", "id,g1,g2,kind\na,1,2,tumour\nb,2,3,normal\nc,3,1,tumour\nd,4,4,normal\n", true},
	} {
		path := filepath.Join(dir, tc.name)
		os.WriteFile(path, []byte(tc.table), 0o644)
		_, err := ReadFile(path, Options{})
		if (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.name, err)
		}
		if err != nil {
			for _, want := range []string{"is named class", "holds numbers", "distinct values such as", `Name the class`, "--class NAME", "--time COL --event COL"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%s: %q lacks %q", tc.name, err, want)
				}
			}
		}
	}
}

// rows makes n rows "s<i>,<13 values>,<last(i)>" of a table wider than long.
func rows(n int, last func(i int) string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "s%d", i)
		for j := range 13 {
			fmt.Fprintf(&b, ",%.2f", float64(i*j)/7+0.5)
		}
		fmt.Fprintf(&b, ",%s\n", last(i))
	}
	return b.String()
}
