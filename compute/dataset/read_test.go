package dataset

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func mustRead(t *testing.T, name, text string, o Options) *Dataset {
	t.Helper()
	ds, err := ReadDelimited(name, []byte(text), o)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return ds
}

func TestReadDelimitedOrientations(t *testing.T) {
	rows := "id,g1,g2,class\ns1,1,2,A\ns2,3,4,B\ns3,5,6,A\n"
	cols := "gene,s1,s2,s3\ng1,1,3,5\ng2,2,4,6\nclass,A,B,A\n"
	for _, tc := range []struct{ name, text string }{{"rows.csv", rows}, {"cols.csv", cols}} {
		ds := mustRead(t, tc.name, tc.text, Options{})
		n, p := ds.Dims()
		if n != 3 || p != 2 {
			t.Fatalf("%s: dims %d x %d, want 3 x 2", tc.name, n, p)
		}
		if ds.Features[0] != "g1" || ds.Features[1] != "g2" {
			t.Errorf("%s: features %v", tc.name, ds.Features)
		}
		// worked by hand: sample 2 has g1 = 3, g2 = 4, class B
		if ds.X.At(1, 0) != 3 || ds.X.At(1, 1) != 4 || ds.Classes[ds.Labels[1]] != "B" {
			t.Errorf("%s: sample 2 = %v %v %s", tc.name, ds.X.At(1, 0), ds.X.At(1, 1), ds.Classes[ds.Labels[1]])
		}
		if ds.Samples[2] != "s3" {
			t.Errorf("%s: sample names %v", tc.name, ds.Samples)
		}
	}
	// an explicit orientation overrides detection: this table read with samples as columns
	ds := mustRead(t, "x.csv", "gene,a,b\ng1,1,2\ng2,3,4\nlabel,x,y\n", Options{Orientation: SamplesAsColumns})
	if n, p := ds.Dims(); n != 2 || p != 2 {
		t.Errorf("override: %d x %d", n, p)
	}
}

func TestReadDelimitedFormats(t *testing.T) {
	// BOM, CRLF, semicolons with decimal commas, tabs, quotes
	ds := mustRead(t, "bom.csv", "\ufeffg1;g2;class\r\n1,5;2;A\r\n3;4,25;B\r\n", Options{})
	if ds.X.At(0, 0) != 1.5 || ds.X.At(1, 1) != 4.25 {
		t.Errorf("decimal comma: %v %v", ds.X.At(0, 0), ds.X.At(1, 1))
	}
	if len(ds.Notes) == 0 || !strings.Contains(ds.Notes[0], "byte-order") {
		t.Errorf("BOM not noted: %v", ds.Notes)
	}
	ds = mustRead(t, "t.tsv", "g1\tg2\tclass\n1\t2\tA\n3\t4\tB\n", Options{})
	if ds.X.At(1, 0) != 3 {
		t.Errorf("tab: %v", ds.X.At(1, 0))
	}
	ds = mustRead(t, "q.csv", "\"g,1\",g2,class\n1,2,\"A x\"\n3,4,B\n", Options{})
	if ds.Features[0] != "g,1" || ds.Classes[0] != "A x" {
		t.Errorf("quotes: %v %v", ds.Features, ds.Classes)
	}
}

func TestReadDelimitedBadInput(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		line, col  int
		contains   string
	}{
		{"empty.csv", "", 0, 0, "empty"},
		{"blank.csv", "\n\n  \n", 0, 0, "empty"},
		{"binary.csv", "PK\x03\x04\x00\x00binary", 0, 0, "binary"},
		{"ragged.csv", "g1,g2,class\n1,2,A\n3,B\n", 3, 3, "ragged"},
		{"text.csv", "g1,g2,class\n1,2,A\n3,abc,B\n", 3, 2, `"abc"`},
		{"noclass.csv", "g1,g2,class\n1,2,NA\n3,4,\n", 0, 0, "no sample has a class label"},
		{"onecol.csv", "a\n1\n", 0, 0, "two or more columns"},
		{"cols-text.csv", "gene,s1,s2\ng1,1,x\nclass,A,B\n", 2, 3, `"x"`},
	} {
		_, err := ReadDelimited(tc.name, []byte(tc.text), Options{})
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: got %v, want a ParseError", tc.name, err)
			continue
		}
		if pe.Line != tc.line || pe.Column != tc.col || !strings.Contains(err.Error(), tc.contains) || !strings.HasPrefix(err.Error(), tc.name) {
			t.Errorf("%s: %q (line %d col %d), want line %d col %d containing %q", tc.name, err, pe.Line, pe.Column, tc.line, tc.col, tc.contains)
		}
	}
}

func TestMissingDuplicatesConstant(t *testing.T) {
	ds := mustRead(t, "m.csv", "g,g,c1,g,class\n1,NA,7,2,A\n2,,7,3,B\n3,4,7,inf,A\n", Options{})
	if got := strings.Join(ds.Features, " "); got != "g g_dup1 c1 g_dup2" {
		t.Errorf("duplicates renamed to %q", got)
	}
	s := Summarize(ds)
	// worked by hand: NA and empty in g_dup1, inf in g_dup2
	if s.MissingCells != 3 || len(s.MissingFeatures) != 2 {
		t.Errorf("missing: %d cells in %v", s.MissingCells, s.MissingFeatures)
	}
	if len(s.ConstantFeatures) != 1 || s.ConstantFeatures[0] != "c1" {
		t.Errorf("constant: %v", s.ConstantFeatures)
	}
	if err := Validate(ds, 1); err == nil || !strings.Contains(err.Error(), "3 missing") {
		t.Errorf("Validate with missing values: %v", err)
	}
	clean, dropped := Preprocess(ds, Prep{DropConstant: true, DropMissing: true})
	if _, p := clean.Dims(); p != 1 || clean.Features[0] != "g" || len(dropped) != 3 {
		t.Errorf("after dropping: %v, dropped %v", clean.Features, dropped)
	}
	if err := Validate(clean, 1); err != nil {
		t.Errorf("clean data: %v", err)
	}
	if err := Validate(clean, 2); err == nil || !strings.Contains(err.Error(), "fewer than the 2 folds") {
		t.Errorf("small class: %v", err)
	}
	one := mustRead(t, "one.csv", "g1,class\n1,A\n2,A\n", Options{})
	if err := Validate(one, 1); err == nil || !strings.Contains(err.Error(), "one class") {
		t.Errorf("one class: %v", err)
	}
}

// TestLog2Floor: values below 1 are raised to 1 before log2, and a note counts them
// (a zero, a value between 0 and 1); a negative value refuses log2.
func TestLog2Floor(t *testing.T) {
	ds := mustRead(t, "l.csv", "g1,g2,class\n8,0,A\n0.5,4,B\n", Options{})
	out, _, err := PreprocessContext(context.Background(), ds, Prep{Log2: true})
	if err != nil {
		t.Fatal(err)
	}
	// worked by hand: log2 8 = 3, log2 max(0, 1) = 0, log2 max(0.5, 1) = 0, log2 4 = 2
	want := []float64{3, 0, 0, 2}
	got := []float64{out.X.At(0, 0), out.X.At(0, 1), out.X.At(1, 0), out.X.At(1, 1)}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("log2: got %v, want %v", got, want)
		}
	}
	// worked by hand: 0 and 0.5 are 2 of the 4 values, 50%, a share that warns
	if note := strings.Join(out.Notes, "\n"); !strings.Contains(note, "log2: 2 of 4 values (50.0%) are below 1 (1 zero, 1 between 0 and 1) and were raised to 1 before log2, so they are 0 after it; warning") {
		t.Errorf("notes: %s", note)
	}
	neg := mustRead(t, "n.csv", "g1,g2,class\n8,-5,A\n0.5,4,B\n", Options{})
	if _, _, err := PreprocessContext(context.Background(), neg, Prep{Log2: true}); err == nil || !strings.Contains(err.Error(), "1 of 4 values are negative (the least -5)") {
		t.Errorf("negative values: %v", err)
	}
}

func TestStandardizeUsesTrainingStatistics(t *testing.T) {
	ds := mustRead(t, "z.csv", "g1,g2,class\n1,5,A\n2,5,B\n3,5,A\n", Options{})
	test := SelectFeatures(ds.X, []int{0, 1})
	train := SelectFeatures(ds.X, []int{0, 1})
	test.Set(0, 0, 4)
	Standardize(train, test)
	// worked by hand: mean 2, sd 1 (n-1), so 1 -> -1, 3 -> 1, test 4 -> 2; constant g2 -> 0
	if train.At(0, 0) != -1 || train.At(2, 0) != 1 || test.At(0, 0) != 2 || train.At(0, 1) != 0 {
		t.Errorf("z-scores %v %v %v %v", train.At(0, 0), train.At(2, 0), test.At(0, 0), train.At(0, 1))
	}
}

func TestGCTAndCLS(t *testing.T) {
	gct := "#1.2\n2\t3\nName\tDescription\ta\tb\tc\ng1\td\t1\t2\t3\ng2\td\t4\t5\t6\n"
	ds, err := ReadGCT("x.gct", []byte(gct), "x.cls", []byte("3 2 1\n# ALL AML\n0 1 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if n, p := ds.Dims(); n != 3 || p != 2 || ds.X.At(2, 1) != 6 || ds.Classes[ds.Labels[1]] != "AML" || ds.Samples[0] != "a" {
		t.Errorf("GCT read wrong: %d x %d, %v, %v", n, p, ds.Classes, ds.Samples)
	}
	_, err = ReadGCT("x.gct", []byte(gct), "x.cls", []byte("4 2 1\n# ALL AML\n0 1 0 1\n"))
	if err == nil || !strings.Contains(err.Error(), "says 4 samples but the GCT file has 3") {
		t.Errorf("CLS disagreeing in count: %v", err)
	}
	_, err = ReadGCT("x.gct", []byte("#1.2\n2\t3\nName\tDescription\ta\tb\tc\ng1\td\t1\t2\n"), "x.cls", []byte("3 2 1\n# A B\n0 1 0\n"))
	if err == nil {
		t.Error("short GCT accepted")
	}
}

func TestARFF(t *testing.T) {
	arff := "% comment\n@relation r\n@attribute g1 numeric\n@attribute 'g 2' real\n@attribute class {A,B}\n@data\n1,2,A\n3,?,B\n{0 5, 2 A}\n"
	ds, err := ReadARFF("x.arff", []byte(arff), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n, p := ds.Dims(); n != 3 || p != 2 || ds.Features[1] != "g 2" || !math.IsNaN(ds.X.At(1, 1)) || ds.X.At(2, 0) != 5 || ds.X.At(2, 1) != 0 {
		t.Errorf("ARFF read wrong: %d x %d %v", n, p, ds.Features)
	}
	_, err = ReadARFF("x.arff", []byte("@relation r\n@attribute g1 numeric\n@attribute class {A,B}\n@data\n1,2,A\n"), Options{})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 5 {
		t.Errorf("ragged ARFF row: %v", err)
	}
}

func TestReadRealData(t *testing.T) {
	for _, tc := range []struct {
		file      string
		n, p      int
		classes   int
		firstName string
	}{ // sizes from ../shared/data/README.md
		{"colon.csv", 62, 2000, 2, "Hsa.3004"},
		{"leukemia.gct", 72, 7129, 2, ""},
		{"srbct.csv", 63, 2308, 4, ""},
		{"lymphoma.csv", 62, 4026, 3, ""},
	} {
		path := filepath.Join("..", "..", "..", "shared", "data", tc.file)
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("real data missing (../shared/data): %v", err)
		}
		ds, err := ReadFile(path, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		n, p := ds.Dims()
		if n != tc.n || p != tc.p || len(ds.Classes) != tc.classes {
			t.Errorf("%s: %d x %d with %d classes, want %d x %d with %d", tc.file, n, p, len(ds.Classes), tc.n, tc.p, tc.classes)
		}
		if tc.firstName != "" && ds.Features[0] != tc.firstName {
			t.Errorf("%s: first feature %q", tc.file, ds.Features[0])
		}
	}
}

func TestStratifiedFolds(t *testing.T) {
	labels := make([]int, 62)
	for i := 40; i < 62; i++ {
		labels[i] = 1
	}
	splits := StratifiedFolds(labels, 10, Rand(7, 1))
	seen := make([]int, 62)
	for _, s := range splits {
		c1 := 0
		for _, i := range s.Test {
			seen[i]++
			c1 += labels[i]
		}
		if len(s.Test) < 6 || len(s.Test) > 7 || c1 < 2 || c1 > 3 || len(s.Train)+len(s.Test) != 62 {
			t.Errorf("fold %d: %d test samples, %d of class 1", s.Fold, len(s.Test), c1)
		}
	}
	for i, k := range seen {
		if k != 1 {
			t.Fatalf("sample %d is in %d test folds", i, k)
		}
	}
}

func FuzzReadDelimited(f *testing.F) {
	f.Add([]byte("g1,g2,class\n1,2,A\n3,4,B\n"))
	f.Add([]byte("gene\ts1\ts2\ng1\t1\t2\nclass\tA\tB\n"))
	f.Add([]byte("\ufeffa;b;class\r\n1,5;2;x\r\n"))
	f.Add([]byte("\"a,b\",c\n\"1\",2\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ds, err := ReadDelimited("f.csv", b, Options{})
		if err == nil {
			n, p := ds.Dims()
			if len(ds.Labels) != n || len(ds.Features) != p || len(ds.Samples) != n {
				t.Fatalf("inconsistent dataset %d x %d", n, p)
			}
			Summarize(ds)
		}
	})
}

func FuzzReadGCT(f *testing.F) {
	f.Add([]byte("#1.2\n1\t2\nName\tDescription\ta\tb\ng1\td\t1\t2\n"), []byte("2 2 1\n# A B\n0 1\n"))
	f.Fuzz(func(t *testing.T, gct, cls []byte) {
		ds, err := ReadGCT("f.gct", gct, "f.cls", cls)
		if err == nil {
			if n, _ := ds.Dims(); len(ds.Labels) != n {
				t.Fatal("labels and samples disagree")
			}
		}
	})
}

func FuzzReadARFF(f *testing.F) {
	f.Add([]byte("@relation r\n@attribute g1 numeric\n@attribute class {A,B}\n@data\n1,A\n{0 2, 1 B}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ds, err := ReadARFF("f.arff", b, Options{})
		if err == nil {
			if n, _ := ds.Dims(); len(ds.Labels) != n {
				t.Fatal("labels and samples disagree")
			}
		}
	})
}

// The message names the smallest class, the same one every time: classes of 9 (RCC) and
// 8 (normal), as GDS507, under 10-fold CV name normal with 8 (it named whichever class
// the map gave first).
func TestValidateNamesTheSmallestClass(t *testing.T) {
	var b strings.Builder
	b.WriteString("g1,g2,class\n")
	for i := 0; i < 17; i++ {
		c := "RCC"
		if i >= 9 {
			c = "normal"
		}
		fmt.Fprintf(&b, "%d,%d,%s\n", i, i*i%7, c)
	}
	ds := mustRead(t, "gds.csv", b.String(), Options{})
	for i := 0; i < 20; i++ {
		err := Validate(ds, 10)
		if err == nil || !strings.Contains(err.Error(), `the smallest class, "normal", has 8 samples, fewer than the 10 folds`) {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	if c, k := SmallestClass([]int{5, 3, 3}); c != 1 || k != 3 {
		t.Errorf("SmallestClass(5,3,3) = %d, %d; want the first of the smallest, 1, 3", c, k)
	}
}

// A cohort to predict may have no class (Options.Unlabelled): a table with no class
// column keeps every column as a feature and every sample, of class ""; a class column
// is still taken when it is named so, its missing labels kept as ""; a GCT without its
// CLS file is read unlabelled. Without the option the same files are read as before
// (the last column as the class; the GCT refused).
func TestUnlabelledCohorts(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := write("plain.csv", "id,g1,g2,g3\ns1,1.5,2,3\ns2,4,5,6.5\ns3,7,8,9\n")
	ds, err := ReadFile(plain, Options{Unlabelled: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, p := ds.Dims(); p != 3 || len(ds.Classes) != 1 || ds.Classes[0] != "" || !slices.Equal(ds.Samples, []string{"s1", "s2", "s3"}) {
		t.Errorf("no class column: %d features, classes %q, samples %q", p, ds.Classes, ds.Samples)
	}
	if ds, err := ReadFile(plain, Options{}); err == nil {
		if _, p := ds.Dims(); p != 2 {
			t.Errorf("labelled reading: %d features, want 2 (g3 taken as the class)", p)
		}
	}
	named := write("named.csv", "id,g1,g2,class\ns1,1.5,2,tumor\ns2,4,5,NA\ns3,7,8,normal\n")
	ds, err = ReadFile(named, Options{Unlabelled: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range ds.Labels {
		got = append(got, ds.Classes[l])
	}
	if !slices.Equal(got, []string{"tumor", "", "normal"}) {
		t.Errorf("a class column with a missing label: %q", got)
	}
	gct := write("x.gct", "#1.2\n2\t2\nName\tDescription\ta\tb\ng1\tG1\t1\t2\ng2\tG2\t3\t4\n")
	if _, err := ReadFile(gct, Options{}); err == nil {
		t.Errorf("a GCT without its CLS read as labelled")
	}
	ds, err = ReadFile(gct, Options{Unlabelled: true})
	if err != nil || len(ds.Classes) != 1 || ds.Classes[0] != "" {
		t.Errorf("a GCT without its CLS, unlabelled: %v %+v", err, ds)
	}
}
