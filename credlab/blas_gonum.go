//go:build !openblas

package credlab

import (
	"os"

	"gonum.org/v1/gonum/blas/blas64"

	"github.com/credlab/credlab/internal/fastblas"
)

// BLASBackend names the BLAS implementation in use: "go-avx2" for the
// pure-Go assembly kernels of internal/fastblas (Dgemm, Dsyrk, Dtrsm and
// Dtrmm on every core; installed by default on amd64 with AVX2 and FMA),
// "gonum" for gonum's own BLAS (other machines, or the environment
// variable CREDLAB_BLAS=gonum at start-up), "openblas" with -tags openblas.
var BLASBackend = "gonum"

func init() {
	if fastblas.Available() && os.Getenv("CREDLAB_BLAS") != "gonum" {
		blas64.Use(fastblas.Implementation{})
		BLASBackend = "go-avx2"
	}
}
