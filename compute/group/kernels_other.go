//go:build !amd64 || noasm || gccgo || safe

package group

// haveAVX2: no AVX2 kernels on this processor; their callers run in Go.
const haveAVX2 = false

func argmin4(xx float64, cross, cnorm *float64, groups int, bd *[4]float64, bi *[4]int64) {
	panic("group: no argmin4 on this processor")
}

func sqdist16(x *float64, stride, n int, c *float64, out *[16]float64) {
	panic("group: no sqdist16 on this processor")
}

func dot4x(a *float64, steps int, b0, b1, b2, b3 *float64, out *[16]float64) {
	panic("group: no dot4x on this processor")
}

func needExact(c *float32, nb *float64, groups int, na, lo, hi, e float64, out *int32) int {
	panic("group: no needExact on this processor")
}

func nearerEither(c *float32, nb, wb *float64, groups int, na, wa, e float64, out *int32) int {
	panic("group: no nearerEither on this processor")
}
