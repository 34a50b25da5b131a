package credlab

import (
	"context"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// KOLSConfig configures kernel ordinary least squares.
type KOLSConfig struct {
	// Kernel is k; nil means GaussianKernel with Sigma = MedianDistance(x),
	// the median heuristic.
	Kernel Kernel
	// Tol is the relative pivot tolerance that sets the numerical rank of K;
	// default DefaultNystromTol.
	Tol float64
}

// KOLS fits the pseudo-inverse solution alpha = K^+ y (eq. 3 of the NYTRO
// paper) on all rows. With P^T K P = L L^T the rank-revealing pivoted
// Cholesky factorization (L n x r, kept in K's storage), K^+ = P L
// (L^T L)^-2 L^T P^T. It costs O(n^2 d + n^2 r) time and n^2 + r^2
// values of memory.
func KOLS(ctx context.Context, x *mat.Dense, y []float64, cfg KOLSConfig) (*Fit, error) {
	cfg.Kernel = defaultKernel(cfg.Kernel, x)
	if err := checkXY(x, y); err != nil {
		return nil, err
	}
	if err := checkKernelOn(cfg.Kernel, x); err != nil {
		return nil, err
	}
	tol := cfg.Tol
	if tol == 0 {
		tol = DefaultNystromTol
	}
	if err := checkPositive("KOLS tolerance", tol); err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	if err := checkAlloc("kernel matrix", n, n); err != nil {
		return nil, err
	}
	fit := &Fit{Method: "KOLS", ValRMSE: math.NaN()}
	t0 := time.Now()
	k := mat.NewDense(n, n, nil)
	kernelSym(k, cfg.Kernel, x)
	fit.Timing.Kernel = time.Since(t0)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t0 = time.Now()
	piv, r, err := pivotedCholesky(k, tol, "kernel matrix")
	if err != nil {
		return nil, err
	}
	raw := k.RawMatrix()
	// L: the first r columns of the lower factor, in place (Pstrf leaves
	// K's upper triangle, cleared here).
	for i := 0; i < r; i++ {
		clear(raw.Data[i*raw.Stride+i+1 : i*raw.Stride+r])
	}
	l := blas64.General{Rows: n, Cols: r, Stride: raw.Stride, Data: raw.Data}
	if err := checkAlloc("Gram matrix L^T L of the rank-r factor", r, r); err != nil {
		return nil, err
	}
	yp := make([]float64, n)
	for i, p := range piv {
		yp[i] = y[p]
	}
	g := mat.NewDense(r, r, nil) // L^T L
	gr := g.RawMatrix()
	blas64.Syrk(blas.Trans, 1, l, 0, blas64.Symmetric{N: r, Stride: gr.Stride, Data: gr.Data, Uplo: blas.Lower})
	u := make([]float64, r)
	blas64.Gemv(blas.Trans, 1, l, vec(yp), 0, vec(u))
	t, ok := potrfLower(blas64.Symmetric{N: r, Stride: gr.Stride, Data: gr.Data, Uplo: blas.Lower})
	if !ok {
		return nil, &ParamError{Name: "KOLS tolerance", Value: tol, Want: fmt.Sprintf("a larger tolerance (Tol): the rank-%d factor is singular at this one", r)}
	}
	ub := blas64.General{Rows: r, Cols: 1, Stride: 1, Data: u}
	lapack64.Potrs(t, ub)
	lapack64.Potrs(t, ub)
	ap := make([]float64, n)
	blas64.Gemv(blas.NoTrans, 1, l, vec(u), 0, vec(ap))
	alpha := make([]float64, n)
	for i, p := range piv {
		alpha[p] = ap[i]
	}
	fit.Timing.Solve = time.Since(t0)
	fit.Rank = r
	// In-sample predictions: K alpha = P L L^T alpha_p.
	lt := make([]float64, r)
	blas64.Gemv(blas.Trans, 1, l, vec(ap), 0, vec(lt))
	pp := make([]float64, n)
	blas64.Gemv(blas.NoTrans, 1, l, vec(lt), 0, vec(pp))
	fit.Path = []PathPoint{{TrainRMSE: rmse(pp, yp), ValRMSE: math.NaN()}}
	fit.Model = &Model{Kernel: cfg.Kernel, Centers: mat.DenseCopyOf(x), Coef: alpha}
	return fit, nil
}
