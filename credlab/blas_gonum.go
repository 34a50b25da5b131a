//go:build !openblas

package credlab

import (
	"os"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"

	"github.com/credlab/credlab/internal/fastblas"
)

// BLASBackend names the BLAS implementation in use: "go-avx512" or
// "go-avx2" for the pure-Go assembly kernels of internal/fastblas (Dgemm,
// Dsyrk, Dtrsm and Dtrmm on every core; installed by default on amd64 with
// AVX2 and FMA, named after the Dgemm micro-kernel in use), "gonum" for
// gonum's own BLAS (other machines, or the environment variable
// CREDLAB_BLAS=gonum at start-up), "openblas" with -tags openblas.
// CREDLAB_BLAS=go-avx2 keeps the AVX2 kernel on a CPU with AVX-512 (for
// processors that slow their clock under AVX-512).
var BLASBackend = "gonum"

func init() {
	env := os.Getenv("CREDLAB_BLAS")
	if fastblas.Available() && env != "gonum" {
		if env == "go-avx2" {
			fastblas.UseKernel("avx2")
		}
		blas64.Use(fastblas.Implementation{})
		BLASBackend = "go-" + fastblas.Kernel()
	}
	triBreakEven = map[string]int{"gonum": 25, "go-avx2": 55, "go-avx512": 120}[BLASBackend]
}

// potrfLower factors the lower triangle of a in place, a = L L^T.
func potrfLower(a blas64.Symmetric) (blas64.Triangular, bool) { return lapack64.Potrf(a) }

// trtriLower replaces the lower triangular t by its inverse.
func trtriLower(t blas64.Triangular) bool { return lapack64.Trtri(t) }
