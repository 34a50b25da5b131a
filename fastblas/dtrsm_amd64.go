package fastblas

import "gonum.org/v1/gonum/blas"

// trMinRHS: triangular problems with fewer right-hand sides are not split
// (Dtrsm solves them one vector at a time, Dtrmm leaves them to gonum).
const trMinRHS = 8

// Dtrsm solves op(A)·X = alpha·B (Left) or X·op(A) = alpha·B (Right) for X,
// overwriting the m×n B, with A triangular. The triangle is split in
// halves recursively: two half-size solves and one Dgemm update, so most
// of the m·n·t flops (t the order of A) run in Dgemm; triangles of order
// up to 6 (Left) or 8 (Right) are solved by assembly kernels, and fewer
// than trMinRHS right-hand sides one vector at a time.
func (impl Implementation) Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	if kern == nil || alpha == 0 || !triOK(s, ul, tA, d, m, n, a, lda, b, ldb) {
		impl.Implementation.Dtrsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	impl.trsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

func (impl Implementation) trsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	t, rhs := m, n
	if s == blas.Right {
		t, rhs = n, m
	}
	if rhs < trMinRHS {
		impl.trsmNarrow(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	if s == blas.Left && t <= trsmM || s == blas.Right && t <= trsmN {
		splitRHS(trsmSmall, s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	tr := split(s, ul, tA, t, a, lda)
	if s == blas.Left {
		b1, b2 := b, b[tr.t1*ldb:]
		m1, m2 := tr.t1, m-tr.t1
		if tr.lower { // X1 = A11⁻¹·B1, then B2 -= op(A)21·X1
			impl.trsm(s, ul, tA, d, m1, n, alpha, tr.a11, lda, b1, ldb)
			impl.Dgemm(tA, blas.NoTrans, m2, n, m1, -1, tr.off, lda, b1, ldb, alpha, b2, ldb)
			impl.trsm(s, ul, tA, d, m2, n, 1, tr.a22, lda, b2, ldb)
			return
		}
		impl.trsm(s, ul, tA, d, m2, n, alpha, tr.a22, lda, b2, ldb)
		impl.Dgemm(tA, blas.NoTrans, m1, n, m2, -1, tr.off, lda, b2, ldb, alpha, b1, ldb)
		impl.trsm(s, ul, tA, d, m1, n, 1, tr.a11, lda, b1, ldb)
		return
	}
	b1, b2 := b, b[tr.t1:]
	n1, n2 := tr.t1, n-tr.t1
	if tr.lower { // X2 = B2·A22⁻¹, then B1 -= X2·op(A)21
		impl.trsm(s, ul, tA, d, m, n2, alpha, tr.a22, lda, b2, ldb)
		impl.Dgemm(blas.NoTrans, tA, m, n1, n2, -1, b2, ldb, tr.off, lda, alpha, b1, ldb)
		impl.trsm(s, ul, tA, d, m, n1, 1, tr.a11, lda, b1, ldb)
		return
	}
	impl.trsm(s, ul, tA, d, m, n1, alpha, tr.a11, lda, b1, ldb)
	impl.Dgemm(blas.NoTrans, tA, m, n2, n1, -1, b1, ldb, tr.off, lda, alpha, b2, ldb)
	impl.trsm(s, ul, tA, d, m, n2, 1, tr.a22, lda, b2, ldb)
}

// trsmNarrow solves for fewer than trMinRHS right-hand sides one at a
// time with gonum's Dtrsv, whose dot products and axpys run along the
// triangle (gonum's Dtrsm would run them along the short rows of B).
// Cost: m·n·t flops, t the order of A.
func (impl Implementation) trsmNarrow(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	if s == blas.Left { // column j of B: op(A)·x = alpha·b
		for j := range n {
			if alpha != 1 {
				impl.Implementation.Dscal(m, alpha, b[j:], ldb)
			}
			impl.Implementation.Dtrsv(ul, tA, d, m, a, lda, b[j:], ldb)
		}
		return
	}
	tr := blas.Trans // row i of B: x·op(A) = alpha·b, i.e. op(A)ᵀ·xᵀ = alpha·bᵀ
	if tA != blas.NoTrans {
		tr = blas.NoTrans
	}
	for i := range m {
		x := b[i*ldb : i*ldb+n]
		if alpha != 1 {
			impl.Implementation.Dscal(n, alpha, x, 1)
		}
		impl.Implementation.Dtrsv(ul, tr, d, n, a, lda, x, 1)
	}
}

// triOK reports whether gonum's Dtrsm or Dtrmm accepts the arguments and
// has work to do.
func triOK(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, a []float64, lda int, b []float64, ldb int) bool {
	t := n
	if s == blas.Left {
		t = m
	}
	_, ok := isTrans(tA)
	return ok && (s == blas.Left || s == blas.Right) && (ul == blas.Lower || ul == blas.Upper) &&
		(d == blas.Unit || d == blas.NonUnit) && m > 0 && n > 0 &&
		fits(a, lda, t, t, false) && fits(b, ldb, m, n, false)
}

// halves is a triangle A of order t split at t1 into diagonal blocks A11
// (t1×t1) and A22, and the off-diagonal block of op(A): op(A)21 when op(A)
// is lower triangular, op(A)12 when upper, given as the stored block
// (A21 or A12) to use with tA.
type halves struct {
	t1       int
	lower    bool
	a11, a22 []float64
	off      []float64
}

// split halves the triangle at a multiple of the tile size.
func split(s blas.Side, ul blas.Uplo, tA blas.Transpose, t int, a []float64, lda int) halves {
	align := trsmN
	if s == blas.Left {
		align = trsmM
	}
	t1 := max(align, t/2/align*align)
	h := halves{t1: t1, lower: (ul == blas.Lower) == (tA == blas.NoTrans), a11: a, a22: a[t1*lda+t1:], off: a[t1*lda:]}
	if ul == blas.Upper {
		h.off = a[t1:]
	}
	return h
}

// triFn is the signature of Dtrsm and Dtrmm.
type triFn func(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int)

// splitRHS runs f with the independent right-hand sides (columns of B for
// Left, rows for Right) split over goroutines. Each right-hand side is
// computed exactly as in a single call.
func splitRHS(f triFn, s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	t, rhs, align := m, n, trsmN
	if s == blas.Right {
		t, rhs, align = n, m, trsmM
	}
	p := workers(float64(t)*float64(t)*float64(rhs), rhs/align)
	parallel(p, func(w int) {
		lo, hi := cut(rhs, p, w, align, uniform), cut(rhs, p, w+1, align, uniform)
		if lo == hi {
			return
		}
		if s == blas.Left {
			f(s, ul, tA, d, m, hi-lo, alpha, a, lda, b[lo:], ldb)
		} else {
			f(s, ul, tA, d, hi-lo, n, alpha, a, lda, b[lo*ldb:], ldb)
		}
	})
}

// trsmSmall solves a triangle of order t ≤ trsmM (Left) or t ≤ trsmN (Right)
// with the assembly kernels, eight columns (Left) or six rows (Right) of B
// per call; blocks cut by the edge of B go through a scratch block. The
// triangle is padded to the kernel's order with the identity.
// Cost: about m·n·t flops.
func trsmSmall(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	op := func(i, j int) float64 { // element (i, j) of op(A)
		if tA == blas.NoTrans {
			return a[i*lda+j]
		}
		return a[j*lda+i]
	}
	lower := (ul == blas.Lower) == (tA == blas.NoTrans)
	var w [8*trsmN + trsmN]float64
	var tile [trsmM * trsmN]float64
	if s == blas.Left {
		// w[8i+l] = op(A)[l][i] below (lower) or above the diagonal, 1/op(A)[i][i] at 48+i.
		kern := trsmLU6x8
		if lower {
			kern = trsmLL6x8
		}
		for i := range trsmM {
			w[8*trsmM+i] = 1
		}
		for i := range m {
			if d == blas.NonUnit {
				w[8*trsmM+i] = 1 / op(i, i)
			}
			for l := range m {
				if lower && l > i || !lower && l < i {
					w[8*i+l] = op(l, i)
				}
			}
		}
		for j := 0; j < n; j += trsmN {
			if cols := min(trsmN, n-j); m == trsmM && cols == trsmN {
				kern(&b[j], ldb, &w[0], alpha)
			} else {
				viaTile(&tile, b[j:], ldb, m, cols, func(t *float64) { kern(t, trsmN, &w[0], alpha) })
			}
		}
		return
	}
	// w[8j+l] = op(A)[j][l] below (lower) or above the diagonal, 1/op(A)[j][j] at 64+j.
	kern := trsmRU6x8
	if lower {
		kern = trsmRL6x8
	}
	for j := range trsmN {
		w[8*trsmN+j] = 1
	}
	for j := range n {
		if d == blas.NonUnit {
			w[8*trsmN+j] = 1 / op(j, j)
		}
		for l := range n {
			if lower && l < j || !lower && l > j {
				w[8*j+l] = op(j, l)
			}
		}
	}
	for i := 0; i < m; i += trsmM {
		if rows := min(trsmM, m-i); rows == trsmM && n == trsmN {
			kern(&b[i*ldb], ldb, &w[0], alpha)
		} else {
			viaTile(&tile, b[i*ldb:], ldb, rows, n, func(t *float64) { kern(t, trsmN, &w[0], alpha) })
		}
	}
}

// viaTile copies the r×c block at b into the zeroed tile, runs f on it and
// copies the block back.
func viaTile(tile *[trsmM * trsmN]float64, b []float64, ldb, r, c int, f func(*float64)) {
	clear(tile[:])
	for i := range r {
		copy(tile[i*trsmN:i*trsmN+c], b[i*ldb:i*ldb+c])
	}
	f(&tile[0])
	for i := range r {
		copy(b[i*ldb:i*ldb+c], tile[i*trsmN:i*trsmN+c])
	}
}
