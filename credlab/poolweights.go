package credlab

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// PoolWeights returns importance weights that make labeled rows chosen by
// a method that is not a probability sample (a BatchSelector) stand for
// the pool they were chosen from: nearest-neighbour weighting (Loog,
// "Nearest neighbor-based importance weighting", IEEE MLSP 2012). Row i of
// labeled gets
//
//	w_i = n (c_i + 1) / (N + n),
//
// where c_i counts the N pool rows whose nearest labeled row (Euclidean
// distance after multiplying the columns by k's column scales, as
// GaussianKernel.Scales; the columns as given for a nil k or one without
// scales; ties go to the lower index) is row i, and the +1 is Loog's
// Laplace correction, which keeps every weight positive. The weights
// average 1, and a row in a dense part of the pool that few labeled rows
// cover weighs more. When the labeled rows are pool rows, as a selection's
// are, each counts itself in c_i too, which pulls the weights a little
// towards 1 (measured so: docs/labeling.md). A weighted fit
// (TuneConfig.Weights) then estimates the pool's error in its criteria
// and fits it in its loss.
//
// The distances come from the blocked products of LCMD's nearest-center
// search (nearestOf), after centering the columns on the pool's mean (so
// that a large offset costs no precision; rows close together far from
// the mean can still lose some, and exact ties are guaranteed only for
// identical rows). Cost O(N n d); memory O(N d) for the centered and
// scaled pool and O(256 n) per block of rows. pool and labeled are not
// modified; ctx is checked before and after the search.
func PoolWeights(ctx context.Context, pool, labeled *mat.Dense, k Kernel) ([]float64, error) {
	c, err := nearestCounts(ctx, pool, labeled, k, pool)
	if err != nil {
		return nil, err
	}
	N, _ := pool.Dims()
	return PoolWeightsFromCounts(c, N)
}

// PoolWeightsFromCounts returns PoolWeights from the counts c_i of
// NearestCounts, summed over the shards of a pool of N rows:
// w_i = n (c_i + 1) / (N + n) for the n labeled rows. The counts must be
// at least 0 and sum to N (every pool row has one nearest labeled row).
func PoolWeightsFromCounts(counts []int, N int) ([]float64, error) {
	n, sum := len(counts), 0
	if n == 0 {
		return nil, &ParamError{Name: "counts", Value: "none", Want: "the counts of at least one labeled row"}
	}
	for i, c := range counts {
		if c < 0 {
			return nil, &ParamError{Name: fmt.Sprintf("counts[%d]", i), Value: c, Want: "a count of pool rows, 0 or more"}
		}
		sum += c
	}
	if sum != N {
		return nil, &ParamError{Name: "N", Value: N, Want: fmt.Sprintf("the pool's rows, the sum %d of the counts of %d labeled rows", sum, n)}
	}
	w := make([]float64, n)
	for i, c := range counts {
		w[i] = float64(n) * (float64(c) + 1) / float64(N+n)
	}
	return w, nil
}

// NearestCounts returns c_i, the number of rows of pool whose nearest
// labeled row is row i, in PoolWeights's distance (the columns multiplied
// by k's column scales; ties to the lower index). The distances are taken
// about the labeled rows' mean, which every shard of a pool shares, so
// the counts of the shards add up to the pool's even where distances tie
// (rows of integer or one-hot columns); PoolWeights, about the pool's
// mean, can break such ties otherwise. Cost O(N n d); pool and labeled are
// not modified.
func NearestCounts(ctx context.Context, pool, labeled *mat.Dense, k Kernel) ([]int, error) {
	return nearestCounts(ctx, pool, labeled, k, labeled)
}

// nearestCounts is NearestCounts with the distances taken about the mean
// of the rows of about (pool or labeled): the blocked products lose no
// precision to a large common offset.
func nearestCounts(ctx context.Context, pool, labeled *mat.Dense, k Kernel, about *mat.Dense) ([]int, error) {
	if err := CheckMatrix(pool, "pool"); err != nil {
		return nil, err
	}
	if err := CheckMatrix(labeled, "labeled"); err != nil {
		return nil, err
	}
	N, d := pool.Dims()
	n, dl := labeled.Dims()
	if dl != d {
		return nil, shapef("the pool has %d columns but the labeled rows have %d", d, dl)
	}
	scales := make([]float64, d)
	for j := range scales {
		scales[j] = 1
	}
	if s, ok := kernelScales(k); ok {
		if err := checkKernelOn(k, pool); err != nil {
			return nil, err
		}
		if s != nil {
			copy(scales, s)
		}
	}
	if err := checkAllocHint("scaled pool rows", N+n, d, "select on fewer columns or raise the memory limit"); err != nil {
		return nil, err
	}
	mean := make([]float64, d)
	na, _ := about.Dims()
	for i := 0; i < na; i++ {
		for j, v := range about.RawRowView(i) {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(na)
	}
	scaled := func(x *mat.Dense) *mat.Dense {
		r, _ := x.Dims()
		out := mat.NewDense(r, d, nil)
		for i := 0; i < r; i++ {
			dst := out.RawRowView(i)
			for j, v := range x.RawRowView(i) {
				dst[j] = (v - mean[j]) * scales[j]
			}
		}
		return out
	}
	p, l := scaled(pool), scaled(labeled)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	minD, owner := make([]float64, N), make([]int, N)
	for i := range minD {
		minD[i] = math.Inf(1)
	}
	nearestRows(p, l, minD, owner)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	count := make([]int, n)
	for _, o := range owner {
		count[o]++
	}
	return count, nil
}
