package credlab

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"time"

	"gonum.org/v1/gonum/mat"
)

// Criterion names a model-selection criterion of Tune.
type Criterion string

const (
	// CriterionGCV is generalized cross-validation (Golub, Heath and Wahba)
	// in the modified form of Kim and Gu (2004), computed on all rows:
	//   GCV(lambda) = n ||W^1/2 (y - f)||^2 / (n - 1 - 1.4 tr H)^2,
	// H the (weighted) hat matrix and 1 the intercept's degree of freedom;
	// the factor 1.4 counters plain GCV's tendency to choose too small a
	// lambda.
	CriterionGCV Criterion = "gcv"
	// CriterionCV is K-fold cross-validation (TuneConfig.Folds, default 5,
	// rows dealt by TuneConfig.Seed): the mean over all rows of
	// w_i (y_i - f_-f(i)(x_i))^2, f_-f the model trained without row i's
	// fold. It is the default. It runs on Nyström paths, where the folds'
	// Gram statistics add up (cvScores): one pass over the rows, then one
	// O(4/3 m^3) reduction to band form per fold and sigma (bandPath).
	// Unlike GCV it does not assume the hat matrix's trace measures the
	// fit's flexibility evenly (on cadata GCV chose far smaller lambdas and
	// a worse model than 5-fold cross-validation: docs/benchmarks.md).
	CriterionCV Criterion = "cv"
	// CriterionHoldout trains on a seeded share of the rows (Holdout) and
	// scores the mean squared error on the rest.
	CriterionHoldout Criterion = "holdout"
	// CriterionLOO is exact leave-one-out, the mean of
	// w_i (y_i - f_-i(x_i))^2 = (W^1/2 (y - f))_i^2 / (1 - H_ii)^2 on all
	// rows. It needs eigenvectors (O(n^2) memory, O(n^2) per lambda), so it is
	// available up to MaxLOORows rows.
	CriterionLOO Criterion = "loo"
)

// MaxLOORows is the largest number of rows for CriterionLOO.
const MaxLOORows = 3000

// TuneConfig configures Tune. The zero value searches sigma and lambda of a
// Gaussian kernel by GCV with the method chosen automatically.
type TuneConfig struct {
	// Kernel is the family searched: "gaussian" (default) or "laplacian".
	Kernel string
	// Sigma, when positive, fixes the bandwidth; otherwise sigma is
	// searched. Sigmas, when not nil, replaces the initial sigma grid (the
	// search still refines and extends it).
	Sigma  float64
	Sigmas []float64
	// Lambda, when positive, fixes lambda; otherwise lambda is searched
	// over Lambdas (default LogGrid(1e-12, 10, 66), 5 values a decade,
	// every one O(n) once sigma is reduced). The floor keeps the condition
	// number of K + lambda n I below about 1e12 (smooth targets can need
	// lambdas near it, while smaller ones extrapolate wildly on rows unlike
	// the training rows: docs/benchmarks.md). A best value at
	// an end of the grid is listed in Choice.Edges with a warning.
	Lambda  float64
	Lambdas []float64
	// Criterion is the selection criterion; default CriterionCV
	// (CriterionGCV with Method KRLS).
	Criterion Criterion
	// Folds is the number of folds of CriterionCV; default DefaultFolds
	// (5), at most the number of rows.
	Folds int
	// Holdout sets the split of CriterionHoldout (default fraction 0.2,
	// seed 0); other criteria use all rows.
	Holdout Holdout
	// Method is "" or "auto" (default: exact KRLS up to MaxExactRows rows
	// when its n x n matrices fit the memory limit, NKRLS beyond), "KRLS"
	// or "NKRLS".
	Method string
	// MaxExactRows is the largest number of training rows for which the
	// automatic method uses exact KRLS; default DefaultMaxExactRows.
	MaxExactRows int
	// M, when positive, fixes the number of Nyström centers of NKRLS;
	// otherwise m starts at 1000 (or n) and doubles while the criterion
	// improves by more than 1%, up to MaxM (default 8000) and the memory
	// limit.
	M    int
	MaxM int
	// Seed seeds the Nyström centers (of the search stages and of NKRLS).
	Seed uint64
	// NoIntercept fits without the intercept: the target is not centered.
	NoIntercept bool
	// Weights, if not nil, are per-row importance weights w_i > 0: the loss
	// and every criterion are weighted, and the intercept is the weighted
	// mean of y.
	Weights []float64
	// Progress, if not nil, is called with (done, total) as the search
	// advances; total may grow when a grid is extended.
	Progress func(done, total int)
	// Relevance is RelevanceAuto ("" or "auto", the default: one scale per
	// column learned and kept when it validates better, for the Gaussian
	// kernel with sigma searched and at least 2 columns) or RelevanceOff
	// (one shared scale). Scales, when not nil, fixes the per-column scales
	// (GaussianKernel.Scales; sigma is searched on the scaled columns).
	Relevance string
	Scales    []float64
	// TimeBudget bounds the whole call: zero means DefaultTimeBudget,
	// negative no bound. Each stage of the search (the relevance stage,
	// another sigma, a doubling of m, leverage-score centers) starts only
	// when its cost, estimated from the evaluations before it, leaves time
	// for the final fit; when the budget stops the search, the model is the
	// best found so far and Choice.OutOfTime and a warning say so. Within the
	// budget the result depends on the seed only; a search the budget cut
	// short depends on the machine's speed too.
	TimeBudget time.Duration
	// Status, if not nil, is called after each evaluation with the stage,
	// the best criterion so far and the time left.
	Status func(TuneStatus)
}

// DefaultTimeBudget is the default TuneConfig.TimeBudget: it keeps default
// fits of up to 50,000 rows and 50 columns under two minutes on two cores.
const DefaultTimeBudget = 100 * time.Second

// zeroBudget is the budget of a zero TuneConfig.TimeBudget:
// DefaultTimeBudget, or none in this package's tests (TestMain), whose
// searches must not depend on the machine's speed.
var zeroBudget = DefaultTimeBudget

// TuneStatus is a progress report of Tune.
type TuneStatus struct {
	Stage string // "relevance", "coarse", "refine", "exact", "grow", "centers"
	// Done evaluations of Total expected (Total may grow).
	Done, Total int
	// BestRMSE is the square root of the lowest criterion so far (NaN
	// before the first).
	BestRMSE float64
	// Elapsed is the time since Tune started and Left the time left in
	// the budget (negative: no budget); Deadline is the budget's end (zero:
	// no budget).
	Elapsed, Left time.Duration
	Deadline      time.Time
}

// DefaultMaxExactRows is the default TuneConfig.MaxExactRows: the size up to
// which the exact stage (one O(4/3 n^3) tridiagonal reduction of the n x n
// kernel matrix) takes seconds rather than minutes on two cores.
const DefaultMaxExactRows = 6000

// TuneFit is the result of Tune.
type TuneFit struct {
	// Fit is the chosen model fitted on all rows (CriterionHoldout too), with
	// Path the criterion's lambda path at the chosen sigma and m (ValRMSE
	// is sqrt of the criterion) and ValRMSE the choice's; Model.Intercept
	// holds the intercept.
	Fit *Fit
	// Choice records what was chosen and why.
	Choice Choice
	// Table holds every (sigma, lambda, m) evaluated, in order.
	Table []TunePoint
}

// Choice is the record of an automatic model selection.
type Choice struct {
	Method string // "KRLS" or "NKRLS"
	Reason string // why this method, in words
	Kernel Kernel // the chosen kernel, with its sigma (and Scales)
	Sigma  float64
	// Scales are the per-column scales of the kernel (lengthscale
	// Sigma/Scales[j]), nil for one shared scale; ScalesFrom says where
	// they came from ("learned" or "fixed by TuneConfig.Scales").
	Scales     []float64
	ScalesFrom string
	Lambda     float64
	M          int // Nyström centers kept (rank); 0 for KRLS
	// Centers is how NKRLS's centers were drawn: "uniform", or "leverage"
	// (LeverageCenters) when approximate ridge leverage scores gave a lower
	// criterion at the chosen sigma and m; "" for KRLS.
	Centers string
	// Criterion is the criterion used and Score its value at the choice, an
	// estimate of the mean squared prediction error.
	Criterion Criterion
	Score     float64
	// ValRMSE is the criterion's estimate of the prediction RMSE: the
	// hold-out RMSE for CriterionHoldout, sqrt(Score) otherwise; FoldRMSE
	// the held-out RMSE of each fold at the choice (CriterionCV; nil
	// otherwise), whose spread says how much ValRMSE can be trusted.
	ValRMSE  float64
	FoldRMSE []float64
	// Intercept is the (weighted) mean of the target; 0 with NoIntercept.
	Intercept float64
	// Edges lists grid ends the search hit and could not extend past
	// ("sigma max", "lambda min", ...); empty when the optimum is interior.
	Edges []string
	// Warnings are problems the user should know about, in words.
	Warnings []string
	// OutOfTime reports that the time budget stopped the search before it
	// finished (a warning says where).
	OutOfTime bool
	// Stages describes the search: one line per stage with its size and
	// time.
	Stages []string
	// Elapsed is the wall-clock time of Tune.
	Elapsed time.Duration
}

// TunePoint is one evaluation of the criterion.
type TunePoint struct {
	Sigma  float64
	Lambda float64
	M      int // Nyström rank; 0 for exact KRLS
	Rows   int // rows the criterion was computed on
	// Score is the criterion (mean squared error estimate), NaN where the
	// solve failed, +Inf where GCV's denominator n - 1 - 1.4 tr H is not
	// positive; ValRMSE is sqrt(Score) (the hold-out RMSE for
	// CriterionHoldout) and TrainRMSE the training RMSE.
	Score     float64
	ValRMSE   float64
	TrainRMSE float64
	// Stage names the search stage: "coarse" and "refine" (Nyström paths),
	// "exact" (the exact KRLS path) or "grow" (NKRLS's growing m).
	Stage string
}

// TuneError is an error of model selection: Problem says what went wrong
// in words; Err, when not nil, is a sentinel such as ErrConstantTarget.
type TuneError struct {
	Problem string
	Err     error
}

func (e *TuneError) Error() string { return "credlab: model selection: " + e.Problem }

// Unwrap returns Err.
func (e *TuneError) Unwrap() error { return e.Err }

// ErrConstantTarget is returned (wrapped in a *TuneError) when the target
// is constant: nothing is left to fit once it is centered.
var ErrConstantTarget = errors.New("the target is constant")

// ErrFlatCriterion is returned (wrapped in a *TuneError) when the criterion
// is NaN everywhere or takes the same value over the whole grid, so that it
// cannot choose.
var ErrFlatCriterion = errors.New("the criterion cannot choose")

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
}

func newTuner(x *mat.Dense, y []float64, cfg TuneConfig) (*tuner, error) {
	if err := checkXY(x, y); err != nil {
		return nil, err
	}
	if err := checkWeights(cfg.Weights, len(y)); err != nil {
		return nil, err
	}
	t := &tuner{cfg: cfg, x: x, w: cfg.Weights, n: len(y), out: &TuneFit{}, start: time.Now(), bestScore: math.Inf(1)}
	switch {
	case cfg.TimeBudget == 0:
		t.budget = zeroBudget
	case cfg.TimeBudget > 0:
		t.budget = cfg.TimeBudget
	}
	if t.budget > 0 {
		t.deadline = t.start.Add(t.budget)
	}
	switch cfg.Kernel {
	case "", "gaussian", "rbf":
		t.fam = func(s float64) Kernel { return GaussianKernel{Sigma: s} }
	case "laplacian":
		t.fam = func(s float64) Kernel { return LaplacianKernel{Sigma: s} }
	default:
		return nil, &ParamError{Name: "TuneConfig.Kernel", Value: strconv.Quote(cfg.Kernel), Want: "gaussian or laplacian"}
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
	// Center the target: the intercept is the weighted mean.
	c := 0.0
	if !cfg.NoIntercept {
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
		t.extraDF = 1
	}
	t.out.Choice.Intercept = c
	t.y = make([]float64, t.n)
	constant := true
	for i, v := range y {
		t.y[i] = v - c
		constant = constant && v == y[0]
	}
	if constant {
		return nil, &TuneError{Problem: fmt.Sprintf("the target is constant (%g on all %d rows): nothing to fit", y[0], t.n), Err: ErrConstantTarget}
	}
	t.train = make([]int, t.n)
	for i := range t.train {
		t.train[i] = i
	}
	if t.crit == CriterionHoldout {
		if t.n < 3 {
			return nil, &TuneError{Problem: fmt.Sprintf("%d rows are too few for a hold-out (at least 3): use gcv", t.n)}
		}
		tr, va, err := t.cfg.Holdout.split(t.n)
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
// heuristic's bandwidth. O(256^2 d).
func medianSigma(x *mat.Dense) float64 {
	n, _ := x.Dims()
	k := min(n, 256)
	var d []float64
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			d = append(d, math.Sqrt(sqDist(x.RawRowView(i*n/k), x.RawRowView(j*n/k))))
		}
	}
	if len(d) == 0 {
		return 1
	}
	sort.Float64s(d)
	m := d[len(d)/2]
	if !(m > 0) || math.IsInf(m, 0) {
		return 1
	}
	return m
}

func (t *tuner) stage(format string, args ...any) {
	t.out.Choice.Stages = append(t.out.Choice.Stages, fmt.Sprintf(format, args...))
}

func (t *tuner) run(ctx context.Context) error {
	ch := &t.out.Choice
	nt := len(t.train)
	init := t.cfg.Sigmas
	switch {
	case t.cfg.Sigma > 0:
		init = []float64{t.cfg.Sigma}
	case init == nil:
		s0 := medianSigma(t.x)
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
		ev, err := t.nystromEval(ctx, mc, nil)
		if err := search("coarse", ev, err, init, sigmaExtensions, refineRounds, fmt.Sprintf("a Nyström path with m = %d", mc)); err != nil {
			return err
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
			ev, err := t.nystromEval(ctx, mr, nil)
			if err := search("refine", ev, err, init, 1, 0, fmt.Sprintf("a Nyström path with m = %d", mr)); err != nil {
				return err
			}
			init = neighbours(res, b)
		}
	}
	switch {
	case t.exact && res != nil && nt > exactPathRows:
		// One reduction per sigma: walk down from the Nyström choice.
		ev, err := t.exactEval(1)
		if err != nil {
			return err
		}
		t0 := time.Now()
		if res, b, walkedOff, err = t.walkDown(ctx, ev, res[b].sigma, "exact"); err != nil {
			return err
		}
		t.stage("exact: %d sigmas on the exact KRLS path (down from the Nyström choice by halves while the criterion improves), %d rows, %d lambdas: %v",
			len(res), ev.rows(), len(t.grid), time.Since(t0).Round(time.Millisecond))
	case t.exact:
		ext, refine := nearExtensions, 0
		if smallExact {
			ext, refine = sigmaExtensions, refineRounds
		}
		ev, err := t.exactEval(len(init) + 2*refine)
		if err := search("exact", ev, err, init, ext, refine, "the exact KRLS path"); err != nil {
			return err
		}
	case res == nil:
		ev, err := t.nystromEval(ctx, m, nil)
		if err := search("refine", ev, err, init, sigmaExtensions, refineRounds, fmt.Sprintf("a Nyström path with m = %d", m)); err != nil {
			return err
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
			// pass grows 4 times, the folds' reductions 8 times.
			if !t.affords(8*t.lastEval, fmt.Sprintf("growing m to %d", m2)) {
				break
			}
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
					return serr
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
				return serr
			} else if !ok {
				break
			} else {
				r, err = t.evalSigma(ctx, ev, best.sigma, "grow", 0)
			}
			if err != nil {
				return err
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
			return err
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
		return err
	}
	return t.finish(ctx, best)
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

// tryLeverageCenters scores the chosen sigma and m with centers drawn by
// approximate ridge leverage scores (LeverageCenters: BLESS with a
// dictionary of max(400, 2m) rows, about 4 n m^2 for its last pass, then
// one evaluation, 2 n m^2) and returns that result when its criterion is
// lower by more than 1% (the grow stage's margin). It is skipped when m
// covers every training row; a failure of the sampler or of the
// evaluation is a warning, and uniform centers are kept. Uniform
// centers waste m on dense regions; leverage centers follow the rows the
// kernel finds hard to predict (on cpusmall they came within 1% of exact
// KRLS with half the centers, docs/budget.md).
func (t *tuner) tryLeverageCenters(ctx context.Context, best sigmaResult) (sigmaResult, error) {
	if best.m >= len(t.train) {
		return best, nil // every row is a center either way
	}
	if !t.affords(3*t.lastEval, "trying leverage-score centers") {
		return best, nil
	}
	t0 := time.Now()
	ev, err := t.nystromEval(ctx, best.m, LeverageCenters{Kernel: t.fam(best.sigma)})
	if err == nil {
		var ok bool
		if ok, err = t.screened(ctx, ev, best.sigma, best, 0.01, fmt.Sprintf("centers: m = %d leverage-score centers", best.m)); err == nil && !ok {
			return best, nil
		}
	}
	if err == nil {
		var r sigmaResult
		if r, err = t.evalSigma(ctx, ev, best.sigma, "centers", 0); err == nil {
			gain := (best.score() - r.score()) / best.score()
			t.stage("centers: m = %d leverage-score centers score %.4g (%+.2f%% against uniform): %v", best.m, r.score(), -100*gain, time.Since(t0).Round(time.Millisecond))
			if gain > 0.01 {
				t.out.Choice.Centers = "leverage"
				return r, nil
			}
			return best, nil
		}
	}
	if ctx.Err() != nil {
		return best, ctx.Err()
	}
	t.out.Choice.Warnings = append(t.out.Choice.Warnings, fmt.Sprintf("leverage-score centers not tried: %v", err))
	return best, nil
}

// screened reports whether ev at sigma scores lower than best by more
// than the share minGain on fold 0 alone: a paired screen (the same rows
// predicted, one reduction instead of one per fold) before a full
// cross-validation of another sigma, more centers or other centers. With
// other criteria it always passes.
func (t *tuner) screened(ctx context.Context, ev *nystromEvaluator, sigma float64, best sigmaResult, minGain float64, what string) (bool, error) {
	if t.cv == nil || !(best.first > 0) {
		return true, nil
	}
	t0 := time.Now()
	f0, err := ev.screen(ctx, sigma)
	if err != nil {
		return false, err
	}
	gain := (best.first - f0) / best.first
	if gain > minGain {
		return true, nil
	}
	t.stage("%s screened out on fold 1 of %d: %.4g against %.4g at sigma %.4g (%+.2f%%): %v", what, t.cv.k(), f0, best.first, best.sigma, -100*gain, time.Since(t0).Round(time.Millisecond))
	return false, nil
}

// screenedGrowth is screened for a doubling of m to m2 at the best sigma,
// with the grow stage's margin of 1%. Under cross-validation, once m2
// reaches the n_t rows that fold 0's model trains on, exact KRLS on those
// rows (exactScreen: one O(4/3 n_t^3) reduction of their kernel matrix,
// no Nyström features) stands in for the Nyström model of m2 centers,
// whose n m2^2 Gram pass and m2 x m2 reduction cost more and which
// approaches it (about three times faster at n_t = 4000,
// docs/benchmarks.md). Where the exact screen does not fit the memory limit,
// the Nyström screen runs.
func (t *tuner) screenedGrowth(ctx context.Context, ev *nystromEvaluator, best sigmaResult, m2 int) (bool, error) {
	what := fmt.Sprintf("grow: m = %d", m2)
	if t.cv == nil || !(best.first > 0) {
		return t.screened(ctx, ev, best.sigma, best, 0.01, what)
	}
	x0, _, _ := t.cv.fold(0)
	n0, _ := x0.Dims()
	nt := len(t.cv.y) - n0
	if m2 < nt {
		return t.screened(ctx, ev, best.sigma, best, 0.01, what)
	}
	t0 := time.Now()
	f0, err := t.exactScreen(ctx, best.sigma)
	var tooLarge *TooLargeError
	if errors.As(err, &tooLarge) {
		return t.screened(ctx, ev, best.sigma, best, 0.01, what)
	}
	if err != nil {
		return false, err
	}
	gain := (best.first - f0) / best.first
	if gain > 0.01 {
		return true, nil
	}
	t.stage("%s screened out on fold 1 of %d by exact KRLS on the %d rows it trains on (m = %d reaches them): %.4g against %.4g at sigma %.4g (%+.2f%%): %v",
		what, t.cv.k(), nt, m2, f0, best.first, best.sigma, -100*gain, time.Since(t0).Round(time.Millisecond))
	return false, nil
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
			fit, err = KRLS(ctx, t.x, t.y, KRLSConfig{Kernel: ch.Kernel, Lambda: l, Weights: t.w})
		} else {
			fit, err = NKRLS(ctx, t.x, t.y, NKRLSConfig{Kernel: ch.Kernel, Lambda: l, Weights: t.w,
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
	fit.ValRMSE = ch.ValRMSE
	fit.Path = fit.Path[:0]
	for _, s := range best.scores {
		fit.Path = append(fit.Path, PathPoint{Lambda: s.lambda, TrainRMSE: s.train, ValRMSE: math.Sqrt(s.score)})
	}
	t.stage("model: %s on %d rows: %v", ch.Method, t.n, time.Since(t0).Round(time.Millisecond))
	t.out.Fit = fit
	return nil
}
