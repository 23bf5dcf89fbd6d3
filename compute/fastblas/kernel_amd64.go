//go:build amd64 && !noasm

package fastblas

import "golang.org/x/sys/cpu"

// haveKernel says whether the processor runs the kernels (AVX2 and FMA).
var haveKernel = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// kernel3x4 is a kernelFunc for float32 (8 values a step).
//
//go:noescape
func kernel3x4(full, tail int, a *float32, lda int, at, b *float32, tiles int, out *float32, ldo int)

// dkernel3x4 is a kernelFunc for float64 (4 values a step).
//
//go:noescape
func dkernel3x4(full, tail int, a *float64, lda int, at, b *float64, tiles int, out *float64, ldo int)
