package fastblas

import "gonum.org/v1/gonum/blas"

// trmmBase: triangles up to this order go to gonum's Dtrmm.
const trmmBase = 64

// Dtrmm computes B = alpha·op(A)·B (Left) or B = alpha·B·op(A) (Right) for
// the m×n B and a triangular A of order t. Like Dtrsm it halves the
// triangle recursively: two half-size products and one Dgemm update.
// Cost: m·n·t flops.
func (impl Implementation) Dtrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	if kern == nil || alpha == 0 || !triOK(s, ul, tA, d, m, n, a, lda, b, ldb) {
		impl.Implementation.Dtrmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	impl.trmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

func (impl Implementation) trmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	t, rhs := m, n
	if s == blas.Right {
		t, rhs = n, m
	}
	if rhs < trMinRHS {
		impl.Implementation.Dtrmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	if t <= trmmBase {
		splitRHS(impl.Implementation.Dtrmm, s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	tr := split(s, ul, tA, t, a, lda)
	if s == blas.Left {
		b1, b2 := b, b[tr.t1*ldb:]
		m1, m2 := tr.t1, m-tr.t1
		if tr.lower { // B2 = A22·B2 + op(A)21·B1 before B1 changes
			impl.trmm(s, ul, tA, d, m2, n, alpha, tr.a22, lda, b2, ldb)
			impl.Dgemm(tA, blas.NoTrans, m2, n, m1, alpha, tr.off, lda, b1, ldb, 1, b2, ldb)
			impl.trmm(s, ul, tA, d, m1, n, alpha, tr.a11, lda, b1, ldb)
			return
		}
		impl.trmm(s, ul, tA, d, m1, n, alpha, tr.a11, lda, b1, ldb)
		impl.Dgemm(tA, blas.NoTrans, m1, n, m2, alpha, tr.off, lda, b2, ldb, 1, b1, ldb)
		impl.trmm(s, ul, tA, d, m2, n, alpha, tr.a22, lda, b2, ldb)
		return
	}
	b1, b2 := b, b[tr.t1:]
	n1, n2 := tr.t1, n-tr.t1
	if tr.lower { // B1 = B1·A11 + B2·op(A)21 before B2 changes
		impl.trmm(s, ul, tA, d, m, n1, alpha, tr.a11, lda, b1, ldb)
		impl.Dgemm(blas.NoTrans, tA, m, n1, n2, alpha, b2, ldb, tr.off, lda, 1, b1, ldb)
		impl.trmm(s, ul, tA, d, m, n2, alpha, tr.a22, lda, b2, ldb)
		return
	}
	impl.trmm(s, ul, tA, d, m, n2, alpha, tr.a22, lda, b2, ldb)
	impl.Dgemm(blas.NoTrans, tA, m, n2, n1, alpha, b1, ldb, tr.off, lda, 1, b2, ldb)
	impl.trmm(s, ul, tA, d, m, n1, alpha, tr.a11, lda, b1, ldb)
}
