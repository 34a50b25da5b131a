package baselines

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// gram returns the p x p matrix A^T A of the n x p matrix a, by a
// symmetric rank-k update of the lower triangle and its mirror: O(n p^2).
func gram(a *mat.Dense) *mat.Dense {
	ar := a.RawMatrix()
	g := mat.NewDense(ar.Cols, ar.Cols, nil)
	syrkLower(g, a, 0)
	mirrorLower(g)
	return g
}

// syrkLower sets the lower triangle of the p x p matrix g to
// A^T A + beta g, O(n p^2) for n x p A.
func syrkLower(g, a *mat.Dense, beta float64) {
	gr := g.RawMatrix()
	blas64.Syrk(blas.Trans, 1, a.RawMatrix(), beta, blas64.Symmetric{N: gr.Rows, Stride: gr.Stride, Data: gr.Data, Uplo: blas.Lower})
}

// mirrorLower copies the strict lower triangle of the square g to the
// upper one.
func mirrorLower(g *mat.Dense) {
	gr := g.RawMatrix()
	for i := 0; i < gr.Rows; i++ {
		for j := i + 1; j < gr.Cols; j++ {
			gr.Data[i*gr.Stride+j] = gr.Data[j*gr.Stride+i]
		}
	}
}

// vec views v as a BLAS vector.
func vec(v []float64) blas64.Vector { return blas64.Vector{N: len(v), Inc: 1, Data: v} }
