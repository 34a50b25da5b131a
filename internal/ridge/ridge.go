// Package ridge gives the sub-packages of credlab (credlab/distreg) the
// regularization path of kernel ridge regression on a precomputed kernel
// matrix: for each lambda of a grid,
//
//	alpha = (K + lambda n I)^-1 y,
//
// the minimiser of (1/n) sum_i (f_i - y_i)^2 + lambda alpha^T K alpha with
// f = K alpha, chosen by the RMSE of K_v alpha on validation labels. The
// solver is package credlab's KRLS path, which credlab shares with KRLS,
// NKRLS and Tune: one Cholesky factorization per lambda, O(n^3/3), for
// grids of fewer than 11 to 40 values (by BLAS backend), else one
// tridiagonal reduction K = Q T Q^T, O(10/3 n^3), and O(n + n_v n) per
// lambda.
//
// The solver stays in credlab; credlab sets Path when it is initialized,
// so Path is set in every program that links credlab, as every
// sub-package does for credlab's types.
package ridge

import (
	"context"
	"time"

	"gonum.org/v1/gonum/mat"
)

// Problem is one path to solve.
type Problem struct {
	// Method names the estimator in a *errs.SingularError.
	Method string
	// K is the n x n symmetric training kernel matrix (not modified), Y the
	// n training labels.
	K *mat.Dense
	Y []float64
	// KV is the n_v x n kernel matrix between validation and training
	// objects, YV the validation labels; nil without validation. Grids
	// that share the tridiagonal reduction overwrite KV with KV Q.
	KV *mat.Dense
	YV []float64
	// Grid lists the lambdas, in the order tried.
	Grid []float64
	// Progress, if not nil, is called after each lambda with (done, total).
	Progress func(done, total int)
}

// Point is one lambda of the path: the training RMSE of K alpha on Y and
// the validation RMSE (NaN without validation); both NaN where the system
// was not numerically positive definite.
type Point struct {
	Lambda, TrainRMSE, ValRMSE float64
}

// Solution is the result of a path.
type Solution struct {
	// Coef is alpha at Lambda: the lambda of the least validation RMSE, or
	// without validation the last lambda solved. ValRMSE is its validation
	// RMSE (NaN without validation).
	Coef    []float64
	Lambda  float64
	ValRMSE float64
	Path    []Point
	// Solve is the time of the factorizations and solves, Select that of
	// the training and validation errors.
	Solve, Select time.Duration
}

// Path solves p, returning a *errs.SingularError when no lambda of the
// grid gives a numerically positive definite system. Package credlab sets
// it.
var Path func(ctx context.Context, p Problem) (*Solution, error)
