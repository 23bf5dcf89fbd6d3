//go:build cgo

// Package fastblas makes gonum's level-3 BLAS (matrix products) run on OpenBLAS, which
// the pairwise distances of DGF, the k-means assignments and the nearest-neighbour
// correlations spend their time in. Importing it is enough. OpenBLAS runs one thread
// per call: Steadfast already splits its products over its own goroutines.
package fastblas

// #cgo LDFLAGS: -lopenblas
// void openblas_set_num_threads(int num_threads);
import "C"

import (
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

// Name says which BLAS does the matrix products.
const Name = "OpenBLAS"

func init() {
	C.openblas_set_num_threads(1)
	blas64.Use(netlib.Implementation{})
	blas32.Use(netlib.Implementation{})
}
