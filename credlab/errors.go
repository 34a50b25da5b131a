package credlab

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// checkFitInputs checks a kernel estimator's data, kernel and importance
// weights.
func checkFitInputs(x *mat.Dense, y, w []float64, k Kernel) error {
	if err := checkXY(x, y); err != nil {
		return err
	}
	if err := checkKernel(k); err != nil {
		return err
	}
	return checkWeights(w, len(y))
}

// checkXY checks training data: x as checkData, and exactly one finite
// target per row (a nil y is a shape mismatch).
func checkXY(x *mat.Dense, y []float64) error {
	if y == nil {
		y = []float64{} // so that checkData reports the mismatch
	}
	return checkData(x, y)
}

// checkData returns an error naming the problem if x is empty, contains NaN
// or Inf, or if y (when not nil) has a length other than the rows of x or
// non-finite values.
func checkData(x *mat.Dense, y []float64) error {
	if x == nil || x.IsEmpty() {
		return fmt.Errorf("credlab: empty data: no rows")
	}
	n, d := x.Dims()
	if n == 0 || d == 0 {
		return fmt.Errorf("credlab: empty data: %d rows x %d columns", n, d)
	}
	if err := checkFinite(x, "x"); err != nil {
		return err
	}
	if y == nil {
		return nil
	}
	if len(y) != n {
		return fmt.Errorf("credlab: shape mismatch: x has %d rows but y has %d values", n, len(y))
	}
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("credlab: y[%d] is %v: targets must be finite", i, v)
		}
	}
	return nil
}

// checkWeights accepts nil (all weights 1) or n positive finite weights.
func checkWeights(w []float64, n int) error {
	if w == nil {
		return nil
	}
	if len(w) != n {
		return fmt.Errorf("credlab: shape mismatch: %d rows but %d weights", n, len(w))
	}
	for i, v := range w {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("credlab: weight[%d] = %v: weights must be positive and finite (an importance weight 1/(N q) overflows when q underflows to 0)", i, v)
		}
	}
	return nil
}

func checkFinite(x *mat.Dense, name string) error {
	raw := x.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("credlab: %s[%d,%d] is %v: inputs must be finite", name, i, j, v)
			}
		}
	}
	return nil
}

func checkPositive(name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 1) {
		return fmt.Errorf("credlab: %s = %v: must be positive and finite", name, v)
	}
	return nil
}
