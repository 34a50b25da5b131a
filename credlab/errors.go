package credlab

import (
	"fmt"
	"math"

	"github.com/credlab/credlab/internal/errs"

	"gonum.org/v1/gonum/mat"
)

// Errors. Each failure has a type (or a sentinel for errors.Is) so that a
// caller, such as the command, can react with errors.As rather than by
// reading the message, in the style of gonum's mat.ErrShape. The types
// live in the leaf package internal/errs; these are the same types and
// values.
var (
	// ErrShape is wrapped by errors about mismatched dimensions (x and y,
	// weights, matrices of a model, the columns of new data and a model's
	// centers or feature map, bags and their labels).
	ErrShape = errs.ErrShape
	// ErrEmpty is wrapped by errors about data with no rows or columns, or
	// about a model, basis or index list with nothing in it.
	ErrEmpty = errs.ErrEmpty
)

type (
	// NotFiniteError reports a NaN or infinite value in an input: Name is
	// the input ("x", "y", "weight", or a column name), Row and Col locate
	// the value (0-based; Col is -1 for a vector).
	NotFiniteError = errs.NotFiniteError
	// ParamError reports a setting outside its allowed values: Name is the
	// setting, Value what was given and Want the allowed range or choices,
	// in words. Name is the config field as Type.Field
	// ("NystromConfig.M", "Holdout.Fraction", "SGMConfig.StepSize");
	// settings shared by several configs or passed as arguments keep one
	// name everywhere: "lambda" (a fixed Lambda), "lambda[i]" and
	// "Lambdas" (a grid), "lambda_q", "step size" (IterConfig.StepSize),
	// "budget", "previous row", "Block", "Kernel" (none given), "<kernel>
	// kernel sigma" and the like for kernel parameters, "random features
	// D" and "random features d" (the arguments of NewRandomFourier),
	// "Weights" (weights in a config and passed to Estimator.Fit),
	// "weights" (weights to a method without them), and "idx[i]", "q[i]",
	// "weight[i]" or "score[i]" for one entry of a slice argument. Callers
	// match Name exactly.
	ParamError = errs.ParamError
	// TooLargeError reports an allocation refused before it was made: What
	// is the object, Bytes its size, Limit the memory limit (MemoryLimit)
	// and Hint what to change.
	TooLargeError = errs.TooLargeError
	// SingularError reports a regularized system that is not numerically
	// positive definite at the lambda tried, or at any lambda of the grid:
	// the fix is a larger value of Setting (such as "lambda" or
	// "lambda_q").
	SingularError = errs.SingularError
	// DivergedError reports an iterative solver whose iterates blew up:
	// Method names it, Iter is the iteration (1-based) where it was noticed
	// (0: the step was refused before running), Step the step size used (0
	// when unknown) and MaxStable the largest stable step (0 when unknown).
	DivergedError = errs.DivergedError
	// NumericalError reports a numerical breakdown that no setting or input
	// check foresees: a decomposition or solve that did not converge or
	// failed. Method names the method ("" when it is the caller's), Op
	// what failed.
	NumericalError = errs.NumericalError
	// DegenerateError reports data a method has nothing to work with:
	// every kernel value or feature zero, or a kernel diagonal that is not
	// positive and finite. Method names the method ("" when it is the
	// caller's), What says what is degenerate.
	DegenerateError = errs.DegenerateError
)

// shapef returns an error wrapping ErrShape: "credlab: shape mismatch: "
// and the formatted detail.
func shapef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrShape, fmt.Sprintf(format, args...))
}

// emptyf returns an error wrapping ErrEmpty: "credlab: empty data: " and
// the formatted detail.
func emptyf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrEmpty, fmt.Sprintf(format, args...))
}

// checkFitInputs checks a kernel estimator's data, kernel and importance
// weights.
func checkFitInputs(x *mat.Dense, y, w []float64, k Kernel) error {
	if err := checkXY(x, y); err != nil {
		return err
	}
	if err := checkKernelOn(k, x); err != nil {
		return err
	}
	return checkWeights(w, len(y))
}

// checkXY checks training data: x as CheckData, and exactly one finite
// target per row (a nil y is a shape mismatch).
func checkXY(x *mat.Dense, y []float64) error {
	if y == nil {
		y = []float64{} // so that CheckData reports the mismatch
	}
	return CheckData(x, y)
}

// CheckData is the input check of every credlab method: it returns an
// error naming the problem if x is empty (wrapping ErrEmpty) or holds NaN
// or Inf (a *NotFiniteError naming "x"), or if y, when not nil, has a
// length other than the rows of x (wrapping ErrShape) or a non-finite
// value (a *NotFiniteError naming "y"). A nil y is not checked. O(n d).
func CheckData(x *mat.Dense, y []float64) error {
	if err := CheckMatrix(x, "x"); err != nil {
		return err
	}
	if y == nil {
		return nil
	}
	if n, _ := x.Dims(); len(y) != n {
		return fmt.Errorf("%w: x has %d rows but y has %d values", ErrShape, n, len(y))
	}
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &NotFiniteError{Name: "y", Row: i, Col: -1, Value: v}
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
		return fmt.Errorf("%w: %d rows but %d weights", ErrShape, n, len(w))
	}
	for i, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &NotFiniteError{Name: "weight", Row: i, Col: -1, Value: v}
		}
		if !(v > 0) {
			return &ParamError{Name: fmt.Sprintf("weight[%d]", i), Value: v, Want: "a positive weight"}
		}
	}
	return nil
}

// checkAudit checks TuneConfig.Audit: n finite weights, each 0 or
// positive, at least 2 positive.
func checkAudit(a []float64, n int) error {
	if a == nil {
		return nil
	}
	if len(a) != n {
		return fmt.Errorf("%w: %d rows but %d audit weights", ErrShape, n, len(a))
	}
	rows := 0
	for i, v := range a {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &NotFiniteError{Name: "audit weight", Row: i, Col: -1, Value: v}
		}
		if v < 0 {
			return &ParamError{Name: fmt.Sprintf("audit weight[%d]", i), Value: v, Want: "1/pi for an audit row, 0 for the others"}
		}
		if v > 0 {
			rows++
		}
	}
	if rows < 2 {
		return &ParamError{Name: "TuneConfig.Audit", Value: fmt.Sprintf("%d audit rows", rows), Want: "at least 2 rows with a positive audit weight, or nil"}
	}
	return nil
}

// CheckMatrix is CheckData for one matrix with its own name: an error
// wrapping ErrEmpty if x is nil or has no rows or columns, a
// *NotFiniteError naming it (such as "SSSRConfig.Pool") if it holds NaN
// or Inf. O(n d).
func CheckMatrix(x *mat.Dense, name string) error {
	if x == nil || x.IsEmpty() {
		return emptyf("%s has no rows", name)
	}
	if n, d := x.Dims(); n == 0 || d == 0 {
		return emptyf("%s has %d rows x %d columns", name, n, d)
	}
	return checkFinite(x, name)
}

func checkFinite(x *mat.Dense, name string) error {
	raw := x.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return &NotFiniteError{Name: name, Row: i, Col: j, Value: v}
			}
		}
	}
	return nil
}

// checkProbs accepts finite non-negative values: a NaN or Inf is a
// *NotFiniteError and a negative value a *ParamError, both naming q.
func checkProbs(name string, q []float64) error {
	for j, v := range q {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &NotFiniteError{Name: name, Row: j, Col: -1, Value: v}
		}
		if v < 0 {
			return &ParamError{Name: fmt.Sprintf("%s[%d]", name, j), Value: v, Want: "a non-negative value"}
		}
	}
	return nil
}

// blockError is the *ParamError of a negative streaming block size.
func blockError(block int) error {
	return &ParamError{Name: "Block", Value: block, Want: "a positive number of rows (or zero for DefaultBlock)"}
}

func checkPositive(name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 1) {
		return &ParamError{Name: name, Value: v, Want: "a positive finite number"}
	}
	return nil
}
