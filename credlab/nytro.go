package credlab

import (
	"context"

	"gonum.org/v1/gonum/mat"
)

// NYTROConfig configures Nyström iterative regularization.
type NYTROConfig struct {
	// Kernel is k; nil means GaussianKernel with Sigma = MedianDistance(x),
	// the median heuristic.
	Kernel  Kernel
	Nystrom NystromConfig
	// Weights, if not nil, are per-row importance weights w_i > 0: the step
	// becomes beta_t = beta_{t-1} - (gamma/n) A^T W (A beta_{t-1} - y).
	Weights []float64
	IterConfig
}

// NYTRO runs gradient descent on ||A beta - y||^2 / n with A = K_nm R
// (eqs. 17-19 of the NYTRO paper):
//
//	beta_t = beta_{t-1} - (gamma/n) A^T (A beta_{t-1} - y),  alpha_t = R beta_t.
//
// (The extracted eq. 18 omits R inside the residual; this is the gradient
// step of the stated objective.) With gamma <= 1/max k(x,x) it converges,
// since ||A||^2 <= ||K|| <= n max k(x,x). Iterate t equals the filter
// beta_t = (gamma/n) sum_{k<t} (I - gamma A^T A/n)^k A^T y.
//
// When MaxIter (or Iter) is at least m/8, or A does not fit the memory
// limit, the steps run in Gram form: the rows stream through the Gram
// statistics H = A^T A and its validation twin (GramStats) once, O(n m d +
// 2 n m^2) at matrix-multiply speed and O(m^2 + block m) memory, then
// O(m^2) per step for the iterate and both errors, whatever n. Otherwise A
// is held, O(n m) memory, and each step costs O(n m), with validation
// predictions updated in the same step at O(n_v m).
func NYTRO(ctx context.Context, x *mat.Dense, y []float64, cfg NYTROConfig) (*Fit, error) {
	cfg.Kernel = defaultKernel(cfg.Kernel, x)
	if err := checkFitInputs(x, y, cfg.Weights, cfg.Kernel); err != nil {
		return nil, err
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	ny, fs, err := nystromSplit(ctx, x, y, cfg.Weights, cfg.Kernel, cfg.Nystrom, cfg.holdout())
	if err != nil {
		return nil, err
	}
	fit := &Fit{Method: "NYTRO", Rank: ny.Rank(), Model: &Model{Kernel: cfg.Kernel, Centers: ny.Centers}}
	if err := fs.gd(ctx, cfg.IterConfig, fit, ny.Coef); err != nil {
		return nil, err
	}
	return fit, nil
}
