package credlab

import (
	"math"
	"math/rand/v2"
)

// inclusionPath holds the inclusion probabilities pi(m) =
// InclusionProbabilities(q, m) for every sample size m from 0 to the number
// P of rows with q_j > 0: pi_j(m) = 1 for the a(m) rows of largest q
// (capped) and c(m) q_j for the others, with c(m) = (m - a(m)) / T(a(m)),
// T(a) the sum of q beyond the a largest. a(m) is the smallest a <= m at
// which the first uncapped row stays below 1, (m - a) q_(a) < T(a), with
// q_(a) the largest q after the a largest. Both a(m) and c(m) grow with m,
// so pi_j(m) does too. O(N) time (a radix sort) and memory.
type inclusionPath struct {
	q      []float64
	order  []int     // the P rows with q_j > 0, by decreasing q (ties by row)
	qs     []float64 // their q, qs[i] = q[order[i]]
	pos    []int     // pos[j]: row j's place in order, -1 when q_j = 0
	capped []int     // capped[m] = a(m)
	c      []float64 // c[m]; 0 at m = 0, unused at m = P (every row capped)
}

func newInclusionPath(q []float64) *inclusionPath {
	p := &inclusionPath{q: q, pos: make([]int, len(q))}
	p.order, p.qs = sortDecreasing(q)
	P := len(p.order)
	for j := range p.pos {
		p.pos[j] = -1
	}
	for i, j := range p.order {
		p.pos[j] = i
	}
	tail := make([]float64, P+1) // tail[a] = T(a), summed from the smallest q up
	for i := P - 1; i >= 0; i-- {
		tail[i] = tail[i+1] + p.qs[i]
	}
	p.capped = make([]int, P+1)
	p.c = make([]float64, P+1)
	p.capped[P] = P
	a := P
	for m := P - 1; m >= 1; m-- {
		a = min(a, m)
		for a > 0 && float64(m-a+1)*p.qs[a-1] < tail[a-1] {
			a--
		}
		p.capped[m], p.c[m] = a, float64(m-a)/tail[a]
	}
	return p
}

// pi returns pi_j(m).
func (p *inclusionPath) pi(j, m int) float64 {
	switch {
	case p.pos[j] < 0:
		return 0
	case p.pos[j] < p.capped[m]:
		return 1
	}
	return p.c[m] * p.q[j]
}

// ranking returns the P rows with q_j > 0 in an order whose first m rows,
// for every m, are a sample of m distinct rows with inclusion probabilities
// exactly pi(m): the samples are nested, so batches taken in rank order
// add up to a one-shot sample of their total. It runs Tillé's elimination
// procedure (Tillé 1996, Biometrika 83, 238-241) from the whole of the P
// rows down: the step from m rows to m - 1 removes row j of the sample
// with probability r_j = 1 - pi_j(m-1) / pi_j(m), so P(j in sample of m -
// 1) = pi_j(m) (1 - r_j) = pi_j(m-1). The rows of the sample uncapped at m
// share one r = 1 - c(m-1)/c(m) and are removed uniformly; the rows capped
// at m and not at m - 1 (positions a(m-1)..a(m)-1) each have their own r;
// the r of the sample sum to 1. O(N) time after the path and one or two
// random numbers per row; rows are held as int32 (rankedDesign refuses
// larger pools).
func (p *inclusionPath) ranking(rng *rand.Rand) []int {
	P := len(p.order)
	rank := make([]int, P)
	free := make([]int32, 0, P) // sample rows uncapped at the current size
	for m := P; m >= 1; m-- {
		lo, hi := p.capped[m-1], p.capped[m]
		out := -1
		if lo < hi {
			u := rng.Float64()
			for i := lo; i < hi && out < 0; i++ {
				r := 1 - p.c[m-1]*p.qs[i]
				if u < r {
					out = p.order[i]
				}
				u -= r
			}
		}
		switch {
		case out >= 0:
		case len(free) > 0:
			k := rng.IntN(len(free))
			out = int(free[k])
			free[k] = free[len(free)-1]
			free = free[:len(free)-1]
		default: // the r summed below 1 by rounding
			out = p.order[hi-1]
		}
		for i := lo; i < hi; i++ {
			if j := p.order[i]; j != out {
				free = append(free, int32(j))
			}
		}
		rank[m-1] = out
	}
	return rank
}

// sortDecreasing returns the rows j with q_j > 0 by decreasing q_j, ties by
// increasing j, and their q: a least-significant-digit radix sort of the
// complemented bits of q_j, which order positive floats in reverse. O(N)
// time; passes whose digit is the same for every row are skipped.
func sortDecreasing(q []float64) ([]int, []float64) {
	type item struct {
		key uint64
		row int
	}
	n := 0
	for _, v := range q {
		if v > 0 {
			n++
		}
	}
	a, b := make([]item, 0, n), make([]item, n)
	for j, v := range q {
		if v > 0 {
			a = append(a, item{^math.Float64bits(v), j})
		}
	}
	const bits, buckets = 8, 1 << 8
	var count [buckets]int
	for shift := 0; shift < 64 && n > 0; shift += bits {
		clear(count[:])
		for _, it := range a {
			count[it.key>>shift&(buckets-1)]++
		}
		if count[a[0].key>>shift&(buckets-1)] == n {
			continue
		}
		at := 0
		for d, c := range count {
			count[d], at = at, at+c
		}
		for _, it := range a {
			d := it.key >> shift & (buckets - 1)
			b[count[d]] = it
			count[d]++
		}
		a, b = b, a
	}
	order, qs := make([]int, n), make([]float64, n)
	for i, it := range a {
		order[i], qs[i] = it.row, math.Float64frombits(^it.key)
	}
	return order, qs
}
