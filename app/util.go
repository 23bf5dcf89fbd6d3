package app

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
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
