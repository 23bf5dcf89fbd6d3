//go:build amd64 && !noasm && !gccgo && !safe

#include "textflag.h"

DATA lanes<>+0(SB)/8, $0
DATA lanes<>+8(SB)/8, $1
DATA lanes<>+16(SB)/8, $2
DATA lanes<>+24(SB)/8, $3
GLOBL lanes<>(SB), RODATA|NOPTR, $32

DATA four<>+0(SB)/8, $4
DATA four<>+8(SB)/8, $4
DATA four<>+16(SB)/8, $4
DATA four<>+24(SB)/8, $4
GLOBL four<>(SB), RODATA|NOPTR, $32

// func argmin4(xx float64, cross, cnorm *float64, groups int, bd *[4]float64, bi *[4]int64)
//
// Registers: Y0 xx, Y1 the lanes' least d, Y2 their c, Y3 this block's c, Y4 four,
// Y5-Y7 the block's work; SI cross, DI cnorm, CX the blocks left.
TEXT ·argmin4(SB), NOSPLIT, $0-48
	VBROADCASTSD xx+0(FP), Y0
	MOVQ cross+8(FP), SI
	MOVQ cnorm+16(FP), DI
	MOVQ groups+24(FP), CX
	MOVQ bd+32(FP), R8
	MOVQ bi+40(FP), R9
	VMOVUPD (R8), Y1
	VMOVDQU (R9), Y2
	VMOVDQU lanes<>(SB), Y3
	VMOVDQU four<>(SB), Y4
	TESTQ CX, CX
	JE done

loop:
	VMOVUPD (SI), Y5
	VADDPD Y5, Y5, Y5         // 2 cross (exact)
	VSUBPD Y5, Y0, Y6         // xx - 2 cross
	VADDPD (DI), Y6, Y6       // + cnorm
	VCMPPD $1, Y1, Y6, Y7     // d < least (false for NaN, as Go's <)
	VBLENDVPD Y7, Y6, Y1, Y1
	VBLENDVPD Y7, Y3, Y2, Y2
	VPADDQ Y4, Y3, Y3
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE loop

done:
	VMOVUPD Y1, (R8)
	VMOVDQU Y2, (R9)
	VZEROUPPER
	RET

// func sqdist16(x *float64, stride, n int, c *float64, out *[16]float64)
//
// Registers: Y0 c[i], Y1-Y4 the step's differences, Y8-Y11 the sums; SI row i of x,
// BX the stride in bytes, DI c, CX the rows left.
TEXT ·sqdist16(SB), NOSPLIT, $0-40
	MOVQ x+0(FP), SI
	MOVQ stride+8(FP), BX
	SHLQ $3, BX
	MOVQ n+16(FP), CX
	MOVQ c+24(FP), DI
	MOVQ out+32(FP), DX
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	TESTQ CX, CX
	JE sqdone

sqloop:
	VBROADCASTSD (DI), Y0
	VMOVUPD (SI), Y1
	VMOVUPD 32(SI), Y2
	VMOVUPD 64(SI), Y3
	VMOVUPD 96(SI), Y4
	VSUBPD Y0, Y1, Y1         // x - c
	VSUBPD Y0, Y2, Y2
	VSUBPD Y0, Y3, Y3
	VSUBPD Y0, Y4, Y4
	VMULPD Y1, Y1, Y1         // rounded, then added: no fused multiply-add
	VMULPD Y2, Y2, Y2
	VMULPD Y3, Y3, Y3
	VMULPD Y4, Y4, Y4
	VADDPD Y1, Y8, Y8
	VADDPD Y2, Y9, Y9
	VADDPD Y3, Y10, Y10
	VADDPD Y4, Y11, Y11
	ADDQ BX, SI
	ADDQ $8, DI
	DECQ CX
	JNE sqloop

sqdone:
	VMOVUPD Y8, (DX)
	VMOVUPD Y9, 32(DX)
	VMOVUPD Y10, 64(DX)
	VMOVUPD Y11, 96(DX)
	VZEROUPPER
	RET

// func dot4x(a *float64, steps int, b0, b1, b2, b3 *float64, out *[16]float64)
//
// Registers: Y0 the step's a values, Y1-Y4 products, Y8-Y11 the sums; SI a, R8-R11 the
// b rows, AX the offset, CX the steps left.
TEXT ·dot4x(SB), NOSPLIT, $0-56
	MOVQ a+0(FP), SI
	MOVQ steps+8(FP), CX
	MOVQ b0+16(FP), R8
	MOVQ b1+24(FP), R9
	MOVQ b2+32(FP), R10
	MOVQ b3+40(FP), R11
	MOVQ out+48(FP), DX
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	XORQ AX, AX
	TESTQ CX, CX
	JE dotdone

dotloop:
	VMOVUPD (SI)(AX*1), Y0
	VMULPD (R8)(AX*1), Y0, Y1
	VMULPD (R9)(AX*1), Y0, Y2
	VMULPD (R10)(AX*1), Y0, Y3
	VMULPD (R11)(AX*1), Y0, Y4
	VADDPD Y1, Y8, Y8
	VADDPD Y2, Y9, Y9
	VADDPD Y3, Y10, Y10
	VADDPD Y4, Y11, Y11
	ADDQ $32, AX
	DECQ CX
	JNE dotloop

dotdone:
	VMOVUPD Y8, (DX)
	VMOVUPD Y9, 32(DX)
	VMOVUPD Y10, 64(DX)
	VMOVUPD Y11, 96(DX)
	VZEROUPPER
	RET
