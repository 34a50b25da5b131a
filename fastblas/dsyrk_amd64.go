package fastblas

import "gonum.org/v1/gonum/blas"

// Dsyrk computes the ul triangle of C = alpha·op(A)·op(A)ᵀ + beta·C for an
// n×k op(A); the other triangle of C is not touched, and C is not read when
// beta == 0. It runs the Dgemm loops, skipping tiles outside the triangle
// and writing the tiles on the diagonal through a scratch tile.
// Cost: n·(n+1)·k flops.
func (impl Implementation) Dsyrk(ul blas.Uplo, tA blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	trans, ok := isTrans(tA)
	if kern == nil || !ok || ul != blas.Lower && ul != blas.Upper || n <= 0 || k < 0 ||
		!fits(a, lda, n, k, trans) || !fits(c, ldc, n, n, false) {
		impl.Implementation.Dsyrk(ul, tA, n, k, alpha, a, lda, beta, c, ldc)
		return
	}
	if alpha == 0 || k == 0 {
		scaleTri(ul, n, beta, c, ldc)
		return
	}
	g := gemm{kern: kern, transA: trans, transB: !trans, m: n, n: n, k: k, alpha: alpha, beta: beta,
		a: a, b: a, c: c, lda: lda, ldb: lda, ldc: ldc, uplo: ul}
	g.run()
}

// scaleTri sets the ul triangle of the n×n C to beta·C, to zero without
// reading C when beta == 0. Cost: n²/2 flops.
func scaleTri(ul blas.Uplo, n int, beta float64, c []float64, ldc int) {
	for i := range n {
		row := c[i*ldc : i*ldc+i+1]
		if ul == blas.Upper {
			row = c[i*ldc+i : i*ldc+n]
		}
		switch beta {
		case 0:
			clear(row)
		case 1:
		default:
			for j := range row {
				row[j] *= beta
			}
		}
	}
}
