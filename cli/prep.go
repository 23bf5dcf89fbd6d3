package cli

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"steadfast/compute/dataset"
	"steadfast/compute/study"
	"steadfast/internal/text"
	"steadfast/plots"
)

// prepCommand writes the data preprocessed on all samples as a study preprocesses each
// training set (the valid-value filter, log2, the normalisation, the imputation):
// OUT.csv with samples as rows (sample, class or a survival outcome's time and event,
// then a column a feature; a value still
// missing is an empty cell), OUT-left-out.csv naming every feature left out and why,
// OUT-symbols.tsv when the data have gene symbols (--symbols takes it back), and with
// --figure each sample's missing share and distribution before and after.
func prepCommand(c *call) error {
	data := c.dataFlags()
	out := c.fs.String("o", "", "the preprocessed matrix, a CSV file (samples as rows)")
	seed := c.fs.Uint64("seed", 0, "seed of minprob's draws (with the sample's and the protein's names)")
	figure := c.fs.Bool("figure", false, "also write OUT-samples.png and its CSV: each sample's missing share and distribution before and after")
	if _, err := c.parse(0); err != nil {
		return err
	}
	if *data.path == "" || *out == "" {
		return errors.New("needs the data and an output file: steadfast prep --data FILE -o OUT.csv")
	}
	if !strings.HasSuffix(strings.ToLower(*out), ".csv") {
		return fmt.Errorf("-o %s: the preprocessed matrix is written as CSV; name it OUT.csv", *out)
	}
	base := strings.TrimSuffix(*out, filepath.Ext(*out))
	outputs := []string{*out, base + "-left-out.csv", base + "-symbols.tsv"}
	for _, in := range data.inputs() {
		for _, o := range outputs {
			if in.Path != "" && sameFile(in.Path, o) {
				return fmt.Errorf("%s is the %s this command reads; write the output elsewhere", o, in.What)
			}
		}
	}
	raw, err := study.ReadData(c.ctx, *data.path, data.options(), c.downloadProgress())
	if err != nil {
		return err
	}
	prep := data.prep()
	prep.Seed = *seed
	raw, prep = study.DefaultLog2(raw, prep)
	ds, err := study.PrepareTable(c.ctx, raw, prep)
	if err != nil {
		return err
	}
	for _, n := range ds.Notes {
		c.note("%s", n)
	}
	if err := study.WriteFile(*out, matrixCSV(ds)); err != nil {
		return err
	}
	written := []string{*out}
	if len(ds.LeftOut) > 0 {
		if err := plots.WriteCSV(outputs[1], dataset.LeftOutTable(ds.LeftOut)); err != nil {
			return err
		}
		written = append(written, outputs[1])
		c.note("%s features left out or not written: %s (%s)", text.Thousands(len(ds.LeftOut)), dataset.LeftOutSummary(ds.LeftOut), outputs[1])
	}
	if ds.Symbols != nil {
		var b strings.Builder
		for j, f := range ds.Features {
			fmt.Fprintf(&b, "%s\t%s\n", f, ds.Symbols[j])
		}
		if err := study.WriteFile(outputs[2], []byte(b.String())); err != nil {
			return err
		}
		written = append(written, outputs[2])
	}
	if *figure {
		f := plots.SamplesFigure(raw, ds, prep.Log2)
		f.Name = filepath.Base(base) + "-samples"
		size, _ := plots.NewExportOptions(24, 14, "cm", 200)
		paths, err := plots.Export(f, filepath.Dir(*out), []string{"png"}, size)
		if err != nil {
			return err
		}
		written = append(written, paths...)
	}
	for _, p := range written {
		fmt.Fprintln(c.out, p)
	}
	return nil
}

// matrixCSV is ds as CSV: a header of sample, class (a survival outcome's time and
// event, named as in the file), the clinical covariates (as read: a number or a level)
// and the features, then a row a sample; a missing value is an empty cell, the others
// written with every digit.
func matrixCSV(ds *dataset.Dataset) []byte {
	var b strings.Builder
	row := func(cells []string) {
		for i, s := range cells {
			if i > 0 {
				b.WriteByte(',')
			}
			if strings.ContainsAny(s, ",\"\n\r") {
				s = `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
			}
			b.WriteString(s)
		}
		b.WriteByte('\n')
	}
	sv := ds.Survival
	head := []string{"sample", "class"}
	if sv != nil {
		head = []string{"sample", sv.TimeName, sv.EventName}
	}
	for _, cv := range ds.Covariates {
		head = append(head, cv.Name)
	}
	row(append(head, ds.Features...))
	n, _ := ds.Dims()
	cells := make([]string, 0, len(ds.Features)+3)
	for i := 0; i < n; i++ {
		if sv != nil {
			event := "0"
			if sv.Event[i] {
				event = "1"
			}
			cells = append(cells[:0], ds.Samples[i], strconv.FormatFloat(sv.Time[i], 'g', -1, 64), event)
		} else {
			cells = append(cells[:0], ds.Samples[i], ds.Classes[ds.Labels[i]])
		}
		for _, cv := range ds.Covariates {
			cells = append(cells, covariateCell(cv, i))
		}
		for _, v := range ds.X.RawRowView(i) {
			if math.IsNaN(v) {
				cells = append(cells, "")
				continue
			}
			cells = append(cells, strconv.FormatFloat(v, 'g', -1, 64))
		}
		row(cells)
	}
	return []byte(b.String())
}

// covariateCell is sample i's value of cv as read: its number or level, empty when
// missing.
func covariateCell(cv dataset.Covariate, i int) string {
	if cv.Values != nil {
		if math.IsNaN(cv.Values[i]) {
			return ""
		}
		return strconv.FormatFloat(cv.Values[i], 'g', -1, 64)
	}
	if c := cv.Codes[i]; c >= 0 {
		return cv.Levels[c]
	}
	return ""
}

// sameFile reports whether a and b name one file (b need not exist).
func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	if err1 == nil && err2 == nil {
		return os.SameFile(sa, sb)
	}
	x, _ := filepath.Abs(a)
	y, _ := filepath.Abs(b)
	return x == y
}
