//go:build openblas

package credlab

// #cgo LDFLAGS: -lopenblas
import "C"

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

// BLASBackend names the BLAS implementation in use: "openblas" with
// -tags openblas ("go-avx2" or "gonum" without it).
var BLASBackend = "openblas"

// With -tags openblas every BLAS call, including those inside gonum's
// LAPACK and mat, goes to OpenBLAS through cgo (libopenblas-dev). LAPACK
// stays gonum's: the netlib LAPACK bindings copy every matrix and were
// slower here.
func init() { blas64.Use(netlib.Implementation{}) }
