package baselines

import (
	"context"
	"fmt"
	"math"

	"github.com/credlab/credlab/credlab"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

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
	Features credlab.FeatureMap // feature form; nil in the kernel form
	Kernel   credlab.Kernel     // kernel form; nil in the feature form
	Centers  *mat.Dense         // kernel form: the N pool rows
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
// credlab.RandomFourier or credlab.Nystrom features) is the tractable
// choice.
func NewSSSRBasis(ctx context.Context, cfg SSSRConfig) (*SSSRBasis, error) {
	if cfg.Kernel != nil && cfg.Features != nil {
		return nil, &credlab.ParamError{Name: "SSSRConfig.Features", Value: fmt.Sprintf("%T", cfg.Features), Want: "nil when Kernel is set (set Kernel or Features, not both)"}
	}
	if err := credlab.CheckMatrix(cfg.Pool, "SSSRConfig.Pool"); err != nil {
		return nil, err
	}
	floor := cfg.Floor
	if floor == 0 {
		floor = 1e-10
	}
	if !(floor > 0 && floor < 1) {
		return nil, &credlab.ParamError{Name: "SSSRConfig.Floor", Value: cfg.Floor, Want: "a relative eigenvalue floor in (0, 1) (or zero for 1e-10)"}
	}
	n, _ := cfg.Pool.Dims()
	var sym *mat.SymDense
	basis := &SSSRBasis{}
	if cfg.Kernel != nil {
		if err := cfg.Kernel.Validate(); err != nil {
			return nil, err
		}
		if err := checkAlloc("SSSR pool kernel matrix", n, n); err != nil {
			return nil, err
		}
		km, err := credlab.KernelMatrix(cfg.Kernel, cfg.Pool, nil)
		if err != nil {
			return nil, err
		}
		raw := km.RawMatrix()
		for i := range raw.Data {
			raw.Data[i] /= float64(n)
		}
		sym = mat.NewSymDense(n, raw.Data)
		basis.Kernel, basis.Centers = cfg.Kernel, cfg.Pool
	} else {
		fm := cfg.Features
		if fm == nil {
			fm = credlab.RawFeatures{}
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
		return nil, &credlab.NumericalError{Method: "SSSR", Op: "the eigendecomposition of the pool did not converge"}
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
		return nil, &credlab.DegenerateError{Method: "SSSR", What: "the pool's " + what + " is zero; no eigenfunctions"}
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
func featureCovariance(ctx context.Context, fm credlab.FeatureMap, x *mat.Dense, block int) (*mat.SymDense, error) {
	if block < 0 {
		return nil, &credlab.ParamError{Name: "Block", Value: block, Want: "a positive number of rows (or zero for DefaultBlock)"}
	}
	if block == 0 {
		block = credlab.DefaultBlock
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
		syrkLower(sigma, phi, 1)
	}
	mirrorLower(sigma)
	sr := sigma.RawMatrix()
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
	if err := credlab.CheckMatrix(x, "x"); err != nil {
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
		if a, err = credlab.KernelMatrix(b.Kernel, x, b.Centers); err != nil {
			return nil, err
		}
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
		return nil, fmt.Errorf("%w: empty SSSR basis (use NewSSSRBasis)", credlab.ErrEmpty)
	}
	if s <= 0 || s > len(b.Values) {
		return nil, &credlab.ParamError{Name: "SSSRConfig.S", Value: s, Want: fmt.Sprintf("1 to %d eigenfunctions, the basis size", len(b.Values))}
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
