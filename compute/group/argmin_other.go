//go:build !amd64 || noasm

package group

// haveArgmin4: no vector argmin on this processor; argminDist runs in Go.
const haveArgmin4 = false

func argmin4(xx float64, cross, cnorm *float64, groups int, bd *[4]float64, bi *[4]int64) {
	panic("group: no argmin4 on this processor")
}

func sqdist16(x *float64, stride, n int, c *float64, out *[16]float64) {
	panic("group: no sqdist16 on this processor")
}
