package credlab

import (
	"context"
	"github.com/credlab/credlab/internal/parallel"
	"math"
	"time"

	"github.com/credlab/credlab/internal/ridge"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// KRLSConfig configures kernel regularized least squares.
type KRLSConfig struct {
	// Kernel is k; nil means GaussianKernel with Sigma = MedianDistance(x),
	// the median heuristic.
	Kernel Kernel
	// Lambda, when positive, fixes lambda: the model is fitted on all rows
	// with no validation. Otherwise lambda is chosen from Lambdas on a
	// hold-out split.
	Lambda float64
	// Lambdas is the grid searched; default LogGrid(1e-15, 1, 100), the
	// NYTRO paper's grid.
	Lambdas []float64
	Holdout Holdout
	// Weights, if not nil, are per-row importance weights w_i > 0 (such as
	// Selection.Weight): the loss becomes (1/n) sum w_i (f(x_i) - y_i)^2.
	Weights []float64
	// Progress, if not nil, is called after each lambda with (done, total).
	Progress func(done, total int)
}

// triBreakEven is the grid size from which one tridiagonal reduction plus
// O(n) work per lambda beats one Cholesky per lambda. It depends on the
// backend, which sets it: Cholesky runs at matrix-multiply speed while half
// of Dsytrd is memory-bound matrix-vector work. The values per backend
// come from BenchmarkSytrd in fastblas (docs/benchmarks.md, "Possible
// speed-ups").
var triBreakEven = 30

// KRLS fits alpha = (K + lambda n I)^-1 y, the minimiser of
// (1/n) sum (f(x_i) - y_i)^2 + lambda ||f||^2 (eq. 8 of the NYTRO paper).
// With weights W it fits alpha = W^1/2 (W^1/2 K W^1/2 + lambda n I)^-1 W^1/2 y,
// the importance-weighted KRR of the CRED paper (Remark in section 4).
//
// With a fixed Lambda it costs one kernel matrix, O(n^2 d), and one
// Cholesky factorization, O(n^3/3); memory is O(n^2).
//
// A grid search trains on the n_t = (1-f) n training rows and validates on
// the rest. For a grid of fewer than triBreakEven values (11 to 40, by
// backend) it factors once per value, O(|grid| n_t^3/3). For larger grids it shares one tridiagonal reduction
// K = Q T Q^T, O(10/3 n_t^3), then costs O(n_t) per lambda for the solve and
// training error and O(n_v n_t) for validation; a failed factorization
// (lambda too small for the precision) is recorded as a NaN on the path.
func KRLS(ctx context.Context, x *mat.Dense, y []float64, cfg KRLSConfig) (*Fit, error) {
	cfg.Kernel = defaultKernel(cfg.Kernel, x)
	if err := checkFitInputs(x, y, cfg.Weights, cfg.Kernel); err != nil {
		return nil, err
	}
	return krls(ctx, x, y, cfg)
}

// krls is KRLS on inputs already checked (checkFitInputs), with its
// kernel set: the entry of the library's own callers, which check the
// data once at their boundary.
func krls(ctx context.Context, x *mat.Dense, y []float64, cfg KRLSConfig) (*Fit, error) {
	h, grid, err := LambdaGrid("KRLS", cfg.Lambda, cfg.Lambdas, cfg.Holdout)
	if err != nil {
		return nil, err
	}
	tr, va, err := h.Split(len(y))
	if err != nil {
		return nil, err
	}
	s, err := newSplitKernel(x, y, cfg.Weights, cfg.Kernel, tr, va)
	if err != nil {
		return nil, err
	}
	return s.path(ctx, cfg.Kernel, grid, cfg.Progress)
}

// path fits KRLS on the training rows for every lambda of grid, validated
// on the validation rows, and returns the fit of the least validation
// RMSE (the one lambda's fit for a one-value grid). It overwrites s's
// kernel matrices.
func (s *splitKernel) path(ctx context.Context, k Kernel, grid []float64, progress func(int, int)) (*Fit, error) {
	fit := &Fit{Method: "KRLS", Rank: s.nt}
	fit.Timing.Kernel = s.kernelTime
	// Weighted problem: G = W^1/2 K W^1/2, b = W^1/2 y, validation map K_vt W^1/2.
	sq := sqrtWeights(s.wt)
	scaleSym(s.ktt, sq)
	if s.kvt != nil {
		scaleCols(s.kvt, sq)
	}
	prob := ridgeProblem{g: s.ktt, b: scaled(s.yt, sq), w: s.kvt, yv: s.yv, wv: s.wv, n: s.nt, sse: krlsSSE}
	z, err := prob.path(ctx, grid, fit, progress)
	if err != nil {
		return nil, err
	}
	fit.Model = &Model{Kernel: k, Centers: s.xt, Coef: scaled(z, sq)}
	return fit, nil
}

// krlsSSE is the training sum of squared errors of KRLS:
// W^1/2 (K alpha - y) = -mu z at the solution, so the sum is mu^2 ||z||^2.
func krlsSSE(zz, _, mu float64) float64 { return mu * mu * zz }

func init() { ridge.Path = precomputedPath }

// precomputedPath is ridge.Path, KRLS's path on a precomputed kernel
// matrix for credlab's sub-packages: the ridgeProblem of KRLS without
// weights.
func precomputedPath(ctx context.Context, p ridge.Problem) (*ridge.Solution, error) {
	prob := ridgeProblem{g: p.K, b: p.Y, w: p.KV, yv: p.YV, n: len(p.Y), sse: krlsSSE}
	fit := &Fit{Method: p.Method}
	z, err := prob.path(ctx, p.Grid, fit, p.Progress)
	if err != nil {
		return nil, err
	}
	sol := &ridge.Solution{Coef: z, Lambda: fit.Lambda, ValRMSE: fit.ValRMSE,
		Path: make([]ridge.Point, len(fit.Path)), Solve: fit.Timing.Solve, Select: fit.Timing.Select}
	for i, pt := range fit.Path {
		sol.Path[i] = ridge.Point{Lambda: pt.Lambda, TrainRMSE: pt.TrainRMSE, ValRMSE: pt.ValRMSE}
	}
	return sol, nil
}

// splitKernel holds a hold-out split and the stacked kernel matrix
// [K(Xt, Xt); K(Xv, Xt)] of size (nt+nv) x nt.
type splitKernel struct {
	xt, xv     *mat.Dense
	yt, yv     []float64
	wt, wv     []float64 // nil without weights
	nt, nv     int
	k          *mat.Dense // stacked
	ktt, kvt   *mat.Dense // views into k; kvt nil without validation
	kernelTime time.Duration
}

// newSplitKernel computes the kernel matrices of the training rows tr and
// the validation rows va (none when empty) of x.
func newSplitKernel(x *mat.Dense, y, w []float64, k Kernel, tr, va []int) (*splitKernel, error) {
	s := &splitKernel{xt: gatherRows(x, tr), yt: gather(y, tr), nt: len(tr), nv: len(va)}
	if w != nil {
		s.wt, s.wv = gather(w, tr), gather(w, va)
	}
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

// sqrtWeights returns the square roots of w, or nil for nil.
func sqrtWeights(w []float64) []float64 {
	if w == nil {
		return nil
	}
	s := make([]float64, len(w))
	for i, v := range w {
		s[i] = math.Sqrt(v)
	}
	return s
}

// scaled returns v_i s_i (a copy of v when s is nil).
func scaled(v, s []float64) []float64 {
	out := append([]float64(nil), v...)
	for i := range s {
		out[i] *= s[i]
	}
	return out
}

// scaleSym sets a = diag(s) a diag(s) in place; s nil leaves a.
func scaleSym(a *mat.Dense, s []float64) {
	if s == nil {
		return
	}
	raw := a.RawMatrix()
	parallel.Rows(raw.Rows, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
			for j := range row {
				row[j] *= s[i] * s[j]
			}
		}
	})
}

// scaleCols sets a = a diag(s) in place; scaleRows sets a = diag(s) a.
func scaleCols(a *mat.Dense, s []float64) {
	if s == nil {
		return
	}
	raw := a.RawMatrix()
	parallel.Rows(raw.Rows, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
			for j := range row {
				row[j] *= s[j]
			}
		}
	})
}

func scaleRows(a *mat.Dense, s []float64) {
	if s == nil {
		return
	}
	raw := a.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		for j := range row {
			row[j] *= s[i]
		}
	}
}
