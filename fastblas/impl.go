package fastblas

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Implementation is gonum's BLAS with faster routines (Dgemm, Dsyrk,
// Dsyr2k, Dtrsm, Dtrmm, Dsymv, Dsyr2) where Available reports true.
// Invalid arguments panic with gonum's messages.
type Implementation struct{ gonum.Implementation }

var _ blas.Float64 = Implementation{}
