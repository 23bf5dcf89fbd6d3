//go:build amd64 && !noasm && !gccgo && !safe

package group

import "golang.org/x/sys/cpu"

// haveAVX2 says whether the processor runs the AVX2 kernels of this file.
var haveAVX2 = cpu.X86.HasAVX2

// argmin4 runs argminDist's four interleaved runs over groups blocks of four centres: for
// lane l, the first c = 4i + l (i < groups) with the least d_c = (xx - 2 cross[c]) +
// cnorm[c], each operation rounded as in Go (no fused multiply-add), goes to bi[l] and
// d_c to bd[l], which start at +Inf (bi at l).
//
//go:noescape
func argmin4(xx float64, cross, cnorm *float64, groups int, bd *[4]float64, bi *[4]int64)

// sqdist16 sets out[f] = sum over i < n of (x[i*stride+f] - c[i])^2 for f < 16, each sum
// in order of i with every operation rounded as dist2's (x: samples by features, so
// sixteen features side by side).
//
//go:noescape
func sqdist16(x *float64, stride, n int, c *float64, out *[16]float64)

// dot4x sums a[i] b_k[i] for i < 4*steps into out[4k+l] by lanes l = i mod 4, each
// product rounded then added (no fused multiply-add), for k < 4: gonum's DotUnitary on
// amd64 keeps these four sums (see dots4).
//
//go:noescape
func dot4x(a *float64, steps int, b0, b1, b2, b3 *float64, out *[16]float64)

// needExact lists in out the i < 4*groups whose screened squared distance est = (na +
// nb[i]) - 2 c[i] cannot place them: not both est - e >= lo and est + e <= hi; it returns
// how many (see similarPairs).
//
//go:noescape
func needExact(c *float32, nb *float64, groups int, na, lo, hi, e float64, out *int32) int

// nearerEither lists in out the i < 4*groups whose screened lower bound lower = ((na +
// nb[i]) - 2 c[i]) - e is not both >= wa and >= wb[i]: the pairs that may be among the
// K nearest of either feature (see nearerOf); it returns how many.
//
//go:noescape
func nearerEither(c *float32, nb, wb *float64, groups int, na, wa, e float64, out *int32) int
