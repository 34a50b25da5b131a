package staged

import (
	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

// Rows returns the rows idx of x (credlab.GatherRows) and the matching
// entries of y, in the order of idx.
func Rows(x *mat.Dense, y []float64, idx []int) (*mat.Dense, []float64, error) {
	xo, err := credlab.GatherRows(x, idx)
	if err != nil {
		return nil, nil, err
	}
	yo := make([]float64, len(idx))
	for i, r := range idx {
		yo[i] = y[r]
	}
	return xo, yo, nil
}
