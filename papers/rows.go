package papers

import "gonum.org/v1/gonum/mat"

// rowsOf returns the rows idx of x and the matching entries of y, in the
// order of idx.
func rowsOf(x *mat.Dense, y []float64, idx []int) (*mat.Dense, []float64) {
	_, d := x.Dims()
	xo := mat.NewDense(len(idx), d, nil)
	yo := make([]float64, len(idx))
	for i, r := range idx {
		xo.SetRow(i, x.RawRowView(r))
		yo[i] = y[r]
	}
	return xo, yo
}
