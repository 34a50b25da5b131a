package sgm

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// classError returns the share of rows i where sign((K alpha)_i) differs
// from the -1/+1 label y_i (a score of 0 counts as +1).
func classError(k *mat.Dense, alpha, y []float64) float64 {
	p := make([]float64, len(y))
	blas64.Gemv(blas.NoTrans, 1, k.RawMatrix(), blas64.Vector{N: len(alpha), Inc: 1, Data: alpha}, 0, blas64.Vector{N: len(p), Inc: 1, Data: p})
	bad := 0
	for i, v := range y {
		if (p[i] >= 0) != (v > 0) {
			bad++
		}
	}
	return float64(bad) / float64(len(y))
}
