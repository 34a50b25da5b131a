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
	// probabilities pi_j proportional to q (InclusionProbabilities), as
	// the first budget rows of a random ranking from Tillé's elimination
	// procedure, and weights them by Horvitz-Thompson, w_j = n / (N pi_j).
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
// *ParamError named "budget"). O(N): a radix sort of q and the path of
// every n at once that the WithoutReplacement design draws from.
func InclusionProbabilities(q []float64, n int) ([]float64, error) {
	if err := checkProbs("q", q); err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, &ParamError{Name: "budget", Value: n, Want: "a positive number of labels"}
	}
	p := newInclusionPath(q)
	if n > len(p.order) {
		return nil, budgetError(n, len(p.order), 0)
	}
	pi := make([]float64, len(q))
	for j := range pi {
		pi[j] = p.pi(j, n)
	}
	return pi, nil
}

// budgetError reports a budget above the pos rows with positive
// probability, labeled of them already.
func budgetError(budget, pos, labeled int) error {
	if labeled > 0 {
		return &ParamError{Name: "budget", Value: budget, Want: fmt.Sprintf("at most the %d rows with positive probability not yet labeled (%d rows are labeled already)", pos-labeled, labeled)}
	}
	return &ParamError{Name: "budget", Value: budget, Want: fmt.Sprintf("at most the %d rows with positive probability (sampling without replacement labels each row once)", pos)}
}

// SampleDesign draws budget rows from the distribution q over the N pool
// rows with design d, seeded by seed. scores (may be nil) are stored in the
// Selection. A seed fixes a sequence of draws (with replacement) or a
// ranking of the rows (without), and a selection takes its first rows.
// With prev, a Selection of the same design, q and seed, it continues it
// as a next batch, the rows that follow in that sequence, and returns the
// union: prev's rows first, then the new batch, numbered by
// Selection.Batch. The union is exactly the one-shot selection of its
// total size with that seed, weights included:
//
//   - WithReplacement: the next budget draws, weights unchanged.
//   - DistinctRows: the next budget draws; a row drawn again only raises
//     its count, and the weights n c_j / (B N q_j) are those of the B draws
//     of the union.
//   - WithoutReplacement: the next budget rows of the ranking; every
//     row's Prob and Weight become those of the union's size n, pi_j(n)
//     and n / (N pi_j(n)). prev must be the ranking's first rows, so it
//     must come from the same q and seed; otherwise the result is a
//     *ParamError named "previous row".
//
// With replacement a prev from another seed is continued by independent
// draws, still a valid union. A prev row outside the pool, a row twice in
// a WithoutReplacement prev, or a budget above the rows left with positive
// probability is a *ParamError (Name "previous row" or "budget").
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
		return rankedDesign(q, scores, budget, prev, rng)
	}
	return nil, &ParamError{Name: "Design", Value: d, Want: "WithReplacement, DistinctRows or WithoutReplacement"}
}

// drawDesign makes budget independent draws from q, the ones that follow
// prev's draws in the seed's sequence.
func drawDesign(q, scores []float64, budget int, d Design, prev *Selection, rng *rand.Rand) (*Selection, error) {
	n := len(q)
	cum := make([]float64, n)
	acc := 0.0
	for j, v := range q {
		acc += v
		cum[j] = acc
	}
	if prev != nil {
		for range sumInts(prevCount(prev)) {
			rng.Float64()
		}
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

// rankedDesign takes the budget rows that follow prev's in the seed's
// ranking and weights the union as SampleDesign states.
func rankedDesign(q, scores []float64, budget int, prev *Selection, rng *rand.Rand) (*Selection, error) {
	if len(q) > math.MaxInt32 {
		return nil, &ParamError{Name: "pool rows", Value: len(q), Want: fmt.Sprintf("at most %d rows for a design without replacement", math.MaxInt32)}
	}
	path := newInclusionPath(q)
	sel := &Selection{Q: q, Scores: scores}
	batch := 0
	if prev != nil {
		seen := make(map[int]bool, len(prev.Index))
		for _, j := range prev.Index {
			if seen[j] {
				return nil, &ParamError{Name: "previous row", Value: j, Want: "each row once (it is twice in the previous selection; a design without replacement labels a row once)"}
			}
			seen[j] = true
		}
		sel.Index = append(sel.Index, prev.Index...)
		sel.Batch = append(sel.Batch, prevBatch(prev)...)
		batch = prevBatches(prev)
	}
	k := len(sel.Index)
	total := k + budget
	if total > len(path.order) {
		return nil, budgetError(budget, len(path.order), k)
	}
	rank := path.ranking(rng)
	first := make(map[int]bool, k)
	for _, j := range rank[:k] {
		first[j] = true
	}
	for _, j := range sel.Index {
		if !first[j] {
			return nil, &ParamError{Name: "previous row", Value: j, Want: fmt.Sprintf("one of the first %d rows of this design's ranking: continue a selection without replacement with the pool, settings and seed of its first batch (and one drawn with replacement with that design)", k)}
		}
	}
	for _, j := range rank[k:total] {
		sel.Index = append(sel.Index, j)
		if prev != nil {
			sel.Batch = append(sel.Batch, batch)
		}
	}
	n := float64(len(q))
	sel.Prob = make([]float64, total)
	sel.Weight = make([]float64, total)
	for i, j := range sel.Index {
		p := path.pi(j, total)
		if math.IsInf(1/(n*p), 0) {
			return nil, &ParamError{Name: fmt.Sprintf("q[%d]", j), Value: q[j], Want: fmt.Sprintf("a sampling probability whose inclusion probability (%v) gives a finite importance weight 1/(N pi)", p)}
		}
		sel.Prob[i], sel.Weight[i] = p, float64(total)/(n*p)
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
	if prev.Audit != nil {
		if len(prev.Audit) != k {
			return shapef("previous selection has %d rows but %d audit weights", k, len(prev.Audit))
		}
		for i, v := range prev.Audit {
			if !(v >= 0) || math.IsInf(v, 0) {
				return &ParamError{Name: fmt.Sprintf("previous audit weight[%d]", i), Value: v, Want: "1/pi for an audit row, 0 for the others"}
			}
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

func sumInts(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}

func sum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}
