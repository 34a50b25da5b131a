//go:build openblas

package credlab

// #cgo LDFLAGS: -lopenblas
// void dpotrf_(char *uplo, int *n, double *a, int *lda, int *info);
// void dtrtri_(char *uplo, char *diag, int *n, double *a, int *lda, int *info);
import "C"

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

// BLASBackend names the BLAS implementation in use: "openblas" with
// -tags openblas ("go-avx512", "go-avx2" or "gonum" without it).
var BLASBackend = "openblas"

func init() { triBreakEven = 40 }

// With -tags openblas every BLAS call, including those inside gonum's
// LAPACK and mat, goes to OpenBLAS through cgo (libopenblas-dev). LAPACK
// stays gonum's (the netlib LAPACK bindings copy every matrix and were
// slower here) except for the Cholesky factor and triangular inverse,
// which call OpenBLAS's own dpotrf and dtrtri in place.
func init() { blas64.Use(netlib.Implementation{}) }

// A row-major lower triangle with stride s is the column-major upper
// triangle with leading dimension s, so dpotrf and dtrtri run with 'U'.

// potrfLower factors the lower triangle of a in place, a = L L^T.
func potrfLower(a blas64.Symmetric) (blas64.Triangular, bool) {
	t := blas64.Triangular{N: a.N, Stride: a.Stride, Data: a.Data, Uplo: blas.Lower, Diag: blas.NonUnit}
	if a.N == 0 {
		return t, true
	}
	if a.Uplo != blas.Lower || a.N > math.MaxInt32 || a.Stride > math.MaxInt32 {
		panic("credlab: potrfLower needs a lower triangle of 32-bit size")
	}
	uplo := C.char('U')
	n, lda, info := C.int(a.N), C.int(a.Stride), C.int(0)
	C.dpotrf_(&uplo, &n, (*C.double)(&a.Data[0]), &lda, &info)
	return t, info == 0
}

// trtriLower replaces the lower triangular t by its inverse.
func trtriLower(t blas64.Triangular) bool {
	if t.N == 0 {
		return true
	}
	uplo, diag := C.char('U'), C.char('N')
	n, lda, info := C.int(t.N), C.int(t.Stride), C.int(0)
	C.dtrtri_(&uplo, &diag, &n, (*C.double)(&t.Data[0]), &lda, &info)
	return info == 0
}
