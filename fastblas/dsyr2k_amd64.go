package fastblas

import "gonum.org/v1/gonum/blas"

// Dsyr2k computes the ul triangle of C = alpha·op(A)·op(B)ᵀ +
// alpha·op(B)·op(A)ᵀ + beta·C for n×k op(A) and op(B); the other triangle
// of C is not touched, and C is not read when beta == 0. It is one Dsyrk-
// like product of inner dimension 2k, [op(A) op(B)]·[op(B) op(A)]ᵀ, on
// copies of A and B side by side (NoTrans) or stacked (Trans), so C is
// read and written once. Cost: 2·n·(n+1)·k flops and a copy of 4·n·k
// values.
func (impl Implementation) Dsyr2k(ul blas.Uplo, tA blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	trans, ok := isTrans(tA)
	if kern == nil || !ok || ul != blas.Lower && ul != blas.Upper || n <= 0 || k < 0 || n*n*k < gemmMin ||
		!fits(a, lda, n, k, trans) || !fits(b, ldb, n, k, trans) || !fits(c, ldc, n, n, false) {
		impl.Implementation.Dsyr2k(ul, tA, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	if alpha == 0 {
		scaleTri(ul, n, beta, c, ldc)
		return
	}
	buf := getBuf(4 * n * k)
	defer bufPool.Put(buf)
	ab, ba := (*buf)[:2*n*k], (*buf)[2*n*k:]
	ld := 2 * k
	if trans { // k×n A and B: stack [A; B] and [B; A], 2k×n
		ld = n
		for l := range k {
			copy(ab[l*n:(l+1)*n], a[l*lda:])
			copy(ab[(k+l)*n:(k+l+1)*n], b[l*ldb:])
		}
		copy(ba[:k*n], ab[k*n:])
		copy(ba[k*n:], ab[:k*n])
	} else { // n×k A and B: rows [A_i B_i] and [B_i A_i], n×2k
		for i := range n {
			copy(ab[i*ld:i*ld+k], a[i*lda:i*lda+k])
			copy(ab[i*ld+k:(i+1)*ld], b[i*ldb:i*ldb+k])
			copy(ba[i*ld:i*ld+k], ab[i*ld+k:(i+1)*ld])
			copy(ba[i*ld+k:(i+1)*ld], ab[i*ld:i*ld+k])
		}
	}
	g := gemm{kern: kern, transA: trans, transB: !trans, m: n, n: n, k: 2 * k, alpha: alpha, beta: beta,
		a: ab, b: ba, c: c, lda: ld, ldb: ld, ldc: ldc, uplo: ul}
	g.run()
}
