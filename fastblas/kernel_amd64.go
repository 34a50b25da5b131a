package fastblas

// call sets the mr×nr tile at c (row stride ldc) to alpha·Ap·Bp + beta·c,
// where Ap and Bp are packed panels of k ≥ 1 steps (mr and nr values per
// step); c is not read when beta == 0. Cost: 2·mr·nr·k flops. The calls
// are direct: through a func value the scratch tile would escape to the
// heap (Dpotrf 7% slower with avx2, 20% with avx512).
func (kn *kernel) call(k int, a, b, c *float64, ldc int, alpha, beta float64) {
	if kn == avx512 {
		kern12x16(k, a, b, c, ldc, alpha, beta)
		return
	}
	kern6x8(k, a, b, c, ldc, alpha, beta)
}

// Dgemm micro-kernels in kernel_amd64.s: a 6×8 tile of C in 12 ymm
// accumulators (AVX2/FMA), 96·k flops; a 12×16 tile in 24 zmm accumulators
// (AVX-512F), 384·k flops.
//
//go:noescape
func kern6x8(k int, a, b, c *float64, ldc int, alpha, beta float64)

//go:noescape
func kern12x16(k int, a, b, c *float64, ldc int, alpha, beta float64)

// gather4 interleaves four rows of s (row stride ls) into d with stride w:
// d[p*w+i] = s[i*ls+p] for i < 4, p < n; n a positive multiple of 4.
//
//go:noescape
func gather4(d *float64, w int, s *float64, ls, n int)

// Block of B solved in place by one trsm kernel call: trsmM rows, trsmN
// columns.
const (
	trsmM = 6
	trsmN = 8
)

// Small triangular solves in place on a 6×8 block of B (row stride ldb),
// scaled by alpha, with packed coefficients w: X·U = alpha·B for an 8×8
// upper (RU) or lower (RL) U, L·X = alpha·B for a 6×6 lower (LL) or upper
// (LU) L. See trsm_amd64.s for the layout of w and trsmSmall for packing.
//
//go:noescape
func trsmRU6x8(b *float64, ldb int, w *float64, alpha float64)

//go:noescape
func trsmRL6x8(b *float64, ldb int, w *float64, alpha float64)

//go:noescape
func trsmLL6x8(b *float64, ldb int, w *float64, alpha float64)

//go:noescape
func trsmLU6x8(b *float64, ldb int, w *float64, alpha float64)

// symv4 adds four rows of a symmetric matrix-vector product (Dsymv): for
// the rows a[r*lda : r*lda+n], r < 4, n a multiple of 4, d[r] = Σ_j
// a[r*lda+j]·x[j] and p[j] += Σ_r a[r*lda+j]·xs[r]. 16·n flops.
//
//go:noescape
func symv4(n int, a *float64, lda int, x, p, xs, d *float64)

// axpy2 sets a[j] += s·u[j] + t·v[j] for j < n (Dsyr2). 4·n flops.
//
//go:noescape
func axpy2(n int, a, u, v *float64, s, t float64)
