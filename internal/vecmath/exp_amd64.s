#include "textflag.h"

// Constants of math.Exp's amd64 FMA path (math/exp_amd64.s), each in 4
// lanes (32 bytes).
#define NEG 0
#define LO 32
#define HI 64
#define LOG2E 96
#define LN2U 128
#define LN2L 160
#define SIXTEENTH 192
#define P0 224
#define P1 256
#define P2 288
#define P3 320
#define P4 352
#define P5 384
#define P6 416
#define P7 448
#define TWO 480
#define BIAS 512

#define CONST4(off, bits) \
	DATA expk<>+off+0(SB)/8, bits  \
	DATA expk<>+off+8(SB)/8, bits  \
	DATA expk<>+off+16(SB)/8, bits \
	DATA expk<>+off+24(SB)/8, bits

CONST4(NEG, $0x8000000000000000)
CONST4(LO, $-708.0)
CONST4(HI, $709.0)
CONST4(LOG2E, $1.4426950408889634073599246810018920)
CONST4(LN2U, $0.69314718055966295651160180568695068359375)
CONST4(LN2L, $0.28235290563031577122588448175013436025525412068e-12)
CONST4(SIXTEENTH, $0.0625)
CONST4(P0, $2.4801587301587301587e-5)
CONST4(P1, $1.9841269841269841270e-4)
CONST4(P2, $1.3888888888888888889e-3)
CONST4(P3, $8.3333333333333333333e-3)
CONST4(P4, $4.1666666666666666667e-2)
CONST4(P5, $1.6666666666666666667e-1)
CONST4(P6, $0.5)
CONST4(P7, $1.0)
CONST4(TWO, $2.0)
CONST4(BIAS, $0x3ff)
GLOBL expk<>(SB), RODATA|NOPTR, $544

// func expNegDivAVX2(dst *float64, n int, c float64) int
//
// Per block of 4: x = -(dst/c), checked to lie in [LO, HI]; then the
// operations of math.Exp's FMA path in the same order: k = round(x log2 e),
// r = (x - k ln2_upper - k ln2_lower)/16, a degree-8 Taylor polynomial in
// r, four squarings of the form y (y + 2) that undo the 1/16, and the
// product with 2^k built from k's exponent bits.
TEXT ·expNegDivAVX2(SB), NOSPLIT, $0-32
	MOVQ         dst+0(FP), DI
	MOVQ         n+8(FP), CX
	VBROADCASTSD c+16(FP), Y15
	XORQ         BX, BX

loop:
	CMPQ    BX, CX
	JGE     done
	VMOVUPD (DI)(BX*8), Y0
	VDIVPD  Y15, Y0, Y0
	VXORPD  expk<>+NEG(SB), Y0, Y0         // x
	VCMPPD  $0x19, expk<>+LO(SB), Y0, Y1   // NGE_UQ: !(x >= LO)
	VCMPPD  $0x16, expk<>+HI(SB), Y0, Y2   // NLE_UQ: !(x <= HI)
	VORPD   Y2, Y1, Y1
	VMOVMSKPD Y1, AX
	TESTL   AX, AX
	JNZ     done
	VMULPD      expk<>+LOG2E(SB), Y0, Y1
	VCVTPD2DQY  Y1, X2                     // k, rounded to nearest
	VCVTDQ2PD   X2, Y1
	VFNMADD231PD expk<>+LN2U(SB), Y1, Y0
	VFNMADD231PD expk<>+LN2L(SB), Y1, Y0
	VMULPD      expk<>+SIXTEENTH(SB), Y0, Y0
	VMOVUPD     expk<>+P0(SB), Y1
	VFMADD213PD expk<>+P1(SB), Y0, Y1
	VFMADD213PD expk<>+P2(SB), Y0, Y1
	VFMADD213PD expk<>+P3(SB), Y0, Y1
	VFMADD213PD expk<>+P4(SB), Y0, Y1
	VFMADD213PD expk<>+P5(SB), Y0, Y1
	VFMADD213PD expk<>+P6(SB), Y0, Y1
	VFMADD213PD expk<>+P7(SB), Y0, Y1
	VMULPD      Y1, Y0, Y0
	VADDPD      expk<>+TWO(SB), Y0, Y1
	VMULPD      Y1, Y0, Y0
	VADDPD      expk<>+TWO(SB), Y0, Y1
	VMULPD      Y1, Y0, Y0
	VADDPD      expk<>+TWO(SB), Y0, Y1
	VMULPD      Y1, Y0, Y0
	VADDPD      expk<>+TWO(SB), Y0, Y1
	VFMADD213PD expk<>+P7(SB), Y1, Y0
	VPMOVSXDQ   X2, Y3
	VPADDQ      expk<>+BIAS(SB), Y3, Y3
	VPSLLQ      $52, Y3, Y3                // 2^k
	VMULPD      Y3, Y0, Y0
	VMOVUPD     Y0, (DI)(BX*8)
	ADDQ        $4, BX
	JMP         loop

done:
	MOVQ BX, ret+24(FP)
	VZEROUPPER
	RET
