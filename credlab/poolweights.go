package credlab

import (
	"context"

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
// The distances come from one matrix product per block of pool rows,
// after centering the columns on the pool's mean (so that a large offset
// costs no precision; rows close together far from the mean can still
// lose some, and exact ties are guaranteed only for identical rows). Cost
// O(N n d); memory O(n d) for the scaled labeled rows and blocks of
// max(1, 2^21/(n+d)) pool rows. pool and labeled are not modified. ctx is
// checked between blocks.
func PoolWeights(ctx context.Context, pool, labeled *mat.Dense, k Kernel) ([]float64, error) {
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
	if dk, ok := k.(distKernel); ok {
		if err := checkKernelOn(k, pool); err != nil {
			return nil, err
		}
		if s := dk.columnScales(); s != nil {
			copy(scales, s)
		}
	}
	if err := checkAllocHint("scaled labeled rows", n, d, "label fewer rows or raise the memory limit"); err != nil {
		return nil, err
	}
	mean := make([]float64, d)
	for i := 0; i < N; i++ {
		for j, v := range pool.RawRowView(i) {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(N)
	}
	// into writes rows lo..lo+rows-1 of x, centered and scaled, into dst.
	into := func(dst, x *mat.Dense, lo, rows int) {
		for i := 0; i < rows; i++ {
			r, src := dst.RawRowView(i), x.RawRowView(lo+i)
			for j, v := range src {
				r[j] = (v - mean[j]) * scales[j]
			}
		}
	}
	l := mat.NewDense(n, d, nil)
	into(l, labeled, 0, n)
	ln := make([]float64, n)
	for i := range ln {
		r := l.RawRowView(i)
		for _, v := range r {
			ln[i] += v * v
		}
	}
	block := max(1, min(N, (1<<21)/(n+d)))
	p := mat.NewDense(block, d, nil)
	g := mat.NewDense(block, n, nil)
	count := make([]float64, n)
	for lo := 0; lo < N; lo += block {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rows := min(block, N-lo)
		pb := p.Slice(0, rows, 0, d).(*mat.Dense)
		into(pb, pool, lo, rows)
		gb := g.Slice(0, rows, 0, n).(*mat.Dense)
		gb.Mul(pb, l.T())
		for i := 0; i < rows; i++ {
			// ||p - l_k||^2 - ||p||^2 = ||l_k||^2 - 2 p.l_k: the same argmin.
			row := gb.RawRowView(i)
			best, bk := ln[0]-2*row[0], 0
			for k := 1; k < n; k++ {
				if v := ln[k] - 2*row[k]; v < best {
					best, bk = v, k
				}
			}
			count[bk]++
		}
	}
	w := make([]float64, n)
	for i, c := range count {
		w[i] = float64(n) * (c + 1) / float64(N+n)
	}
	return w, nil
}
