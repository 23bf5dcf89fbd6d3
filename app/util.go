package app

import (
	"bufio"
	"io"

	"gonum.org/v1/gonum/mat"
)

func cloneDense(x *mat.Dense) *mat.Dense { return mat.DenseCopyOf(x) }

func newTSV(w io.Writer) *bufio.Writer { return bufio.NewWriterSize(w, 1<<16) }
