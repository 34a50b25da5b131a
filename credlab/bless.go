package credlab

import (
	"context"
	"fmt"
	"github.com/credlab/credlab/internal/parallel"
	"github.com/credlab/credlab/internal/vecmath"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// DefaultBLESSDict is BLESSConfig.Dict's default dictionary size.
const DefaultBLESSDict = 400

// BLESSConfig configures ApproxLeverageScores. The zero value means the
// documented defaults.
type BLESSConfig struct {
	// Dict caps the dictionary of rows the scores are computed from,
	// default DefaultBLESSDict. Scores are accurate while Dict exceeds a few times the
	// effective dimension at lambda; beyond that they are those of a
	// rank-Dict approximation (upper bounds on the exact scores).
	Dict int
	// Seed seeds the uniform candidate sets and the dictionary draws.
	Seed uint64
	// Block is the number of rows scored at once, default DefaultBlock.
	Block int
	// MaxDeff, when positive, stops lowering lambda at the first step
	// whose estimated effective dimension reaches MaxDeff: the scores are
	// then those at that larger lambda.
	MaxDeff float64
}

// ApproxLeverageScores returns approximate ridge leverage scores of the rows
// of x, on the scale of LeverageScores (s_j = N [K (K + N lambda I)^-1]_jj,
// summing to N d_eff(lambda)), by BLESS (Rudi, Calandriello, Carratino and
// Rosasco 2018, "On fast leverage score sampling and optimal learning"):
// lambda is lowered geometrically from kappa^2 = max_j k(x_j, x_j) by
// factors of 4; at each step h, the scores of a uniform candidate set U_h
// (at most 8 Dict rows) are estimated from the previous weighted
// dictionary J, A as
//
//	l(i, lambda_h) = (K_ii - K_iJ (K_JJ + lambda_h N A)^-1 K_Ji) / (lambda_h N),
//
// the effective dimension estimated as d_h = (N/|U_h|) sum_{U_h} l, and
// min(Dict, 4 d_h) rows of U_h are drawn proportionally to l, each with
// A_jj = R P_j |U_h| / (N c_j) for R draws of probability P_j and c_j hits.
// The last dictionary scores all N rows.
//
// Cost: O(Dict^2 (d + Dict)) per step, log4(kappa^2/lambda) steps, plus
// O(N Dict (d + Dict)) for the final pass; memory O(Dict^2 + Block Dict).
// No N x N matrix is formed. Deterministic for a seed on any GOMAXPROCS.
func ApproxLeverageScores(ctx context.Context, k Kernel, x *mat.Dense, lambda float64, cfg BLESSConfig) ([]float64, error) {
	if err := checkKernelOn(k, x); err != nil {
		return nil, err
	}
	if err := CheckData(x, nil); err != nil {
		return nil, err
	}
	if err := checkPositive("lambda", lambda); err != nil {
		return nil, err
	}
	dict, block := cfg.Dict, cfg.Block
	if dict < 0 {
		return nil, &ParamError{Name: "BLESSConfig.Dict", Value: dict, Want: fmt.Sprintf("a positive dictionary size (or zero for %d)", DefaultBLESSDict)}
	}
	if block < 0 {
		return nil, &ParamError{Name: "BLESSConfig.Block", Value: block, Want: "a positive number of rows (or zero for DefaultBlock)"}
	}
	if dict == 0 {
		dict = DefaultBLESSDict
	}
	if block == 0 {
		block = DefaultBlock
	}
	n, _ := x.Dims()
	raw := x.RawMatrix()
	diag := make([]float64, n)
	kappa := 0.0
	for i := range diag {
		r := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		diag[i] = k.Eval(r, r)
		kappa = max(kappa, diag[i])
	}
	if !(kappa > 0) {
		return nil, &DegenerateError{What: "the kernel is zero on every row: no leverage scores"}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x626c6573))
	perm := rng.Perm(n) // U_h is a prefix: nested candidate sets
	var d *blessDict
	for lh := kappa; ; lh /= 4 {
		lh = max(lh, lambda)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m := min(n, 8*dict, int(math.Ceil(8*kappa/lh)))
		cand := perm[:m]
		l, err := d.scores(k, x, cand, diag, lh, n, block)
		if err != nil {
			return nil, err
		}
		deff := float64(n) / float64(m) * sum(l)
		r := min(dict, max(10, int(math.Ceil(4*deff))))
		if d, err = newBLESSDict(k, x, cand, l, r, lh, n, rng); err != nil {
			return nil, err
		}
		if lh == lambda || (cfg.MaxDeff > 0 && deff >= cfg.MaxDeff) {
			lambda = lh
			break
		}
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	l, err := d.scores(k, x, all, diag, lambda, n, block)
	if err != nil {
		return nil, err
	}
	for i := range l {
		l[i] = min(float64(n), max(0, float64(n)*l[i]))
	}
	return l, nil
}

// blessDict is a weighted dictionary: rows idx of x and the lower Cholesky
// factor of K_JJ + lambda N A.
type blessDict struct {
	rows *mat.Dense
	chol blas64.Triangular
}

// newBLESSDict draws r rows of cand with probabilities proportional to l
// and factors K_JJ + lambda N A.
func newBLESSDict(k Kernel, x *mat.Dense, cand []int, l []float64, r int, lambda float64, n int, rng *rand.Rand) (*blessDict, error) {
	tot := sum(l)
	if !(tot > 0) {
		return nil, &DegenerateError{Method: "BLESS", What: fmt.Sprintf("all candidate scores are zero at lambda = %g", lambda)}
	}
	cum := make([]float64, len(l))
	acc := 0.0
	for i, v := range l {
		acc += v
		cum[i] = acc
	}
	hits := map[int]int{}
	var order []int
	for t := 0; t < r; t++ {
		u := rng.Float64() * acc
		lo, hi := 0, len(cum)-1
		for lo < hi {
			mid := (lo + hi) / 2
			if cum[mid] > u {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		if hits[lo] == 0 {
			order = append(order, lo)
		}
		hits[lo]++
	}
	idx := make([]int, len(order))
	for i, c := range order {
		idx[i] = cand[c]
	}
	rows := gatherRows(x, idx)
	m := len(idx)
	kjj := mat.NewDense(m, m, nil)
	kernelSym(kjj, k, rows)
	kr := kjj.RawMatrix()
	for i, c := range order {
		a := float64(r) * l[c] / tot * float64(len(cand)) / (float64(n) * float64(hits[c]))
		kr.Data[i*kr.Stride+i] += lambda * float64(n) * a
	}
	t, ok := potrfLower(blas64.Symmetric{N: m, Stride: kr.Stride, Data: kr.Data, Uplo: blas.Lower})
	if !ok {
		return nil, &SingularError{System: "BLESS K_JJ + lambda N A", Setting: "lambda", Value: fmt.Sprintf("%g", lambda)}
	}
	return &blessDict{rows: rows, chol: t}, nil
}

// scores returns l(i, lambda) for the rows idx (K_ii / (lambda N) for an
// empty dictionary).
func (d *blessDict) scores(k Kernel, x *mat.Dense, idx []int, diag []float64, lambda float64, n, block int) ([]float64, error) {
	out := make([]float64, len(idx))
	mu := lambda * float64(n)
	if d == nil {
		for i, j := range idx {
			out[i] = diag[j] / mu
		}
		return out, nil
	}
	m := d.chol.N
	if err := checkAlloc("BLESS kernel block", min(block, len(idx)), m); err != nil {
		return nil, err
	}
	for lo := 0; lo < len(idx); lo += block {
		hi := min(lo+block, len(idx))
		xb := gatherRows(x, idx[lo:hi])
		kb := mat.NewDense(hi-lo, m, nil)
		kernelBlock(kb, k, xb, d.rows, nil, nil)
		pr := kb.RawMatrix()
		parallel.Chunks(pr.Rows, 256, func(a, b int) {
			sub := blas64.General{Rows: b - a, Cols: m, Stride: pr.Stride, Data: pr.Data[a*pr.Stride:]}
			blas64.Trsm(blas.Right, blas.Trans, 1, d.chol, sub)
			for i := a; i < b; i++ {
				r := pr.Data[i*pr.Stride : i*pr.Stride+m]
				out[lo+i] = max(0, diag[idx[lo+i]]-vecmath.Dot(r, r)) / mu
			}
		})
	}
	return out, nil
}

// LeverageCenters samples Nyström centers by approximate ridge leverage
// scores: ApproxLeverageScores at Lambda, then m distinct rows with
// inclusion probabilities proportional to the scores (capped at 1, the
// WithoutReplacement design of SampleDesign). Centers then cover the regions a
// uniform sample of the same size leaves thin.
type LeverageCenters struct {
	// Kernel is the kernel of the scores (required; use the model's).
	Kernel Kernel
	// Lambda is the ridge of the scores. By default it is the largest
	// lambda (down to 1e-9) at which the estimated effective dimension
	// reaches m/2: below that, m centers cannot cover what the scores
	// weight, and scores at a smaller lambda oversample isolated rows.
	Lambda float64
	// BLESS configures the score approximation; its Dict defaults to
	// max(DefaultBLESSDict, 2m) and its Seed to the sampler's seed.
	BLESS BLESSConfig
}

// SampleCenters implements CenterSampler.
func (c LeverageCenters) SampleCenters(x *mat.Dense, m int, seed uint64) ([]int, error) {
	return c.SampleCentersContext(context.Background(), x, m, seed)
}

// SampleCentersContext is SampleCenters, stopped when ctx is done (the
// scores cost O(n Dict (d + Dict))); NKRLS, NYTRO and Tune call it with
// their context.
func (c LeverageCenters) SampleCentersContext(ctx context.Context, x *mat.Dense, m int, seed uint64) ([]int, error) {
	n, _ := x.Dims()
	if m <= 0 || m > n {
		return nil, centersError(m, n)
	}
	lambda := c.Lambda
	cfg := c.BLESS
	if lambda == 0 {
		lambda, cfg.MaxDeff = 1e-9, float64(m)/2
	}
	if cfg.Dict == 0 {
		cfg.Dict = max(DefaultBLESSDict, 2*m)
	}
	if cfg.Seed == 0 {
		cfg.Seed = seed
	}
	s, err := ApproxLeverageScores(ctx, c.Kernel, x, lambda, cfg)
	if err != nil {
		return nil, err
	}
	q := make([]float64, n)
	tot := sum(s)
	for i, v := range s {
		// A floor of 1e-9 of the mean keeps every row eligible, so that
		// any m <= n can be drawn.
		q[i] = (v + 1e-9*tot/float64(n)) / (tot * (1 + 1e-9))
	}
	sel, err := SampleDesign(q, s, m, WithoutReplacement, nil, seed)
	if err != nil {
		return nil, err
	}
	return sel.Index, nil
}
