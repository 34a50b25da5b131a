package credlab

import (
	"context"
	"fmt"
	"github.com/credlab/credlab/internal/vecmath"
	"math"
	"slices"
	"sort"
	"time"

	"gonum.org/v1/gonum/mat"
)

// sigmaEval evaluates the criterion over the lambda grid at one sigma.
type sigmaEval interface {
	eval(ctx context.Context, sigma float64) ([]lambdaScore, error)
	rows() int
	rank() int // Nyström rank of the last evaluation; 0 for exact
}

// sigmaResult is the best lambda of one sigma.
type sigmaResult struct {
	sigma  float64
	scores []lambdaScore
	best   int // index into scores; -1 when none is finite
	rank   int // Nyström rank kept; 0 for exact
	m      int // Nyström centers sampled
	// centers is the Nyström center sampler; nil for uniform (or exact).
	centers CenterSampler
	// first is fold 0's least score (CriterionCV), for screens.
	first float64
}

func (r sigmaResult) score() float64 {
	if r.best < 0 {
		return math.Inf(1)
	}
	return r.scores[r.best].score
}

// evalSigma evaluates one sigma and records it in the table.
func (t *tuner) evalSigma(ctx context.Context, ev sigmaEval, sigma float64, stage string, total int) (sigmaResult, error) {
	if err := ctx.Err(); err != nil {
		return sigmaResult{}, err
	}
	t0 := time.Now()
	sc, err := ev.eval(ctx, sigma)
	if err != nil {
		return sigmaResult{}, err
	}
	t.lastEval = time.Since(t0)
	r := sigmaResult{sigma: sigma, scores: sc, rank: ev.rank()}
	if ne, ok := ev.(*nystromEvaluator); ok {
		r.m, r.centers, r.first = ne.m, ne.sampler, ne.first
	}
	v := make([]float64, len(sc))
	for i, s := range sc {
		v[i] = s.score
		rmse := math.Sqrt(s.score)
		t.out.Table = append(t.out.Table, TunePoint{Sigma: sigma, Lambda: s.lambda, M: r.rank, Rows: ev.rows(),
			Score: s.score, ValRMSE: rmse, TrainRMSE: s.train, Stage: stage})
	}
	r.best = bestIndex(v)
	t.bestScore = math.Min(t.bestScore, r.score())
	t.progress(stage, total)
	return r, nil
}

// searchSigma evaluates the sigmas of init (increasing), extends the grid
// while the best value sits at an end (two points of the end's spacing
// each time, up to maxExt times a side) and refines around the
// best value (geometric midpoints, refineRounds times). It returns all
// results sorted by sigma and the index of the best.
func (t *tuner) searchSigma(ctx context.Context, ev sigmaEval, init []float64, stage string, maxExt, refine int) ([]sigmaResult, int, error) {
	total := len(init) + 2*refine + 4
	var res []sigmaResult
	for _, s := range init {
		if len(res) > 0 && !t.affords(t.lastEval, fmt.Sprintf("the %s stage's sigma %.4g", stage, s)) {
			return res, bestResult(res), nil
		}
		r, err := t.evalSigma(ctx, ev, s, stage, total)
		if err != nil {
			return nil, -1, err
		}
		res = append(res, r)
	}
	best := func() int { return bestResult(res) }
	if len(res) < 2 {
		return res, 0, nil
	}
	for ext := [2]int{}; ; {
		b := best()
		side := -1
		switch {
		case b == 0 && ext[0] < maxExt:
			side = 0
		case b == len(res)-1 && ext[1] < maxExt:
			side = 1
		}
		if side < 0 || math.IsInf(res[b].score(), 1) || !t.affords(2*t.lastEval, "extending the "+stage+" stage's sigma grid") {
			break
		}
		ext[side]++
		var add []sigmaResult
		for k := 1; k <= 2; k++ {
			var s float64
			if side == 0 {
				s = res[0].sigma * math.Pow(res[0].sigma/res[1].sigma, float64(k))
			} else {
				last := len(res) - 1
				s = res[last].sigma * math.Pow(res[last].sigma/res[last-1].sigma, float64(k))
			}
			r, err := t.evalSigma(ctx, ev, s, stage, total+2)
			if err != nil {
				return nil, -1, err
			}
			add = append(add, r)
		}
		total += 2
		if side == 0 {
			res = append([]sigmaResult{add[1], add[0]}, res...)
		} else {
			res = append(res, add...)
		}
	}
	for round := 0; round < refine && t.affords(2*t.lastEval, "refining the "+stage+" stage's sigma"); round++ {
		b := best()
		var add []sigmaResult
		for _, j := range []int{b - 1, b + 1} {
			if j < 0 || j >= len(res) {
				continue
			}
			r, err := t.evalSigma(ctx, ev, math.Sqrt(res[b].sigma*res[j].sigma), stage, total)
			if err != nil {
				return nil, -1, err
			}
			add = append(add, r)
		}
		res = append(res, add...)
		sort.Slice(res, func(i, j int) bool { return res[i].sigma < res[j].sigma })
	}
	return res, best(), nil
}

// bestResult returns the index of the lowest criterion in res.
func bestResult(res []sigmaResult) int {
	b := 0
	for i, r := range res {
		if r.score() < res[b].score() {
			b = i
		}
	}
	return b
}

// medianSigma returns the median distance between the rows of an evenly
// spaced sample of up to 256 rows of x (1 when it is zero), the median
// heuristic's bandwidth, or the median L1 distance for the Manhattan
// family (l1 set): of an even number of pairs the upper middle one.
// O(256^2 d).
func medianSigma(x *mat.Dense, l1 bool) float64 {
	if l1 {
		return medianPairDistance(x, func(a, b []float64) float64 { return scaledL1Dist(a, b, nil) }, false)
	}
	return medianPairDistance(x, func(a, b []float64) float64 { return math.Sqrt(vecmath.SqDist(a, b)) }, false)
}

// The exact stage above exactPathRows rows scores the Nyström stages'
// sigma and walkScan halvings of it, then up to walkMore further halvings
// while the smallest sigma is the best.
const (
	walkScan = 2
	walkMore = 2
)

// walkDown scores sigma, sigma/2, sigma/4 on ev's path (the exact one, or
// the Nyström grow stage's, named by stage), then halves
// on while the smallest is the best (at most walkMore times), and returns
// the results sorted by sigma with the index of the best. Nyström paths
// favour large sigmas, whose kernels they approximate better, and the
// exact criterion is not unimodal along the sigma-lambda ridge (on the
// benchmark's synthetic set at n = 5000 the Nyström stages chose 21.7 or
// 43, by the centers' seed, where the exact GCV prefers about 10: test
// RMSE 0.42 against 0.36), while a larger sigma than theirs is rarely
// better: a walk up would cost reductions for nothing. With
// cross-validation each halving is first screened on fold 0 (screened) and
// scored on every fold only when it beats the best there. walkedOff
// reports that the last halving allowed was still the best.
func (t *tuner) walkDown(ctx context.Context, ev sigmaEval, sigma float64, stage string) (res []sigmaResult, best int, walkedOff bool, err error) {
	ne, _ := ev.(*nystromEvaluator)
	smallestBest := false
	steps := 0
	for ; steps <= walkScan+walkMore; steps++ {
		if steps > walkScan && !smallestBest {
			break
		}
		if len(res) > 0 && !t.affords(2*t.lastEval, fmt.Sprintf("the %s stage's sigma %.4g", stage, sigma)) {
			break
		}
		if len(res) > 0 && ne != nil {
			// Cross-validation: a sigma that does not beat the best on
			// fold 0 is not scored on the other folds.
			ok, err := t.screened(ctx, ne, sigma, res[best], 0, fmt.Sprintf("%s: sigma %.4g", stage, sigma))
			if err != nil {
				return nil, -1, false, err
			}
			if !ok {
				smallestBest = false
				sigma /= 2
				continue
			}
		}
		r, err := t.evalSigma(ctx, ev, sigma, stage, 1+walkScan)
		if err != nil {
			return nil, -1, false, err
		}
		res = append(res, r)
		if smallestBest = len(res) == 1 || r.score() < res[best].score(); smallestBest {
			best = len(res) - 1
		}
		sigma /= 2
	}
	slices.Reverse(res)
	return res, len(res) - 1 - best, smallestBest && steps == 1+walkScan+walkMore, nil
}

// screenWalk is walkDown on fold 0 alone (the grow stage's walk under
// cross-validation): it screens sigma, sigma/2, sigma/4, then halves on
// while the smallest is the best (at most walkMore times), and returns
// the sigma of the least fold-0 score, that score, and whether the last
// halving allowed was the best. Each step costs one reduction where
// walkDown's cost one per fold; the best's statistics are kept, so that
// its cross-validation makes no second pass over the rows.
func (t *tuner) screenWalk(ctx context.Context, ev *nystromEvaluator, sigma float64) (best, score float64, walkedOff bool, err error) {
	score = math.Inf(1)
	smallestBest := false
	steps := 0
	for ; steps <= walkScan+walkMore; steps++ {
		if steps > walkScan && !smallestBest {
			break
		}
		f0, err := ev.screen(ctx, sigma)
		if err != nil {
			return 0, 0, false, err
		}
		if smallestBest = f0 < score; smallestBest {
			best, score = sigma, f0
			ev.keepStats(sigma)
		}
		sigma /= 2
	}
	return best, score, smallestBest && steps == 1+walkScan+walkMore, nil
}

// neighbours returns the sigma of res[b] and its two neighbours' geometric
// midpoints with it, the narrow grid of the final stage.
func neighbours(res []sigmaResult, b int) []float64 {
	s := res[b].sigma
	lo, hi := s/math.Sqrt2, s*math.Sqrt2
	if b > 0 {
		lo = math.Sqrt(s * res[b-1].sigma)
	}
	if b < len(res)-1 {
		hi = math.Sqrt(s * res[b+1].sigma)
	}
	return []float64{lo, s, hi}
}
