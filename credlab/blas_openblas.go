//go:build openblas

package credlab

// #cgo LDFLAGS: -lopenblas
// void dpotrf_(char *uplo, int *n, double *a, int *lda, int *info);
// void dtrtri_(char *uplo, char *diag, int *n, double *a, int *lda, int *info);
import "C"

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/netlib/blas/netlib"
)

// BLASBackend names the BLAS implementation in use at run time, as set by
// this package's init or by UseBLAS: "openblas" (the default with -tags
// openblas) or "gonum". Read it, do not assign it.
var BLASBackend string

// UseBLAS installs the named BLAS into gonum's blas64 for the whole
// process and records it in BLASBackend: "openblas" or "gonum" in this
// build. Call it at start-up, before any computation.
func UseBLAS(name string) error {
	switch name {
	case "openblas":
		blas64.Use(netlib.Implementation{})
		BLASBackend, triBreakEven = name, 40
	case "gonum":
		blas64.Use(gonum.Implementation{})
		BLASBackend, triBreakEven = name, 25
	default:
		return &ParamError{Name: "BLAS backend", Value: strconv.Quote(name), Want: "one of " + strings.Join(BLASBackends(), ", ")}
	}
	return nil
}

// BLASBackends lists the backends UseBLAS can install in this build.
func BLASBackends() []string { return []string{"openblas", "gonum"} }

// With -tags openblas every BLAS call, including those inside gonum's
// LAPACK and mat, goes to OpenBLAS through cgo (libopenblas-dev). LAPACK
// stays gonum's (the netlib LAPACK bindings copy every matrix and were
// slower here) except for the Cholesky factor and triangular inverse,
// which call OpenBLAS's own dpotrf and dtrtri in place (also when UseBLAS
// puts gonum's BLAS in use).
func init() { UseBLAS("openblas") }

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
