//go:build !cgo

package fastblas

// Without cgo (a static headless build: CGO_ENABLED=0) gonum's own Go BLAS is used:
// the same results, slower matrix products.

// Name says which BLAS does the matrix products.
const Name = "gonum's native Go BLAS (built without cgo)"
