package credlab

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/credlab/credlab/internal/vecmath"
	"gonum.org/v1/gonum/mat"
)

// Search sizes. The sigma grid starts with sigmaPoints values over a
// sigmaSpan-fold range around the median heuristic; each extension adds
// two points beyond the end where the best value sits, at most
// sigmaExtensions times a side in the coarse stage and nearExtensions in
// the later, narrow ones; refinement adds the geometric midpoints around
// the best value.
const (
	sigmaPoints     = 8
	sigmaSpan       = 16
	sigmaExtensions = 6
	nearExtensions  = 2
	refineRounds    = 2
	// coarseM is the number of Nyström centers of the coarse sigma search
	// (on all rows), refineM that of the narrow refinement and the first m
	// of NKRLS's growth.
	coarseM = 500
	refineM = 1000
	maxM    = 8000
)

// exactPathRows is the largest number of rows on which the exact stage
// scores three sigmas around the refined one (one O(4/3 n^3) tridiagonal
// reduction each); beyond it the exact stage reduces the kernel matrices
// of the refined sigma and of its halves (walkDown). The reduction's Dsymv
// half is memory-bound (docs/benchmarks.md).
var exactPathRows = 1500

// tuner holds one Tune call.
type tuner struct {
	cfg     TuneConfig
	x       *mat.Dense
	y       []float64 // centered
	w       []float64
	n       int
	fam     func(sigma float64) Kernel
	crit    Criterion
	grid    []float64
	extraDF float64
	exact   bool
	train   []int // rows the criterion trains on (all rows but the hold-out)
	val     []int // hold-out rows; nil unless CriterionHoldout
	done    int
	out     *TuneFit
	// lastExact is the exact evaluator, which keeps its last reduction.
	lastExact *exactEvaluator
	// cv holds the folds of CriterionCV; nil for other criteria.
	cv *kFolds
	// start and deadline bound the call (deadline zero: no budget);
	// lastEval is the duration of the last evaluation, bestScore the
	// lowest criterion so far.
	start, deadline time.Time
	budget          time.Duration
	lastEval        time.Duration
	bestScore       float64
	// stageEnd is when the last stage ended and lastStage how long it took.
	stageEnd  time.Time
	lastStage time.Duration
}

// newTuner checks the data, the rows x and targets y with cfg's weights
// and audit weights, once for the whole search, and sets the search up
// (setupTuner).
func newTuner(x *mat.Dense, y []float64, cfg TuneConfig) (*tuner, error) {
	if err := checkXY(x, y); err != nil {
		return nil, err
	}
	if err := checkWeights(cfg.Weights, len(y)); err != nil {
		return nil, err
	}
	if err := checkAudit(cfg.Audit, len(y)); err != nil {
		return nil, err
	}
	return setupTuner(x, y, cfg, nil)
}

// setupTuner checks cfg's settings and sets up the search on checked
// data: the target centered by its weighted mean (or, when from is not
// nil, from's centered target and intercept, the same rows' under the
// same weights), the lambda grid, the method and the folds.
func setupTuner(x *mat.Dense, y []float64, cfg TuneConfig, from *tuner) (*tuner, error) {
	t := &tuner{cfg: cfg, x: x, w: cfg.Weights, n: len(y), out: &TuneFit{}, start: time.Now(), stageEnd: time.Now(), bestScore: math.Inf(1)}
	switch {
	case cfg.TimeBudget == 0:
		t.budget = zeroBudget
	case cfg.TimeBudget > 0:
		t.budget = cfg.TimeBudget
	}
	if t.budget > 0 {
		t.deadline = t.start.Add(t.budget)
	}
	if t.fam = kernelFamily(cfg.Family); t.fam == nil {
		return nil, &ParamError{Name: "TuneConfig.Family", Value: strconv.Quote(cfg.Family), Want: "gaussian, matern52, matern32, manhattan or laplacian (or empty: the Gaussian kernel, the Matérn and Manhattan kernels tried)"}
	}
	t.crit = cfg.Criterion
	switch t.crit {
	case "":
		t.crit = CriterionCV
		if cfg.Method == "KRLS" || cfg.Method == "krls" {
			t.crit = CriterionGCV // cross-validation runs on Nyström paths
		}
	case CriterionCV, CriterionGCV, CriterionHoldout, CriterionLOO:
	default:
		return nil, &ParamError{Name: "TuneConfig.Criterion", Value: strconv.Quote(string(cfg.Criterion)), Want: "cv, gcv, holdout or loo"}
	}
	if cfg.Folds < 0 || cfg.Folds == 1 {
		return nil, &ParamError{Name: "TuneConfig.Folds", Value: cfg.Folds, Want: "at least 2 folds, or zero for 5"}
	}
	if t.n < 2 {
		return nil, &TuneError{Problem: fmt.Sprintf("%d row: model selection needs at least 2 rows (3 for a hold-out)", t.n)}
	}
	if t.crit == CriterionLOO && t.n > MaxLOORows {
		return nil, &TuneError{Problem: fmt.Sprintf("leave-one-out needs the n x n eigenvectors; n = %d is over MaxLOORows = %d: use gcv", t.n, MaxLOORows)}
	}
	for _, v := range []struct {
		name string
		v    float64
	}{{"TuneConfig.Sigma", cfg.Sigma}, {"TuneConfig.Lambda", cfg.Lambda}} {
		if v.v < 0 || math.IsNaN(v.v) || math.IsInf(v.v, 0) {
			return nil, &ParamError{Name: v.name, Value: v.v, Want: "a positive finite number, or zero to search it"}
		}
	}
	for i, s := range cfg.Sigmas {
		if err := checkPositive(fmt.Sprintf("TuneConfig.Sigmas[%d]", i), s); err != nil {
			return nil, err
		}
	}
	for _, v := range []struct {
		name string
		v    int
	}{{"TuneConfig.M", cfg.M}, {"TuneConfig.MaxM", cfg.MaxM}, {"TuneConfig.MaxExactRows", cfg.MaxExactRows}} {
		if v.v < 0 {
			return nil, &ParamError{Name: v.name, Value: v.v, Want: "a positive number, or zero for the default"}
		}
	}
	switch {
	case cfg.Lambda > 0:
		t.grid = []float64{cfg.Lambda}
	case cfg.Lambdas != nil:
		if err := checkLambdas(cfg.Lambdas); err != nil {
			return nil, err
		}
		t.grid = append([]float64(nil), cfg.Lambdas...)
		sort.Float64s(t.grid)
	default:
		t.grid = LogGrid(1e-12, 10, 66)
	}
	if !cfg.NoIntercept {
		t.extraDF = 1
	}
	if from != nil {
		t.y, t.out.Choice.Intercept = from.y, from.out.Choice.Intercept
	} else if err := t.center(y); err != nil {
		return nil, err
	}
	t.train = make([]int, t.n)
	for i := range t.train {
		t.train[i] = i
	}
	if t.crit == CriterionHoldout {
		if t.n < 3 {
			return nil, &TuneError{Problem: fmt.Sprintf("%d rows are too few for a hold-out (at least 3): use gcv", t.n)}
		}
		tr, va, err := t.cfg.Holdout.Split(t.n)
		if err != nil {
			return nil, err
		}
		t.train, t.val = tr, va
	}
	if err := t.chooseMethod(); err != nil {
		return nil, err
	}
	if t.crit == CriterionCV {
		k := cfg.Folds
		if k == 0 {
			k = DefaultFolds
		}
		var err error
		if t.cv, err = newKFolds(x, t.y, t.w, min(k, t.n), cfg.Seed); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// center sets t.y to y less the intercept, the weighted mean of y (zero
// with NoIntercept).
func (t *tuner) center(y []float64) error {
	c := 0.0
	if !t.cfg.NoIntercept {
		sw := 0.0
		for i, v := range y {
			wi := 1.0
			if t.w != nil {
				wi = t.w[i]
			}
			c += wi * v
			sw += wi
		}
		c /= sw
	}
	t.out.Choice.Intercept = c
	t.y = make([]float64, t.n)
	constant := true
	for i, v := range y {
		t.y[i] = v - c
		constant = constant && v == y[0]
	}
	if constant {
		return &TuneError{Problem: fmt.Sprintf("the target is constant (%g on all %d rows): nothing to fit", y[0], t.n), Err: ErrConstantTarget}
	}
	// Every criterion is a mean of squared errors: squares of deviations
	// beyond about 1e150 overflow, below about 1e-150 they lose every digit.
	big := 0.0
	for _, v := range t.y {
		big = math.Max(big, math.Abs(v))
	}
	if !(big >= 1e-150 && big <= 1e150) { // NaN too: a weighted mean that overflowed
		what := "deviations from its mean"
		if t.cfg.NoIntercept {
			what = "values"
		}
		return &ParamError{Name: "target", Value: fmt.Sprintf("%s up to %g", what, big),
			Want: "values whose squares a float64 holds (between 1e-150 and 1e150): rescale the target, for example by a power of ten"}
	}
	return nil
}

// chooseMethod sets t.exact and the Choice's method and reason.
func (t *tuner) chooseMethod() error {
	ch := &t.out.Choice
	maxExact := t.cfg.MaxExactRows
	if maxExact == 0 {
		maxExact = DefaultMaxExactRows
	}
	memErr := checkAlloc("kernel and distance matrices", 2*t.n, t.n)
	switch t.cfg.Method {
	case "", "auto":
		switch {
		case t.crit == CriterionLOO:
			t.exact, ch.Reason = true, "leave-one-out needs exact KRLS"
		case t.crit == CriterionCV:
			ch.Reason = "cross-validation runs on Nyström paths: NKRLS with m grown until the criterion improves by less than 1%"
		case t.n > maxExact:
			ch.Reason = fmt.Sprintf("n = %d rows is over MaxExactRows = %d: Nyström (NKRLS) with m grown until the criterion improves by less than 1%%", t.n, maxExact)
		case memErr != nil:
			ch.Reason = fmt.Sprintf("the n x n matrices of n = %d rows do not fit the memory limit: Nyström (NKRLS)", t.n)
		default:
			t.exact, ch.Reason = true, fmt.Sprintf("n = %d rows is within MaxExactRows = %d and the memory limit: exact KRLS", t.n, maxExact)
		}
	case "KRLS", "krls":
		if t.crit == CriterionCV {
			return &ParamError{Name: "TuneConfig.Criterion", Value: strconv.Quote(string(t.crit)), Want: "gcv, holdout or loo with method KRLS (cross-validation runs on Nyström paths: method auto or NKRLS)"}
		}
		if memErr != nil {
			return memErr
		}
		t.exact, ch.Reason = true, "method KRLS requested"
	case "NKRLS", "nkrls":
		if t.crit == CriterionLOO {
			return &ParamError{Name: "TuneConfig.Criterion", Value: strconv.Quote(string(t.crit)), Want: "gcv or holdout with method NKRLS (leave-one-out is available for KRLS only)"}
		}
		ch.Reason = "method NKRLS requested"
	default:
		return &ParamError{Name: "TuneConfig.Method", Value: strconv.Quote(t.cfg.Method), Want: "auto, KRLS or NKRLS"}
	}
	ch.Method = "NKRLS"
	if t.exact {
		ch.Method = "KRLS"
	}
	ch.Criterion = t.crit
	if m := min(t.cfg.M, t.n); !t.exact && m > 0 {
		// A fixed m is refused now, not after the stages before it.
		return checkNystromAlloc(m)
	}
	return nil
}

// progress reports one more evaluation of total expected.
func (t *tuner) progress(stage string, total int) {
	t.done++
	if t.cfg.Progress != nil {
		t.cfg.Progress(t.done, max(total, t.done))
	}
	t.status(stage, max(total, t.done))
}

// status calls TuneConfig.Status.
func (t *tuner) status(stage string, total int) {
	if t.cfg.Status == nil {
		return
	}
	left := time.Duration(-1)
	if !t.deadline.IsZero() {
		left = max(0, time.Until(t.deadline))
	}
	t.cfg.Status(TuneStatus{Stage: stage, Done: t.done, Total: total, BestRMSE: math.Sqrt(t.bestScore),
		Elapsed: time.Since(t.start), Left: left, Deadline: t.deadline})
}

// begin reports that stage starts, so that a progress display names the
// stage that runs (Gram statistics, leverage scores, a final fit) rather
// than the last one to finish an evaluation.
func (t *tuner) begin(stage string) {
	t.status(stage, t.done)
}

// affords reports whether work estimated at est leaves time in the budget
// for the final fit (estimated as one more evaluation); always true
// without a budget. When it does not, it records that the budget stopped
// the search at what.
func (t *tuner) affords(est time.Duration, what string) bool {
	if t.deadline.IsZero() || time.Now().Add(est+t.lastEval).Before(t.deadline) {
		return true
	}
	ch := &t.out.Choice
	if !ch.OutOfTime {
		ch.OutOfTime = true
		ch.Warnings = append(ch.Warnings, fmt.Sprintf("the time budget of %v stopped the search before %s (after %v): the model is the best found so far; a larger budget (TimeBudget, -time) may find a better one",
			t.budget, what, time.Since(t.start).Round(time.Second)))
	}
	return false
}

// spare reports whether work estimated at est that the model does not
// need (the error estimate, the learning curve) ends within the budget;
// when it does not, a warning says what is left out (the search is whole:
// OutOfTime is not set).
func (t *tuner) spare(est time.Duration, what, work string) bool {
	if t.deadline.IsZero() || time.Now().Add(est).Before(t.deadline) {
		return true
	}
	t.out.Choice.Warnings = append(t.out.Choice.Warnings, fmt.Sprintf("no %s: %s would take about %v, more than the time budget of %v leaves; a larger budget (TimeBudget, -time) gives it",
		what, work, est.Round(10*time.Millisecond), t.budget))
	return false
}

// stage records a finished stage and its duration (lastStage).
func (t *tuner) stage(format string, args ...any) {
	t.out.Choice.Stages = append(t.out.Choice.Stages, fmt.Sprintf(format, args...))
	now := time.Now()
	if !t.stageEnd.IsZero() {
		t.lastStage = now.Sub(t.stageEnd)
	}
	t.stageEnd = now
}

// run searches sigma, lambda and m (searchKernel), then the kernel family,
// and fits the choice (complete).
func (t *tuner) run(ctx context.Context) error {
	best, err := t.searchKernel(ctx)
	if err != nil {
		return err
	}
	return t.complete(ctx, best)
}

// searchKernel runs the search's stages for the configured kernel (the
// Gaussian one by default): coarse and refine sigmas, the exact path or
// NKRLS's growing m, leverage-score centers; and returns the best choice.
func (t *tuner) searchKernel(ctx context.Context) (sigmaResult, error) {
	ch := &t.out.Choice
	nt := len(t.train)
	init := t.cfg.Sigmas
	switch {
	case t.cfg.Sigma > 0:
		init = []float64{t.cfg.Sigma}
	case init == nil:
		_, l1 := distances(t.fam).(l1DistKernel)
		s0 := medianSigma(t.x, l1)
		init = LogGrid(s0/math.Sqrt(sigmaSpan), s0*math.Sqrt(sigmaSpan), sigmaPoints)
	default:
		init = append([]float64(nil), init...)
		sort.Float64s(init)
	}
	// smallExact: every sigma is scored on the exact path.
	smallExact := t.exact && (nt <= coarseM || t.crit == CriterionLOO && nt <= exactPathRows)
	m := 0
	if !t.exact {
		m = min(nt, refineM)
		if t.cfg.M > 0 {
			m = min(nt, t.cfg.M)
		}
	}
	var (
		res, first []sigmaResult // the last stage's and the first's (widest) results
		b, firstB  int
		walkedOff  bool // a walk down (exact, or Nyström's grow) still improved at its last step
	)
	// search runs one stage and leaves its results in res and b.
	search := func(stage string, ev sigmaEval, err error, grid []float64, ext, refine int, what string) error {
		if err != nil {
			return err
		}
		t0 := time.Now()
		res, b, err = t.searchSigma(ctx, ev, grid, stage, ext, refine)
		if err != nil {
			return err
		}
		if first == nil {
			first, firstB = res, b
		}
		t.stage("%s: %d sigmas on %s, %d rows, %d lambdas: %v", stage, len(res), what, ev.rows(), len(t.grid), time.Since(t0).Round(time.Millisecond))
		return nil
	}
	if len(init) > 1 && !smallExact {
		mc := min(nt, coarseM)
		t.begin("coarse")
		ev, err := t.nystromEval(ctx, mc, nil)
		if err := search("coarse", ev, err, init, sigmaExtensions, refineRounds, fmt.Sprintf("a Nyström path with m = %d", mc)); err != nil {
			return sigmaResult{}, err
		}
		init = neighbours(res, b)
		// The refinement needs more centers than the coarse stage (or, for
		// NKRLS, the fixed m): with as many it would score the same paths.
		mr := min(nt, refineM)
		if !t.exact {
			mr = m
		}
		// Three sigmas at about (mr/mc)^2 times a coarse evaluation's cost.
		refineCost := time.Duration(3 * float64(t.lastEval) * math.Pow(float64(mr)/float64(mc), 2))
		if ((!t.exact && m != mc) || (t.exact && mr > mc)) && !t.affords(refineCost, fmt.Sprintf("the refine stage (m = %d)", mr)) {
			m = mc // the coarse stage's centers are the model's
		} else if (!t.exact && m != mc) || (t.exact && mr > mc) {
			t.begin("refine")
			ev, err := t.nystromEval(ctx, mr, nil)
			if err := search("refine", ev, err, init, 1, 0, fmt.Sprintf("a Nyström path with m = %d", mr)); err != nil {
				return sigmaResult{}, err
			}
			init = neighbours(res, b)
		}
	}
	switch {
	case t.exact && res != nil && nt > exactPathRows:
		// One reduction per sigma: walk down from the Nyström choice.
		t.begin("exact")
		ev, err := t.exactEval(1)
		if err != nil {
			return sigmaResult{}, err
		}
		t0 := time.Now()
		if res, b, walkedOff, err = t.walkDown(ctx, ev, res[b].sigma, "exact"); err != nil {
			return sigmaResult{}, err
		}
		t.stage("exact: %d sigmas on the exact KRLS path (down from the Nyström choice by halves while the criterion improves), %d rows, %d lambdas: %v",
			len(res), ev.rows(), len(t.grid), time.Since(t0).Round(time.Millisecond))
	case t.exact:
		ext, refine := nearExtensions, 0
		if smallExact {
			ext, refine = sigmaExtensions, refineRounds
		}
		t.begin("exact")
		ev, err := t.exactEval(len(init) + 2*refine)
		if err := search("exact", ev, err, init, ext, refine, "the exact KRLS path"); err != nil {
			return sigmaResult{}, err
		}
	case res == nil:
		t.begin("refine")
		ev, err := t.nystromEval(ctx, m, nil)
		if err := search("refine", ev, err, init, sigmaExtensions, refineRounds, fmt.Sprintf("a Nyström path with m = %d", m)); err != nil {
			return sigmaResult{}, err
		}
	}
	best := res[b]
	// NKRLS: grow m at the chosen sigma.
	if !t.exact && t.cfg.M == 0 {
		limit := t.cfg.MaxM
		if limit == 0 {
			limit = maxM
		}
		for m < min(nt, limit) {
			t0 := time.Now()
			m2 := min(2*m, nt, limit)
			// A screen and an evaluation at twice the centers: the Gram
			// pass grows 4 times, the folds' reductions 8 times; and then
			// the final fit at m2, about one Gram pass (on 50,000 x 50 rows
			// the stage from 2000 to 4000 centers took 1.7 times the one
			// before it, and the final fit 1.1 times).
			if !t.affords(max(8*t.lastEval, 3*t.lastStage), fmt.Sprintf("growing m to %d", m2)) {
				break
			}
			t.begin("grow")
			ev, err := t.nystromEval(ctx, m2, nil)
			if err != nil {
				ch.Warnings = append(ch.Warnings, fmt.Sprintf("m stopped at %d centers: %v", m, err))
				break
			}
			var r sigmaResult
			if m2 <= 2*refineM && t.cfg.Sigma == 0 && t.cv != nil && best.first > 0 {
				// The same walk, screened: only its fold-0 winner is
				// cross-validated, and only when it beats the best by
				// more than 1% on fold 0.
				s, f0, off, serr := t.screenWalk(ctx, ev, best.sigma)
				if serr != nil {
					return sigmaResult{}, serr
				}
				if gain := (best.first - f0) / best.first; !(gain > 0.01) {
					t.stage("grow: m = %d screened out on fold 1 of %d: %.4g at sigma %.4g (the best of a walk down from %.4g) against %.4g at sigma %.4g (%+.2f%%): %v",
						m2, t.cv.k(), f0, s, best.sigma, best.first, best.sigma, -100*gain, time.Since(t0).Round(time.Millisecond))
					break
				}
				walkedOff = walkedOff || off
				r, err = t.evalSigma(ctx, ev, s, "grow", 0)
			} else if m2 <= 2*refineM && t.cfg.Sigma == 0 {
				// With few centers the Nyström criterion is nearly flat in
				// sigma and favours large ones, whose kernels are nearly
				// low-rank; with more centers smaller sigmas pay off (on
				// 100,000 rows of the benchmark's synthetic problem the
				// m = 500 stage chose sigma 30, GCV 0.163, where sigma 8
				// scores 0.087 at m = 2000). The criterion is not unimodal
				// along the way (at n = 10,000 sigma 28 scored worse than
				// 40): the same walk as the exact stage.
				var res []sigmaResult
				var b int
				var off bool
				res, b, off, err = t.walkDown(ctx, ev, best.sigma, "grow")
				if err == nil {
					r = res[b]
					walkedOff = walkedOff || off
				}
			} else if ok, serr := t.screenedGrowth(ctx, ev, best, m2); serr != nil {
				return sigmaResult{}, serr
			} else if !ok {
				break
			} else {
				r, err = t.evalSigma(ctx, ev, best.sigma, "grow", 0)
			}
			if err != nil {
				return sigmaResult{}, err
			}
			gain := (best.score() - r.score()) / best.score()
			t.stage("grow: m = %d scores %.4g (%+.2f%%) at sigma %.4g: %v", m2, r.score(), -100*gain, r.sigma, time.Since(t0).Round(time.Millisecond))
			m = m2
			if r.score() < best.score() {
				best = r
			}
			if !(gain > 0.01) {
				break
			}
			if m == min(nt, limit) && m < nt {
				ch.Warnings = append(ch.Warnings, fmt.Sprintf("m reached MaxM = %d centers with the criterion still improving by more than 1%%", m))
			}
		}
	}
	if !t.exact {
		ch.Centers = "uniform"
		var err error
		if best, err = t.tryLeverageCenters(ctx, best); err != nil {
			return sigmaResult{}, err
		}
	}
	if len(first) > 1 && t.cfg.Sigma == 0 {
		if firstB == 0 || walkedOff {
			ch.Edges = append(ch.Edges, "sigma min")
		}
		if firstB == len(first)-1 && best.sigma >= first[firstB].sigma { // a walk down leaves the edge
			ch.Edges = append(ch.Edges, "sigma max")
		}
	}
	if err := t.checkChoice(res, best); err != nil {
		return sigmaResult{}, err
	}
	return best, nil
}

// complete tries the Matérn and Manhattan kernels on best's centers
// (tryFamilies; default kernel and criterion), then fits the choice on
// all rows (finish).
func (t *tuner) complete(ctx context.Context, best sigmaResult) error {
	if t.cfg.Family == "" && t.cfg.Sigma == 0 && t.cv != nil {
		if t.n < minMaternRows {
			t.stage("family: the Gaussian kernel kept: other families are tried from %d rows", minMaternRows)
		} else {
			var err error
			if best, err = t.tryFamilies(ctx, best); err != nil {
				return err
			}
		}
	}
	return t.finish(ctx, best)
}

// checkChoice returns an error when the criterion is NaN everywhere or
// flat over the last stage, and records lambda grid edges hit.
func (t *tuner) checkChoice(res []sigmaResult, best sigmaResult) error {
	ch := &t.out.Choice
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range res {
		for _, s := range r.scores {
			if !math.IsNaN(s.score) {
				lo, hi = math.Min(lo, s.score), math.Max(hi, s.score)
			}
		}
	}
	if best.best < 0 || math.IsInf(lo, 1) {
		return &TuneError{Problem: fmt.Sprintf("the %s criterion is NaN or infinite at every sigma and lambda tried (lambdas %g to %g): the systems could not be solved or are too flexible to score", t.crit, t.grid[0], t.grid[len(t.grid)-1]), Err: ErrFlatCriterion}
	}
	if len(res)*len(t.grid) > 1 && hi-lo <= 1e-9*math.Abs(lo) {
		return &TuneError{Problem: fmt.Sprintf("the %s criterion is flat (%.6g) over every sigma and lambda tried: the features carry no signal the kernel can use", t.crit, lo), Err: ErrFlatCriterion}
	}
	if len(t.grid) > 1 {
		if best.best == 0 {
			ch.Edges = append(ch.Edges, "lambda min")
		}
		if best.best == len(t.grid)-1 {
			ch.Edges = append(ch.Edges, "lambda max")
		}
	}
	for _, e := range ch.Edges {
		ch.Warnings = append(ch.Warnings, fmt.Sprintf("the best value sits at the %s end of its grid (after extension): the optimum may lie beyond it", e))
	}
	return nil
}

// finish fits the chosen model on all rows and fills the Choice.
func (t *tuner) finish(ctx context.Context, best sigmaResult) error {
	ch := &t.out.Choice
	ls := best.scores[best.best]
	ch.Sigma, ch.Lambda, ch.Kernel = best.sigma, ls.lambda, t.fam(best.sigma)
	ch.Score, ch.ValRMSE = ls.score, math.Sqrt(ls.score)
	ch.FoldRMSE = ls.folds
	t.begin("model")
	t0 := time.Now()
	if !t.exact && best.m >= t.n && best.centers == nil {
		// Every row is a center: the Nyström model is exact KRLS, which
		// one Cholesky solve fits more cheaply.
		t.exact, ch.Method = true, "KRLS"
		ch.Centers = ""
		ch.Reason = fmt.Sprintf("cross-validation on Nyström paths reached every row as a center (m = n = %d): exact KRLS", t.n)
	}
	var fit *Fit
	var err error
	// Lambdas below the chosen one may fail by Cholesky where the path's
	// tridiagonal solve succeeded: move up the grid until one succeeds.
	for j := best.best; j < len(best.scores); j++ {
		l := best.scores[j].lambda
		if e := t.lastExact; e != nil && e.nv == 0 && e.lastSigma == best.sigma {
			// The last exact reduction is the chosen sigma's: solve from it.
			fit, err = e.fit(ch.Kernel, l)
		} else if t.exact {
			fit, err = krls(ctx, t.x, t.y, KRLSConfig{Kernel: ch.Kernel, Lambda: l, Weights: t.w})
		} else {
			fit, err = nkrls(ctx, t.x, t.y, NKRLSConfig{Kernel: ch.Kernel, Lambda: l, Weights: t.w,
				Nystrom: NystromConfig{M: best.m, Seed: t.cfg.Seed, Sampler: best.centers}})
		}
		if err == nil {
			if j != best.best {
				ch.Warnings = append(ch.Warnings, fmt.Sprintf("lambda = %g is not numerically positive definite for the final Cholesky solve; used lambda = %g", ch.Lambda, l))
				ch.Lambda = l
			}
			break
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if err != nil {
		return err
	}
	if !t.exact {
		ch.M = fit.Rank
	}
	fit.Model.Intercept = ch.Intercept
	fit.Model.Bounds = t.bounds()
	fit.ValRMSE = ch.ValRMSE
	fit.Path = fit.Path[:0]
	for _, s := range best.scores {
		fit.Path = append(fit.Path, PathPoint{Lambda: s.lambda, TrainRMSE: s.train, ValRMSE: math.Sqrt(s.score)})
	}
	took := time.Since(t0)
	t.stage("model: %s on %d rows: %v", ch.Method, t.n, took.Round(time.Millisecond))
	t.out.Fit = fit
	if t.cv != nil && !t.cfg.SearchOnly && t.spare(time.Duration(len(t.cv.end))*took, "pool RMSE estimate", fmt.Sprintf("its %d out-of-fold refits", len(t.cv.end))) {
		t.begin("estimate")
		t0 = time.Now()
		r, w, err := t.outOfFold(ctx, ch.Kernel, ch.Lambda, ch.M, best.centers)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			ch.Warnings = append(ch.Warnings, fmt.Sprintf("no pool RMSE estimate: %v", err))
			return nil
		}
		est, err := EstimatePoolRMSE(r, w, 0.9)
		if err != nil {
			ch.Warnings = append(ch.Warnings, fmt.Sprintf("no pool RMSE estimate: %v", err))
			return nil
		}
		ch.PoolRMSE = &est
		took = time.Since(t0)
		t.stage("pool RMSE: %.4g (90%% interval %.4g to %.4g) from out-of-fold residuals of %d %s: %v", est.RMSE, est.Lo, est.Hi, est.Rows, t.auditRows(), took.Round(time.Millisecond))
		// Cross-validations of 3, F and 2F folds (none for F <= 3): about 4
		// evaluations.
		if f := len(t.cv.end); f > 3 && t.spare(4*t.lastEval, "projected learning curve", fmt.Sprintf("its cross-validations of 3, %d and %d folds", f, 2*f)) {
			t.begin("curve")
			t0 = time.Now()
			c, err := t.projectCurve(ctx, best, est.RMSE)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				ch.Warnings = append(ch.Warnings, fmt.Sprintf("no projected learning curve: %v", err))
				return nil
			}
			if c == nil {
				return nil
			}
			ch.Curve = c
			t.stage("learning curve: RMSE %.4g at %d rows, %.4g projected at %d and %.4g at %d (RMSE ~ %s): %v",
				c.Projected[0], c.Project[0], c.Projected[1], c.Project[1], c.Projected[2], c.Project[2], c.Formula(), time.Since(t0).Round(time.Millisecond))
		}
	}
	return nil
}

// kernelFamily returns the kernel family TuneConfig.Family names, nil for
// an unknown name ("" is the Gaussian kernel, the automatic search's start).
func kernelFamily(name string) func(sigma float64) Kernel {
	switch name {
	case "", "gaussian", "rbf":
		return func(s float64) Kernel { return GaussianKernel{Sigma: s} }
	case "laplacian":
		return func(s float64) Kernel { return LaplacianKernel{Sigma: s} }
	case "matern52":
		return func(s float64) Kernel { return MaternKernel{Nu: 2.5, Sigma: s} }
	case "matern32":
		return func(s float64) Kernel { return MaternKernel{Nu: 1.5, Sigma: s} }
	case "manhattan":
		return func(s float64) Kernel { return ManhattanKernel{Sigma: s} }
	}
	return nil
}

// familyM is the most Nyström centers tryFamilies screens and searches
// the kernel families with: with more, a family's sigma search costs
// O(n m^2) a sigma, and on 15,480 rows at m = 2000 the time budget left
// room for one family of three. A variable so that tests reach the
// rescoring at small sizes.
var familyM = 1000

// minMaternRows is the fewest rows on which tryFamilies runs. Below it the
// 5-fold choice of a Matérn kernel overfits: at 60 and 200 rows three of
// the seven Matérn choices measured were 16-24% worse on test than the
// Gaussian kernel, the others 0.4-1.6% better; at 256 rows they gained 1
// and 6.5%, from 500 rows up to 19%, losing at most 0.8%
// (docs/default-fit.md).
const minMaternRows = 250

// tryFamilies scores the Matérn kernels of smoothness 5/2 and 3/2 and the
// Manhattan kernel on the chosen m and centers. Matérn 3/2 is chosen
// unless the Gaussian kernel, Matérn 5/2 or the Manhattan kernel scores
// more than familyMargin lower (then the lowest of those, in that order,
// each over the one kept by the same margin): on the staged tables
// (cadata, cpusmall, space_ga; 300 to 3000 rows) Matérn 3/2 was 3-15%
// better on test than the Gaussian kernel with the same scales in 17 of
// 19 splits (at most 1.3% worse in the others) while the folds' criterion
// mostly called them even, and on smooth synthetic targets, where it was
// up to 37% worse, the criterion favours the Gaussian kernel by more than
// the margin (docs/default-fit.md). A Matérn kernel fits best at a larger
// sigma (on cpusmall, standardized, 2-3 times the Gaussian one for 5/2
// and 4-11 times for 3/2), the Manhattan kernel at 0.5-8 times the median
// L1 distance between rows, so each family is first screened on fold 0 at
// lo and 2 lo times its base (the Gaussian sigma, lo = 2 for 5/2 and 4 for
// 3/2; the median L1 distance, lo = 1, for the Manhattan kernel; paired
// with the choice's fold-0 score, as tuner.screened): Matérn 5/2 and the
// Manhattan kernel pass when they score more than familyMargin lower
// there, Matérn 3/2 unless it scores more than familyMargin higher. The
// families that pass have sigma searched, the lowest screen first, from
// lo/2 to 2 lo times the base, the grid extended while the best sits at
// an end. Cost: 2 screens a family, and about 5 evaluations for a family
// that passes, when the budget affords them.
func (t *tuner) tryFamilies(ctx context.Context, best sigmaResult) (sigmaResult, error) {
	if !t.affords(4*t.lastEval, "trying the Matérn and Manhattan kernels") {
		return best, nil
	}
	t.begin("family")
	t0 := time.Now()
	gauss := t.fam
	// Above familyM centers the families are judged at familyM centers,
	// against the Gaussian kernel there, and the winner rescored at the
	// choice's m.
	ref, stageM := best, best.m
	if best.m > familyM {
		stageM = familyM
		ev, err := t.nystromEval(ctx, stageM, best.centers)
		if err != nil {
			t.out.Choice.Warnings = append(t.out.Choice.Warnings, fmt.Sprintf("other kernel families not tried: %v", err))
			return best, nil
		}
		if ref, err = t.evalSigma(ctx, ev, best.sigma, "family", 0); err != nil {
			return best, err
		}
		ev.release()
	}
	type candidate struct {
		name string // "" for the Gaussian kernel
		r    sigmaResult
	}
	cands := []candidate{{"", ref}}
	var notes []string
	if stageM < best.m {
		notes = append(notes, fmt.Sprintf("judged at m = %d, the Gaussian kernel %.4g there", stageM, ref.score()))
	}
	type family struct {
		name   string
		lo     float64 // the screen's and the search's least sigma over base
		base   float64 // the Gaussian sigma, or the median L1 distance
		screen float64 // the fold-0 score ratio to the Gaussian kernel's below which it passes
		ev     *nystromEvaluator
		f0     float64 // the screen's fold-0 score
	}
	fams := []*family{{name: "matern52", lo: 2, base: best.sigma, screen: 1 - familyMargin},
		{name: "matern32", lo: 4, base: best.sigma, screen: 1 + familyMargin},
		{name: "manhattan", lo: 1, base: medianSigma(t.x, true), screen: 1 - familyMargin}}
	// Screen every family first, then search those that pass, the most
	// promising first, while the budget affords them.
	var passed []*family
	for _, fam := range fams {
		if !t.affords(t.lastEval, "screening "+fam.name) {
			notes = append(notes, fam.name+" not screened: the time budget")
			continue
		}
		// A fresh evaluator: statistics are kept by sigma, not by family.
		t.fam = kernelFamily(fam.name)
		ev, err := t.nystromEval(ctx, stageM, best.centers)
		if err != nil {
			t.fam = gauss
			t.out.Choice.Warnings = append(t.out.Choice.Warnings, fmt.Sprintf("other kernel families not tried: %v", err))
			return best, nil
		}
		fam.ev = ev
		if ref.first > 0 {
			fam.f0 = math.Inf(1)
			for _, s := range []float64{fam.lo * fam.base, 2 * fam.lo * fam.base} {
				v, err := ev.screen(ctx, s)
				if err != nil {
					t.fam = gauss
					return best, err
				}
				fam.f0 = math.Min(fam.f0, v)
			}
			ev.release()
			if !(fam.f0 < fam.screen*ref.first) {
				notes = append(notes, fmt.Sprintf("%s screened out on fold 1 (%+.2f%%)", fam.name, 100*(fam.f0-ref.first)/ref.first))
				continue
			}
		}
		passed = append(passed, fam)
	}
	sort.SliceStable(passed, func(i, j int) bool { return passed[i].f0 < passed[j].f0 })
	for _, fam := range passed {
		if ref.first > 0 && !t.affords(5*t.lastEval, "searching sigma for "+fam.name) {
			notes = append(notes, fam.name+" not searched: the time budget")
			continue
		}
		t.fam = kernelFamily(fam.name)
		res, b, err := t.searchSigma(ctx, fam.ev, LogGrid(fam.lo*fam.base/2, 2*fam.lo*fam.base, 3), "family", nearExtensions, 1)
		fam.ev.release()
		if err != nil {
			t.fam = gauss
			return best, err
		}
		notes = append(notes, fmt.Sprintf("%s %.4g at sigma %.4g", fam.name, res[b].score(), res[b].sigma))
		cands = append(cands, candidate{fam.name, res[b]})
	}
	order := map[string]int{"": -1}
	for i, f := range fams {
		order[f.name] = i
	}
	sort.SliceStable(cands, func(i, j int) bool { return order[cands[i].name] < order[cands[j].name] }) // chooseFamily's order
	scores := make([]float64, len(cands))
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i], scores[i] = c.name, c.r.score()
	}
	win := cands[chooseFamily(names, scores)]
	at := ""
	if win.name != "" && stageM < best.m { // rescore the winner at the choice's m
		cost := time.Duration(float64(t.lastEval) * math.Pow(float64(best.m)/float64(stageM), 2))
		if !t.affords(cost, "rescoring "+win.name+" at m = "+strconv.Itoa(best.m)) {
			win = candidate{"", best}
			notes = append(notes, "no time to rescore at m = "+strconv.Itoa(best.m))
		} else {
			t.fam = kernelFamily(win.name)
			ev, err := t.nystromEval(ctx, best.m, best.centers)
			if err != nil {
				t.fam = gauss
				return best, err
			}
			r, err := t.evalSigma(ctx, ev, win.r.sigma, "family", 0)
			if err != nil {
				t.fam = gauss
				return best, err
			}
			notes = append(notes, fmt.Sprintf("rescored at m = %d, %s %.4g against the Gaussian kernel's %.4g", best.m, win.name, r.score(), best.score()))
			at = fmt.Sprintf(" at m = %d", best.m)
			if w := chooseFamily([]string{"", win.name}, []float64{best.score(), r.score()}); w == 0 {
				win = candidate{"", best}
			} else {
				win.r = r
			}
		}
	}
	gain := (best.score() - win.r.score()) / best.score()
	if win.name == "" {
		t.fam = gauss
		t.stage("family: the Gaussian kernel kept (%.4g; %s): %v", best.score(), strings.Join(notes, ", "), time.Since(t0).Round(time.Millisecond))
		return best, nil
	}
	t.fam = kernelFamily(win.name)
	t.lastExact = nil // its reduction is the Gaussian kernel's: finish must not solve from it
	t.stage("family: %s chosen, %.4g at sigma %.4g%s (%+.2f%% against the Gaussian kernel; %s): %v", win.name, win.r.score(), win.r.sigma, at, -100*gain, strings.Join(notes, ", "), time.Since(t0).Round(time.Millisecond))
	return win.r, nil
}

// chooseFamily returns the index of the family tryFamilies keeps among the
// candidates names (the Gaussian kernel "" first) with criterion scores:
// preferredFamily when present, else the first; then, in order, any other
// whose score is more than familyMargin below the one kept so far.
func chooseFamily(names []string, scores []float64) int {
	win := 0
	for i, n := range names {
		if n == preferredFamily {
			win = i
		}
	}
	for i := range names {
		if i != win && scores[i] < (1-familyMargin)*scores[win] {
			win = i
		}
	}
	return win
}

// preferredFamily is the kernel family tryFamilies chooses unless another
// scores familyMargin lower.
const (
	preferredFamily = "matern32"
	familyMargin    = 0.01
)

// maxCurveSlope is the steepest fall projectCurve extrapolates for the
// error above its floor: RMSE ~ n^-1/2, the parametric rate, which
// kernel ridge regression approaches only for the smoothest targets.
const maxCurveSlope = 0.5

// curveM caps the Nyström centers of projectCurve's cross-validations
// (the model's own m, or every row for KRLS, below it).
const curveM = refineM

// projectCurve measures a learning curve on the rows and anchors it at
// est, the pool RMSE estimate of the chosen model. Measured: the K-fold
// cross-validation MSE, at the least lambda of the grid, of the chosen
// kernel on a Nyström path with min(m, n, curveM) centers (m the model's,
// n for KRLS), for K = 3, the search's folds F and 2F (training on 2/3,
// 4/5 and 9/10 of the rows for F = 5; folds drawn with Seed + 1). Lambda
// is chosen anew at each size, but sigma and the column scales are the
// choice's, tuned for all rows. Weighted rows count as in
// EstimatePoolRMSE (sum_i w_i r_i^2 / sum_i w_i). The model is
//
//	MSE(n) = s (F + a n^-b),   b in [0, 2 maxCurveSlope],
//
// F the noise floor (noiseFloor, at the F-fold lambda), a n^-b fitted
// by least squares in log-log to the measured MSE above F (b clamped,
// the line then through the points' mean; b = 0 where a point is not
// above F), and s = est^2 / (F + a n^-b): the curve passes through est
// at n, whose refits on fresh folds do not share the search's optimism.
// So Floor = sqrt(s F), A = sqrt(s a), B = b/2, projected to n, 1.5 n
// and 2 n rows; nil with fewer than 4 folds. Cost: three passes over the
// rows, 3 + 3F + 1 reductions and one solve,
// O(3 n m d + 3 n m^2 + 4/3 (4 + 3F) m^3).
func (t *tuner) projectCurve(ctx context.Context, best sigmaResult, est float64) (*LearningCurve, error) {
	m := best.m
	if m == 0 || m > t.n {
		m = t.n
	}
	m = min(m, curveM)
	if err := checkNystromAlloc(m); err != nil {
		return nil, err
	}
	idx, err := nystromCenters(ctx, t.x, m, best.centers, t.cfg.Seed)
	if err != nil {
		return nil, err
	}
	sw := float64(t.n)
	if t.w != nil {
		sw = sum(t.w)
	}
	c := &LearningCurve{Method: "default fit"}
	ks := []int{3, len(t.cv.end), 2 * len(t.cv.end)}
	if ks[1] <= 3 {
		return nil, nil
	}
	var mse []float64
	floor := 0.0
	for _, k := range ks {
		if err := checkCVAlloc(k, m, len(t.grid)); err != nil {
			return nil, err
		}
		folds, err := newKFolds(t.x, t.y, t.w, k, t.cfg.Seed+1)
		if err != nil {
			return nil, err
		}
		ev := &nystromEvaluator{t: t, m: m, sampler: best.centers, idx: idx, xt: t.x, yt: t.y, cv: folds}
		sc, err := ev.eval(ctx, best.sigma)
		if err != nil {
			return nil, err
		}
		least, lambda := math.Inf(1), 0.0
		for _, s := range sc {
			if s.score < least {
				least, lambda = s.score, s.lambda
			}
		}
		e := least * float64(t.n) / sw
		if !(e > 0) || math.IsInf(e, 0) {
			return nil, &NumericalError{Op: fmt.Sprintf("a %d-fold cross-validation MSE of %g on the learning curve", k, e)}
		}
		if k == ks[1] {
			if floor, err = noiseFloor(ev.stats, lambda, t.extraDF); err != nil {
				return nil, err
			}
			floor *= float64(t.n) / sw
		}
		c.Labels = append(c.Labels, t.n*(k-1)/k)
		c.RMSE = append(c.RMSE, math.Sqrt(e))
		mse = append(mse, e)
	}
	above := true
	for i := range mse {
		mse[i] -= floor
		above = above && mse[i] > 0
	}
	a, b := 0.0, 0.0
	if above {
		a, b = powerLaw(c.Labels, mse)
		if !(b >= 0 && b <= 2*maxCurveSlope) {
			b = math.Min(math.Max(b, 0), 2*maxCurveSlope)
			if math.IsNaN(b) {
				b = 0
			}
			var mx, my float64
			for i, l := range c.Labels {
				mx += math.Log(float64(l)) / float64(len(c.Labels))
				my += math.Log(mse[i]) / float64(len(c.Labels))
			}
			a = math.Exp(my + b*mx)
		}
	}
	s := est * est / (floor + a*math.Pow(float64(t.n), -b))
	if !(s > 0) || math.IsInf(s, 0) {
		return nil, &NumericalError{Op: fmt.Sprintf("anchoring the learning curve (floor %g, excess %g n^-%g) at the RMSE estimate %g", floor, a, b, est)}
	}
	c.Floor, c.A, c.B = math.Sqrt(s*floor), math.Sqrt(s*a), b/2
	c.Project = []int{t.n, t.n * 3 / 2, 2 * t.n}
	for _, p := range c.Project {
		c.Projected = append(c.Projected, c.At(float64(p)))
	}
	return c, nil
}

// noiseFloor estimates the noise variance from the folds' statistics
// summed (every row): the weighted residual mean square of ridge
// regression on the features at lambda, corrected for its degrees of
// freedom,
//
//	F = RSS_w / (n - df - extraDF),   df = sum_k e_k / (e_k + lambda n),
//
// RSS_w = y^T W y - 2 z^T b + z^T H z at z = (H + lambda n I)^-1 b, e_k the
// eigenvalues of H = Phi^T W Phi, n the rows; 0 where n - df - extraDF is
// not positive. In units of the weights: divide by their mean. Cost: one
// reduction, O(4/3 m^3), and one solve.
func noiseFloor(folds []*GramStats, lambda, extraDF float64) (float64, error) {
	total, err := NewGramStats(folds[0].Dim)
	if err != nil {
		return 0, err
	}
	for _, f := range folds {
		addStats(total, f)
	}
	rp := reduceRidge(total.full().RawMatrix().Data, total.Dim, total.B, pathEigenvalues)
	n := float64(total.Rows)
	mu := lambda * n
	z := make([]float64, total.Dim)
	if !rp.solve(mu, z) {
		return 0, &SingularError{System: "the learning curve's noise floor", Setting: "lambda", Value: fmt.Sprint(lambda)}
	}
	// ||A z - y||^2 = ||y||^2 - z.b - mu ||z||^2 at the solution.
	rss := math.Max(total.YY-vecmath.Dot(z, rp.qb)-mu*vecmath.Dot(z, z), 0)
	df := 0.0
	for _, e := range rp.ev {
		df += e / (e + mu)
	}
	if n-df-extraDF <= 0 {
		return 0, nil
	}
	return rss / (n - df - extraDF), nil
}

// bounds returns Model.Bounds for the training targets: their range
// widened by BoundsMargin of it on each side (nil for constant targets).
func (t *tuner) bounds() []float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range t.y {
		lo, hi = min(lo, v), max(hi, v)
	}
	r := hi - lo
	if !(r > 0) {
		return nil
	}
	c := t.out.Choice.Intercept
	return []float64{c + lo - BoundsMargin*r, c + hi + BoundsMargin*r}
}

// auditRows names the rows outOfFold holds out: "rows", or "audit rows".
func (t *tuner) auditRows() string {
	if t.cfg.Audit != nil {
		return "audit rows"
	}
	return "rows"
}

// outOfFold refits the chosen model (KRLS when m is 0, else NKRLS with m
// centers drawn by sampler, or uniformly) on each fold's complement and
// returns the residuals of the fold's rows and their weights, in the
// folds' order. The folds are drawn anew (seed + 1): the choice minimized
// the criterion on the search's folds, whose residuals are therefore
// biased low. With TuneConfig.Audit the folds hold the audit rows alone,
// the other rows train every fold, and the weights are the audit
// weights. Cost: one fit per fold.
func (t *tuner) outOfFold(ctx context.Context, k Kernel, lambda float64, m int, sampler CenterSampler) (res, w []float64, err error) {
	folds := len(t.cv.end)
	var held []int
	if t.cfg.Audit != nil {
		for i, a := range t.cfg.Audit {
			if a > 0 {
				held = append(held, i)
			}
		}
		folds = min(folds, len(held))
	}
	cv, err := newKFoldsOf(t.x, t.y, t.w, held, folds, t.cfg.Seed+1)
	if err != nil {
		return nil, nil, err
	}
	n, d := cv.x.Dims()
	res = make([]float64, cv.end[len(cv.end)-1])
	lo := 0
	for _, hi := range cv.end {
		nt := n - (hi - lo)
		if err := checkAlloc("out-of-fold training rows", nt, d); err != nil {
			return nil, nil, err
		}
		xt := mat.NewDense(nt, d, nil)
		yt := make([]float64, 0, nt)
		var wt []float64
		r := 0
		for i := 0; i < n; i++ {
			if i >= lo && i < hi {
				continue
			}
			copy(xt.RawRowView(r), cv.x.RawRowView(cv.order[i]))
			yt = append(yt, cv.y[i])
			if cv.w != nil {
				wt = append(wt, cv.w[i])
			}
			r++
		}
		var fit *Fit
		var err error
		if m == 0 || m >= nt {
			fit, err = krls(ctx, xt, yt, KRLSConfig{Kernel: k, Lambda: lambda, Weights: wt})
		} else {
			fit, err = nkrls(ctx, xt, yt, NKRLSConfig{Kernel: k, Lambda: lambda, Weights: wt,
				Nystrom: NystromConfig{M: m, Seed: t.cfg.Seed, Sampler: sampler}})
		}
		if err != nil {
			return nil, nil, err
		}
		xf, err := cv.rowsOf("out-of-fold rows", lo, hi)
		if err != nil {
			return nil, nil, err
		}
		pred, err := fit.Model.predict(ctx, xf)
		if err != nil {
			return nil, nil, err
		}
		for i, p := range pred {
			res[lo+i] = cv.y[lo+i] - p
		}
		lo = hi
	}
	if held != nil {
		return res, gather(t.cfg.Audit, cv.order[:len(res)]), nil
	}
	return res, cv.w, nil
}
