#include "textflag.h"

// Constants of scaledCosAddGo (cos.go), each repeated in 4 lanes (32 bytes).
#define ABSMASK 0
#define BOUND 32
#define TWOOVERPI 64
#define MAGIC 96
#define C1 128
#define C2 160
#define C3 192
#define C4 224
#define S0 256
#define S1 288
#define S2 320
#define S3 352
#define S4 384
#define S5 416
#define K0 448
#define K1 480
#define K2 512
#define K3 544
#define K4 576
#define K5 608
#define HALF 640
#define ONE 672
#define INT1 704

#define CONST4(off, bits) \
	DATA cosk<>+off+0(SB)/8, bits  \
	DATA cosk<>+off+8(SB)/8, bits  \
	DATA cosk<>+off+16(SB)/8, bits \
	DATA cosk<>+off+24(SB)/8, bits

CONST4(ABSMASK, $0x7fffffffffffffff)
CONST4(BOUND, $0x4130000000000000)     // 2^20
CONST4(TWOOVERPI, $0x3fe45f306dc9c883)
CONST4(MAGIC, $0x4338000000000000)     // 1.5 * 2^52
CONST4(C1, $0x3ff921fb54400000)
CONST4(C2, $0x3dd0b4611a600000)
CONST4(C3, $0x3ba3198a2e000000)
CONST4(C4, $0x397b839a252049c1)
CONST4(S0, $0x3de5d8fd1fd19ccd)
CONST4(S1, $0xbe5ae5e5a9291f5d)
CONST4(S2, $0x3ec71de3567d48a1)
CONST4(S3, $0xbf2a01a019bfdf03)
CONST4(S4, $0x3f8111111110f7d0)
CONST4(S5, $0xbfc5555555555548)
CONST4(K0, $0xbda8fa49a0861a9b)
CONST4(K1, $0x3e21ee9d7b4e3f05)
CONST4(K2, $0xbe927e4f7eac4bc6)
CONST4(K3, $0x3efa01a019c844f5)
CONST4(K4, $0xbf56c16c16c14f91)
CONST4(K5, $0x3fa555555555554b)
CONST4(HALF, $0x3fe0000000000000)
CONST4(ONE, $0x3ff0000000000000)
CONST4(INT1, $1)
GLOBL cosk<>(SB), RODATA|NOPTR, $736

// LOAD4 sets X = |dst[i+k]+b[i+k]| for the 4 elements at byte offset off
// from element BX, and M to all ones in the lanes where !(X <= Bound).
#define LOAD4(off, X, M) \
	VMOVUPD off(DI)(BX*8), X         \
	VADDPD  off(SI)(BX*8), X, X      \
	VANDPD  cosk<>+ABSMASK(SB), X, X \
	VCMPPD  $0x16, cosk<>+BOUND(SB), X, M // NLE_UQ

// COS4 replaces X = |x| (all lanes <= Bound) by s*cos(x), s in Y15, with
// the operations of scaledCosAddGo in the same order. Y14 holds MAGIC and
// Y13 ONE. T, N, Z, P and W are scratch.
#define COS4(X, T, N, Z, P, W) \
	VMULPD    cosk<>+TWOOVERPI(SB), X, T \
	VADDPD    Y14, T, T                  \ // t; its low bits are n
	VSUBPD    Y14, T, N                  \ // n
	VMULPD    cosk<>+C1(SB), N, W        \
	VSUBPD    W, X, X                    \
	VMULPD    cosk<>+C2(SB), N, W        \
	VSUBPD    W, X, X                    \
	VMULPD    cosk<>+C3(SB), N, W        \
	VSUBPD    W, X, X                    \
	VMULPD    cosk<>+C4(SB), N, W        \
	VSUBPD    W, X, X                    \ // r
	VMULPD    X, X, Z                    \ // z = r^2
	VMULPD    cosk<>+S0(SB), Z, P        \
	VADDPD    cosk<>+S1(SB), P, P        \
	VMULPD    Z, P, P                    \
	VADDPD    cosk<>+S2(SB), P, P        \
	VMULPD    Z, P, P                    \
	VADDPD    cosk<>+S3(SB), P, P        \
	VMULPD    Z, P, P                    \
	VADDPD    cosk<>+S4(SB), P, P        \
	VMULPD    Z, P, P                    \
	VADDPD    cosk<>+S5(SB), P, P        \ // S(z)
	VMULPD    cosk<>+K0(SB), Z, N        \
	VADDPD    cosk<>+K1(SB), N, N        \
	VMULPD    Z, N, N                    \
	VADDPD    cosk<>+K2(SB), N, N        \
	VMULPD    Z, N, N                    \
	VADDPD    cosk<>+K3(SB), N, N        \
	VMULPD    Z, N, N                    \
	VADDPD    cosk<>+K4(SB), N, N        \
	VMULPD    Z, N, N                    \
	VADDPD    cosk<>+K5(SB), N, N        \ // C(z)
	VMULPD    Z, X, W                    \
	VMULPD    P, W, W                    \
	VADDPD    W, X, P                    \ // sin r = r + (r z) S
	VMULPD    Z, Z, W                    \
	VMULPD    N, W, W                    \
	VMULPD    cosk<>+HALF(SB), Z, Z      \
	VSUBPD    Z, Y13, Z                  \
	VADDPD    W, Z, Z                    \ // cos r = (1 - z/2) + (z z) C
	VPSLLQ    $63, T, W                  \
	VBLENDVPD W, P, Z, Z                 \ // sin r for odd n
	VPADDQ    cosk<>+INT1(SB), T, T      \
	VPSRLQ    $1, T, T                   \
	VPSLLQ    $63, T, T                  \
	VXORPD    T, Z, Z                    \ // negated if bit 1 of n+1
	VMULPD    Y15, Z, X

// COS8 is COS4(Y0, Y1, Y2, Y3, Y4, Y5) and COS4(Y6, Y7, Y8, Y9, Y10, Y11)
// interleaved instruction by instruction: two independent chains in
// flight (about 20% faster than one COS4 after the other).
#define COS8 \
	VMULPD    cosk<>+TWOOVERPI(SB), Y0, Y1 \
	VMULPD    cosk<>+TWOOVERPI(SB), Y6, Y7 \
	VADDPD    Y14, Y1, Y1 \
	VADDPD    Y14, Y7, Y7 \
	VSUBPD    Y14, Y1, Y2 \
	VSUBPD    Y14, Y7, Y8 \
	VMULPD    cosk<>+C1(SB), Y2, Y5 \
	VMULPD    cosk<>+C1(SB), Y8, Y11 \
	VSUBPD    Y5, Y0, Y0 \
	VSUBPD    Y11, Y6, Y6 \
	VMULPD    cosk<>+C2(SB), Y2, Y5 \
	VMULPD    cosk<>+C2(SB), Y8, Y11 \
	VSUBPD    Y5, Y0, Y0 \
	VSUBPD    Y11, Y6, Y6 \
	VMULPD    cosk<>+C3(SB), Y2, Y5 \
	VMULPD    cosk<>+C3(SB), Y8, Y11 \
	VSUBPD    Y5, Y0, Y0 \
	VSUBPD    Y11, Y6, Y6 \
	VMULPD    cosk<>+C4(SB), Y2, Y5 \
	VMULPD    cosk<>+C4(SB), Y8, Y11 \
	VSUBPD    Y5, Y0, Y0 \
	VSUBPD    Y11, Y6, Y6 \
	VMULPD    Y0, Y0, Y3 \
	VMULPD    Y6, Y6, Y9 \
	VMULPD    cosk<>+S0(SB), Y3, Y4 \
	VMULPD    cosk<>+S0(SB), Y9, Y10 \
	VADDPD    cosk<>+S1(SB), Y4, Y4 \
	VADDPD    cosk<>+S1(SB), Y10, Y10 \
	VMULPD    Y3, Y4, Y4 \
	VMULPD    Y9, Y10, Y10 \
	VADDPD    cosk<>+S2(SB), Y4, Y4 \
	VADDPD    cosk<>+S2(SB), Y10, Y10 \
	VMULPD    Y3, Y4, Y4 \
	VMULPD    Y9, Y10, Y10 \
	VADDPD    cosk<>+S3(SB), Y4, Y4 \
	VADDPD    cosk<>+S3(SB), Y10, Y10 \
	VMULPD    Y3, Y4, Y4 \
	VMULPD    Y9, Y10, Y10 \
	VADDPD    cosk<>+S4(SB), Y4, Y4 \
	VADDPD    cosk<>+S4(SB), Y10, Y10 \
	VMULPD    Y3, Y4, Y4 \
	VMULPD    Y9, Y10, Y10 \
	VADDPD    cosk<>+S5(SB), Y4, Y4 \
	VADDPD    cosk<>+S5(SB), Y10, Y10 \
	VMULPD    cosk<>+K0(SB), Y3, Y2 \
	VMULPD    cosk<>+K0(SB), Y9, Y8 \
	VADDPD    cosk<>+K1(SB), Y2, Y2 \
	VADDPD    cosk<>+K1(SB), Y8, Y8 \
	VMULPD    Y3, Y2, Y2 \
	VMULPD    Y9, Y8, Y8 \
	VADDPD    cosk<>+K2(SB), Y2, Y2 \
	VADDPD    cosk<>+K2(SB), Y8, Y8 \
	VMULPD    Y3, Y2, Y2 \
	VMULPD    Y9, Y8, Y8 \
	VADDPD    cosk<>+K3(SB), Y2, Y2 \
	VADDPD    cosk<>+K3(SB), Y8, Y8 \
	VMULPD    Y3, Y2, Y2 \
	VMULPD    Y9, Y8, Y8 \
	VADDPD    cosk<>+K4(SB), Y2, Y2 \
	VADDPD    cosk<>+K4(SB), Y8, Y8 \
	VMULPD    Y3, Y2, Y2 \
	VMULPD    Y9, Y8, Y8 \
	VADDPD    cosk<>+K5(SB), Y2, Y2 \
	VADDPD    cosk<>+K5(SB), Y8, Y8 \
	VMULPD    Y3, Y0, Y5 \
	VMULPD    Y9, Y6, Y11 \
	VMULPD    Y4, Y5, Y5 \
	VMULPD    Y10, Y11, Y11 \
	VADDPD    Y5, Y0, Y4 \
	VADDPD    Y11, Y6, Y10 \
	VMULPD    Y3, Y3, Y5 \
	VMULPD    Y9, Y9, Y11 \
	VMULPD    Y2, Y5, Y5 \
	VMULPD    Y8, Y11, Y11 \
	VMULPD    cosk<>+HALF(SB), Y3, Y3 \
	VMULPD    cosk<>+HALF(SB), Y9, Y9 \
	VSUBPD    Y3, Y13, Y3 \
	VSUBPD    Y9, Y13, Y9 \
	VADDPD    Y5, Y3, Y3 \
	VADDPD    Y11, Y9, Y9 \
	VPSLLQ    $63, Y1, Y5 \
	VPSLLQ    $63, Y7, Y11 \
	VBLENDVPD Y5, Y4, Y3, Y3 \
	VBLENDVPD Y11, Y10, Y9, Y9 \
	VPADDQ    cosk<>+INT1(SB), Y1, Y1 \
	VPADDQ    cosk<>+INT1(SB), Y7, Y7 \
	VPSRLQ    $1, Y1, Y1 \
	VPSRLQ    $1, Y7, Y7 \
	VPSLLQ    $63, Y1, Y1 \
	VPSLLQ    $63, Y7, Y7 \
	VXORPD    Y1, Y3, Y3 \
	VXORPD    Y7, Y9, Y9 \
	VMULPD    Y15, Y3, Y0 \
	VMULPD    Y15, Y9, Y6

// func scaledCosAddAVX2(dst, b *float64, n int, s float64) int
TEXT ·scaledCosAddAVX2(SB), NOSPLIT, $0-40
	MOVQ         dst+0(FP), DI
	MOVQ         b+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSD s+24(FP), Y15
	VMOVUPD      cosk<>+MAGIC(SB), Y14
	VMOVUPD      cosk<>+ONE(SB), Y13
	XORQ         BX, BX
	MOVQ         CX, DX
	ANDQ         $-8, DX

loop8:
	CMPQ      BX, DX
	JGE       loop4
	LOAD4(0, Y0, Y1)
	LOAD4(32, Y6, Y7)
	VORPD     Y1, Y7, Y1
	VMOVMSKPD Y1, AX
	TESTL     AX, AX
	JNZ       loop4 // find the block in loop4
	COS8
	VMOVUPD   Y0, (DI)(BX*8)
	VMOVUPD   Y6, 32(DI)(BX*8)
	ADDQ      $8, BX
	JMP       loop8

loop4:
	CMPQ      BX, CX
	JGE       done
	LOAD4(0, Y0, Y1)
	VMOVMSKPD Y1, AX
	TESTL     AX, AX
	JNZ       done
	COS4(Y0, Y1, Y2, Y3, Y4, Y5)
	VMOVUPD   Y0, (DI)(BX*8)
	ADDQ      $4, BX
	JMP       loop4

done:
	MOVQ       BX, ret+32(FP)
	VZEROUPPER
	RET
