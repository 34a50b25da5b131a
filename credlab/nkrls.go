package credlab

import (
	"context"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// NystromConfig holds the Nyström settings shared by NKRLS and NYTRO.
type NystromConfig struct {
	// M is the number of centers; required, 1 <= M <= training rows.
	M int
	// Sampler chooses the centers; default UniformCenters.
	Sampler CenterSampler
	// Seed seeds the center sampler.
	Seed uint64
	// Tol is the relative pivot tolerance of K_mm; default DefaultNystromTol.
	Tol float64
}

// NKRLSConfig configures Nyström kernel regularized least squares.
type NKRLSConfig struct {
	Kernel  Kernel
	Nystrom NystromConfig
	// Lambda, when positive, fixes lambda and fits on all rows; otherwise
	// lambda is chosen from Lambdas (default LogGrid(1e-15, 1, 100)) on a
	// hold-out split.
	Lambda   float64
	Lambdas  []float64
	Holdout  Holdout
	Progress func(done, total int)
}

// NKRLS fits alpha = R (A^T A + lambda n I)^-1 A^T y with A = K_nm R
// (eq. 16 of the NYTRO paper). Memory is O(n m). Time is O(n m d + n m^2)
// for A and A^T A, plus O(m^3/3) per lambda for grids under 30 values, or
// one O(10/3 m^3) tridiagonal reduction and O(m + n_v m) per lambda for
// larger grids.
func NKRLS(ctx context.Context, x *mat.Dense, y []float64, cfg NKRLSConfig) (*Fit, error) {
	if err := checkData(x, y); err != nil {
		return nil, err
	}
	if err := checkKernel(cfg.Kernel); err != nil {
		return nil, err
	}
	if cfg.Lambda < 0 || math.IsNaN(cfg.Lambda) {
		return nil, checkPositive("lambda", cfg.Lambda)
	}
	h := cfg.Holdout
	grid := cfg.Lambdas
	if cfg.Lambda > 0 {
		h, grid = Holdout{None: true}, []float64{cfg.Lambda}
	} else if h.None {
		return nil, fmt.Errorf("credlab: NKRLS without hold-out needs a fixed Lambda")
	}
	if grid == nil {
		grid = LogGrid(1e-15, 1, 100)
	}
	if err := checkLambdas(grid); err != nil {
		return nil, err
	}
	nc := cfg.Nystrom
	ns, err := newNystromSplit(x, y, cfg.Kernel, nc.M, nc.Sampler, nc.Seed, nc.Tol, h)
	if err != nil {
		return nil, err
	}
	fit := &Fit{Method: "NKRLS", Rank: ns.ny.Rank()}
	fit.Timing.Kernel = ns.kernelTime
	t0 := time.Now()
	r := ns.ny.Rank()
	g := mat.NewDense(r, r, nil)
	gr := g.RawMatrix()
	blas64.Syrk(blas.Trans, 1, ns.a.RawMatrix(), 0, blas64.Symmetric{N: r, Stride: gr.Stride, Data: gr.Data, Uplo: blas.Lower})
	for i := 0; i < r; i++ {
		for j := i + 1; j < r; j++ {
			gr.Data[i*gr.Stride+j] = gr.Data[j*gr.Stride+i]
		}
	}
	aty := make([]float64, r)
	blas64.Gemv(blas.Trans, 1, ns.a.RawMatrix(), vec(ns.yt), 0, vec(aty))
	fit.Timing.Solve = time.Since(t0)
	yy := dot(ns.yt, ns.yt)
	prob := ridgeProblem{g: g, b: aty, w: ns.b, yv: ns.yv, n: ns.nt,
		// ||A z - y||^2 = ||y||^2 - z.b - mu ||z||^2 at the solution.
		sse: func(zz, zb, mu float64) float64 { return yy - zb - mu*zz }}
	beta, err := prob.path(ctx, grid, fit, cfg.Progress)
	if err != nil {
		return nil, err
	}
	fit.Model = &Model{Kernel: cfg.Kernel, Centers: ns.ny.Centers, Coef: ns.ny.Coef(beta)}
	return fit, nil
}
