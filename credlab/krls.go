package credlab

import (
	"context"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// KRLSConfig configures kernel regularized least squares.
type KRLSConfig struct {
	Kernel Kernel
	// Lambda, when positive, fixes lambda: the model is fitted on all rows
	// with no validation. Otherwise lambda is chosen from Lambdas on a
	// hold-out split.
	Lambda float64
	// Lambdas is the grid searched; default LogGrid(1e-15, 1, 100), the
	// NYTRO paper's grid.
	Lambdas []float64
	Holdout Holdout
	// Progress, if not nil, is called after each lambda with (done, total).
	Progress func(done, total int)
}

// triBreakEven is the grid size from which one tridiagonal reduction plus
// O(n) work per lambda beats one Cholesky per lambda. Measured with pure-Go
// gonum on 2 cores: Dsytrd+Dorgtr cost about 30 Choleskys at n = 4000.
const triBreakEven = 30

// KRLS fits alpha = (K + lambda n I)^-1 y, the minimiser of
// (1/n) sum (f(x_i) - y_i)^2 + lambda ||f||^2 (eq. 8 of the NYTRO paper).
//
// With a fixed Lambda it costs one kernel matrix, O(n^2 d), and one
// Cholesky factorization, O(n^3/3); memory is O(n^2).
//
// A grid search trains on the n_t = (1-f) n training rows and validates on
// the rest. For a grid of fewer than 30 values it factors once per value,
// O(|grid| n_t^3/3). For larger grids it shares one tridiagonal reduction
// K = Q T Q^T, O(10/3 n_t^3), then costs O(n_t) per lambda for the solve and
// training error and O(n_v n_t) for validation; a failed factorization
// (lambda too small for the precision) is recorded as a NaN on the path.
func KRLS(ctx context.Context, x *mat.Dense, y []float64, cfg KRLSConfig) (*Fit, error) {
	if err := checkData(x, y); err != nil {
		return nil, err
	}
	if err := checkKernel(cfg.Kernel); err != nil {
		return nil, err
	}
	if cfg.Lambda < 0 || math.IsNaN(cfg.Lambda) {
		return nil, checkPositive("lambda", cfg.Lambda)
	}
	if cfg.Lambda > 0 {
		return krlsFixed(x, y, cfg.Kernel, cfg.Lambda)
	}
	grid := cfg.Lambdas
	if grid == nil {
		grid = LogGrid(1e-15, 1, 100)
	}
	if err := checkLambdas(grid); err != nil {
		return nil, err
	}
	if cfg.Holdout.None {
		return nil, fmt.Errorf("credlab: KRLS without hold-out needs a fixed Lambda")
	}
	s, err := newSplitKernel(x, y, cfg.Kernel, cfg.Holdout)
	if err != nil {
		return nil, err
	}
	fit := &Fit{Method: "KRLS", Rank: s.nt}
	fit.Timing.Kernel = s.kernelTime
	prob := ridgeProblem{g: s.ktt, b: s.yt, w: s.kvt, yv: s.yv, n: s.nt,
		// K alpha - y = -mu alpha at the solution.
		sse: func(zz, _, mu float64) float64 { return mu * mu * zz }}
	alpha, err := prob.path(ctx, grid, fit, cfg.Progress)
	if err != nil {
		return nil, err
	}
	fit.Model = &Model{Kernel: cfg.Kernel, Centers: s.xt, Coef: alpha}
	return fit, nil
}

func krlsFixed(x *mat.Dense, y []float64, k Kernel, lambda float64) (*Fit, error) {
	n, _ := x.Dims()
	if err := checkAlloc("kernel matrix", n, n); err != nil {
		return nil, err
	}
	fit := &Fit{Method: "KRLS", Lambda: lambda, Rank: n, ValRMSE: math.NaN()}
	t0 := time.Now()
	kmat := mat.NewDense(n, n, nil)
	kernelSym(kmat, k, x)
	fit.Timing.Kernel = time.Since(t0)
	t0 = time.Now()
	alpha, ok := choleskySolve(kmat, lambda*float64(n), y)
	fit.Timing.Solve = time.Since(t0)
	if !ok {
		return nil, fmt.Errorf("credlab: K + lambda n I is not numerically positive definite at lambda = %g; increase lambda", lambda)
	}
	train := make([]float64, n)
	for i := range train {
		train[i] = y[i] - lambda*float64(n)*alpha[i]
	}
	fit.Path = []PathPoint{{Lambda: lambda, TrainRMSE: rmse(train, y), ValRMSE: math.NaN()}}
	fit.Model = &Model{Kernel: k, Centers: mat.DenseCopyOf(x), Coef: alpha}
	return fit, nil
}

// choleskySolve overwrites the lower triangle of a with the Cholesky factor
// of a + shift I and returns the solution of (a + shift I) z = b.
func choleskySolve(a *mat.Dense, shift float64, b []float64) ([]float64, bool) {
	raw := a.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		raw.Data[i*raw.Stride+i] += shift
	}
	t, ok := lapack64.Potrf(blas64.Symmetric{N: raw.Rows, Stride: raw.Stride, Data: raw.Data, Uplo: blas.Lower})
	if !ok {
		return nil, false
	}
	z := append([]float64(nil), b...)
	lapack64.Potrs(t, blas64.General{Rows: len(z), Cols: 1, Stride: 1, Data: z})
	for _, v := range z {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
	}
	return z, true
}

// splitKernel holds a hold-out split and the stacked kernel matrix
// [K(Xt, Xt); K(Xv, Xt)] of size (nt+nv) x nt.
type splitKernel struct {
	xt, xv     *mat.Dense
	yt, yv     []float64
	nt, nv     int
	k          *mat.Dense // stacked
	ktt, kvt   *mat.Dense // views into k
	kernelTime time.Duration
}

func newSplitKernel(x *mat.Dense, y []float64, k Kernel, h Holdout) (*splitKernel, error) {
	tr, va, err := h.split(len(y))
	if err != nil {
		return nil, err
	}
	s := &splitKernel{xt: gatherRows(x, tr), yt: gather(y, tr), nt: len(tr), nv: len(va)}
	if err := checkAlloc("kernel matrix", s.nt+s.nv, s.nt); err != nil {
		return nil, err
	}
	t0 := time.Now()
	s.k = mat.NewDense(s.nt+s.nv, s.nt, nil)
	s.ktt = s.k.Slice(0, s.nt, 0, s.nt).(*mat.Dense)
	kernelSym(s.ktt, k, s.xt)
	if s.nv > 0 {
		s.xv, s.yv = gatherRows(x, va), gather(y, va)
		s.kvt = s.k.Slice(s.nt, s.nt+s.nv, 0, s.nt).(*mat.Dense)
		kernelBlock(s.kvt, k, s.xv, s.xt, nil, nil)
	}
	s.kernelTime = time.Since(t0)
	return s, nil
}

func vec(v []float64) blas64.Vector { return blas64.Vector{N: len(v), Inc: 1, Data: v} }

func allFinite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
