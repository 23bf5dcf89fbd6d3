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

// func needExact(c *float32, nb *float64, groups int, na, lo, hi, e float64, out *int32) int
//
// For i < 4*groups, est = (na + nb[i]) - 2 c[i] in float64; i goes to out unless est - e
// >= lo and est + e <= hi (NaN: it goes). Returns how many went. Registers: Y8 na, Y9 lo,
// Y10 hi, Y11 e; SI c, DI nb, DX out, CX the groups left, R8 the count, R9 i.
TEXT ·needExact(SB), NOSPLIT, $0-72
	MOVQ c+0(FP), SI
	MOVQ nb+8(FP), DI
	MOVQ groups+16(FP), CX
	VBROADCASTSD na+24(FP), Y8
	VBROADCASTSD lo+32(FP), Y9
	VBROADCASTSD hi+40(FP), Y10
	VBROADCASTSD e+48(FP), Y11
	MOVQ out+56(FP), DX
	XORQ R8, R8
	XORQ R9, R9
	TESTQ CX, CX
	JE nxdone

nxloop:
	VCVTPS2PD (SI), Y0
	VADDPD Y0, Y0, Y0         // 2c
	VADDPD (DI), Y8, Y1       // na + nb
	VSUBPD Y0, Y1, Y1         // est
	VSUBPD Y11, Y1, Y2        // est - e
	VADDPD Y11, Y1, Y3        // est + e
	VCMPPD $0x1d, Y9, Y2, Y4  // est - e >= lo (GE_OQ)
	VCMPPD $0x12, Y10, Y3, Y5 // est + e <= hi (LE_OQ)
	VANDPD Y4, Y5, Y6
	VMOVMSKPD Y6, AX
	XORL $15, AX
	JE nxnext

nxbits:
	BSFL AX, BX
	LEAQ (R9)(BX*1), R10
	MOVL R10, (DX)(R8*4)
	INCQ R8
	LEAL -1(AX), R11
	ANDL R11, AX
	JNE nxbits

nxnext:
	ADDQ $16, SI
	ADDQ $32, DI
	ADDQ $4, R9
	DECQ CX
	JNE nxloop

nxdone:
	VZEROUPPER
	MOVQ R8, ret+64(FP)
	RET

// func nearerEither(c *float32, nb, wb *float64, groups int, na, wa, e float64, out *int32) int
//
// For i < 4*groups, lower = ((na + nb[i]) - 2 c[i]) - e in float64; i goes to out unless
// lower >= wa and lower >= wb[i] (NaN: it goes). Returns how many went. Registers: Y8
// na, Y9 wa, Y11 e; SI c, DI nb, BX wb, DX out, CX the groups left, R8 the count, R9 i.
TEXT ·nearerEither(SB), NOSPLIT, $0-72
	MOVQ c+0(FP), SI
	MOVQ nb+8(FP), DI
	MOVQ wb+16(FP), BX
	MOVQ groups+24(FP), CX
	VBROADCASTSD na+32(FP), Y8
	VBROADCASTSD wa+40(FP), Y9
	VBROADCASTSD e+48(FP), Y11
	MOVQ out+56(FP), DX
	XORQ R8, R8
	XORQ R9, R9
	TESTQ CX, CX
	JE nedone

neloop:
	VCVTPS2PD (SI), Y0
	VADDPD Y0, Y0, Y0         // 2c
	VADDPD (DI), Y8, Y1       // na + nb
	VSUBPD Y0, Y1, Y1         // est
	VSUBPD Y11, Y1, Y2        // lower = est - e
	VMOVUPD (BX), Y3
	VCMPPD $0x1d, Y9, Y2, Y4  // lower >= wa (GE_OQ)
	VCMPPD $0x1d, Y3, Y2, Y5  // lower >= wb (GE_OQ)
	VANDPD Y4, Y5, Y6
	VMOVMSKPD Y6, AX
	XORL $15, AX
	JE nenext

nebits:
	BSFL AX, R11
	LEAQ (R9)(R11*1), R10
	MOVL R10, (DX)(R8*4)
	INCQ R8
	LEAL -1(AX), R11
	ANDL R11, AX
	JNE nebits

nenext:
	ADDQ $16, SI
	ADDQ $32, DI
	ADDQ $32, BX
	ADDQ $4, R9
	DECQ CX
	JNE neloop

nedone:
	VZEROUPPER
	MOVQ R8, ret+64(FP)
	RET
