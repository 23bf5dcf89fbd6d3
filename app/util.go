package app

import (
	"bufio"
	"io"

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
