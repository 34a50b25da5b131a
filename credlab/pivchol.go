package credlab

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// pivotedCholesky factors the n x n symmetric positive semidefinite a (its
// lower triangle) in place as P^T A P = L L^T, LAPACK's rank-revealing
// Pstrf, stopping at the first pivot below tol times the largest
// diagonal: L's first r columns are left in a's lower triangle (the upper
// triangle keeps A's values), piv holds P and r is the numerical rank.
// A zero diagonal is a *DegenerateError naming what ("kernel matrix").
// O(n^2 r) time, O(n) extra memory. KOLS factors K with it, NewNystrom
// K_mm.
func pivotedCholesky(a *mat.Dense, tol float64, what string) (piv []int, r int, err error) {
	raw := a.RawMatrix()
	n := raw.Rows
	maxDiag := 0.0
	for i := 0; i < n; i++ {
		maxDiag = max(maxDiag, raw.Data[i*raw.Stride+i])
	}
	if !(maxDiag > 0) {
		return nil, 0, &DegenerateError{What: "the " + what + " is zero"}
	}
	piv = make([]int, n)
	_, r, _ = lapack64.Pstrf(blas64.Symmetric{N: n, Stride: raw.Stride, Data: raw.Data, Uplo: blas.Lower},
		piv, tol*maxDiag, make([]float64, 2*n))
	return piv, r, nil
}
