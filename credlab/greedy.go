package credlab

import (
	"context"

	"gonum.org/v1/gonum/mat"
)

// GreedySelector is greedy sampling in the input space, GSx (Wu, Lin and
// Huang 2019, "Active learning for regression using greedy sampling"): the
// first row is the one nearest the pool's centroid, and each next row is
// the one farthest, in Euclidean distance, from all rows chosen so far
// (maximising min_{i chosen} ||x_j - x_i||). It is deterministic (ties go to
// the lowest row; the seed is unused), spreads the labels over the pool,
// and carries no unbiasedness guarantee: every weight is 1 and Prob is 1.
// Rows are distinct, so the budget may not exceed the pool.
//
// It costs O(N budget d) time and O(N) memory beyond the pool.
type GreedySelector struct {
	// Previous, when set, holds rows already labeled: the greedy
	// sequence continues from them and Select returns the union.
	Previous *Selection
}

// Select implements Selector: BatchSelector's MaxDist on the raw columns.
func (g GreedySelector) Select(ctx context.Context, pool *mat.Dense, budget int, seed uint64) (*Selection, error) {
	return BatchSelector{Method: MethodMaxDist, Features: RawFeatures{}, Previous: g.Previous}.Select(ctx, pool, budget, seed)
}
