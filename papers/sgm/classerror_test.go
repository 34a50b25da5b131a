package sgm

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestClassError(t *testing.T) {
	k := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 1, 1})
	// Scores 2, -1, 1 against labels +1, +1, -1: two wrong.
	if e := classError(k, []float64{2, -1}, []float64{1, 1, -1}); e != 2.0/3 {
		t.Errorf("classError = %v, want 2/3", e)
	}
	// A score of 0 counts as +1.
	if e := classError(mat.NewDense(1, 1, []float64{1}), []float64{0}, []float64{1}); e != 0 {
		t.Errorf("classError at score 0 = %v, want 0", e)
	}
}
