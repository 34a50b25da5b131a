// Package errs holds the error types of credlab, in a leaf package that
// every other package of the module may import (internal/datasets
// included) without importing credlab. credlab re-exports each one under
// the same name (type aliases and the same sentinel values), which is how
// users see them: credlab.ParamError, credlab.ErrShape, and so on.
package errs

import (
	"errors"
	"fmt"
	"strings"
)

// Errors. Each failure has a type (or a sentinel for errors.Is) so that a
// caller, such as the command, can react with errors.As rather than by
// reading the message, in the style of gonum's mat.ErrShape.
var (
	// ErrShape is wrapped by errors about mismatched dimensions (x and y,
	// weights, matrices of a model, the columns of new data and a model's
	// centers or feature map, bags and their labels).
	ErrShape = errors.New("credlab: shape mismatch")
	// ErrEmpty is wrapped by errors about data with no rows or columns, or
	// about a model, basis or index list with nothing in it.
	ErrEmpty = errors.New("credlab: empty data")
)

// NotFiniteError reports a NaN or infinite value in an input: Name is the
// input ("x", "y", "weight", or a column name), Row and Col locate the
// value (0-based; Col is -1 for a vector).
type NotFiniteError struct {
	Name     string
	Row, Col int
	Value    float64
}

func (e *NotFiniteError) Error() string {
	if strings.ContainsAny(e.Name, " \"") {
		return fmt.Sprintf("%s has the value %v in row %d: values must be finite", e.Name, e.Value, e.Row)
	}
	if e.Col < 0 {
		return fmt.Sprintf("credlab: %s[%d] = %v (row %d): values must be finite", e.Name, e.Row, e.Value, e.Row)
	}
	return fmt.Sprintf("credlab: %s[%d,%d] = %v (row %d, column %d): values must be finite", e.Name, e.Row, e.Col, e.Value, e.Row, e.Col)
}

// ParamError reports a setting outside its allowed values: Name is the
// setting, Value what was given and Want the allowed range or choices, in
// words. Name is the config field as Type.Field ("NystromConfig.M",
// "Holdout.Fraction", "SGMConfig.StepSize"); settings shared by several
// configs or passed as arguments keep one name everywhere: "lambda" (a
// fixed Lambda), "lambda[i]" and "Lambdas" (a grid), "lambda_q", "step
// size" (IterConfig.StepSize), "budget", "previous row", "Block", "Kernel"
// (none given), "<kernel> kernel sigma" and the like for kernel
// parameters, "random features D" and "random features d" (the arguments
// of NewRandomFourier), and "idx[i]", "q[i]", "weight[i]" or "score[i]"
// for one entry of a slice argument. Callers match Name exactly.
type ParamError struct {
	Name  string
	Value any
	Want  string
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("%s = %v: want %s", e.Name, e.Value, e.Want)
}

// TooLargeError reports an allocation refused before it was made: What
// is the object, Bytes its size, Limit the memory limit (MemoryLimit) and
// Hint what to change.
type TooLargeError struct {
	What       string
	Rows, Cols int
	Bytes      float64
	Limit      int64
	Hint       string
}

func (e *TooLargeError) Error() string {
	msg := fmt.Sprintf("credlab: %s of %d x %d needs %s, over the %s memory limit", e.What, e.Rows, e.Cols, ByteSize(e.Bytes), ByteSize(float64(e.Limit)))
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	return msg
}

// SingularError reports a regularized system that is not numerically
// positive definite at the lambda tried, or at any lambda of the grid: the
// fix is a larger value of Setting (such as "lambda" or "lambda_q").
type SingularError struct {
	System  string // the system, such as "KRLS" or "K + N lambda_q I"
	Setting string // the regularization to raise
	Value   string // the lambda, or the grid, tried
}

func (e *SingularError) Error() string {
	return fmt.Sprintf("credlab: the %s system is not numerically positive definite at %s = %s: use a larger %s", e.System, e.Setting, e.Value, e.Setting)
}

// DivergedError reports an iterative solver whose iterates blew up: Method
// names it, Iter is the iteration (1-based) where it was noticed (0: the
// step was refused before running), Step the step size used (0 when
// unknown) and MaxStable the largest stable step (0 when unknown).
type DivergedError struct {
	Method    string
	Iter      int
	Step      float64
	MaxStable float64
	Detail    string
}

func (e *DivergedError) Error() string {
	var msg string
	switch {
	case e.Iter == 0:
		msg = fmt.Sprintf("credlab: %s step size %g diverges", e.Method, e.Step)
	case e.Step > 0:
		msg = fmt.Sprintf("credlab: %s diverged at iteration %d with step size %g", e.Method, e.Iter, e.Step)
	default:
		msg = fmt.Sprintf("credlab: %s diverged at iteration %d", e.Method, e.Iter)
	}
	if e.Detail != "" {
		msg += " (" + e.Detail + ")"
	}
	if e.MaxStable > 0 {
		return msg + fmt.Sprintf("; use a step size below %.3g", e.MaxStable)
	}
	return msg + "; use a smaller step size"
}

// NumericalError reports a numerical breakdown that no setting or input
// check foresees: a decomposition or solve that did not converge or
// failed. Method names the method ("" when it is the caller's), Op what
// failed.
type NumericalError struct {
	Method string
	Op     string
}

func (e *NumericalError) Error() string { return "credlab: " + methodPrefix(e.Method) + e.Op }

// DegenerateError reports data a method has nothing to work with: every
// kernel value or feature zero, or a kernel diagonal that is not positive
// and finite. Method names the method ("" when it is the caller's), What
// says what is degenerate.
type DegenerateError struct {
	Method string
	What   string
}

func (e *DegenerateError) Error() string { return "credlab: " + methodPrefix(e.Method) + e.What }

func methodPrefix(m string) string {
	if m == "" {
		return ""
	}
	return m + ": "
}

// ByteSize formats a size in bytes as "1.5 GiB", "12.0 MiB" or "512 B".
func ByteSize(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	default:
		return fmt.Sprintf("%.0f B", b)
	}
}
