package credlab

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// Selection is a labeling plan: which pool rows to label and the
// importance weights that make a fit on them unbiased.
type Selection struct {
	// Index holds the chosen pool rows in draw order; with replacement a
	// row can appear more than once.
	Index []int
	// Prob is the sampling probability q of each chosen row, Weight its
	// importance weight 1/(N q).
	Prob, Weight []float64
	// Q is the sampling distribution over all N pool rows; Scores the
	// leverage scores it was built from (nil for uniform selection).
	Q, Scores []float64
}

// Selector chooses budget rows of an unlabeled pool to label.
type Selector interface {
	Select(ctx context.Context, pool *mat.Dense, budget int, seed uint64) (*Selection, error)
}

// UniformSelector labels rows drawn uniformly, with weights 1.
type UniformSelector struct {
	// WithoutReplacement draws distinct rows; the budget must then not
	// exceed the pool. By default rows are drawn with replacement.
	WithoutReplacement bool
}

// Select implements Selector in O(N + budget) time.
func (u UniformSelector) Select(ctx context.Context, pool *mat.Dense, budget int, seed uint64) (*Selection, error) {
	n, err := checkPool(pool, budget)
	if err != nil {
		return nil, err
	}
	q := make([]float64, n)
	for i := range q {
		q[i] = 1 / float64(n)
	}
	if !u.WithoutReplacement {
		return drawSelection(q, nil, budget, seed)
	}
	if budget > n {
		return nil, fmt.Errorf("credlab: budget %d is larger than the pool of %d rows, which sampling without replacement cannot draw", budget, n)
	}
	idx := rand.New(rand.NewPCG(seed, 0x73656c)).Perm(n)[:budget]
	sel := &Selection{Index: idx, Prob: make([]float64, budget), Weight: make([]float64, budget), Q: q}
	for i := range idx {
		sel.Prob[i], sel.Weight[i] = q[0], 1
	}
	return sel, nil
}

// CREDSelector is the CRED paper's importance labeling (Algorithm 1, line 1;
// Algorithm 2, line 3): q_j = (s_j + mean(s)) / (2 sum(s)), half
// proportional to each row's contribution s_j to the effective dimension and
// half uniform; budget rows are then drawn independently from q, with
// replacement, and weighted 1/(N q_j).
type CREDSelector struct {
	// Kernel gives exact scores from the N x N Gram matrix (LeverageScores);
	// it is used when Features is nil.
	Kernel Kernel
	// Features, when set, scores in that feature space instead
	// (FeatureLeverageScores): *RandomFourier for the random-features CRED,
	// RawFeatures or *ReLUNetwork for explicit features, *Nystrom for
	// Nyström features. Memory is then O(D^2 + Block D).
	Features FeatureMap
	// LambdaQ is lambda_q, default 1e-6. The paper picks it from
	// 10^-12 ... 10^-3.
	LambdaQ float64
	// Block is the streaming block size, default DefaultBlock.
	Block int
}

// Select implements Selector. A budget larger than the pool is allowed,
// since rows are drawn with replacement.
func (c CREDSelector) Select(ctx context.Context, pool *mat.Dense, budget int, seed uint64) (*Selection, error) {
	if _, err := checkPool(pool, budget); err != nil {
		return nil, err
	}
	lq := c.LambdaQ
	if lq == 0 {
		lq = 1e-6
	}
	var (
		s   []float64
		err error
	)
	switch {
	case c.Features != nil:
		s, err = FeatureLeverageScores(ctx, c.Features, pool, lq, c.Block)
	case c.Kernel != nil:
		s, err = LeverageScores(ctx, c.Kernel, pool, lq)
	default:
		return nil, fmt.Errorf("credlab: CRED needs a Kernel or a feature map")
	}
	if err != nil {
		return nil, err
	}
	q, err := CREDDistribution(s)
	if err != nil {
		return nil, err
	}
	return drawSelection(q, s, budget, seed)
}

// CREDDistribution returns q_j = (s_j + mean(s)) / (2 sum(s)) for
// non-negative scores s.
func CREDDistribution(s []float64) ([]float64, error) {
	sum := 0.0
	for j, v := range s {
		if !(v >= 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("credlab: score[%d] = %v: scores must be finite and non-negative", j, v)
		}
		sum += v
	}
	if !(sum > 0) || math.IsInf(sum, 0) {
		return nil, fmt.Errorf("credlab: the scores sum to %v: cannot normalise", sum)
	}
	n := float64(len(s))
	q := make([]float64, len(s))
	for j, v := range s {
		q[j] = (v + sum/n) / (2 * sum)
	}
	return q, nil
}

// DrawSelection draws budget rows independently from a sampling
// distribution q over the pool (non-negative, summing to 1, as
// CREDDistribution returns it), each with its importance weight 1/(N q_j):
// the draw CREDSelector.Select makes from its q, for callers that compute q
// themselves. Selection.Scores is nil. The same seed gives the same rows.
func DrawSelection(q []float64, budget int, seed uint64) (*Selection, error) {
	if len(q) == 0 {
		return nil, fmt.Errorf("credlab: empty sampling distribution")
	}
	if budget <= 0 {
		return nil, fmt.Errorf("credlab: budget = %d labels: must be positive", budget)
	}
	sum := 0.0
	for j, v := range q {
		if !(v >= 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("credlab: sampling probability %v of row %d: must be finite and non-negative", v, j)
		}
		sum += v
	}
	if math.Abs(sum-1) > 1e-9 {
		return nil, fmt.Errorf("credlab: sampling probabilities sum to %v, not 1", sum)
	}
	return drawSelection(q, nil, budget, seed)
}

// drawSelection draws budget rows independently from q.
func drawSelection(q, scores []float64, budget int, seed uint64) (*Selection, error) {
	n := len(q)
	cum := make([]float64, n)
	acc := 0.0
	for j, v := range q {
		acc += v
		cum[j] = acc
	}
	rng := rand.New(rand.NewPCG(seed, 0x73656c))
	sel := &Selection{Index: make([]int, budget), Prob: make([]float64, budget), Weight: make([]float64, budget), Q: q, Scores: scores}
	for i := range sel.Index {
		u := rng.Float64() * acc
		j := min(sort.Search(n, func(j int) bool { return cum[j] > u }), n-1)
		w := 1 / float64(n) / q[j] // exactly 1 for q[j] = 1/N; N * fl(1/N) is not 1 for N = 49
		if !(q[j] > 0) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("credlab: row %d has sampling probability %v: its importance weight 1/(N q) overflows", j, q[j])
		}
		sel.Index[i], sel.Prob[i], sel.Weight[i] = j, q[j], w
	}
	return sel, nil
}

func checkPool(pool *mat.Dense, budget int) (int, error) {
	if err := checkData(pool, nil); err != nil {
		return 0, err
	}
	if budget <= 0 {
		return 0, fmt.Errorf("credlab: budget = %d labels: must be positive", budget)
	}
	n, _ := pool.Dims()
	return n, nil
}

// GatherRows returns the rows idx of x as a new matrix, for example the
// pool rows of a Selection.
func GatherRows(x *mat.Dense, idx []int) (*mat.Dense, error) {
	if x == nil || x.IsEmpty() {
		return nil, fmt.Errorf("credlab: empty data: no rows")
	}
	n, _ := x.Dims()
	for _, i := range idx {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("credlab: row index %d out of range [0, %d)", i, n)
		}
	}
	if len(idx) == 0 {
		return nil, fmt.Errorf("credlab: no row indices given")
	}
	return gatherRows(x, idx), nil
}
