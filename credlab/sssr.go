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
	// RawFeatures{}; setting both is an error.
	Kernel   Kernel
	Features FeatureMap
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
	// DefaultBlock.
	Block int
}

// SSSRBasis is the eigen-system of an unlabeled pool of N rows: the
// eigenfunctions psi_i, orthonormal in L2 of the pool's empirical
// distribution, with eigenvalues mu_1 >= mu_2 >= ... > Floor mu_1.
//
// Feature form: (mu_i, e_i) are the eigenpairs of Phi^T Phi / N and
// psi_i(x) = e_i^T phi(x) / sqrt(mu_i). Kernel form: (mu_i, u_i) are the
// eigenpairs of K / N (u_i of unit norm) and psi_i(x) = sum_j k(x, x_j)
// u_ij / (sqrt(N) mu_i), the Nyström extension, which equals sqrt(N) u_ij
// at the pool row x_j.
type SSSRBasis struct {
	Features FeatureMap // feature form; nil in the kernel form
	Kernel   Kernel     // kernel form; nil in the feature form
	Centers  *mat.Dense // kernel form: the N pool rows
	// Vectors holds e_i (D x r) or u_i (N x r) as columns, by decreasing
	// eigenvalue; Values the r eigenvalues mu_i.
	Vectors *mat.Dense
	Values  []float64
}

// NewSSSRBasis computes the eigen-system of cfg.Pool.
//
// Feature form: one streaming pass for Phi^T Phi / N, O(N D^2) time and
// O(D^2 + Block D) memory, then a symmetric eigendecomposition, O(D^3).
// Kernel form: the N x N Gram matrix, O(N^2 d) time and O(N^2) memory, and
// its full eigendecomposition, O(N^3): seconds for N in the low thousands,
// impractical beyond about 10,000 rows, where the feature form (with
// RandomFourier or Nystrom features) is the tractable choice.
func NewSSSRBasis(ctx context.Context, cfg SSSRConfig) (*SSSRBasis, error) {
	if cfg.Kernel != nil && cfg.Features != nil {
		return nil, &ParamError{Name: "SSSRConfig.Features", Value: fmt.Sprintf("%T", cfg.Features), Want: "nil when Kernel is set (set Kernel or Features, not both)"}
	}
	if err := checkMatrix(cfg.Pool, "SSSRConfig.Pool"); err != nil {
		return nil, err
	}
	floor := cfg.Floor
	if floor == 0 {
		floor = 1e-10
	}
	if !(floor > 0 && floor < 1) {
		return nil, &ParamError{Name: "SSSRConfig.Floor", Value: cfg.Floor, Want: "a relative eigenvalue floor in (0, 1) (or zero for 1e-10)"}
	}
	n, _ := cfg.Pool.Dims()
	var sym *mat.SymDense
	basis := &SSSRBasis{}
	if cfg.Kernel != nil {
		if err := checkKernel(cfg.Kernel); err != nil {
			return nil, err
		}
		if err := checkAlloc("SSSR pool kernel matrix", n, n); err != nil {
			return nil, err
		}
		km := mat.NewDense(n, n, nil)
		kernelSym(km, cfg.Kernel, cfg.Pool)
		raw := km.RawMatrix()
		for i := range raw.Data {
			raw.Data[i] /= float64(n)
		}
		sym = mat.NewSymDense(n, raw.Data)
		basis.Kernel, basis.Centers = cfg.Kernel, cfg.Pool
	} else {
		fm := cfg.Features
		if fm == nil {
			fm = RawFeatures{}
		}
		c, err := featureCovariance(ctx, fm, cfg.Pool, cfg.Block)
		if err != nil {
			return nil, err
		}
		sym = c
		basis.Features = fm
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var es mat.EigenSym
	if !es.Factorize(sym, true) {
		return nil, &NumericalError{Method: "SSSR", Op: "the eigendecomposition of the pool did not converge"}
	}
	vals := es.Values(nil) // ascending
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	p := len(vals)
	top := vals[p-1]
	r := 0
	for r < p && vals[p-1-r] > floor*top && top > 0 {
		r++
	}
	if r == 0 {
		what := "feature covariance"
		if cfg.Kernel != nil {
			what = "kernel matrix"
		}
		return nil, &DegenerateError{Method: "SSSR", What: "the pool's " + what + " is zero; no eigenfunctions"}
	}
	basis.Values = make([]float64, r)
	basis.Vectors = mat.NewDense(p, r, nil)
	for i := 0; i < r; i++ {
		basis.Values[i] = vals[p-1-i]
		for j := 0; j < p; j++ {
			basis.Vectors.Set(j, i, vecs.At(j, p-1-i))
		}
	}
	return basis, nil
}

// featureCovariance returns Phi^T Phi / N, streamed over row blocks.
func featureCovariance(ctx context.Context, fm FeatureMap, x *mat.Dense, block int) (*mat.SymDense, error) {
	if block < 0 {
		return nil, blockError(block)
	}
	if block == 0 {
		block = DefaultBlock
	}
	n, d := x.Dims()
	var sigma *mat.Dense
	dim := 0
	for lo := 0; lo < n; lo += block {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+block, n)
		phi, err := fm.Features(x.Slice(lo, hi, 0, d).(*mat.Dense))
		if err != nil {
			return nil, err
		}
		if sigma == nil {
			dim = phi.RawMatrix().Cols
			if err := checkAlloc("feature covariance", dim, dim); err != nil {
				return nil, err
			}
			sigma = mat.NewDense(dim, dim, nil)
		}
		if err := checkDims("the feature map's output", phi.RawMatrix().Cols, dim); err != nil {
			return nil, err
		}
		sr := sigma.RawMatrix()
		blas64.Syrk(blas.Trans, 1, phi.RawMatrix(), 1, blas64.Symmetric{N: dim, Stride: sr.Stride, Data: sr.Data, Uplo: blas.Lower})
	}
	sr := sigma.RawMatrix()
	mirrorLower(sr)
	for i := range sr.Data {
		sr.Data[i] /= float64(n)
	}
	return mat.NewSymDense(dim, sr.Data), nil
}

// Size returns the number r of eigenfunctions in the basis.
func (b *SSSRBasis) Size() int { return len(b.Values) }

// Transform returns the n x s matrix of the top s eigenfunctions
// psi_1 ... psi_s at the rows of x, in O(n D s) time after the features
// (feature form) or O(n N (d + s)) (kernel form).
func (b *SSSRBasis) Transform(x *mat.Dense, s int) (*mat.Dense, error) {
	m, err := b.coefMap(s)
	if err != nil {
		return nil, err
	}
	if err := checkData(x, nil); err != nil {
		return nil, err
	}
	var a *mat.Dense // features or K(x, pool)
	if b.Features != nil {
		if a, err = b.Features.Features(x); err != nil {
			return nil, err
		}
	} else {
		n, dx := x.Dims()
		N, d := b.Centers.Dims()
		if err := checkDims("x for the SSSR kernel basis", dx, d); err != nil {
			return nil, err
		}
		if err := checkAlloc("SSSR kernel block", n, N); err != nil {
			return nil, err
		}
		a = mat.NewDense(n, N, nil)
		kernelBlock(a, b.Kernel, x, b.Centers, nil, nil)
	}
	ar := a.RawMatrix()
	if err := checkDims("the SSSR basis input", ar.Cols, m.RawMatrix().Rows); err != nil {
		return nil, err
	}
	z := mat.NewDense(ar.Rows, s, nil)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, ar, m.RawMatrix(), 0, z.RawMatrix())
	return z, nil
}

// coefMap returns the D x s (or N x s) matrix M with psi(x) = a(x)^T M, where
// a(x) is phi(x) or k(x, pool): the columns e_i / sqrt(mu_i) or
// u_i / (sqrt(N) mu_i).
func (b *SSSRBasis) coefMap(s int) (*mat.Dense, error) {
	if b == nil || b.Vectors == nil || len(b.Values) == 0 || (b.Features == nil && (b.Kernel == nil || b.Centers == nil)) {
		return nil, emptyf("empty SSSR basis (use NewSSSRBasis)")
	}
	if s <= 0 || s > len(b.Values) {
		return nil, &ParamError{Name: "SSSRConfig.S", Value: s, Want: fmt.Sprintf("1 to %d eigenfunctions, the basis size", len(b.Values))}
	}
	p, _ := b.Vectors.Dims()
	m := mat.NewDense(p, s, nil)
	for i := 0; i < s; i++ {
		c := 1 / math.Sqrt(b.Values[i])
		if b.Features == nil {
			c = 1 / (math.Sqrt(float64(p)) * b.Values[i])
		}
		for j := 0; j < p; j++ {
			m.Set(j, i, c*b.Vectors.At(j, i))
		}
	}
	return m, nil
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
func SSSR(ctx context.Context, x *mat.Dense, y []float64, cfg SSSRConfig) (*Fit, error) {
	if err := checkXY(x, y); err != nil {
		return nil, err
	}
	if cfg.S < 0 {
		return nil, &ParamError{Name: "SSSRConfig.S", Value: cfg.S, Want: "a positive number of eigenfunctions (or zero for all)"}
	}
	if cfg.Lambda < 0 || math.IsNaN(cfg.Lambda) || math.IsInf(cfg.Lambda, 0) {
		return nil, &ParamError{Name: "SSSRConfig.Lambda", Value: cfg.Lambda, Want: "a finite lambda >= 0"}
	}
	fit := &Fit{Method: "SSSR", Lambda: cfg.Lambda, ValRMSE: math.NaN()}
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
		g := mat.NewDense(s, s, nil)
		gr := g.RawMatrix()
		blas64.Syrk(blas.Trans, 1, z.RawMatrix(), 0, blas64.Symmetric{N: s, Stride: gr.Stride, Data: gr.Data, Uplo: blas.Lower})
		mirrorLower(gr)
		b := make([]float64, s)
		blas64.Gemv(blas.Trans, 1, z.RawMatrix(), vec(y), 0, vec(b))
		var ok bool
		if gamma, ok = choleskySolve(g, cfg.Lambda*float64(n), b); !ok {
			return nil, &SingularError{System: "SSSR", Setting: "SSSRConfig.Lambda", Value: fmt.Sprint(cfg.Lambda)}
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
		fit.Model = &Model{Features: basis.Features, Coef: coef}
	} else {
		fit.Model = &Model{Kernel: basis.Kernel, Centers: basis.Centers, Coef: coef}
	}
	pred := make([]float64, n)
	blas64.Gemv(blas.NoTrans, 1, z.RawMatrix(), vec(gamma), 0, vec(pred))
	fit.Path = []PathPoint{{Lambda: cfg.Lambda, TrainRMSE: rmse(pred, y), ValRMSE: math.NaN()}}
	return fit, nil
}

// minNormLeastSquares returns the minimum-norm minimiser of ||a g - y||,
// treating singular values below max(n, s) eps sigma_max as zero.
func minNormLeastSquares(a *mat.Dense, y []float64) ([]float64, error) {
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDThin) {
		return nil, &NumericalError{Method: "SSSR", Op: "the SVD of the design matrix did not converge"}
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
