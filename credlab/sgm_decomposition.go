package credlab

import (
	"context"
	"fmt"
	"math"

	"github.com/credlab/credlab/internal/sgd"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// SGMPopulation stands in for the input distribution rho_X in Lin and
// Rosasco's error decomposition: the empirical measure
// rho_hat = (1/N) sum_i delta_{x_i} of a large sample, with the regression
// function's values F_i = f_rho(x_i) (section 4 uses N = 2000 uniform
// points). Norms below are those of L^2(rho_hat):
// ||f||^2 = (1/N) sum_i f(x_i)^2.
//
// NewSGMPopulation diagonalises K/N once, so that the population iteration
// (13) at any step t costs O(N r) for the r numerically non-zero
// eigenvalues, whatever t.
type SGMPopulation struct {
	kernel Kernel
	x      *mat.Dense
	f      []float64
	vals   []float64  // eigenvalues lambda_i of K/N above the cut-off
	vecs   *mat.Dense // N x r orthonormal eigenvectors
	w      []float64  // V^T F
}

// popCutoff: the part of K/N below popCutoff * max_i k(x_i, x_i) in
// spectral norm is treated as zero (its factor prod_k (1 - eta_k lambda) as
// 1), an error below popCutoff * max k(x,x) * sum_k eta_k relative to F.
const popCutoff = 1e-13

// NewSGMPopulation checks and copies the population points x (N x d) and
// values f = f_rho(x), and diagonalises K(X, X)/N through a pivoted
// Cholesky factorization P^T K P = L L^T stopped at the numerical rank r
// (pivots below popCutoff max k(x,x)) and the eigendecomposition of the
// r x r matrix L^T L / N. Cost: O(N^2 d) for the kernel, O(N^2 r + N r^2)
// for the factorization (r is about 20 for a Gaussian kernel of width 0.2
// on [0,1], at most N), O(N^2) memory.
func NewSGMPopulation(k Kernel, x *mat.Dense, f []float64) (*SGMPopulation, error) {
	if err := checkKernel(k); err != nil {
		return nil, err
	}
	if err := CheckData(x, f); err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	if err := checkAlloc("population kernel matrix", n, n); err != nil {
		return nil, err
	}
	km := mat.NewDense(n, n, nil)
	kernelSym(km, k, x)
	raw := km.RawMatrix()
	maxDiag := 0.0
	for i := 0; i < n; i++ {
		maxDiag = math.Max(maxDiag, raw.Data[i*raw.Stride+i])
	}
	p := &SGMPopulation{kernel: k, x: mat.DenseCopyOf(x), f: append([]float64(nil), f...), vecs: mat.NewDense(n, 1, nil)}
	if !(maxDiag > 0) {
		return p, nil // K = 0: every component has lambda = 0
	}
	piv := make([]int, n)
	_, r, _ := lapack64.Pstrf(blas64.Symmetric{N: n, Stride: raw.Stride, Data: raw.Data, Uplo: blas.Lower},
		piv, popCutoff*maxDiag, make([]float64, 2*n))
	l := mat.NewDense(n, r, nil) // rows in pivot order
	for i := 0; i < n; i++ {
		for j := 0; j < min(i+1, r); j++ {
			l.Set(i, j, raw.Data[i*raw.Stride+j])
		}
	}
	g := mat.NewSymDense(r, nil)
	g.SymOuterK(1/float64(n), l.T())
	var eig mat.EigenSym
	if !eig.Factorize(g, true) {
		return nil, &NumericalError{Op: fmt.Sprintf("the eigendecomposition of the rank-%d population factor failed", r)}
	}
	vals := eig.Values(nil)
	var w mat.Dense
	eig.VectorsTo(&w)
	var keep []int
	for i, v := range vals {
		if v > popCutoff*maxDiag {
			keep = append(keep, i)
		}
	}
	if len(keep) == 0 {
		return p, nil
	}
	// V = P L W diag(1/sqrt(N s)): orthonormal, K/N ~ V diag(s) V^T.
	lw := mat.NewDense(n, r, nil)
	lw.Mul(l, &w)
	p.vecs = mat.NewDense(n, len(keep), nil)
	for c, i := range keep {
		scale := 1 / math.Sqrt(float64(n)*vals[i])
		p.vals = append(p.vals, vals[i])
		for row, orig := range piv {
			p.vecs.Set(orig, c, scale*lw.At(row, i))
		}
	}
	p.w = make([]float64, len(keep))
	blas64.Gemv(blas.Trans, 1, p.vecs.RawMatrix(), vec(p.f), 0, vec(p.w))
	return p, nil
}

// Rank returns r, the number of eigenvalues of K/N kept.
func (p *SGMPopulation) Rank() int { return len(p.vals) }

// SGMDecompositionConfig configures SGMPopulation.Decompose.
type SGMDecompositionConfig struct {
	// SGM gives b and eta (Preset, Batch, StepSize, Decay), the length of
	// the run (Iter, or Passes) and Seed. Its Kernel, Holdout, Threshold,
	// Every, Keep, CacheBytes and Progress are not used: the population's
	// kernel is used and every row trains.
	SGM SGMConfig
	// Iters lists the numbers of steps t, increasing, at which the terms are
	// evaluated; default the end of each pass up to the run's length.
	Iters []int
	// Draws is the number of independent index sequences J averaged for
	// the expectations E_J; default 1. Draw r uses seed SGM.Seed + r.
	Draws int
}

// SGMDecomposition holds the terms of Lin and Rosasco's error
// decomposition (16) along a run, at the iterates after Iter[k] steps
// (omega_{t+1} in the paper's indexing), all squared norms in L^2(rho_hat):
// with omega_t the SGM iterate, nu_t the sample iteration (14) (batch
// gradient descent on the sample, E_J omega_t = nu_t) and mu_t the
// population iteration (13) (gradient descent on rho_hat with labels
// f_rho), for the same step sizes:
//
//	Total       E_J ||omega_t - f_rho||^2
//	Bias        ||mu_t - f_rho||^2
//	SampleVar   ||nu_t - mu_t||^2
//	CompVar     E_J ||omega_t - nu_t||^2
//	SampleTotal ||nu_t - f_rho||^2 (the total error of batch GD, Fig. 1c)
//
// so that Total <= 2 Bias + 2 SampleVar + CompVar in expectation.
type SGMDecomposition struct {
	Iter        []int
	Passes      []float64 // b Iter / m
	Total       []float64
	Bias        []float64
	SampleVar   []float64
	CompVar     []float64
	SampleTotal []float64
	Batch       int     // b (m for SGMBatch)
	StepSize    float64 // eta_1
}

// Decompose runs SGM on the sample (x, y) with every row training and
// returns the decomposition (16) at the chosen iterations. The sample
// iteration is computed in the eigenbasis of K(X, X)/m, O(m^3 + T m)
// (O(m^3 + m |Iters|) with a constant step); the population iteration in
// that of the population, O(N r) per evaluated iteration (plus O(T r) for a
// decaying step); each SGM draw costs O(T b m) with cached rows, and every
// evaluation O(N m). With the SGMBatch preset omega_t = nu_t: no draw is
// run and CompVar is 0.
func (p *SGMPopulation) Decompose(ctx context.Context, x *mat.Dense, y []float64, cfg SGMDecompositionConfig) (*SGMDecomposition, error) {
	if p == nil || p.x == nil {
		return nil, emptyf("no population given (use NewSGMPopulation)")
	}
	if err := CheckData(x, y); err != nil {
		return nil, err
	}
	m, d := x.Dims()
	if dp := p.x.RawMatrix().Cols; dp != d {
		return nil, shapef("population has %d columns, x has %d", dp, d)
	}
	sc := cfg.SGM
	if err := sc.check(); err != nil {
		return nil, err
	}
	if cfg.Draws < 0 {
		return nil, &ParamError{Name: "SGMDecompositionConfig.Draws", Value: cfg.Draws, Want: "a positive number of draws (or zero for 1)"}
	}
	draws := max(cfg.Draws, 1)
	par, err := sc.params("SGM", m, maxKernelDiag(p.kernel, x, nil))
	if err != nil {
		return nil, err
	}
	if par.Full {
		par.B = m
	}
	iters := cfg.Iters
	if len(iters) > 0 {
		for i, t := range iters {
			if t <= 0 || (i > 0 && t <= iters[i-1]) {
				return nil, &ParamError{Name: fmt.Sprintf("SGMDecompositionConfig.Iters[%d]", i), Value: t, Want: "positive, increasing iteration numbers"}
			}
		}
		par.T = iters[len(iters)-1]
	} else {
		for t := 1; t <= par.T; t++ {
			if par.Records(t, m, 0) {
				iters = append(iters, t)
			}
		}
	}
	N := len(p.f)
	kxp := mat.NewDense(N, m, nil) // K(X_pop, X)
	kernelBlock(kxp, p.kernel, p.x, x, nil, nil)
	kmm := mat.NewDense(m, m, nil)
	kernelSym(kmm, p.kernel, x)

	res := &SGMDecomposition{Batch: par.B, StepSize: par.Eta}
	nk := len(iters)
	fnu := mat.NewDense(nk, N, nil) // nu_t on the population, one row per iteration
	alphaNu, err := sampleIteration(kmm, y, par, iters)
	if err != nil {
		return nil, err
	}
	mu := p.populationIteration(par, iters)
	for k, t := range iters {
		f := fnu.RawRowView(k)
		blas64.Gemv(blas.NoTrans, 1, kxp.RawMatrix(), vec(alphaNu[k]), 0, vec(f))
		res.Iter = append(res.Iter, t)
		res.Passes = append(res.Passes, par.Passes(t, m))
		res.Bias = append(res.Bias, meanSqDiff(mu[k], p.f))
		res.SampleVar = append(res.SampleVar, meanSqDiff(f, mu[k]))
		res.SampleTotal = append(res.SampleTotal, meanSqDiff(f, p.f))
	}
	res.Total = make([]float64, nk)
	res.CompVar = make([]float64, nk)
	if par.Full {
		copy(res.Total, res.SampleTotal)
		return res, nil
	}
	eng := sgd.NewGram(kmm, y)
	fw := make([]float64, N)
	for r := 0; r < draws; r++ {
		pr := par
		pr.Seed = par.Seed + uint64(r)
		k := 0
		err := eng.Run(ctx, pr, func(t int, alpha, _ []float64) (bool, error) {
			if t != iters[k] {
				return false, nil
			}
			blas64.Gemv(blas.NoTrans, 1, kxp.RawMatrix(), vec(alpha), 0, vec(fw))
			res.Total[k] += meanSqDiff(fw, p.f) / float64(draws)
			res.CompVar[k] += meanSqDiff(fw, fnu.RawRowView(k)) / float64(draws)
			k++
			return k == nk, nil
		}, nil)
		if err != nil {
			return nil, err
		}
	}
	return res, nil
}

// sampleIteration returns the coefficients of nu_t, gradient descent
// alpha_{t+1} = alpha_t - (eta_t/m) (K alpha_t - y) from 0, after each of
// iters steps, in the eigenbasis K/m = U diag(s) U^T: with c = U^T y, each
// component follows a_{t+1} = (1 - eta_t s) a_t + eta_t c/m.
func sampleIteration(kmm *mat.Dense, y []float64, par sgd.Params, iters []int) ([][]float64, error) {
	m := len(y)
	km := mat.NewSymDense(m, nil)
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			km.SetSym(i, j, kmm.At(i, j)/float64(m))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(km, true) {
		return nil, &NumericalError{Op: fmt.Sprintf("the eigendecomposition of the %d x %d sample kernel matrix failed", m, m)}
	}
	s := eig.Values(nil)
	var u mat.Dense
	eig.VectorsTo(&u)
	c := make([]float64, m)
	blas64.Gemv(blas.Trans, 1, u.RawMatrix(), vec(y), 0, vec(c))
	out := make([][]float64, len(iters))
	a := make([]float64, m)
	if par.Theta == 0 {
		for k, t := range iters {
			for i := range a {
				a[i] = c[i] / float64(m) * par.Eta * geomSum(1-par.Eta*s[i], t)
			}
			out[k] = make([]float64, m)
			blas64.Gemv(blas.NoTrans, 1, u.RawMatrix(), vec(a), 0, vec(out[k]))
		}
		return out, nil
	}
	k := 0
	for t := 1; k < len(iters); t++ {
		eta := par.Step(t)
		for i := range a {
			a[i] = (1-eta*s[i])*a[i] + eta*c[i]/float64(m)
		}
		if t == iters[k] {
			out[k] = make([]float64, m)
			blas64.Gemv(blas.NoTrans, 1, u.RawMatrix(), vec(a), 0, vec(out[k]))
			k++
		}
	}
	return out, nil
}

// geomSum returns sum_{k<t} q^k accurately for q near 1.
func geomSum(q float64, t int) float64 {
	switch {
	case q == 1:
		return float64(t)
	case q > 0:
		return -math.Expm1(float64(t)*math.Log1p(q-1)) / (1 - q)
	}
	return (1 - math.Pow(q, float64(t))) / (1 - q)
}

// populationIteration returns mu_t on the population points after each of
// iters steps of mu_{t+1} = mu_t - eta_t (K/N)(mu_t - F) from 0:
// mu_t = V ((1 - pi_t) o V^T F) with pi_t = prod_{k<=t} (1 - eta_k lambda).
func (p *SGMPopulation) populationIteration(par sgd.Params, iters []int) [][]float64 {
	r := len(p.vals)
	pi := make([]float64, r)
	g := make([]float64, r)
	out := make([][]float64, len(iters))
	eval := func(k int) {
		for i := range g {
			g[i] = (1 - pi[i]) * p.w[i]
		}
		out[k] = make([]float64, len(p.f))
		if r > 0 {
			blas64.Gemv(blas.NoTrans, 1, p.vecs.RawMatrix(), vec(g), 0, vec(out[k]))
		}
	}
	if par.Theta == 0 {
		for k, t := range iters {
			for i, l := range p.vals {
				pi[i] = math.Pow(1-par.Eta*l, float64(t))
			}
			eval(k)
		}
		return out
	}
	for i := range pi {
		pi[i] = 1
	}
	k := 0
	for t := 1; k < len(iters); t++ {
		eta := par.Step(t)
		for i, l := range p.vals {
			pi[i] *= 1 - eta*l
		}
		if t == iters[k] {
			eval(k)
			k++
		}
	}
	return out
}

// meanSqDiff returns (1/n) sum_i (a_i - b_i)^2.
func meanSqDiff(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		d := v - b[i]
		s += d * d
	}
	return s / float64(len(a))
}
