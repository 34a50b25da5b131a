package credlab

import (
	"context"
	"fmt"

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

// Select implements Selector.
func (g GreedySelector) Select(ctx context.Context, pool *mat.Dense, budget int, seed uint64) (*Selection, error) {
	n, err := checkPool(pool, budget)
	if err != nil {
		return nil, err
	}
	_, d := pool.Dims()
	raw := pool.RawMatrix()
	row := func(j int) []float64 { return raw.Data[j*raw.Stride : j*raw.Stride+d] }
	chosen := make([]bool, n)
	sel := &Selection{}
	if err := checkPrevious(g.Previous, n, false); err != nil {
		return nil, err
	}
	var start, startBatch []int
	if g.Previous != nil {
		pb := prevBatch(g.Previous)
		for i, j := range g.Previous.Index {
			if !chosen[j] {
				chosen[j] = true
				start = append(start, j)
				startBatch = append(startBatch, pb[i])
			}
		}
	}
	if left := n - len(start); budget > left {
		return nil, &ParamError{Name: "budget", Value: budget, Want: fmt.Sprintf("at most the %d rows not yet labeled (greedy sampling labels distinct rows)", left)}
	}
	minDist := make([]float64, n)
	for j := range minDist {
		minDist[j] = -1 // infinitely far
	}
	update := func(c int) {
		xc := row(c)
		parallelChunks(n, 4096, func(lo, hi int) {
			for j := lo; j < hi; j++ {
				if dist := sqDist(row(j), xc); minDist[j] < 0 || dist < minDist[j] {
					minDist[j] = dist
				}
			}
		})
	}
	for _, c := range start {
		update(c)
	}
	if len(start) == 0 {
		centroid := make([]float64, d)
		for j := 0; j < n; j++ {
			for k, v := range row(j) {
				centroid[k] += v
			}
		}
		for k := range centroid {
			centroid[k] /= float64(n)
		}
		best, bd := 0, -1.0
		for j := 0; j < n; j++ {
			if dist := sqDist(row(j), centroid); bd < 0 || dist < bd {
				best, bd = j, dist
			}
		}
		chosen[best] = true
		sel.Index = append(sel.Index, best)
		update(best)
	}
	for len(sel.Index) < budget {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		best, bd := -1, -1.0
		for j, v := range minDist {
			if !chosen[j] && v > bd {
				best, bd = j, v
			}
		}
		chosen[best] = true
		sel.Index = append(sel.Index, best)
		update(best)
	}
	if len(start) > 0 {
		sel.Batch = startBatch
		b := prevBatches(g.Previous)
		for range sel.Index {
			sel.Batch = append(sel.Batch, b)
		}
		sel.Index = append(start, sel.Index...)
	}
	sel.Prob = make([]float64, len(sel.Index))
	sel.Weight = make([]float64, len(sel.Index))
	for i := range sel.Index {
		sel.Prob[i], sel.Weight[i] = 1, 1
	}
	return sel, nil
}
