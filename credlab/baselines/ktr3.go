package baselines

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/credlab/credlab/credlab"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// KTR3Config configures Kernel Truncated Randomized Ridge Regression.
type KTR3Config struct {
	// Kernel selects the kernel form: f_k is a kernel expansion on the k
	// prefix rows. Features selects the feature form: f_k is linear in
	// Features(x), as in credlab.LinearRLS. With neither set, Features is
	// credlab.RawFeatures{}; setting both is an error.
	Kernel   credlab.Kernel
	Features credlab.FeatureMap
	// Lambda, when positive, fixes lambda and fits on all rows; otherwise
	// lambda is chosen from Lambdas (default credlab.LogGrid(1e-15, 1,
	// 100)) by the hold-out RMSE of the truncated predictor. The penalty is
	// lambda n ||f||^2 with n the number of training rows, not k: the
	// paper's fixed regulariser, on the scale of credlab's LinearRLS and
	// KRLS (which KTR3 equals before truncation when k = n).
	Lambda  float64
	Lambdas []float64
	Holdout credlab.Holdout
	// Bound is the truncation level Y (the paper's bound on |y|); default
	// max |y_i| over the training rows.
	Bound float64
	// Prefix, if positive, fixes k (at most the number of training rows).
	// By default k is drawn uniformly from {0, ..., n-1} with Seed, as the
	// algorithm prescribes; k = 0 gives f = 0.
	Prefix int
	Seed   uint64
}

// KTR3Fit is the result of KTR3. Fit.Model is the untruncated ridge
// solution f_k; Predict clips it to [-Bound, Bound].
type KTR3Fit struct {
	*credlab.Fit
	// Bound is the truncation level Y used; Prefix the number k of rows f_k
	// was trained on.
	Bound  float64
	Prefix int
}

// Predict returns T_Y(f_k(x_i)) = max(-Y, min(Y, f_k(x_i))) for each row.
func (f *KTR3Fit) Predict(x *mat.Dense) ([]float64, error) {
	return f.PredictContext(context.Background(), x)
}

// PredictContext is Predict with cancellation.
func (f *KTR3Fit) PredictContext(ctx context.Context, x *mat.Dense) ([]float64, error) {
	if f == nil || f.Fit == nil {
		return nil, fmt.Errorf("%w: predict with an empty KTR3 fit", credlab.ErrEmpty)
	}
	p, err := f.Model.PredictContext(ctx, x)
	if err != nil {
		return nil, err
	}
	truncate(p, f.Bound)
	return p, nil
}

// KTR3 is Kernel Truncated Randomized Ridge Regression (Jun, Cutkosky and
// Orabona, NeurIPS 2019), the online-to-batch conversion of online kernel
// ridge regression: draw k uniformly from {0, ..., n-1}, fit ridge
// regression on the first k rows only,
//
//	f_k = argmin_f sum_{i<=k} (f(x_i) - y_i)^2 + lambda n ||f||^2,
//
// that is alpha = (K_k + lambda n I)^-1 y_k (kernel form) or
// beta = (Phi_k^T Phi_k + lambda n I)^-1 Phi_k^T y_k (feature form), and
// predict with the truncation T_Y(f_k(x)) = max(-Y, min(Y, f_k(x))). The
// rows must be in random order (an i.i.d. sample, or a credlab.Selection
// in draw order): the first k rows stand for the first k rounds of the
// online learner. The returned KTR3Fit clips; its Fit.Model does not.
//
// The paper's text was not available here; this follows its published
// description (a ridge solution on a randomly sized subset of the sample,
// truncated to the label range) and its analysis as an online-to-batch
// conversion, whose random round gives the range {0, ..., n-1}.
//
// Cost: the feature form is O(k D^2) for Phi_k^T Phi_k plus O(D^3/3) per
// lambda, memory O(k D + D^2); the kernel form is O(k^2 d) for K_k plus
// O(k^3/3) per lambda, memory O(k^2). With a grid, validation adds
// O(n_v D) or O(n_v k (d + 1)) per lambda.
func KTR3(ctx context.Context, x *mat.Dense, y []float64, cfg KTR3Config) (*KTR3Fit, error) {
	if err := checkXY(x, y); err != nil {
		return nil, err
	}
	if cfg.Kernel != nil && cfg.Features != nil {
		return nil, &credlab.ParamError{Name: "KTR3Config.Features", Value: fmt.Sprintf("%T", cfg.Features), Want: "nil when Kernel is set (set Kernel or Features, not both)"}
	}
	if cfg.Kernel != nil {
		if err := cfg.Kernel.Validate(); err != nil {
			return nil, err
		}
	}
	if cfg.Bound < 0 || math.IsNaN(cfg.Bound) || math.IsInf(cfg.Bound, 0) {
		return nil, &credlab.ParamError{Name: "KTR3Config.Bound", Value: cfg.Bound, Want: "a positive finite bound (or zero for max |y|)"}
	}
	if cfg.Prefix < 0 {
		return nil, &credlab.ParamError{Name: "KTR3Config.Prefix", Value: cfg.Prefix, Want: "a positive number of rows (or zero to draw it at random)"}
	}
	h, grid, err := credlab.LambdaGrid("KTR3", cfg.Lambda, cfg.Lambdas, cfg.Holdout)
	if err != nil {
		return nil, err
	}
	tr, va, err := h.Split(len(y))
	if err != nil {
		return nil, err
	}
	nt := len(tr)
	bound := cfg.Bound
	if bound == 0 {
		for _, i := range tr {
			bound = math.Max(bound, math.Abs(y[i]))
		}
	}
	k := cfg.Prefix
	switch {
	case k == 0:
		k = rand.New(rand.NewPCG(cfg.Seed, 0x6b747233)).IntN(nt)
	case k > nt:
		return nil, &credlab.ParamError{Name: "KTR3Config.Prefix", Value: k, Want: fmt.Sprintf("at most the %d training rows", nt)}
	}
	fit := &credlab.Fit{Method: "KTR3", Rank: k, ValRMSE: math.NaN()}
	out := &KTR3Fit{Fit: fit, Bound: bound, Prefix: k}
	pre := tr[:k]
	yk, yv := gather(y, pre), gather(y, va)

	// The problem G z = b with prediction maps for the prefix and
	// validation rows: G = Phi_k^T Phi_k, b = Phi_k^T y_k, maps Phi_k and
	// Phi_v (feature form); G = K_k, b = y_k, maps K_k and K_vk (kernel).
	var g, trainMap, valMap *mat.Dense
	var b []float64
	t0 := time.Now()
	fm := cfg.Features
	if cfg.Kernel == nil && fm == nil {
		fm = credlab.RawFeatures{}
	}
	// With k = 0 one row still gives the feature dimension.
	xk, err := credlab.GatherRows(x, tr[:max(k, 1)])
	if err != nil {
		return nil, err
	}
	var xv *mat.Dense
	if len(va) > 0 {
		if xv, err = credlab.GatherRows(x, va); err != nil {
			return nil, err
		}
	}
	if fm != nil {
		phi, err := fm.Features(xk)
		if err != nil {
			return nil, err
		}
		D := phi.RawMatrix().Cols
		fit.Model = &credlab.Model{Features: fm, Coef: make([]float64, D)}
		if k > 0 {
			if err := checkAlloc("KTR3 Gram matrix", D, D); err != nil {
				return nil, err
			}
			trainMap = phi
			g = gram(phi)
			b = make([]float64, D)
			blas64.Gemv(blas.Trans, 1, phi.RawMatrix(), vec(yk), 0, vec(b))
		}
		if xv != nil {
			if valMap, err = fm.Features(xv); err != nil {
				return nil, err
			}
			if err := checkDims("the feature map's output", valMap.RawMatrix().Cols, D); err != nil {
				return nil, err
			}
		}
	} else {
		fit.Model = &credlab.Model{Kernel: cfg.Kernel, Centers: xk, Coef: make([]float64, xk.RawMatrix().Rows)}
		if k > 0 {
			if err := checkAlloc("KTR3 kernel matrix", k+len(va), k); err != nil {
				return nil, err
			}
			if trainMap, err = credlab.KernelMatrix(cfg.Kernel, xk, nil); err != nil {
				return nil, err
			}
			g, b = trainMap, yk
			if xv != nil {
				if valMap, err = credlab.KernelMatrix(cfg.Kernel, xv, xk); err != nil {
					return nil, err
				}
			}
		}
	}
	fit.Timing.Kernel = time.Since(t0)

	var (
		best  []float64
		work  *mat.Dense
		ptr   = make([]float64, k)
		pval  = make([]float64, len(va))
		bestV = math.Inf(1)
	)
	if k > 0 {
		work = mat.NewDense(g.RawMatrix().Rows, g.RawMatrix().Cols, nil)
	}
	for _, l := range grid {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pt := credlab.PathPoint{Lambda: l, TrainRMSE: math.NaN(), ValRMSE: math.NaN()}
		var z []float64
		ok := true
		t0 = time.Now()
		if k > 0 {
			work.Copy(g)
			z, ok = credlab.CholeskySolve(work, l*float64(nt), b)
		}
		fit.Timing.Solve += time.Since(t0)
		t0 = time.Now()
		if ok {
			if k > 0 {
				blas64.Gemv(blas.NoTrans, 1, trainMap.RawMatrix(), vec(z), 0, vec(ptr))
				truncate(ptr, bound)
				pt.TrainRMSE = credlab.RMSE(ptr, yk)
			}
			if len(va) > 0 {
				clear(pval)
				if k > 0 {
					blas64.Gemv(blas.NoTrans, 1, valMap.RawMatrix(), vec(z), 0, vec(pval))
				}
				truncate(pval, bound)
				pt.ValRMSE = credlab.RMSE(pval, yv)
			}
			if best == nil || pt.ValRMSE < bestV {
				bestV, fit.Lambda = pt.ValRMSE, l
				best = append([]float64{}, z...)
			}
		}
		fit.Timing.Select += time.Since(t0)
		fit.Path = append(fit.Path, pt)
	}
	if best == nil {
		if len(grid) == 1 {
			return nil, &credlab.SingularError{System: "KTR3", Setting: "lambda", Value: fmt.Sprint(grid[0])}
		}
		return nil, &credlab.SingularError{System: "KTR3", Setting: "lambda", Value: fmt.Sprintf("[%g ... %g] (%d values)", slices.Min(grid), slices.Max(grid), len(grid))}
	}
	if len(va) > 0 {
		fit.ValRMSE = bestV
	}
	if k > 0 {
		fit.Model.Coef = best
	}
	return out, nil
}

// truncate clips every value of p to [-y, y].
func truncate(p []float64, y float64) {
	for i, v := range p {
		p[i] = math.Max(-y, math.Min(y, v))
	}
}

// gather returns the values y[i] for i in idx.
func gather(y []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for i, r := range idx {
		out[i] = y[r]
	}
	return out
}
