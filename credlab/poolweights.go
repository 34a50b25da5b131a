package credlab

import (
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
// scales; ties go to the lower index) is row i,
// and the +1 keeps every weight positive. The weights average 1, and a
// row in a dense part of the pool that few labeled rows cover weighs
// more. A weighted fit (TuneConfig.Weights) then estimates the pool's
// error in its criteria and fits it in its loss.
//
// Cost O(N n d) in blocks of pool rows against all labeled rows; memory
// O(b n) for a block of b rows. pool and labeled are not modified.
func PoolWeights(pool, labeled *mat.Dense, k Kernel) ([]float64, error) {
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
	var scales []float64
	if dk, ok := k.(distKernel); ok {
		if err := checkKernelOn(k, pool); err != nil {
			return nil, err
		}
		scales = dk.columnScales()
	}
	block := max(1, min(N, (1<<21)/n))
	if err := checkAllocHint("pool-to-labeled distance block", block, n, "label fewer rows or raise the memory limit"); err != nil {
		return nil, err
	}
	if err := checkAlloc("scaled labeled rows", n, d); err != nil {
		return nil, err
	}
	scaled := func(x *mat.Dense, rows int) *mat.Dense {
		s := mat.DenseCopyOf(x)
		if scales != nil {
			for i := 0; i < rows; i++ {
				r := s.RawRowView(i)
				for j := range r {
					r[j] *= scales[j]
				}
			}
		}
		return s
	}
	l := scaled(labeled, n)
	ln := make([]float64, n)
	for i := range ln {
		ln[i] = mat.Dot(l.RowView(i), l.RowView(i))
	}
	count := make([]float64, n)
	g := mat.NewDense(block, n, nil)
	for lo := 0; lo < N; lo += block {
		hi := min(N, lo+block)
		p := scaled(pool.Slice(lo, hi, 0, d).(*mat.Dense), hi-lo)
		gb := g.Slice(0, hi-lo, 0, n).(*mat.Dense)
		gb.Mul(p, l.T())
		for i := 0; i < hi-lo; i++ {
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
