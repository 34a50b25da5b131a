package credlab

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Selection is a labeling plan: which pool rows to label and the
// importance weights that make a fit on them unbiased.
type Selection struct {
	// Index holds the chosen pool rows in draw order (WithReplacement: a
	// row can appear more than once) or in rank order (WithoutReplacement:
	// every prefix is itself a sample of that design).
	Index []int
	// Prob is each chosen row's sampling probability q_j (with
	// replacement) or its inclusion probability pi_j in a sample of the
	// selection's size (without); Weight its importance weight (see
	// Design).
	Prob, Weight []float64
	// Count is each row's number of draws (DistinctRows only).
	Count []int
	// Batch numbers the batches (0, 1, ...) when a selection continues a
	// previous one; nil for a single batch.
	Batch []int
	// Audit is each row's audit weight when a BatchSelector drew an audit
	// sample (BatchSelector.Audit): 1/pi for the rows drawn uniformly
	// from those then unlabeled, 0 for the rows the method chose; nil
	// when no row is an audit row. TuneConfig.Audit takes it.
	Audit []float64
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
	// WithoutReplacement draws distinct rows, a simple random sample; the
	// budget must then not exceed the pool. By default rows are drawn with
	// replacement.
	WithoutReplacement bool
	// Design, when not WithReplacement, overrides WithoutReplacement
	// (SampleDesign with q_j = 1/N).
	Design Design
	// Previous, when set, is a selection of the same design to continue
	// with a next batch (SampleDesign); Select then returns the union.
	Previous *Selection
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
	d := u.Design
	if d == WithReplacement && u.WithoutReplacement {
		d = WithoutReplacement
	}
	sel, err := SampleDesign(q, nil, budget, d, u.Previous, seed)
	if err == nil && d == WithoutReplacement {
		for i := range sel.Index { // a simple random sample: pi = n / N, weights 1
			sel.Prob[i], sel.Weight[i] = float64(len(sel.Index))/float64(n), 1
		}
	}
	return sel, err
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
	// Approx, when set (with Kernel, without Features), approximates the
	// exact scores by BLESS (ApproxLeverageScores): O(N Dict (d + Dict))
	// time and O(Dict^2 + Block Dict) memory instead of the N x N matrix.
	Approx *BLESSConfig
	// LambdaQ is lambda_q, default 1e-6. The paper picks it from
	// 10^-12 ... 10^-3.
	LambdaQ float64
	// Block is the streaming block size, default DefaultBlock.
	Block int
	// Design is how rows are drawn from q (default WithReplacement, the
	// paper's); WithoutReplacement gives exactly budget distinct labels.
	Design Design
	// Previous, when set, is a selection of the same design on the same
	// pool to continue with a next batch (SampleDesign); Select returns
	// the union. Its Q, when set, is reused instead of rescoring the pool.
	Previous *Selection
}

// Select implements Selector. With replacement a budget larger than the
// pool is allowed.
func (c CREDSelector) Select(ctx context.Context, pool *mat.Dense, budget int, seed uint64) (*Selection, error) {
	n, err := checkPool(pool, budget)
	if err != nil {
		return nil, err
	}
	if p := c.Previous; p != nil && len(p.Q) == n {
		return SampleDesign(p.Q, p.Scores, budget, c.Design, p, seed)
	}
	s, err := c.Scores(ctx, pool)
	if err != nil {
		return nil, err
	}
	q, err := CREDDistribution(s)
	if err != nil {
		return nil, err
	}
	return SampleDesign(q, s, budget, c.Design, c.Previous, seed)
}

// Scores returns the leverage scores of the pool rows that Select draws
// from: FeatureLeverageScores with Features, else ApproxLeverageScores
// with Approx or LeverageScores with Kernel, at LambdaQ (default 1e-6).
func (c CREDSelector) Scores(ctx context.Context, pool *mat.Dense) ([]float64, error) {
	lq := c.LambdaQ
	if lq == 0 {
		lq = 1e-6
	}
	switch {
	case c.Features != nil:
		return FeatureLeverageScores(ctx, c.Features, pool, lq, c.Block)
	case c.Kernel != nil && c.Approx != nil:
		return ApproxLeverageScores(ctx, c.Kernel, pool, lq, *c.Approx)
	case c.Kernel != nil:
		return LeverageScores(ctx, c.Kernel, pool, lq)
	}
	return nil, &ParamError{Name: "CREDSelector.Kernel", Value: nil, Want: "a kernel, or a feature map in CREDSelector.Features"}
}

// CREDDistribution returns q_j = (s_j + mean(s)) / (2 sum(s)) for
// non-negative scores s.
func CREDDistribution(s []float64) ([]float64, error) {
	if len(s) == 0 {
		return nil, emptyf("no scores")
	}
	if err := checkProbs("score", s); err != nil {
		return nil, err
	}
	sum := 0.0
	for _, v := range s {
		sum += v
	}
	if !(sum > 0) || math.IsInf(sum, 0) {
		return nil, &ParamError{Name: "score", Value: sum, Want: "scores with a positive, finite sum (to normalise)"}
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
// themselves (SampleDesign with WithReplacement). Selection.Scores is nil.
// The same seed gives the same rows.
func DrawSelection(q []float64, budget int, seed uint64) (*Selection, error) {
	if len(q) == 0 {
		return nil, emptyf("empty sampling distribution")
	}
	if budget <= 0 {
		return nil, &ParamError{Name: "budget", Value: budget, Want: "a positive number of labels"}
	}
	if err := checkProbs("q", q); err != nil {
		return nil, err
	}
	sum := 0.0
	for _, v := range q {
		sum += v
	}
	if math.Abs(sum-1) > 1e-9 {
		return nil, &ParamError{Name: "q", Value: sum, Want: "sampling probabilities summing to 1"}
	}
	return SampleDesign(q, nil, budget, WithReplacement, nil, seed)
}

func checkPool(pool *mat.Dense, budget int) (int, error) {
	if err := CheckData(pool, nil); err != nil {
		return 0, err
	}
	if budget <= 0 {
		return 0, &ParamError{Name: "budget", Value: budget, Want: "a positive number of labels"}
	}
	n, _ := pool.Dims()
	return n, nil
}

// GatherRows returns the rows idx of x as a new matrix, for example the
// pool rows of a Selection.
func GatherRows(x *mat.Dense, idx []int) (*mat.Dense, error) {
	if x == nil || x.IsEmpty() {
		return nil, emptyf("x has no rows")
	}
	n, _ := x.Dims()
	for k, i := range idx {
		if i < 0 || i >= n {
			return nil, &ParamError{Name: fmt.Sprintf("idx[%d]", k), Value: i, Want: fmt.Sprintf("a row of x, in [0, %d)", n)}
		}
	}
	if len(idx) == 0 {
		return nil, emptyf("no row indices given")
	}
	return gatherRows(x, idx), nil
}
