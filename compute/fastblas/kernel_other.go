//go:build !amd64 || noasm

package fastblas

// haveKernel: no kernels for this processor; gonum's Go BLAS does every product.
const haveKernel = false

func kernel3x4(full, tail int, a *float32, lda int, at, b *float32, tiles int, out *float32, ldo int) {
	panic("fastblas: no kernel on this processor")
}

func dkernel3x4(full, tail int, a *float64, lda int, at, b *float64, tiles int, out *float64, ldo int) {
	panic("fastblas: no kernel on this processor")
}
