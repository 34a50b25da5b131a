package credlab

import (
	"context"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// NYTROConfig configures Nyström iterative regularization.
type NYTROConfig struct {
	Kernel  Kernel
	Nystrom NystromConfig
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
// Memory is O(n m); time O(n m d + m^3) for the factor plus O(n m) per step,
// so O(n m t + m^3) in all. Validation predictions are updated with the
// same step, at O(n_v m) each.
func NYTRO(ctx context.Context, x *mat.Dense, y []float64, cfg NYTROConfig) (*Fit, error) {
	if err := checkData(x, y); err != nil {
		return nil, err
	}
	if err := checkKernel(cfg.Kernel); err != nil {
		return nil, err
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	nc := cfg.Nystrom
	ns, err := newNystromSplit(x, y, cfg.Kernel, nc.M, nc.Sampler, nc.Seed, nc.Tol, cfg.holdout())
	if err != nil {
		return nil, err
	}
	a := ns.a.RawMatrix()
	gamma, user, err := cfg.stepSize(cfg.Kernel, ns.xt)
	if err != nil {
		return nil, err
	}
	if user {
		tmp := make([]float64, ns.nt)
		lmax := powerNorm(ns.ny.Rank(), func(dst, src []float64) {
			blas64.Gemv(blas.NoTrans, 1, a, vec(src), 0, vec(tmp))
			blas64.Gemv(blas.Trans, 1, a, vec(tmp), 0, vec(dst))
		})
		if err := checkStep("NYTRO", gamma, lmax, ns.nt); err != nil {
			return nil, err
		}
	}
	fit := &Fit{Method: "NYTRO", Rank: ns.ny.Rank(), Model: &Model{Kernel: cfg.Kernel, Centers: ns.ny.Centers}}
	fit.Timing.Kernel = ns.kernelTime
	st := &nytroStep{ny: ns.ny, beta: make([]float64, ns.ny.Rank()), g: make([]float64, ns.ny.Rank()),
		a: a, ab: ns.ab.RawMatrix(), c: gamma / float64(ns.nt)}
	if err := runGD(ctx, st, ns.yt, ns.yv, cfg.IterConfig, fit); err != nil {
		return nil, err
	}
	return fit, nil
}

type nytroStep struct {
	ny      *Nystrom
	beta, g []float64
	a, ab   blas64.General // A and [A; B]
	c       float64        // gamma / n
}

func (s *nytroStep) step(r, pv []float64) {
	blas64.Gemv(blas.Trans, -s.c, s.a, vec(r), 0, vec(s.g))
	for i, v := range s.g {
		s.beta[i] += v
	}
	blas64.Gemv(blas.NoTrans, 1, s.ab, vec(s.g), 1, vec(pv))
}

func (s *nytroStep) coef() []float64 { return s.ny.Coef(s.beta) }
