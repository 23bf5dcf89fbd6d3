//go:build amd64 && !noasm

#include "textflag.h"

// Both kernels compute, for each of the tiles, the 3 x 4 sums of products of three rows
// of A (at a, a+lda, a+2*lda: full steps of one 256-bit register, then, when tail is 1,
// one step from at, the three rows' last values zero-padded) and a tile of B packed by
// pack (four rows, one register each per step); the sums of row r go to
// out[r*ldo + 4t .. 4t+3]. They need AVX2 and FMA, and tiles at least 1.
//
// Registers: Y0-Y11 the sums (Y[4r+q]: row r of A, row q of B), Y12-Y14 the step's A
// values, Y15 B's; SI, R8, R9 the rows of A, R13 the offset in them, R10 at, DI the
// packed B, DX out, R11 ldo in bytes, CX full, BX tail, R12 the tiles left.

// ARGS loads the arguments, lda and ldo scaled by the size of a value (1<<SHIFT bytes).
#define ARGS(SHIFT) \
	MOVQ full+0(FP), CX; \
	MOVQ tail+8(FP), BX; \
	MOVQ a+16(FP), SI; \
	MOVQ lda+24(FP), AX; \
	SHLQ $SHIFT, AX; \
	LEAQ (SI)(AX*1), R8; \
	LEAQ (SI)(AX*2), R9; \
	MOVQ at+32(FP), R10; \
	MOVQ b+40(FP), DI; \
	MOVQ tiles+48(FP), R12; \
	MOVQ out+56(FP), DX; \
	MOVQ ldo+64(FP), R11; \
	SHLQ $SHIFT, R11

#define ZERO \
	VXORPS Y0, Y0, Y0; VXORPS Y1, Y1, Y1; VXORPS Y2, Y2, Y2; VXORPS Y3, Y3, Y3; \
	VXORPS Y4, Y4, Y4; VXORPS Y5, Y5, Y5; VXORPS Y6, Y6, Y6; VXORPS Y7, Y7, Y7; \
	VXORPS Y8, Y8, Y8; VXORPS Y9, Y9, Y9; VXORPS Y10, Y10, Y10; VXORPS Y11, Y11, Y11

// FMAS adds the products of the A values in Y12-Y14 with the four B rows of one step.
#define FMAS(MOV, FMA) \
	MOV 0(DI), Y15; FMA Y15, Y12, Y0; FMA Y15, Y13, Y4; FMA Y15, Y14, Y8; \
	MOV 32(DI), Y15; FMA Y15, Y12, Y1; FMA Y15, Y13, Y5; FMA Y15, Y14, Y9; \
	MOV 64(DI), Y15; FMA Y15, Y12, Y2; FMA Y15, Y13, Y6; FMA Y15, Y14, Y10; \
	MOV 96(DI), Y15; FMA Y15, Y12, Y3; FMA Y15, Y13, Y7; FMA Y15, Y14, Y11; \
	ADDQ $128, DI

// SUMS runs the full steps (A from its rows) and the tail step (A from at).
#define SUMS(MOV, FMA, STEP, TAIL, DONE) \
	XORQ R13, R13; \
	MOVQ CX, AX; \
	TESTQ AX, AX; \
	JZ TAIL; \
STEP: \
	MOV (SI)(R13*1), Y12; MOV (R8)(R13*1), Y13; MOV (R9)(R13*1), Y14; \
	FMAS(MOV, FMA); \
	ADDQ $32, R13; \
	DECQ AX; \
	JNZ STEP; \
TAIL: \
	TESTQ BX, BX; \
	JZ DONE; \
	MOV 0(R10), Y12; MOV 32(R10), Y13; MOV 64(R10), Y14; \
	FMAS(MOV, FMA); \
DONE:

// FOLDS sums the lanes of the float32 row r (Y[4r] .. Y[4r+3]) into its four sums, in X[4r]:
// each register folded to 128 bits, then pairwise sums side by side.
#define FOLDS(R0, R1, R2, R3, X0, X1, X2, X3) \
	VEXTRACTF128 $1, R0, X12; VADDPS X12, X0, X0; \
	VEXTRACTF128 $1, R1, X12; VADDPS X12, X1, X1; \
	VEXTRACTF128 $1, R2, X12; VADDPS X12, X2, X2; \
	VEXTRACTF128 $1, R3, X12; VADDPS X12, X3, X3; \
	VHADDPS X1, X0, X0; VHADDPS X3, X2, X2; VHADDPS X2, X0, X0

// FOLDD is FOLDS for float64, into R0: pairwise sums within the 128-bit halves, then the
// halves of the four side by side.
#define FOLDD(R0, R1, R2, R3) \
	VHADDPD R1, R0, R0; VHADDPD R3, R2, R2; \
	VPERM2F128 $0x20, R2, R0, Y12; VPERM2F128 $0x31, R2, R0, Y13; \
	VADDPD Y13, Y12, R0

// func kernel3x4(full, tail int, a *float32, lda int, at, b *float32, tiles int, out *float32, ldo int)
TEXT ·kernel3x4(SB), NOSPLIT, $0-72
	ARGS(2)

stile:
	ZERO
	SUMS(VMOVUPS, VFMADD231PS, sstep, stail, sdone)
	FOLDS(Y0, Y1, Y2, Y3, X0, X1, X2, X3)
	FOLDS(Y4, Y5, Y6, Y7, X4, X5, X6, X7)
	FOLDS(Y8, Y9, Y10, Y11, X8, X9, X10, X11)
	VMOVUPS X0, (DX)
	VMOVUPS X4, (DX)(R11*1)
	VMOVUPS X8, (DX)(R11*2)
	ADDQ $16, DX
	DECQ R12
	JNZ stile
	VZEROUPPER
	RET

// func dkernel3x4(full, tail int, a *float64, lda int, at, b *float64, tiles int, out *float64, ldo int)
TEXT ·dkernel3x4(SB), NOSPLIT, $0-72
	ARGS(3)

dtile:
	ZERO
	SUMS(VMOVUPD, VFMADD231PD, dstep, dtail, ddone)
	FOLDD(Y0, Y1, Y2, Y3)
	FOLDD(Y4, Y5, Y6, Y7)
	FOLDD(Y8, Y9, Y10, Y11)
	VMOVUPD Y0, (DX)
	VMOVUPD Y4, (DX)(R11*1)
	VMOVUPD Y8, (DX)(R11*2)
	ADDQ $32, DX
	DECQ R12
	JNZ dtile
	VZEROUPPER
	RET
