package fastblas

import "gonum.org/v1/gonum/blas"

// Dsyr2 computes A += alpha·x·yᵀ + alpha·y·xᵀ on the ul triangle of the
// n×n A; the other triangle is not touched. Rows are split over goroutines
// by equal work; every element is computed the same way whatever the
// split (axpy2), so results do not depend on the number of goroutines.
// x and y may have any stride. Cost: 4·n²/2 flops, the triangle read and
// written once.
func (impl Implementation) Dsyr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	if kern == nil || alpha == 0 || n < 4 || ul != blas.Lower && ul != blas.Upper ||
		!fits(a, lda, n, n, false) || !vecFits(x, n, incX) || !vecFits(y, n, incY) {
		impl.Implementation.Dsyr2(ul, n, alpha, x, incX, y, incY, a, lda)
		return
	}
	buf := getBuf(2 * n)
	defer bufPool.Put(buf)
	xb, yb := (*buf)[:n], (*buf)[n:]
	gatherVec(xb, x, n, incX)
	gatherVec(yb, y, n, incY)
	pos := lowerRows
	if ul == blas.Upper {
		pos = upperRows
	}
	p := workers(2*float64(n)*float64(n), n)
	parallel(p, func(t int) {
		for i := cut(n, p, t, 1, pos); i < cut(n, p, t+1, 1, pos); i++ {
			lo, hi := 0, i+1
			if ul == blas.Upper {
				lo, hi = i, n
			}
			axpy2(hi-lo, &a[i*lda+lo], &yb[lo], &xb[lo], alpha*xb[i], alpha*yb[i])
		}
	})
}
