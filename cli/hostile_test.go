package cli

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf16"
)

// table returns a CSV of n samples (rows) and p features g1..gp with a class column
// A/B alternating; g1 separates the classes. cell(i, j) may replace a value.
func table(n, p int, cell func(i, j int) string) string {
	var b strings.Builder
	for j := 1; j <= p; j++ {
		fmt.Fprintf(&b, "g%d,", j)
	}
	b.WriteString("class\n")
	for i := 0; i < n; i++ {
		for j := 1; j <= p; j++ {
			v := fmt.Sprintf("%.4f", math.Sin(float64(7*i+3*j))+float64(i%2*j%3))
			if cell != nil {
				if s := cell(i, j); s != "" {
					v = s
				}
			}
			b.WriteString(v + ",")
		}
		b.WriteString([]string{"A", "B"}[i%2] + "\n")
	}
	return b.String()
}

// withLabels replaces the class column of a table made by table.
func withLabels(csv string, label func(i int) string) string {
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	for i := 1; i < len(lines); i++ {
		k := strings.LastIndexByte(lines[i], ',')
		lines[i] = lines[i][:k+1] + label(i-1)
	}
	return strings.Join(lines, "\n") + "\n"
}

// hostile is one awkward input run through the command line.
type hostile struct {
	name  string
	files map[string]string // written into the case's folder; {dir} is replaced by it
	args  []string          // {dir} is replaced by the case's folder
	code  int               // exit status wanted
	want  string            // in stderr when refused, in stdout when done
	note  string            // in stderr when done: the warning the user must see
	setup func(t *testing.T, dir string)
}

const cfgHead = `{"version":1,"dataPath":"{dir}/d.csv","methods":[{"name":"fstat"}],"protocol":"drags2008","classifiers":["svm"],"seed":1`

func hostileCases() []hostile {
	good := table(20, 30, nil)
	cfg := func(extra string) map[string]string {
		return map[string]string{"d.csv": good, "c.json": cfgHead + extra + "}"}
	}
	rank := func(file string) []string { return []string{"rank", "--data", "{dir}/" + file} }
	return []hostile{
		// files
		{name: "missing file", args: rank("none.csv"), code: 2, want: "cannot open"},
		{name: "folder as data", args: []string{"rank", "--data", "{dir}"}, code: 2, want: "is a folder"},
		{name: "fifo", args: rank("fifo.csv"), code: 2, want: "not a regular file", setup: func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, "fifo.csv"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "/dev/zero", args: []string{"rank", "--data", "/dev/zero"}, code: 2, want: "not a regular file"},
		{name: "empty file", files: map[string]string{"e.csv": ""}, args: rank("e.csv"), code: 2, want: "empty"},
		{name: "blank file", files: map[string]string{"e.csv": "\n \n\t\n"}, args: rank("e.csv"), code: 2, want: "empty"},
		{name: "binary", files: map[string]string{"b.csv": "PK\x03\x04\x00\x00binary"}, args: rank("b.csv"), code: 2, want: "binary"},
		{name: "ragged row", files: map[string]string{"r.csv": "g1,g2,class\n1,2,A\n3,B\n"}, args: rank("r.csv"), code: 2, want: "line 3, column 3"},
		{name: "text cell", files: map[string]string{"t.csv": table(6, 3, func(i, j int) string {
			if i == 2 && j == 2 {
				return "high"
			}
			return ""
		})}, args: rank("t.csv"), code: 2, want: `"high" in feature "g2" is not a number`},
		{name: "decimal comma in CSV", files: map[string]string{"c.csv": "g1,g2,class\n\"1,5\",2,A\n"}, args: rank("c.csv"), code: 2, want: "line"},
		{name: "one column", files: map[string]string{"o.csv": "a\n1\n2\n"}, args: rank("o.csv"), code: 2, want: "two or more columns"},
		{name: "header only", files: map[string]string{"h.csv": "g1,g2,class\n"}, args: rank("h.csv"), code: 2, want: "at least one data line"},
		{name: "NA cell imputed", files: map[string]string{"na.csv": table(20, 30, func(i, j int) string {
			if i == 3 && j == 7 {
				return "NA"
			}
			return ""
		})}, args: rank("na.csv"), code: 0, want: "g1\t", note: "1 of 600 values missing (0.2%), in 1 of 30 features"},
		{name: "NA cell left out without imputation", files: map[string]string{"na.csv": table(20, 30, func(i, j int) string {
			if i == 3 && j == 7 {
				return "NA"
			}
			return ""
		})}, args: append(rank("na.csv"), "--impute", "none"), code: 0, want: "g1\t", note: "1 feature dropped"},
		{name: "impute unknown", files: map[string]string{"na.csv": table(20, 30, func(i, j int) string { return "" })},
			args: append(rank("na.csv"), "--impute", "mean"), code: 2, want: "choose minprob, knn, halfmin or none"},
		{name: "NA cell dropped on request", files: map[string]string{"na.csv": table(20, 30, func(i, j int) string {
			if i == 3 && j == 7 {
				return "NA"
			}
			return ""
		})}, args: append(rank("na.csv"), "--drop-missing"), code: 0, want: "g1\t", note: "1 feature dropped"},
		{name: "Inf value", files: map[string]string{"inf.csv": table(20, 5, func(i, j int) string {
			if i == 1 && j == 1 {
				return "Inf"
			}
			return ""
		})}, args: rank("inf.csv"), code: 2, want: "non-finite"},
		{name: "huge value", files: map[string]string{"big.csv": table(20, 5, func(i, j int) string {
			if i == 1 && j == 2 {
				return "1e200"
			}
			return ""
		})}, args: rank("big.csv"), code: 2, want: "too large"},
		{name: "one class", files: map[string]string{"one.csv": withLabels(good, func(int) string { return "A" })}, args: rank("one.csv"), code: 2, want: "one class"},
		{name: "two samples", files: map[string]string{"two.csv": table(2, 5, nil)}, args: rank("two.csv"), code: 2, want: "more samples than classes"},
		{name: "all constant", files: map[string]string{"k.csv": table(10, 4, func(int, int) string { return "5" })}, args: rank("k.csv"), code: 2, want: "no feature is left"},
		{name: "case-variant classes", files: map[string]string{"case.csv": withLabels(good, func(i int) string { return []string{"Tumor", "tumor", "Normal"}[i%3] })},
			args: rank("case.csv"), code: 0, want: "1\t", note: "differ only in case"},
		{name: "NA labels", files: map[string]string{"nal.csv": withLabels(good, func(i int) string { return []string{"A", "B", "NA", "A", "B"}[i%5] })},
			args: rank("nal.csv"), code: 0, want: "1\t", note: "without a class"},
		{name: "all labels missing", files: map[string]string{"nol.csv": withLabels(good, func(int) string { return "NA" })}, args: rank("nol.csv"), code: 2, want: "no sample has a class label"},
		{name: "numeric id column", files: map[string]string{"id.csv": idColumn(good, "ID")}, args: rank("id.csv"), code: 0, want: "g1\t", note: "numbers the samples"},
		{name: "R row names", files: map[string]string{"rn.csv": idColumn(good, "")}, args: rank("rn.csv"), code: 0, want: "g1\t", note: "numbers the samples"},
		{name: "0/1 class not named class", files: map[string]string{"s.csv": strings.Replace(withLabels(good, func(i int) string { return fmt.Sprint(i % 2) }), "class\n", "status\n", 1)},
			args: rank("s.csv"), code: 0, want: "g1\t", note: "taken as the class"},
		{name: "no header", files: map[string]string{"nh.csv": strings.SplitN(good, "\n", 2)[1]}, args: rank("nh.csv"), code: 2, want: "no header"},
		{name: "duplicate feature names", files: map[string]string{"dup.csv": strings.Replace(good, "g2,", "g1,", 1)}, args: rank("dup.csv"), code: 0, want: "g1_dup1", note: "duplicate feature names"},
		{name: "byte-order mark", files: map[string]string{"bom.csv": "\xEF\xBB\xBF" + good}, args: rank("bom.csv"), code: 0, want: "g1\t", note: "byte-order mark"},
		{name: "CRLF line ends", files: map[string]string{"crlf.csv": strings.ReplaceAll(good, "\n", "\r\n")}, args: rank("crlf.csv"), code: 0, want: "g1\t"},
		{name: "samples as columns", files: map[string]string{"cols.csv": transposeCSV(good)}, args: rank("cols.csv"), code: 0, want: "g1\t", note: "samples are the columns"},
		{name: "GCT without CLS", files: map[string]string{"x.gct": "#1.2\n2\t2\nName\tDescription\ts1\ts2\ng1\td\t1\t2\ng2\td\t3\t4\n"}, args: rank("x.gct"), code: 2, want: "needs its class label file"},
		{name: "CLS count differs", files: map[string]string{"x.gct": gct, "x.cls": "3 2 1\n# A B\n0 1 0\n"}, args: rank("x.gct"), code: 2, want: "says 3 samples"},
		{name: "CLS label undeclared", files: map[string]string{"x.gct": gct, "x.cls": "4 2 1\n# A B\n0 1 2 1\n"}, args: rank("x.gct"), code: 2, want: "no class name on line 2"},
		{name: "ARFF label undeclared", files: map[string]string{"x.arff": "@relation r\n@attribute g1 numeric\n@attribute g2 numeric\n@attribute class {A,B}\n@data\n1,2,A\n3,4,B\n5,6,C\n"}, args: rank("x.arff"), code: 2, want: "not among those declared"},
		{name: "ARFF string attribute", files: map[string]string{"s.arff": "@relation r\n@attribute g1 string\n@attribute class {A,B}\n@data\nx,A\n"}, args: rank("s.arff"), code: 2, want: "has type"},
		{name: "ARFF no class", files: map[string]string{"n.arff": "@relation r\n@attribute g1 numeric\n@attribute g2 numeric\n@data\n1,2\n"}, args: rank("n.arff"), code: 2, want: "no nominal class"},
		// commands and flags
		{name: "mistyped command", args: []string{"rnak"}, code: 2, want: "unknown command \"rnak\""},
		{name: "rank without data", args: []string{"rank"}, code: 2, want: "needs --data"},
		{name: "a GEO platform as data", args: []string{"rank", "--data", "GPL96"}, code: 2, want: "GPL96 is a platform"},
		{name: "--platform on a file", files: map[string]string{"d.csv": good}, args: append(rank("d.csv"), "--platform", "GPL96"), code: 2, want: "--platform GPL96 is for a GEO accession"},
		{name: "unknown method", files: map[string]string{"d.csv": good}, args: append(rank("d.csv"), "--method", "magic"), code: 2, want: "magic"},
		{name: "bad --param", files: map[string]string{"d.csv": good}, args: append(rank("d.csv"), "--param", "C"), code: 2, want: "want key=number"},
		{name: "unknown flag", files: map[string]string{"d.csv": good}, args: append(rank("d.csv"), "--fast"), code: 2, want: "not defined"},
		{name: "stray argument", files: map[string]string{"d.csv": good}, args: append(rank("d.csv"), "extra"), code: 2, want: "unexpected argument"},
		{name: "unknown group method", files: map[string]string{"d.csv": good}, args: []string{"groups", "--data", "{dir}/d.csv", "--method", "hclust"}, code: 2, want: "unknown group method"},
		{name: "groups K 1", files: map[string]string{"d.csv": good}, args: []string{"groups", "--data", "{dir}/d.csv", "--K", "1"}, code: 2, want: "--K 1: give k (bandwidth) from 2 to 25"},
		{name: "groups t 0", files: map[string]string{"d.csv": good}, args: []string{"groups", "--data", "{dir}/d.csv", "--method", "cgs", "--t", "0"}, code: 2, want: "--t 0: give bootstraps t from 1 to 1000"},
		{name: "kmeans too many clusters", files: map[string]string{"d.csv": good}, args: []string{"groups", "--data", "{dir}/d.csv", "--method", "kmeans", "--clusters", "500"}, code: 2, want: "more than the 30 features"},
		{name: "groups on NA data", files: map[string]string{"na.csv": table(20, 30, func(i, j int) string {
			if i == 0 && j == 1 {
				return "NA"
			}
			return ""
		})}, args: []string{"groups", "--data", "{dir}/na.csv", "--method", "dgf"}, code: 0, note: "values missing"},
		{name: "mids epsilon 1.5", files: map[string]string{"d.csv": good}, args: []string{"mids", "--data", "{dir}/d.csv", "--epsilon", "1.5"}, code: 2, want: "between 0 and 1"},
		{name: "wrapper ne 1e9", files: map[string]string{"d.csv": good}, args: []string{"wrapper", "--data", "{dir}/d.csv", "--ne", "1e9"}, code: 2, want: "--ne must lie in (0, 10]"},
		{name: "wrapper na 0", files: map[string]string{"d.csv": good}, args: []string{"wrapper", "--data", "{dir}/d.csv", "--na", "0"}, code: 2, want: "not a percentage"},
		{name: "samplesize sizes 10", args: []string{"samplesize", "--sizes", "10"}, code: 2, want: "from 20"},
		{name: "samplesize k 0", args: []string{"samplesize", "--k", "0"}, code: 2, want: "top k = 0: give a whole number from 1 to 100"},
		{name: "synth one sample", args: []string{"synth", "--samples", "1", "-o", "{dir}/s.csv"}, code: 2, want: "--samples must be between"},
		{name: "synth without -o", args: []string{"synth"}, code: 2, want: "needs -o"},
		{name: "command help", args: []string{"rank", "--help"}, code: 0, want: "Options:"},
		{name: "help", args: []string{"help"}, code: 0, want: "steadfast run CONFIG.json"},
		// configurations
		{name: "run without -o", files: cfg(""), args: []string{"run", "{dir}/c.json"}, code: 2, want: "needs a configuration and an output folder"},
		{name: "config missing", args: []string{"run", "{dir}/none.json", "-o", "{dir}/out"}, code: 2, want: "cannot open"},
		{name: "config not JSON", files: map[string]string{"c.json": "{\n\"version\": 1,\n oops\n}"}, args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: "line 3"},
		{name: "config unknown field", files: cfg(`,"repeat":5`), args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: `unknown field "repeat"`},
		{name: "config without dataPath", files: map[string]string{"c.json": `{"methods":[{"name":"fstat"}],"protocol":"drags2008"}`}, args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: "names no data file"},
		{name: "repeats 1e9", files: cfg(`,"repeats":1000000000`), args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: "at most 1000"},
		{name: "negative repeats", files: cfg(`,"repeats":-3`), args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: "must not be negative"},
		{name: "one fold", files: cfg(`,"folds":1`), args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: "folds must lie in 2..100"},
		{name: "no methods", files: map[string]string{"d.csv": good, "c.json": `{"dataPath":"{dir}/d.csv","methods":[],"protocol":"drags2008"}`}, args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: "at least one method"},
		{name: "unknown classifier", files: cfg(`,"classifiers":["xgboost"]`), args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: "unknown classifier"},
		{name: "unknown protocol", files: map[string]string{"d.csv": good, "c.json": `{"dataPath":"{dir}/d.csv","methods":[{"name":"fstat"}],"protocol":"loocv"}`}, args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: "unknown protocol"},
		{name: "k 0", files: cfg(`,"ks":[0,5]`), args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: "outside 1..30"},
		{name: "gridK beyond p", files: cfg(`,"gridK":31`), args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: "more than the 30 features"},
		{name: "class too small", files: map[string]string{"d.csv": withLabels(good, func(i int) string { return map[bool]string{true: "B", false: "A"}[i < 2] }), "c.json": cfgHead + "}"},
			args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: "fewer than the 3 folds"},
		{name: "output is a file", files: map[string]string{"d.csv": good, "c.json": cfgHead + "}", "out": "x"}, args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: "is a file"},
		{name: "output holds other files", files: map[string]string{"d.csv": good, "c.json": cfgHead + "}", "out/thesis.docx": "mine"}, args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: "holds files Steadfast did not write there (thesis.docx)"},
		// the root folder: refused as any folder of other files, whatever the system says
		// deeper down (it answered "read /proc/1/attr/current: invalid argument")
		{name: "output is the root folder", files: map[string]string{"d.csv": good, "c.json": cfgHead + "}"}, args: []string{"run", "{dir}/c.json", "-o", "/"}, code: 2, want: "the configuration this command reads, and the output replaces that folder as a whole: it would be lost. Write the output beside it instead, for example -o /steadfast-run"},
		{name: "dpi 5", files: cfg(""), args: []string{"run", "{dir}/c.json", "-o", "{dir}/out", "--dpi", "5"}, code: 2, want: "--dpi"},
		{name: "config is a fifo", args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: "not a regular file", setup: func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, "c.json"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "data of the config missing", files: map[string]string{"c.json": cfgHead + "}"}, args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: "if the data moved, give the file with --data FILE"},
		// issue 23: values that had been taken silently, inputs refused for the wrong reason
		{name: "saved run with a key beside config", files: map[string]string{"d.csv": good, "c.json": `{"config":` + cfgHead + `},"seed":5}`},
			args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: `not "seed"`},
		{name: "orientation sideways", files: cfg(`,"read":{"orientation":"sideways"}`), args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: `orientation "sideways"`},
		{name: "mids epsilon NaN", files: map[string]string{"d.csv": good}, args: []string{"mids", "--data", "{dir}/d.csv", "--epsilon", "NaN"}, code: 2, want: "between 0 and 1"},
		{name: "method parameter NaN", files: map[string]string{"d.csv": good}, args: append(rank("d.csv"), "--method", "drags", "--param", "K=NaN"), code: 2, want: "outside"},
		{name: "slurm mem NaN", files: cfg(""), args: []string{"slurm", "{dir}/c.json", "-o", "{dir}/job", "--tasks", "2", "--mem", "NaNG"}, code: 2, want: "--mem"},
		{name: "UTF-16 configuration", files: map[string]string{"d.csv": good}, args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 0, want: "stability-simid.csv", setup: func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "c.json"), []byte(utf16LE(strings.ReplaceAll(cfgHead+"}", "{dir}", dir))), 0o644)
		}},
		{name: "symbolsPath beside the configuration", files: map[string]string{"sub/d.csv": good, "sub/sym.txt": "ID\tSymbol\ng1\tDDR1\n",
			"sub/c.json": `{"dataPath":"d.csv","read":{"symbolsPath":"sym.txt"},"methods":[{"name":"fstat"}],"protocol":"drags2008","classifiers":["svm"]}`},
			args: []string{"run", "{dir}/sub/c.json", "-o", "{dir}/out"}, code: 0, want: "stability-simid.csv", note: "gene symbols for 1 of 30 features from sym.txt"},
		{name: "one feature", files: map[string]string{"d.csv": table(20, 1, nil), "c.json": cfgHead + "}"}, args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: "needs at least 3"},
		{name: "two features", files: map[string]string{"d.csv": table(20, 2, nil), "c.json": cfgHead + "}"}, args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: "needs at least 3"},
		{name: "three features, DRAGS grid", files: map[string]string{"d.csv": table(20, 3, nil), "c.json": cfgHead + "}"}, args: []string{"run", "{dir}/c.json", "-o", "{dir}/out"}, code: 2, want: `give the ks to use`},
		{name: "long output folder name", files: cfg(""), args: []string{"run", "{dir}/c.json", "-o", "{dir}/" + strings.Repeat("o", 250)}, code: 0, want: "stability-simid.csv"},
		{name: "log-CPM, a sample without reads", files: map[string]string{"d.csv": counts(func(i, j int) string { return map[bool]string{true: "0"}[i == 4] })},
			args: append(rank("d.csv"), "--log-cpm"), code: 0, want: "g1", note: "1 sample with a library size of 0 (no reads) left out of the log-CPM analysis: sample5"},
		{name: "log-CPM on logged values", files: map[string]string{"d.csv": counts(func(i, j int) string { return map[bool]string{true: "-1.5"}[i == 2 && j == 3] })},
			args: append(rank("d.csv"), "--log-cpm", "--drop-missing"), code: 2, want: "already logged"},
		{name: "log-CPM, a count of 1e308", files: map[string]string{"d.csv": counts(func(i, j int) string { return map[bool]string{true: "1e308"}[i == 2 && j == 3] })},
			args: append(rank("d.csv"), "--log-cpm"), code: 2, want: "check the file's units"},
		{name: "quoted separators in the header", files: map[string]string{"q.csv": strings.Replace(good, "g2,", "\"IL1B; interleukin 1, beta\",", 1)},
			args: rank("q.csv"), code: 0, want: "IL1B; interleukin 1, beta"},
		{name: "symbols Symbol,ProbeID", files: map[string]string{"d.csv": good, "s.csv": "Symbol,ProbeID\nDDR1,g1\nRFC2,g2\n"}, args: append(rank("d.csv"), "--symbols", "{dir}/s.csv"), code: 0, want: "g1", note: `ids from column 2 ("ProbeID")`},
	}
}

// counts is a table of 20 samples and 30 features of whole-number counts (feature 1
// higher in class B); cell(i, j) may replace a value.
func counts(cell func(i, j int) string) string {
	return table(20, 30, func(i, j int) string {
		if c := cell(i, j); c != "" {
			return c
		}
		return fmt.Sprint((7*i+13*j)%50 + 100*(i%2)*map[bool]int{true: 1}[j == 1] + 10)
	})
}

// utf16LE is s as UTF-16 little-endian with a byte-order mark (Windows Notepad's
// "Unicode").
func utf16LE(s string) string {
	b := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return string(b)
}

const gct = "#1.2\n2\t4\nName\tDescription\ts1\ts2\ts3\ts4\ng1\td\t1\t2\t3\t4\ng2\td\t3\t4\t1\t0\n"

// idColumn puts a first column of sample numbers under header name.
func idColumn(csv, name string) string {
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	lines[0] = name + "," + lines[0]
	for i := 1; i < len(lines); i++ {
		lines[i] = fmt.Sprint(100+i) + "," + lines[i]
	}
	return strings.Join(lines, "\n") + "\n"
}

// transposeCSV turns samples-as-rows into samples-as-columns.
func transposeCSV(csv string) string {
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	var rows [][]string
	for _, l := range lines {
		rows = append(rows, strings.Split(l, ","))
	}
	var b strings.Builder
	b.WriteString("gene")
	for i := 1; i < len(rows); i++ {
		fmt.Fprintf(&b, ",s%d", i)
	}
	b.WriteString("\n")
	for j := range rows[0] {
		b.WriteString(rows[0][j])
		for i := 1; i < len(rows); i++ {
			b.WriteString("," + rows[i][j])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestHostileInputs runs every awkward input through the command line: each gets its
// exit status and a message naming the problem (or, when the analysis can go on, the
// warning), never a panic, a hang or a silent exit 0.
func TestHostileInputs(t *testing.T) {
	cases := hostileCases()
	if len(cases) < 60 {
		t.Fatalf("only %d hostile cases", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tc.files {
				path := filepath.Join(dir, name)
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, []byte(strings.ReplaceAll(content, "{dir}", dir)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = strings.ReplaceAll(a, "{dir}", dir)
			}
			code, out, errs := runMain(t, args, time.Minute)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstderr: %s", code, tc.code, errs)
			}
			where := errs
			if tc.code == 0 {
				where = out
				if !strings.Contains(errs, tc.note) {
					t.Errorf("no warning %q on stderr: %q", tc.note, errs)
				}
			}
			if !strings.Contains(where, tc.want) {
				t.Errorf("%q not in output:\n%s", tc.want, trunc(where))
			}
		})
	}
}

// runMain runs the command line in this process with a time limit, turning a panic into
// a test failure.
func runMain(t *testing.T, args []string, limit time.Duration) (int, string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	done := make(chan int, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				errs.WriteString(fmt.Sprintf("PANIC: %v", r))
				done <- -1
			}
		}()
		done <- Main(args, &out, &errs)
	}()
	select {
	case code := <-done:
		if code == -1 {
			t.Fatalf("panicked: %s", errs.String())
		}
		return code, out.String(), errs.String()
	case <-time.After(limit):
		t.Fatalf("still running after %v: a hang", limit)
	}
	return 0, "", ""
}

func trunc(s string) string {
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}

// lockedBuffer is a bytes.Buffer safe to read while a command writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestInterruptStopsRun: Ctrl-C during a 10 x 10 CV study on Colon stops it, exits 130
// and writes nothing (the two-minute limit only guards against a hang).
func TestInterruptStopsRun(t *testing.T) {
	dir := t.TempDir()
	colon, err := filepath.Abs(filepath.Join(sharedData, "colon.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(colon); err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	cfg := filepath.Join(dir, "c.json")
	os.WriteFile(cfg, []byte(`{"dataPath":"`+colon+`","methods":[{"name":"svmrfe"},{"name":"relieff"}],"protocol":"cv10x10","classifiers":["svm"]}`), 0o644)
	var out, errs lockedBuffer
	done := make(chan int, 1)
	go func() { done <- Main([]string{"run", cfg, "-o", filepath.Join(dir, "out")}, &out, &errs) }()
	for !strings.Contains(errs.String(), "%") { // running, its signal handler in place
		select {
		case code := <-done:
			t.Fatalf("finished (exit %d) before it could be interrupted: %s", code, errs.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	select {
	case code := <-done:
		if code != 130 || !strings.Contains(errs.String(), "interrupted") {
			t.Errorf("exit %d: %s", code, errs.String())
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("still running 2 minutes after Ctrl-C: a hang")
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("an interrupted run wrote its output folder")
	}
}

// TestRunReplacesItsOutputWhole: a second run into the same folder leaves none of the
// first run's files, and a run that fails leaves the earlier output as it was.
func TestRunReplacesItsOutputWhole(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "d.csv"), []byte(table(20, 30, nil)), 0o644)
	two := strings.ReplaceAll(cfgHead+`,"methods":[{"name":"fstat"},{"name":"relieff"}]}`, "{dir}", dir)
	two = strings.Replace(two, `"methods":[{"name":"fstat"}],`, "", 1)
	one := strings.ReplaceAll(cfgHead+"}", "{dir}", dir)
	os.WriteFile(filepath.Join(dir, "two.json"), []byte(two), 0o644)
	os.WriteFile(filepath.Join(dir, "one.json"), []byte(one), 0o644)
	outDir := filepath.Join(dir, "out")
	if code, _, errs := runMain(t, []string{"run", filepath.Join(dir, "two.json"), "-o", outDir}, time.Minute); code != 0 {
		t.Fatalf("first run: %s", errs)
	}
	first, _ := os.ReadDir(outDir)
	if code, _, errs := runMain(t, []string{"run", filepath.Join(dir, "one.json"), "-o", outDir}, time.Minute); code != 0 {
		t.Fatalf("second run: %s", errs)
	}
	second, _ := os.ReadDir(outDir)
	for _, e := range second {
		if strings.Contains(e.Name(), "relieff") || strings.Contains(e.Name(), "ReliefF") {
			t.Errorf("%s of the first run is left beside the second run's result", e.Name())
		}
	}
	if len(second) >= len(first) {
		t.Errorf("%d files after the one-method run, %d after the two-method run", len(second), len(first))
	}
	before, _ := os.ReadFile(filepath.Join(outDir, "result.json"))
	os.WriteFile(filepath.Join(dir, "d.csv"), []byte(withLabels(table(20, 30, nil), func(int) string { return "A" })), 0o644)
	if code, _, _ := runMain(t, []string{"run", filepath.Join(dir, "one.json"), "-o", outDir}, time.Minute); code != 2 {
		t.Fatalf("a run on one class: exit %d", code)
	}
	after, _ := os.ReadFile(filepath.Join(outDir, "result.json"))
	if !bytes.Equal(before, after) {
		t.Error("a failed run changed the earlier result.json")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".out.*")); len(left) > 0 {
		t.Errorf("temporary folders left behind: %v", left)
	}
}
