package credlab

import (
	"context"

	"gonum.org/v1/gonum/mat"
)

// NystromConfig holds the Nyström settings shared by NKRLS and NYTRO.
type NystromConfig struct {
	// M is the number of centers, at most the training rows; default
	// min(DefaultNystromM, training rows).
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
	// Kernel is k; nil means GaussianKernel with Sigma = MedianDistance(x),
	// the median heuristic.
	Kernel  Kernel
	Nystrom NystromConfig
	// Lambda, when positive, fixes lambda and fits on all rows; otherwise
	// lambda is chosen from Lambdas (default LogGrid(1e-15, 1, 100)) on a
	// hold-out split.
	Lambda  float64
	Lambdas []float64
	Holdout Holdout
	// Weights, if not nil, are per-row importance weights w_i > 0: the loss
	// becomes (1/n) sum w_i (f(x_i) - y_i)^2.
	Weights  []float64
	Progress func(done, total int)
}

// NKRLS fits alpha = R (A^T A + lambda n I)^-1 A^T y with A = K_nm R
// (eq. 16 of the NYTRO paper). The rows stream through their Gram
// statistics (GramStats) in blocks, so A is never held: memory is
// O(m^2 + block m) beyond the hold-out copy of x. Time is
// O(n m d + 2 n m^2) for the blocks of A (kernel, triangular solve) and
// A^T A, plus O(m^3/3) per lambda for grids under triBreakEven values (11
// to 40 by BLAS backend, krls.go), or one O(10/3 m^3) tridiagonal reduction, an O(4 m^3) rotation
// of the validation statistics and O(m^2) per lambda for larger grids.
func NKRLS(ctx context.Context, x *mat.Dense, y []float64, cfg NKRLSConfig) (*Fit, error) {
	cfg.Kernel = defaultKernel(cfg.Kernel, x)
	if err := checkFitInputs(x, y, cfg.Weights, cfg.Kernel); err != nil {
		return nil, err
	}
	return nkrls(ctx, x, y, cfg)
}

// nkrls is NKRLS on inputs already checked (checkFitInputs), with its
// kernel set.
func nkrls(ctx context.Context, x *mat.Dense, y []float64, cfg NKRLSConfig) (*Fit, error) {
	h, grid, err := LambdaGrid("NKRLS", cfg.Lambda, cfg.Lambdas, cfg.Holdout)
	if err != nil {
		return nil, err
	}
	ny, fs, err := nystromSplit(ctx, x, y, cfg.Weights, cfg.Kernel, cfg.Nystrom, h)
	if err != nil {
		return nil, err
	}
	fit := &Fit{Method: "NKRLS", Rank: ny.Rank()}
	beta, err := fs.ridge(ctx, grid, fit, cfg.Progress)
	if err != nil {
		return nil, err
	}
	fit.Model = &Model{Kernel: cfg.Kernel, Centers: ny.Centers, Coef: ny.Coef(beta)}
	return fit, nil
}
