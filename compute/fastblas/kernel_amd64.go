//go:build amd64 && !noasm

package fastblas

import "golang.org/x/sys/cpu"

// haveKernel says whether the processor runs kernel3x4 (AVX2 and FMA).
var haveKernel = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func kernel3x4(full, tail int, a *float32, lda int, at, b *float32, tiles int, out *float32, ldo int)
