package app

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/plots"
)

// zscored returns a copy of the data's matrix with every feature z-scored over all samples.
func zscored(ds *dataset.Dataset) *mat.Dense {
	x := mat.DenseCopyOf(ds.X)
	dataset.Standardize(x)
	return x
}

func newTSV(w io.Writer) *bufio.Writer { return bufio.NewWriterSize(w, 1<<16) }

// thousands formats n with commas between groups of three digits: 1999000 -> 1,999,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// parsePercentages parses a comma-separated list of percentages in (0, 100].
func parsePercentages(text string) ([]float64, error) {
	var out []float64
	for _, s := range strings.Split(text, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || v <= 0 || v > 100 {
			return nil, fmt.Errorf("%q is not a percentage in (0, 100]", strings.TrimSpace(s))
		}
		out = append(out, v)
	}
	return out, nil
}

// parseTrainingSizes parses a comma-separated list of training sizes of 20 or more.
func parseTrainingSizes(text string) ([]int, error) {
	var out []int
	for _, s := range strings.Split(text, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || v < 20 {
			return nil, fmt.Errorf("%q is not a training size of 20 or more (10-fold CV needs it)", strings.TrimSpace(s))
		}
		out = append(out, v)
	}
	return out, nil
}

// exportFigures writes figs to dir at 16 x 10 cm (PNG at 300 dpi) in every format with
// their CSVs, and lists the files on standard error.
func exportFigures(dir string, figs ...plots.Figure) error {
	w, _ := plots.Length(16, "cm")
	h, _ := plots.Length(10, "cm")
	for _, f := range figs {
		paths, err := plots.Export(f, dir, plots.Formats, plots.ExportOptions{Width: w, Height: h, DPI: 300})
		if err != nil {
			return err
		}
		for _, p := range paths {
			fmt.Fprintln(os.Stderr, p)
		}
	}
	return nil
}
