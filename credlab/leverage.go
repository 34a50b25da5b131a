package credlab

import (
	"context"
	"strconv"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// LeverageScores returns the contribution of each row of x to the
// effective dimension, s_j = ||Sigma_{N,lambda}^-1/2 K_{x_j}||^2, computed
// through the identity s_j = N [K (K + N lambda I)^-1]_jj = N (1 - N lambda
// [(K + N lambda I)^-1]_jj). Their sum is N times the effective dimension.
//
// It costs one N x N kernel matrix, one Cholesky factorization and one
// triangular inverse, O(N^2 d + 2 N^3/3) time, and O(N^2) memory: a few
// seconds for N in the thousands, minutes for tens of thousands. Use
// FeatureLeverageScores for larger pools.
func LeverageScores(ctx context.Context, k Kernel, x *mat.Dense, lambda float64) ([]float64, error) {
	if err := checkKernel(k); err != nil {
		return nil, err
	}
	if err := checkData(x, nil); err != nil {
		return nil, err
	}
	if err := checkPositive("lambda_q", lambda); err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	if err := checkAlloc("kernel matrix", n, n); err != nil {
		return nil, err
	}
	km := mat.NewDense(n, n, nil)
	kernelSym(km, k, x)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	mu := float64(n) * lambda
	raw := km.RawMatrix()
	for i := 0; i < n; i++ {
		raw.Data[i*raw.Stride+i] += mu
	}
	t, ok := potrfLower(blas64.Symmetric{N: n, Stride: raw.Stride, Data: raw.Data, Uplo: blas.Lower})
	if !ok || !trtriLower(t) {
		return nil, &SingularError{System: "K + N lambda_q I", Setting: "lambda_q", Value: strconv.FormatFloat(lambda, 'g', -1, 64)}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// [(K + mu I)^-1]_jj = ||column j of L^-1||^2, summed in a fixed order.
	inv := make([]float64, n)
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+i+1]
		for j, v := range row {
			inv[j] += v * v
		}
	}
	s := make([]float64, n)
	for j, v := range inv {
		s[j] = max(0, float64(n)*(1-mu*v))
	}
	return s, nil
}

// DefaultBlock is the number of pool rows FeatureLeverageScores holds at once.
const DefaultBlock = 4096

// FeatureLeverageScores returns s_j = phi_j^T (Phi^T Phi / N + lambda I)^-1
// phi_j for the features phi_j = fm(x_j), the random-features scores of the
// CRED paper's Algorithm 2 (line 3), for any feature map.
//
// It streams over the pool in blocks of block rows (default DefaultBlock),
// so memory is O(D^2 + block D) whatever N; the features are computed twice.
// Time is O(N D^2) for the two passes (a symmetric rank-k update, then a
// triangular solve) plus twice the feature cost.
func FeatureLeverageScores(ctx context.Context, fm FeatureMap, x *mat.Dense, lambda float64, block int) ([]float64, error) {
	if fm == nil {
		return nil, &ParamError{Name: "fm", Value: nil, Want: "a feature map"}
	}
	if err := checkData(x, nil); err != nil {
		return nil, err
	}
	if err := checkPositive("lambda_q", lambda); err != nil {
		return nil, err
	}
	if block < 0 {
		return nil, blockError(block)
	}
	if block == 0 {
		block = DefaultBlock
	}
	n, d := x.Dims()
	var (
		sigma *mat.Dense
		dim   int
	)
	blocks := func(f func(lo, hi int, phi *mat.Dense) error) error {
		for lo := 0; lo < n; lo += block {
			if err := ctx.Err(); err != nil {
				return err
			}
			hi := min(lo+block, n)
			phi, err := mapFeatures(fm, x.Slice(lo, hi, 0, d).(*mat.Dense), dim)
			if err != nil {
				return err
			}
			if err := f(lo, hi, phi); err != nil {
				return err
			}
		}
		return nil
	}
	// Pass 1: Sigma = Phi^T Phi, accumulated in the lower triangle.
	err := blocks(func(_, _ int, phi *mat.Dense) error {
		if sigma == nil {
			dim = phi.RawMatrix().Cols
			if err := checkAlloc("feature covariance", dim, dim); err != nil {
				return err
			}
			sigma = mat.NewDense(dim, dim, nil)
		}
		sr := sigma.RawMatrix()
		blas64.Syrk(blas.Trans, 1, phi.RawMatrix(), 1, blas64.Symmetric{N: dim, Stride: sr.Stride, Data: sr.Data, Uplo: blas.Lower})
		return nil
	})
	if err != nil {
		return nil, err
	}
	sr := sigma.RawMatrix()
	for i := 0; i < dim; i++ {
		row := sr.Data[i*sr.Stride : i*sr.Stride+i+1]
		for j := range row {
			row[j] /= float64(n)
		}
		row[i] += lambda
	}
	t, ok := potrfLower(blas64.Symmetric{N: dim, Stride: sr.Stride, Data: sr.Data, Uplo: blas.Lower})
	if !ok {
		return nil, &SingularError{System: "Phi^T Phi / N + lambda_q I", Setting: "lambda_q", Value: strconv.FormatFloat(lambda, 'g', -1, 64)}
	}
	// Pass 2: s_j = ||L^-1 phi_j||^2.
	s := make([]float64, n)
	err = blocks(func(lo, _ int, phi *mat.Dense) error {
		pr := mat.DenseCopyOf(phi).RawMatrix() // phi may be a view of x (an identity map): Trsm overwrites it
		// Rows are independent: solve fixed-size row ranges on all cores.
		parallelChunks(pr.Rows, 256, func(a, b int) {
			sub := blas64.General{Rows: b - a, Cols: pr.Cols, Stride: pr.Stride, Data: pr.Data[a*pr.Stride:]}
			blas64.Trsm(blas.Right, blas.Trans, 1, t, sub)
			for i := a; i < b; i++ {
				r := pr.Data[i*pr.Stride : i*pr.Stride+pr.Cols]
				s[lo+i] = dot(r, r)
			}
		})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}
