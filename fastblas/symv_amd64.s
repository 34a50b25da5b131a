#include "textflag.h"

// PFD is symv4's prefetch distance in bytes along each row. A
// non-temporal prefetch (the rows are read once per call) brings Dsymv at
// n = 2000, a matrix the L3 cache holds, from 41 to 47 GB/s; at n = 4000,
// read from memory, it changes nothing (BenchmarkDsymv).
#define PFD 1024

// BODY8 is one step of symv4 over 8 columns at AX.
#define BODY8 \
	VMOVUPD (DI)(AX*8), Y8 \
	VMOVUPD 32(DI)(AX*8), Y9 \
	VXORPD  Y10, Y10, Y10 \
	VXORPD  Y11, Y11, Y11 \
	ROW(SI, Y0, Y4) \
	ROW(R9, Y1, Y5) \
	ROW(R10, Y2, Y6) \
	ROW(R11, Y3, Y7) \
	VADDPD  (DX)(AX*8), Y10, Y10 \
	VADDPD  32(DX)(AX*8), Y11, Y11 \
	VMOVUPD Y10, (DX)(AX*8) \
	VMOVUPD Y11, 32(DX)(AX*8) \
	ADDQ    $8, AX

// ROW(ra, acc, xs) folds 8 columns of one row into the dot acc and
// the update sum Y10, Y11: ra is the row's base, AX the column index.
#define ROW(ra, acc, xs) \
	VMOVUPD     (ra)(AX*8), Y12   \
	VMOVUPD     32(ra)(AX*8), Y13 \
	VFMADD231PD Y8, Y12, acc      \
	VFMADD231PD Y9, Y13, acc      \
	VFMADD231PD xs, Y12, Y10      \
	VFMADD231PD xs, Y13, Y11

// ROW4 is ROW for 4 columns (Y8, Y10 only).
#define ROW4(ra, acc, xs) \
	VMOVUPD     (ra)(AX*8), Y12 \
	VFMADD231PD Y8, Y12, acc    \
	VFMADD231PD xs, Y12, Y10

// HSUM reduces the four lanes of acc (Y register, X alias xacc) to a
// scalar stored at off(R12): (l0+l2) + (l1+l3).
#define HSUM(acc, xacc, off) \
	VEXTRACTF128 $1, acc, X12 \
	VADDPD       X12, xacc, xacc \
	VHADDPD      xacc, xacc, xacc \
	VMOVSD       xacc, off(R12)

// func symv4(n int, a *float64, lda int, x, p, xs, d *float64)
//
// For the four rows a[r*lda : r*lda+n], r < 4, and n a multiple of 4:
// d[r] = Σ_j a[r*lda+j]·x[j] and p[j] += Σ_r a[r*lda+j]·xs[r]. One pass
// over the rows computes both halves of a symmetric matrix-vector product.
// Each d[r] sums in four lanes, column j in lane j mod 4, then
// (l0+l2)+(l1+l3); each p[j] adds the rows in order 0..3 before adding
// to p[j]. Cost: 4n loads of a, 16n flops.
TEXT ·symv4(SB), NOSPLIT, $0-56
	MOVQ n+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), BX
	SHLQ $3, BX
	MOVQ x+24(FP), DI
	MOVQ p+32(FP), DX
	MOVQ xs+40(FP), R8
	MOVQ d+48(FP), R12
	LEAQ (SI)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	LEAQ (R10)(BX*1), R11

	VXORPD       Y0, Y0, Y0
	VXORPD       Y1, Y1, Y1
	VXORPD       Y2, Y2, Y2
	VXORPD       Y3, Y3, Y3
	VBROADCASTSD (R8), Y4
	VBROADCASTSD 8(R8), Y5
	VBROADCASTSD 16(R8), Y6
	VBROADCASTSD 24(R8), Y7

	XORQ AX, AX
	MOVQ CX, R13
	SHRQ $3, R13
	JZ   tail4

	// R14 iterations prefetch the four rows PFD bytes ahead, the rest
	// (the last PFD bytes of the rows) do not.
	MOVQ CX, R14
	SUBQ $(PFD/8), R14
	JGE  split
	XORQ R14, R14

split:
	SHRQ $3, R14
	SUBQ R14, R13
	TESTQ R14, R14
	JZ   rest8

loop8p:
	PREFETCHNTA PFD(SI)(AX*8)
	PREFETCHNTA PFD(R9)(AX*8)
	PREFETCHNTA PFD(R10)(AX*8)
	PREFETCHNTA PFD(R11)(AX*8)
	BODY8
	DECQ R14
	JNZ  loop8p

rest8:
	TESTQ R13, R13
	JZ    tail4

loop8:
	BODY8
	DECQ R13
	JNZ  loop8

tail4:
	TESTQ $4, CX
	JZ    done
	VMOVUPD (DI)(AX*8), Y8
	VXORPD  Y10, Y10, Y10
	ROW4(SI, Y0, Y4)
	ROW4(R9, Y1, Y5)
	ROW4(R10, Y2, Y6)
	ROW4(R11, Y3, Y7)
	VADDPD  (DX)(AX*8), Y10, Y10
	VMOVUPD Y10, (DX)(AX*8)

done:
	HSUM(Y0, X0, 0)
	HSUM(Y1, X1, 8)
	HSUM(Y2, X2, 16)
	HSUM(Y3, X3, 24)
	VZEROUPPER
	RET

// func axpy2(n int, a, u, v *float64, s, t float64)
//
// a[j] += s·u[j] + t·v[j] for j < n, as fma(s, u, fma(t, v, a)) in every
// lane and in the scalar tail. Cost: 4n flops, one read and write of a.
TEXT ·axpy2(SB), NOSPLIT, $0-48
	MOVQ         n+0(FP), CX
	MOVQ         a+8(FP), DI
	MOVQ         u+16(FP), SI
	MOVQ         v+24(FP), DX
	VBROADCASTSD s+32(FP), Y4
	VBROADCASTSD t+40(FP), Y5
	XORQ         AX, AX
	MOVQ         CX, R13
	SHRQ         $3, R13
	JZ           atail4

aloop8:
	VMOVUPD     (DI)(AX*8), Y0
	VMOVUPD     32(DI)(AX*8), Y1
	VFMADD231PD (DX)(AX*8), Y5, Y0
	VFMADD231PD 32(DX)(AX*8), Y5, Y1
	VFMADD231PD (SI)(AX*8), Y4, Y0
	VFMADD231PD 32(SI)(AX*8), Y4, Y1
	VMOVUPD     Y0, (DI)(AX*8)
	VMOVUPD     Y1, 32(DI)(AX*8)
	ADDQ        $8, AX
	DECQ        R13
	JNZ         aloop8

atail4:
	TESTQ $4, CX
	JZ    atail1
	VMOVUPD     (DI)(AX*8), Y0
	VFMADD231PD (DX)(AX*8), Y5, Y0
	VFMADD231PD (SI)(AX*8), Y4, Y0
	VMOVUPD     Y0, (DI)(AX*8)
	ADDQ        $4, AX

atail1:
	CMPQ AX, CX
	JGE  adone
	VMOVSD      (DI)(AX*8), X0
	VFMADD231SD (DX)(AX*8), X5, X0
	VFMADD231SD (SI)(AX*8), X4, X0
	VMOVSD      X0, (DI)(AX*8)
	INCQ        AX
	JMP         atail1

adone:
	VZEROUPPER
	RET
