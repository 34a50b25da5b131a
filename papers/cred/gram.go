package cred

import (
	"math"

	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// accumulate adds the rows idx of phi, weighted by w (nil: 1), to the
// normal equations of a linear fit: with A those rows and W = diag(w), it
// adds A^T W A to g, A^T W f_idx to bf and A^T W eps_idx to be, so that a
// labeled set can grow through nested budgets and the noiseless part f
// and the noise part eps of the labels are solved for separately.
func accumulate(phi, g *mat.Dense, bf, be []float64, idx []int, w []float64, f, eps []float64) {
	if len(idx) == 0 {
		return
	}
	a, _ := credlab.GatherRows(phi, idx)
	yf, ye := make([]float64, len(idx)), make([]float64, len(idx))
	for i, j := range idx {
		yf[i], ye[i] = f[j], eps[j]
	}
	if w != nil {
		ar := a.RawMatrix()
		for i := range idx {
			s := math.Sqrt(w[i])
			row := ar.Data[i*ar.Stride : i*ar.Stride+ar.Cols]
			for j := range row {
				row[j] *= s
			}
			yf[i] *= s
			ye[i] *= s
		}
	}
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, a.RawMatrix(), a.RawMatrix(), 1, g.RawMatrix())
	blas64.Gemv(blas.Trans, 1, a.RawMatrix(), vec(yf), 1, vec(bf))
	blas64.Gemv(blas.Trans, 1, a.RawMatrix(), vec(ye), 1, vec(be))
}

func vec(v []float64) blas64.Vector { return blas64.Vector{N: len(v), Inc: 1, Data: v} }
