package credlab

import (
	"context"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// EarlyStoppingConfig configures Landweber iteration (kernel gradient
// descent) with early stopping.
type EarlyStoppingConfig struct {
	// Kernel is k; nil means GaussianKernel with Sigma = MedianDistance(x),
	// the median heuristic.
	Kernel Kernel
	// Weights, if not nil, are per-row importance weights w_i > 0: the step
	// becomes alpha_t = alpha_{t-1} - (gamma/n) W (K alpha_{t-1} - y), lines
	// 5-6 of the CRED paper's Algorithm 1.
	Weights []float64
	IterConfig
}

// EarlyStopping runs alpha_t = alpha_{t-1} - (gamma/n) (K alpha_{t-1} - y)
// from alpha_0 = 0 (eq. 10 of the NYTRO paper) and, with a hold-out split,
// returns the iterate of least validation error. Iterate t equals the
// spectral filter alpha_t = (gamma/n) sum_{k<t} (I - gamma K/n)^k y.
//
// Training and validation predictions are updated together by one
// matrix-vector product with [K_tt; K_vt] per step: O(n_t n) time per step,
// O(n_t n) memory, plus O(n n_t d) for the kernel.
func EarlyStopping(ctx context.Context, x *mat.Dense, y []float64, cfg EarlyStoppingConfig) (*Fit, error) {
	cfg.Kernel = defaultKernel(cfg.Kernel, x)
	if err := checkFitInputs(x, y, cfg.Weights, cfg.Kernel); err != nil {
		return nil, err
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	tr, va, err := cfg.holdout().Split(len(y))
	if err != nil {
		return nil, err
	}
	s, err := newSplitKernel(x, y, cfg.Weights, cfg.Kernel, tr, va)
	if err != nil {
		return nil, err
	}
	kt := s.ktt.RawMatrix()
	sq := sqrtWeights(s.wt)
	tmp := make([]float64, s.nt)
	lmax := operatorNorm(s.nt, func(dst, src []float64) { // W^1/2 K W^1/2
		copy(tmp, src)
		for i := range sq {
			tmp[i] *= sq[i]
		}
		blas64.Gemv(blas.NoTrans, 1, kt, vec(tmp), 0, vec(dst))
		for i := range sq {
			dst[i] *= sq[i]
		}
	})
	gamma, err := cfg.defaultStep("EarlyStopping", lmax, s.nt)
	if err != nil {
		return nil, err
	}
	fit := &Fit{Method: "EarlyStopping", Rank: s.nt, Model: &Model{Kernel: cfg.Kernel, Centers: s.xt}}
	fit.Timing.Kernel = s.kernelTime
	fit.StepSize = gamma
	st := &landweber{predictions: newPredictions(s.yt, s.yv, s.wt, s.wv),
		alpha: make([]float64, s.nt), k: s.k.RawMatrix(), c: gamma / float64(s.nt)}
	if err := runGD(ctx, st, cfg.IterConfig, fit); err != nil {
		return nil, err
	}
	return fit, nil
}

type landweber struct {
	predictions
	alpha []float64
	k     blas64.General // [K_tt; K_vt]
	c     float64        // gamma / n
}

func (l *landweber) step(scale float64) {
	r := l.residual()
	c := scale * l.c
	for i, v := range r {
		l.alpha[i] -= c * v
	}
	blas64.Gemv(blas.NoTrans, -c, l.k, vec(r), 1, vec(l.pv))
}

func (l *landweber) state() [][]float64 { return [][]float64{l.alpha, l.pv} }

func (l *landweber) coef() []float64 { return append([]float64(nil), l.alpha...) }
