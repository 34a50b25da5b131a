package baselines

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/credlab/credlab/credlab"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// SSSRConfig configures simple semi-supervised regression (SSSR).
type SSSRConfig struct {
	// Pool holds the unlabeled inputs whose eigen-system gives the basis;
	// it may (and in importance labeling does) contain the labeled rows.
	// It is not needed when Basis is set.
	Pool *mat.Dense
	// Basis, when set, is a precomputed eigen-system (NewSSSRBasis), shared
	// between fits; Pool, Kernel, Features, Floor and Block are then unused.
	Basis *SSSRBasis
	// Kernel selects the kernel form (eigenvectors of the pool's Gram
	// matrix, Nyström-extended); Features the feature form (eigenvectors of
	// the pool's feature covariance). With neither set, Features is
	// credlab.RawFeatures{}; setting both is an error.
	Kernel   credlab.Kernel
	Features credlab.FeatureMap
	// S is the number s of eigenfunctions regressed on; default the
	// smaller of the basis size and the number of labeled rows.
	S int
	// Lambda, when positive, adds a ridge penalty lambda n ||gamma||^2 on
	// the s coefficients; the default 0 is the paper's plain least squares
	// (the minimum-norm solution when it is not unique).
	Lambda float64
	// Floor drops eigenvalues at or below Floor times the largest: their
	// eigenfunctions are numerical noise. Default 1e-10.
	Floor float64
	// Block is the streaming block size of the feature covariance, default
	// credlab.DefaultBlock.
	Block int
}

// SSSR is the simple semi-supervised regression of Ji, Yang, Lin, Jin and
// Han (ICML 2012, arXiv:1206.6412): compute the top s eigenfunctions
// psi_1 ... psi_s of the pool's integral operator (SSSRBasis), then fit
// f(x) = sum_i gamma_i psi_i(x) by least squares on the n labeled rows,
// gamma = argmin sum_j (f(x_j) - y_j)^2 (with Lambda > 0, plus lambda n
// ||gamma||^2). The returned model is linear in the basis's features, or a
// kernel expansion on the pool rows.
//
// Without cfg.Basis the eigen-system is computed first (see NewSSSRBasis
// for its cost). The regression costs O(n D s) (feature form) or
// O(n N (d + s)) (kernel form) for the design matrix, then O(n s^2) for the
// least-squares solve (an SVD; a Cholesky factorization with Lambda > 0).
//
// The paper's full text was not available here. This follows its abstract
// (the top eigenfunctions of the integral operator of the labeled and
// unlabeled examples as basis functions, then simple linear regression)
// and the CRED paper's summary of it; the eigenfunction normalisation and
// the minimum-norm solution in the rank-deficient case are this package's
// choices and do not change the fitted function when Z has full column
// rank.
func SSSR(ctx context.Context, x *mat.Dense, y []float64, cfg SSSRConfig) (*credlab.Fit, error) {
	if err := checkXY(x, y); err != nil {
		return nil, err
	}
	if cfg.S < 0 {
		return nil, &credlab.ParamError{Name: "SSSRConfig.S", Value: cfg.S, Want: "a positive number of eigenfunctions (or zero for all)"}
	}
	if cfg.Lambda < 0 || math.IsNaN(cfg.Lambda) || math.IsInf(cfg.Lambda, 0) {
		return nil, &credlab.ParamError{Name: "SSSRConfig.Lambda", Value: cfg.Lambda, Want: "a finite lambda >= 0"}
	}
	fit := &credlab.Fit{Method: "SSSR", Lambda: cfg.Lambda, ValRMSE: math.NaN()}
	t0 := time.Now()
	basis := cfg.Basis
	if basis == nil {
		var err error
		if basis, err = NewSSSRBasis(ctx, cfg); err != nil {
			return nil, err
		}
	}
	n := len(y)
	s := cfg.S
	if s == 0 {
		s = min(basis.Size(), n)
	}
	z, err := basis.Transform(x, s)
	if err != nil {
		return nil, err
	}
	fit.Timing.Kernel = time.Since(t0)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t0 = time.Now()
	var gamma []float64
	if cfg.Lambda > 0 {
		g := gram(z)
		b := make([]float64, s)
		blas64.Gemv(blas.Trans, 1, z.RawMatrix(), vec(y), 0, vec(b))
		var ok bool
		if gamma, ok = credlab.CholeskySolve(g, cfg.Lambda*float64(n), b); !ok {
			return nil, &credlab.SingularError{System: "SSSR", Setting: "SSSRConfig.Lambda", Value: fmt.Sprint(cfg.Lambda)}
		}
	} else if gamma, err = minNormLeastSquares(z, y); err != nil {
		return nil, err
	}
	fit.Timing.Solve = time.Since(t0)
	m, err := basis.coefMap(s)
	if err != nil {
		return nil, err
	}
	coef := make([]float64, m.RawMatrix().Rows)
	blas64.Gemv(blas.NoTrans, 1, m.RawMatrix(), vec(gamma), 0, vec(coef))
	fit.Rank = s
	if basis.Features != nil {
		fit.Model = &credlab.Model{Features: basis.Features, Coef: coef}
	} else {
		fit.Model = &credlab.Model{Kernel: basis.Kernel, Centers: basis.Centers, Coef: coef}
	}
	pred := make([]float64, n)
	blas64.Gemv(blas.NoTrans, 1, z.RawMatrix(), vec(gamma), 0, vec(pred))
	fit.Path = []credlab.PathPoint{{Lambda: cfg.Lambda, TrainRMSE: credlab.RMSE(pred, y), ValRMSE: math.NaN()}}
	return fit, nil
}

// minNormLeastSquares returns the minimum-norm minimiser of ||a g - y||,
// treating singular values below max(n, s) eps sigma_max as zero.
func minNormLeastSquares(a *mat.Dense, y []float64) ([]float64, error) {
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDThin) {
		return nil, &credlab.NumericalError{Method: "SSSR", Op: "the SVD of the design matrix did not converge"}
	}
	sv := svd.Values(nil)
	var u, v mat.Dense
	svd.UTo(&u)
	svd.VTo(&v)
	n, s := a.Dims()
	tol := float64(max(n, s)) * 0x1p-52 * sv[0]
	uty := make([]float64, len(sv))
	blas64.Gemv(blas.Trans, 1, u.RawMatrix(), vec(y), 0, vec(uty))
	for i, w := range sv {
		if w > tol {
			uty[i] /= w
		} else {
			uty[i] = 0
		}
	}
	g := make([]float64, s)
	blas64.Gemv(blas.NoTrans, 1, v.RawMatrix(), vec(uty), 0, vec(g))
	return g, nil
}
