package credlab

import (
	"context"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// ridgeProblem is the family of systems (G + mu I) z = b, mu = lambda n,
// shared by KRLS (G = K, b = y) and NKRLS (G = A^T A, b = A^T y).
type ridgeProblem struct {
	g  *mat.Dense // p x p symmetric positive semi-definite; not modified
	b  []float64
	w  *mat.Dense // nv x p: validation predictions are w z; nil without validation
	yv []float64
	wv []float64 // validation weights; nil means 1
	n  int       // training rows
	// sse returns the training sum of squared errors from the
	// basis-invariant quantities ||z||^2 and z.b.
	sse func(zz, zb, mu float64) float64
}

// path solves for every lambda in grid, records training and validation
// RMSE in fit.Path, and returns the z of the smallest validation RMSE.
// Grids of fewer than triBreakEven values factor G + mu I by Cholesky each
// time; larger grids share one tridiagonal reduction G = Q T Q^T.
func (pr ridgeProblem) path(ctx context.Context, grid []float64, fit *Fit, progress func(int, int)) ([]float64, error) {
	p, _ := pr.g.Dims()
	var (
		solve func(mu float64, z []float64) bool
		toZ   func(zh []float64) []float64 // back to the original basis
		w     = pr.w
		b     = pr.b
	)
	if len(grid) < triBreakEven {
		work := mat.NewDense(p, p, nil)
		solve = func(mu float64, z []float64) bool {
			work.Copy(pr.g)
			s, ok := choleskySolve(work, mu, pr.b)
			copy(z, s)
			return ok
		}
		toZ = func(z []float64) []float64 { return z }
	} else {
		t0 := time.Now()
		q, d, e := tridiagonalize(pr.g)
		b = make([]float64, p)
		blas64.Gemv(blas.Trans, 1, q.RawMatrix(), vec(pr.b), 0, vec(b))
		fit.Timing.Solve += time.Since(t0)
		if pr.w != nil {
			t0 = time.Now()
			w = mat.NewDense(pr.w.RawMatrix().Rows, p, nil)
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, pr.w.RawMatrix(), q.RawMatrix(), 0, w.RawMatrix())
			fit.Timing.Select += time.Since(t0)
		}
		dl, dd, du := make([]float64, len(e)), make([]float64, p), make([]float64, len(e))
		solve = func(mu float64, z []float64) bool {
			copy(dl, e)
			copy(du, e)
			for j := range dd {
				dd[j] = d[j] + mu
			}
			copy(z, b)
			ok := lapack64.Gtsv(blas.NoTrans, lapack64.Tridiagonal{N: p, DL: dl, D: dd, DU: du},
				blas64.General{Rows: p, Cols: 1, Stride: 1, Data: z})
			return ok && allFinite(z)
		}
		toZ = func(zh []float64) []float64 {
			z := make([]float64, p)
			blas64.Gemv(blas.NoTrans, 1, q.RawMatrix(), vec(zh), 0, vec(z))
			return z
		}
	}
	z := make([]float64, p)
	vbuf := make([]float64, len(pr.yv))
	var best []float64
	fit.ValRMSE = math.Inf(1)
	for i, l := range grid {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t0 := time.Now()
		mu := l * float64(pr.n)
		ok := solve(mu, z)
		fit.Timing.Solve += time.Since(t0)
		pt := PathPoint{Lambda: l, TrainRMSE: math.NaN(), ValRMSE: math.NaN()}
		if ok {
			t0 = time.Now()
			sse := pr.sse(dot(z, z), dot(z, b), mu)
			pt.TrainRMSE = math.Sqrt(math.Max(sse, 0) / float64(pr.n))
			if w != nil {
				blas64.Gemv(blas.NoTrans, 1, w.RawMatrix(), vec(z), 0, vec(vbuf))
				pt.ValRMSE = wrmse(vbuf, pr.yv, pr.wv)
			}
			if pt.ValRMSE < fit.ValRMSE || w == nil {
				fit.ValRMSE, fit.Lambda = pt.ValRMSE, l
				best = append(best[:0], z...)
			}
			fit.Timing.Select += time.Since(t0)
		}
		fit.Path = append(fit.Path, pt)
		if progress != nil {
			progress(i+1, len(grid))
		}
	}
	if best == nil && len(grid) == 1 {
		return nil, fmt.Errorf("credlab: %s: the system is not numerically positive definite at lambda = %g; increase lambda", fit.Method, grid[0])
	}
	if best == nil {
		return nil, fmt.Errorf("credlab: %s failed for every lambda in the grid; use larger lambdas", fit.Method)
	}
	return toZ(best), nil
}

// tridiagonalize returns Q, the diagonal d and off-diagonal e of
// G = Q T Q^T, in O(10/3 p^3) time.
func tridiagonalize(g *mat.Dense) (q *mat.Dense, d, e []float64) {
	p, _ := g.Dims()
	q = mat.DenseCopyOf(g)
	qr := q.RawMatrix()
	d, e = make([]float64, p), make([]float64, max(p-1, 0))
	tau := make([]float64, max(p-1, 0))
	impl := gonum.Implementation{}
	work := []float64{0}
	impl.Dsytrd(blas.Lower, p, qr.Data, qr.Stride, d, e, tau, work, -1)
	work = make([]float64, max(int(work[0]), 1))
	impl.Dsytrd(blas.Lower, p, qr.Data, qr.Stride, d, e, tau, work, len(work))
	impl.Dorgtr(blas.Lower, p, qr.Data, qr.Stride, tau, work, -1)
	work = make([]float64, max(int(work[0]), 1))
	impl.Dorgtr(blas.Lower, p, qr.Data, qr.Stride, tau, work, len(work))
	return q, d, e
}
