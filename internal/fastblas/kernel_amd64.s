#include "textflag.h"

// One k step of the 6x8 tile: two rows of B (Y0, Y1) times six broadcast
// elements of A, accumulated into Y4..Y15 (row r in Y(4+2r), Y(5+2r)).
#define STEP(oa, ob) \
	VMOVUPD      ob(DI), Y0       \
	VMOVUPD      ob+32(DI), Y1    \
	VBROADCASTSD oa(SI), Y2       \
	VFMADD231PD  Y0, Y2, Y4       \
	VFMADD231PD  Y1, Y2, Y5       \
	VBROADCASTSD oa+8(SI), Y3     \
	VFMADD231PD  Y0, Y3, Y6       \
	VFMADD231PD  Y1, Y3, Y7       \
	VBROADCASTSD oa+16(SI), Y2    \
	VFMADD231PD  Y0, Y2, Y8       \
	VFMADD231PD  Y1, Y2, Y9       \
	VBROADCASTSD oa+24(SI), Y3    \
	VFMADD231PD  Y0, Y3, Y10      \
	VFMADD231PD  Y1, Y3, Y11      \
	VBROADCASTSD oa+32(SI), Y2    \
	VFMADD231PD  Y0, Y2, Y12      \
	VFMADD231PD  Y1, Y2, Y13      \
	VBROADCASTSD oa+40(SI), Y3    \
	VFMADD231PD  Y0, Y3, Y14      \
	VFMADD231PD  Y1, Y3, Y15

// func kern6x8(k int, a, b, c *float64, ldc int, alpha, beta float64)
//
// C[0:6, 0:8] = alpha * Ap*Bp + beta*C with Ap the packed 6×k panel (6
// values per step) and Bp the packed k×8 panel (8 values per step); C is
// row-major with row stride ldc and is not read when beta == 0. k ≥ 1.
// Cost: 96·k flops, 12 FMAs per step.
TEXT ·kern6x8(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $3, R8

	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	VXORPD Y14, Y14, Y14
	VXORPD Y15, Y15, Y15

	MOVQ CX, BX
	SHRQ $2, BX
	JZ   tail

loop4:
	STEP(0, 0)
	STEP(48, 64)
	STEP(96, 128)
	STEP(144, 192)
	ADDQ $192, SI
	ADDQ $256, DI
	DECQ BX
	JNZ  loop4

tail:
	ANDQ $3, CX
	JZ   done

loop1:
	STEP(0, 0)
	ADDQ $48, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  loop1

done:
	VBROADCASTSD alpha+40(FP), Y0
	VMULPD       Y0, Y4, Y4
	VMULPD       Y0, Y5, Y5
	VMULPD       Y0, Y6, Y6
	VMULPD       Y0, Y7, Y7
	VMULPD       Y0, Y8, Y8
	VMULPD       Y0, Y9, Y9
	VMULPD       Y0, Y10, Y10
	VMULPD       Y0, Y11, Y11
	VMULPD       Y0, Y12, Y12
	VMULPD       Y0, Y13, Y13
	VMULPD       Y0, Y14, Y14
	VMULPD       Y0, Y15, Y15

	// beta == ±0: store without reading C.
	MOVQ beta+48(FP), AX
	SHLQ $1, AX
	JZ   store

	VBROADCASTSD beta+48(FP), Y1
	MOVQ         DX, R9
	VFMADD231PD  (R9), Y1, Y4
	VFMADD231PD  32(R9), Y1, Y5
	ADDQ         R8, R9
	VFMADD231PD  (R9), Y1, Y6
	VFMADD231PD  32(R9), Y1, Y7
	ADDQ         R8, R9
	VFMADD231PD  (R9), Y1, Y8
	VFMADD231PD  32(R9), Y1, Y9
	ADDQ         R8, R9
	VFMADD231PD  (R9), Y1, Y10
	VFMADD231PD  32(R9), Y1, Y11
	ADDQ         R8, R9
	VFMADD231PD  (R9), Y1, Y12
	VFMADD231PD  32(R9), Y1, Y13
	ADDQ         R8, R9
	VFMADD231PD  (R9), Y1, Y14
	VFMADD231PD  32(R9), Y1, Y15

store:
	VMOVUPD Y4, (DX)
	VMOVUPD Y5, 32(DX)
	ADDQ    R8, DX
	VMOVUPD Y6, (DX)
	VMOVUPD Y7, 32(DX)
	ADDQ    R8, DX
	VMOVUPD Y8, (DX)
	VMOVUPD Y9, 32(DX)
	ADDQ    R8, DX
	VMOVUPD Y10, (DX)
	VMOVUPD Y11, 32(DX)
	ADDQ    R8, DX
	VMOVUPD Y12, (DX)
	VMOVUPD Y13, 32(DX)
	ADDQ    R8, DX
	VMOVUPD Y14, (DX)
	VMOVUPD Y15, 32(DX)
	VZEROUPPER
	RET
