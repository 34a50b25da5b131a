package credlab

import (
	"context"
	"github.com/credlab/credlab/internal/parallel"
	"github.com/credlab/credlab/internal/vecmath"
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
	if err := checkKernelOn(k, x); err != nil {
		return nil, err
	}
	if err := CheckData(x, nil); err != nil {
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
// It streams over the pool twice: pass 1 accumulates Phi^T Phi in
// GramStats (blocks of at most DefaultBlock rows and 32 MiB), pass 2 scores
// blocks of block rows (default DefaultBlock) against its factor
// (LeverageFactor), so memory is O(D^2 + block D) whatever N; the features
// are computed twice.
// Time is O(N D^2) for the two passes (a symmetric rank-k update, then a
// triangular solve) plus twice the feature cost.
func FeatureLeverageScores(ctx context.Context, fm FeatureMap, x *mat.Dense, lambda float64, block int) ([]float64, error) {
	if fm == nil {
		return nil, &ParamError{Name: "fm", Value: nil, Want: "a feature map"}
	}
	if err := CheckData(x, nil); err != nil {
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
	_, d := x.Dims()
	f0, err := mapFeatures(fm, x.Slice(0, 1, 0, d).(*mat.Dense), 0)
	if err != nil {
		return nil, err
	}
	// Pass 1: Phi^T Phi.
	g, err := NewGramStats(f0.RawMatrix().Cols)
	if err != nil {
		return nil, err
	}
	if err := g.addRows(ctx, x, nil, nil, nil, mapInto(fm, g.Dim)); err != nil { // x checked above
		return nil, err
	}
	f, err := NewLeverageFactor(g, lambda)
	if err != nil {
		return nil, err
	}
	// Pass 2: the scores.
	return f.scores(ctx, fm, x, block) // x checked above
}

// LeverageFactor is the Cholesky factor L of Phi^T Phi / N + lambda I
// (lower, Dim x Dim, row-major), against which FeatureLeverageScores scores
// rows: s_j = ||L^-1 phi_j||^2. Its fields are exported so that it can be
// serialized (the Beam module broadcasts it to the workers).
type LeverageFactor struct {
	Dim    int
	Rows   int // N
	Lambda float64
	L      []float64
}

// NewLeverageFactor factors Phi^T Phi / N + lambda I from the statistics
// of the pool's N rows (their H; B and YY are not used): O(D^3/3).
func NewLeverageFactor(pool *GramStats, lambda float64) (*LeverageFactor, error) {
	if err := pool.check("pool"); err != nil {
		return nil, err
	}
	if pool.Rows == 0 {
		return nil, emptyf("Gram statistics of an empty pool")
	}
	if err := checkPositive("lambda_q", lambda); err != nil {
		return nil, err
	}
	dim, n := pool.Dim, float64(pool.Rows)
	l := make([]float64, dim*dim)
	for i := 0; i < dim; i++ {
		for j, v := range pool.H[i*dim : i*dim+i+1] {
			l[i*dim+j] = v / n
		}
		l[i*dim+i] += lambda
	}
	if _, ok := potrfLower(blas64.Symmetric{N: dim, Stride: dim, Data: l, Uplo: blas.Lower}); !ok {
		return nil, &SingularError{System: "Phi^T Phi / N + lambda_q I", Setting: "lambda_q", Value: strconv.FormatFloat(lambda, 'g', -1, 64)}
	}
	return &LeverageFactor{Dim: dim, Rows: pool.Rows, Lambda: lambda, L: l}, nil
}

// Scores returns s_j = ||L^-1 phi_j||^2 for the rows of x mapped by fm, in
// blocks of block rows (0 means DefaultBlock): O(n D^2) plus the map's
// cost, O(block D) memory. Rows are independent, so shards of a pool can
// be scored separately against the same factor.
func (f *LeverageFactor) Scores(ctx context.Context, fm FeatureMap, x *mat.Dense, block int) ([]float64, error) {
	if f == nil || f.Dim <= 0 || len(f.L) != f.Dim*f.Dim {
		return nil, &ParamError{Name: "LeverageFactor", Value: nil, Want: "a factor from NewLeverageFactor"}
	}
	if fm == nil {
		return nil, &ParamError{Name: "fm", Value: nil, Want: "a feature map"}
	}
	if err := CheckData(x, nil); err != nil {
		return nil, err
	}
	if block < 0 {
		return nil, blockError(block)
	}
	if block == 0 {
		block = DefaultBlock
	}
	return f.scores(ctx, fm, x, block)
}

// scores is Scores on checked inputs (x finite, block > 0).
func (f *LeverageFactor) scores(ctx context.Context, fm FeatureMap, x *mat.Dense, block int) ([]float64, error) {
	n, d := x.Dims()
	t := blas64.Triangular{N: f.Dim, Stride: f.Dim, Data: f.L, Uplo: blas.Lower, Diag: blas.NonUnit}
	s := make([]float64, n)
	for lo := 0; lo < n; lo += block {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		phi, err := mapFeatures(fm, x.Slice(lo, min(lo+block, n), 0, d).(*mat.Dense), f.Dim)
		if err != nil {
			return nil, err
		}
		pr := mat.DenseCopyOf(phi).RawMatrix() // phi may be a view of x (an identity map): Trsm overwrites it
		// Rows are independent: solve fixed-size row ranges on all cores.
		parallel.Chunks(pr.Rows, 256, func(a, b int) {
			sub := blas64.General{Rows: b - a, Cols: pr.Cols, Stride: pr.Stride, Data: pr.Data[a*pr.Stride:]}
			blas64.Trsm(blas.Right, blas.Trans, 1, t, sub)
			for i := a; i < b; i++ {
				r := pr.Data[i*pr.Stride : i*pr.Stride+pr.Cols]
				s[lo+i] = vecmath.Dot(r, r)
			}
		})
	}
	return s, nil
}
