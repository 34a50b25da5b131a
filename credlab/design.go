package credlab

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// Design says how a Selector turns its sampling distribution q over the N
// pool rows into rows to label. Every design returns weights w_i such that
// the weighted risk (1/n) sum_i w_i l(x_i), over the n rows it returns, is an
// unbiased estimate of the pool risk (1/N) sum_j l(x_j) for every fixed loss
// l; this is the normalisation the weighted fitters (KRLS's lambda n I)
// expect, and the weights average about 1.
type Design int

const (
	// WithReplacement is the CRED paper's design: budget independent draws
	// from q, each a row of the Selection (a row drawn twice appears twice),
	// weighted 1/(N q_j).
	WithReplacement Design = iota
	// DistinctRows makes the same budget independent draws, but returns
	// each distinct row once (n <= budget labels), with its draw count c_j
	// in Selection.Count and its weight n c_j / (budget N q_j): the fit is
	// the with-replacement fit, paid for once per distinct row.
	DistinctRows
	// WithoutReplacement draws exactly budget distinct rows with inclusion
	// probabilities pi_j proportional to q (InclusionProbabilities), by the
	// ordered pivotal method of Deville and Tillé (1998) in a random order,
	// and weights them by Horvitz-Thompson, w_j = n / (N pi_j).
	WithoutReplacement
)

func (d Design) String() string {
	switch d {
	case WithReplacement:
		return "with replacement"
	case DistinctRows:
		return "distinct rows"
	case WithoutReplacement:
		return "without replacement"
	}
	return fmt.Sprintf("Design(%d)", int(d))
}

// InclusionProbabilities returns pi_j = min(1, c q_j) with c chosen so that
// sum_j pi_j = n: rows whose share would exceed 1 are capped at 1 (always
// labeled) and the rest rescaled, until no row exceeds 1. Rows with q_j = 0
// get pi_j = 0, so n may not exceed the number of rows with q_j > 0 (a
// *ParamError named "budget"). O(N) per capping round; rounds stop after at most n.
func InclusionProbabilities(q []float64, n int) ([]float64, error) {
	if err := checkProbs("q", q); err != nil {
		return nil, err
	}
	pos := 0
	for _, v := range q {
		if v > 0 {
			pos++
		}
	}
	if n <= 0 {
		return nil, &ParamError{Name: "budget", Value: n, Want: "a positive number of labels"}
	}
	if n > pos {
		return nil, &ParamError{Name: "budget", Value: n, Want: fmt.Sprintf("at most the %d rows with positive probability (sampling without replacement labels each row once)", pos)}
	}
	pi := make([]float64, len(q))
	capped := make([]bool, len(q))
	ncap := 0
	for {
		rest := 0.0
		for j, v := range q {
			if !capped[j] {
				rest += v
			}
		}
		c := float64(n-ncap) / rest
		more := false
		for j, v := range q {
			if !capped[j] && c*v >= 1 {
				capped[j], more = true, true
				ncap++
			}
		}
		if more && ncap < n {
			continue
		}
		for j, v := range q {
			if capped[j] {
				pi[j] = 1
			} else if ncap < n {
				pi[j] = c * v
			}
		}
		return pi, nil
	}
}

// pivotalSample draws a sample of size sum(pi) (an integer up to rounding)
// with inclusion probabilities pi by the ordered pivotal method: units are
// visited in a random order and each duel between the pending fractional
// unit a and the next unit b settles one of them to 0 or 1, keeping the
// expected inclusion of each. O(N) time. The chosen rows are returned in
// increasing order.
func pivotalSample(pi []float64, rng *rand.Rand) []int {
	var chosen []int
	pending, a := -1, 0.0
	for _, j := range rng.Perm(len(pi)) {
		b := pi[j]
		switch {
		case b >= 1:
			chosen = append(chosen, j)
			continue
		case b <= 0:
			continue
		case pending < 0:
			pending, a = j, b
			continue
		}
		if a+b < 1 {
			// One of the two gets a+b, the other 0.
			if rng.Float64()*(a+b) >= a {
				pending = j
			}
			a += b
		} else {
			// One of the two is chosen, the other keeps a+b-1.
			if rng.Float64()*(2-a-b) < 1-b {
				chosen = append(chosen, pending)
				pending = j
			} else {
				chosen = append(chosen, j)
			}
			a += b - 1
			if a <= 0 {
				pending = -1
			}
		}
	}
	if pending >= 0 && a > 0.5 { // a is 0 or 1 up to rounding
		chosen = append(chosen, pending)
	}
	sort.Ints(chosen)
	return chosen
}

// SampleDesign draws budget rows from the distribution q over the N pool
// rows with design d, seeded by seed. scores (may be nil) are stored in the
// Selection. With prev a Selection of the same design and q, it continues
// it as a next batch and returns the union (prev's rows first, then the new
// batch; Selection.Batch numbers them):
//
//   - WithReplacement: budget more independent draws; the union is exactly
//     a one-shot draw of all the draws, weights unchanged.
//   - DistinctRows: budget more draws; a row drawn again only raises its
//     count, and the weights n c_j / (B N q_j) are recomputed for the union
//     of B draws, which is again a one-shot draw of B.
//   - WithoutReplacement: batch k draws n_k rows without replacement from
//     the rows not yet labeled, R_k, with pi^(k) proportional to q on R_k
//     (InclusionProbabilities of q restricted to R_k). Each batch gives an
//     unbiased estimate of the pool total given the earlier batches, T_k =
//     sum_{labeled before k} l_j + sum_{batch k} l_j / pi^(k)_j, and the
//     union's weights are those of T = sum_k (n_k / n) T_k: a row of batch
//     l gets w_j = (n_l / pi^(l)_j + sum_{k > l} n_k) / N. "Correct" means
//     exactly this: (1/n) sum_i w_i l(x_i) over the n labeled rows is an
//     unbiased estimate of the pool risk, for every fixed l, over the draws
//     of all batches (the weights are not those of a one-shot draw of n
//     rows, whose inclusion probabilities differ). Selection.Prob holds
//     pi^(l)_j of each row's own batch.
//
// A prev row outside the pool, a row twice in a WithoutReplacement prev, or
// a budget above the rows left with positive probability is a *ParamError
// (Name "previous row" or "budget").
func SampleDesign(q, scores []float64, budget int, d Design, prev *Selection, seed uint64) (*Selection, error) {
	n := len(q)
	if n == 0 {
		return nil, emptyf("no sampling probabilities (q is empty)")
	}
	if err := checkProbs("q", q); err != nil {
		return nil, err
	}
	if budget <= 0 {
		return nil, &ParamError{Name: "budget", Value: budget, Want: "a positive number of labels"}
	}
	if err := checkPrevious(prev, n, true); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x73656c))
	switch d {
	case WithReplacement, DistinctRows:
		return drawDesign(q, scores, budget, d, prev, rng)
	case WithoutReplacement:
		return pivotalDesign(q, scores, budget, prev, rng)
	}
	return nil, &ParamError{Name: "Design", Value: d, Want: "WithReplacement, DistinctRows or WithoutReplacement"}
}

// drawDesign makes budget independent draws from q (continuing prev).
func drawDesign(q, scores []float64, budget int, d Design, prev *Selection, rng *rand.Rand) (*Selection, error) {
	n := len(q)
	cum := make([]float64, n)
	acc := 0.0
	for j, v := range q {
		acc += v
		cum[j] = acc
	}
	draws := make([]int, budget)
	for i := range draws {
		u := rng.Float64() * acc
		j := min(sort.Search(n, func(j int) bool { return cum[j] > u }), n-1)
		if w := 1 / float64(n) / q[j]; !(q[j] > 0) || math.IsInf(w, 0) {
			return nil, &ParamError{Name: fmt.Sprintf("q[%d]", j), Value: q[j], Want: "a sampling probability whose importance weight 1/(N q) is finite"}
		}
		draws[i] = j
	}
	sel := &Selection{Q: q, Scores: scores}
	batch := 0
	if prev != nil {
		batch = prevBatches(prev)
		sel.Index = append(sel.Index, prev.Index...)
		sel.Batch = append(sel.Batch, prevBatch(prev)...)
		if d == DistinctRows {
			sel.Count = append(sel.Count, prevCount(prev)...)
		}
	}
	if d == WithReplacement {
		for _, j := range draws {
			sel.Index = append(sel.Index, j)
			if prev != nil {
				sel.Batch = append(sel.Batch, batch)
			}
		}
		for _, j := range sel.Index {
			sel.Prob = append(sel.Prob, q[j])
			sel.Weight = append(sel.Weight, 1/float64(n)/q[j]) // exactly 1 for q[j] = 1/N; N * fl(1/N) is not 1 for N = 49
		}
		return sel, nil
	}
	pos := map[int]int{}
	for i, j := range sel.Index {
		pos[j] = i
	}
	for _, j := range draws {
		if i, ok := pos[j]; ok {
			sel.Count[i]++
			continue
		}
		pos[j] = len(sel.Index)
		sel.Index = append(sel.Index, j)
		sel.Count = append(sel.Count, 1)
		sel.Batch = append(sel.Batch, batch)
	}
	total := 0
	for _, c := range sel.Count {
		total += c
	}
	nd := float64(len(sel.Index))
	for i, j := range sel.Index {
		sel.Prob = append(sel.Prob, q[j])
		sel.Weight = append(sel.Weight, nd*float64(sel.Count[i])/(float64(total)*float64(n)*q[j]))
	}
	if prev == nil {
		sel.Batch = nil
	}
	return sel, nil
}

// pivotalDesign draws budget distinct rows by the pivotal method among the
// rows not in prev, and weights the union as SampleDesign states.
func pivotalDesign(q, scores []float64, budget int, prev *Selection, rng *rand.Rand) (*Selection, error) {
	n := len(q)
	rest := q
	batch := 0
	if prev != nil {
		rest = append([]float64(nil), q...)
		for _, j := range prev.Index {
			if rest[j] < 0 {
				return nil, &ParamError{Name: "previous row", Value: j, Want: "each row once (it is twice in the previous selection; a design without replacement labels a row once)"}
			}
			rest[j] = -1
		}
		for j := range rest {
			rest[j] = max(rest[j], 0)
		}
		batch = prevBatches(prev)
	}
	pi, err := InclusionProbabilities(rest, budget)
	if err != nil {
		if pe, ok := err.(*ParamError); ok && pe.Name == "budget" && prev != nil {
			pe.Want = fmt.Sprintf("at most the %d rows with positive probability not yet labeled (%d rows are labeled already)", len(pi0(rest)), len(prev.Index))
		}
		return nil, err
	}
	rows := pivotalSample(pi, rng)
	if len(rows) != budget {
		return nil, fmt.Errorf("credlab: the pivotal method drew %d rows for a budget of %d (inclusion probabilities sum to %v)", len(rows), budget, sum(pi))
	}
	sel := &Selection{Q: q, Scores: scores}
	if prev != nil {
		sel.Index = append(sel.Index, prev.Index...)
		sel.Prob = append(sel.Prob, prev.Prob...)
		sel.Batch = append(sel.Batch, prevBatch(prev)...)
	}
	for _, j := range rows {
		if math.IsInf(1/(float64(n)*pi[j]), 0) {
			return nil, &ParamError{Name: fmt.Sprintf("q[%d]", j), Value: q[j], Want: fmt.Sprintf("a sampling probability whose inclusion probability (%v) gives a finite importance weight 1/(N pi)", pi[j])}
		}
		sel.Index = append(sel.Index, j)
		sel.Prob = append(sel.Prob, pi[j])
		if prev != nil {
			sel.Batch = append(sel.Batch, batch)
		}
	}
	if prev == nil {
		sel.Weight = make([]float64, len(rows))
		for i, p := range sel.Prob {
			sel.Weight[i] = float64(budget) / (float64(n) * p)
		}
		return sel, nil
	}
	// w_j = (n_l / pi^(l)_j + sum_{k>l} n_k) / N for a row of batch l.
	size := make([]int, batch+1)
	for _, b := range sel.Batch {
		size[b]++
	}
	later := make([]int, batch+1)
	for b := batch - 1; b >= 0; b-- {
		later[b] = later[b+1] + size[b+1]
	}
	sel.Weight = make([]float64, len(sel.Index))
	for i, p := range sel.Prob {
		b := sel.Batch[i]
		if !(p > 0 && p <= 1) {
			return nil, &ParamError{Name: "previous row", Value: sel.Index[i], Want: fmt.Sprintf("an inclusion probability in (0, 1], not %v", p)}
		}
		sel.Weight[i] = (float64(size[b])/p + float64(later[b])) / float64(n)
	}
	return sel, nil
}

// checkPrevious checks that prev's slices match its rows and that its rows
// lie in a pool of n rows; withProb also requires Prob and Weight.
func checkPrevious(prev *Selection, n int, withProb bool) error {
	if prev == nil {
		return nil
	}
	k := len(prev.Index)
	if (withProb && (len(prev.Prob) != k || len(prev.Weight) != k)) || (prev.Batch != nil && len(prev.Batch) != k) || (prev.Count != nil && len(prev.Count) != k) {
		return shapef("previous selection has %d rows but %d probabilities, %d weights, %d batch numbers and %d counts", k, len(prev.Prob), len(prev.Weight), len(prev.Batch), len(prev.Count))
	}
	for _, j := range prev.Index {
		if j < 0 || j >= n {
			return &ParamError{Name: "previous row", Value: j, Want: fmt.Sprintf("a row of the pool, in [0, %d)", n)}
		}
	}
	return nil
}

// prevBatch returns the batch numbers of prev's rows (all 0 when prev has
// none); prevBatches the number of batches.
func prevBatch(prev *Selection) []int {
	if prev.Batch != nil {
		return prev.Batch
	}
	return make([]int, len(prev.Index))
}

func prevBatches(prev *Selection) int {
	b := 0
	for _, v := range prevBatch(prev) {
		b = max(b, v+1)
	}
	return b
}

// prevCount returns prev's draw counts (1 each when prev has none).
func prevCount(prev *Selection) []int {
	if prev.Count != nil {
		return prev.Count
	}
	c := make([]int, len(prev.Index))
	for i := range c {
		c[i] = 1
	}
	return c
}

// pi0 returns the indices of the positive entries of v.
func pi0(v []float64) []int {
	var out []int
	for j, x := range v {
		if x > 0 {
			out = append(out, j)
		}
	}
	return out
}

func sum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}
