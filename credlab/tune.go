package credlab

import (
	"context"
	"errors"
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

// TuneConfig configures Tune. The zero value searches the column scales,
// sigma and lambda of a Gaussian kernel by 5-fold cross-validation, with
// the method chosen automatically, within DefaultTimeBudget.
type TuneConfig struct {
	// Family is the kernel family searched: "" (the default: the Gaussian kernel,
	// then the Matérn kernels of smoothness 5/2 and 3/2 and the Manhattan
	// kernel tried at the chosen scales and m, Matérn 3/2 kept unless
	// another criterion is lower by more than 1%; with CriterionCV and
	// sigma searched), "gaussian", "matern52", "matern32", "manhattan" or
	// "laplacian".
	Family string
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
	// Audit, if not nil, marks the rows of an audit sample (a
	// BatchSelector's Audit rows, Selection.Audit): each row's
	// Horvitz-Thompson weight 1/pi, 0 for rows not in it. PoolRMSE then
	// comes from the audit rows alone, out of fold, weighted by Audit:
	// the model's RMSE on the pool even when the other rows were chosen
	// by a method that is not a probability sample. At least 2 rows must
	// be audit rows.
	Audit []float64
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
	// Transform is TransformAuto ("" or "auto", the default: the skewed
	// columns, |skewness| above SkewThreshold, mapped to normal scores
	// (NormalScores) when that lowers the relevance stage's validation
	// error on its held-out rows, or without them the isotropic
	// leave-one-out error on its subsample, by 2%; not tried when Sigma,
	// Sigmas or Scales are given), TransformOff or TransformNormal (mapped
	// whenever a column is skewed). The search and the model then work on
	// the mapped columns (Model.Transform, Choice.Transform).
	Transform string
	// TimeBudget bounds the whole call: zero means DefaultTimeBudget,
	// negative no bound. Each stage of the search (the relevance stage,
	// another sigma, a doubling of m, leverage-score centers) starts only
	// when its cost, estimated from the evaluations before it, leaves time
	// for the final fit; when the budget stops the search, the model is the
	// best found so far and Choice.OutOfTime and a warning say so. Within the
	// budget the result depends on the seed only; a search the budget cut
	// short depends on the machine's speed too.
	TimeBudget time.Duration
	// SearchOnly skips the estimates that follow the final fit, for a
	// caller that needs the choice alone (a selector's kernel):
	// Choice.PoolRMSE and Choice.Curve stay nil.
	SearchOnly bool
	// Status, if not nil, is called when a stage starts and after each
	// evaluation, with the stage, the best criterion so far and the time
	// left.
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
	// Stage names the stage that runs: the search's "transform" (skewed
	// columns; before or within "relevance"), "relevance", "coarse",
	// "refine", "exact", "grow", "centers" and "family", then "model" (the
	// fit on all rows), "estimate" (the out-of-fold refits of the pool
	// RMSE estimate) and "curve" (the learning curve's projection).
	Stage string
	// Done evaluations of Total expected (Total may grow; at a stage's
	// start, Total is Done).
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
	// Transform is the normal-score map of skewed columns the model
	// applies before its kernel (Model.Transform; TuneConfig.Transform),
	// nil when the columns are used as they are. Scales, Sigma and the
	// centers are those of the mapped columns.
	Transform *NormalScores
	Lambda    float64
	M         int // Nyström centers kept (rank); 0 for KRLS
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
	// PoolRMSE estimates the model's RMSE on the population the rows
	// represent, with an interval (EstimatePoolRMSE at level 0.9), from
	// out-of-fold residuals: the chosen model, refitted on each fold's
	// complement, predicts the fold. The folds are drawn anew (Seed + 1),
	// as the choice is biased towards the search's own. Nil without
	// CriterionCV, with TuneConfig.SearchOnly, or when the time budget left
	// no room for the refits (a warning says so).
	// Weighted by Weights, it is the pool's RMSE when the rows are a
	// probability sample of the pool with weights 1/pi (uniform or CRED
	// labeling); rows a batch method chose represent themselves only,
	// and with TuneConfig.Audit only the audit rows are held out.
	// Measured, it is optimistic (5-20% on a few hundred rows of skewed
	// pools, docs/labeling.md): the choice was tuned on the same rows, and
	// few rows miss a skewed target's tails.
	PoolRMSE *RMSEEstimate
	// Curve is a learning curve measured on the same rows and projected
	// (tuner.projectCurve): the 3-, 5- and 10-fold cross-validation RMSE
	// of the chosen kernel, lambda chosen anew at each size (training on
	// 2/3, 4/5 and 9/10 of the rows); a noise floor, the residual mean
	// square of the fit on every row over its residual degrees of freedom;
	// the MSE above the floor fitted by a n^-b, b within [0, 1]; the whole
	// scaled to pass through PoolRMSE at the rows. So RMSE(n) =
	// sqrt(Floor^2 + (A n^-B)^2), evaluated at the rows, 1.5 and 2 times
	// the rows (Project, Projected): the RMSE to expect from more labels
	// drawn the same way; B = 0 when the error above the floor did not
	// fall with the rows, which then tell nothing about more labels. Like
	// PoolRMSE it is optimistic where the rows miss a skewed target's
	// tails (docs/labeling.md). Nil without PoolRMSE, with fewer than 4
	// folds, with TuneConfig.SearchOnly, or when the budget left no room
	// for it (a warning says so).
	Curve *LearningCurve
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

// Tune fits a kernel ridge regression with sigma, lambda, the method and,
// for the Gaussian kernel, one scale per column chosen automatically.
//
// Column scales (TuneConfig.Relevance, default "auto"): LearnScales learns
// them with lambda on a seeded subsample of DefaultRelevanceRows rows, from
// the exact leave-one-out error's gradients. With at least 1000 other rows,
// exact KRLS with the learned scales and with the best shared scale (both
// fitted on the subsample) predict up to 2000 held-out rows, and the scales
// are kept when they lower the validation error by 2%; with fewer rows,
// the search below runs with and without them up to the kernel family,
// the lower criterion wins by 2%, and the family stage and the final fit
// run for the winner alone. Kept scales multiply the columns (a column scaled to zero is left
// out), the search runs on the scaled rows, and the model's kernel carries
// the scales (GaussianKernel.Scales; Choice.Scales and Choice.Relevance).
//
// Skewed columns (TuneConfig.Transform, default "auto"): columns of
// |skewness| above SkewThreshold with at least 3 values are mapped to
// normal scores through their distribution on the rows (NormalScores)
// when that validates better by 2%: with the relevance stage's held-out
// rows, its scales are learned and validated on the mapped columns too,
// and the mapped columns win when the candidate the stage keeps (one
// scale or the learned ones) has the lower validation error; otherwise
// the least leave-one-out error of one shared scale on the relevance
// subsample decides, before the search. Everything after (the scales,
// sigma, the centers) then refers to the mapped columns, and the model
// maps the rows it predicts (Model.Transform, Choice.Transform).
//
// The search of sigma, lambda and the method:
//
//   - the target is centered by its (weighted) mean, an unpenalized
//     intercept kept in Model.Intercept;
//   - coarse: a sigma search on a Nyström path with 500 centers on all
//     rows: a log grid of 8 values over a 16-fold range around the median
//     heuristic (the median distance between rows), extended while the
//     best value sits at an end, refined twice around the best value. Each
//     sigma costs O(n m^2) for the features and their Gram matrix and one
//     O(4/3 m^3) tridiagonal reduction, then O(m) per lambda for GCV;
//   - refine: the same with 1000 centers on the best sigma and its
//     neighbours' midpoints;
//   - exact KRLS (GCV, LOO and hold-out: up to MaxExactRows rows and the
//     memory limit): lambda is
//     chosen on the exact path, one tridiagonal reduction of the n x n
//     kernel matrix then O(n) per lambda. Up to exactPathRows (1500) rows
//     it scores the refined sigma and its two neighbours (from squared
//     distances computed once); beyond, the refined sigma, its half and
//     its quarter, and further halves while the smallest is the best (at
//     most two more), since Nyström paths favour large sigmas. The model comes from the chosen sigma's
//     reduction when it was the last one made, else from one more;
//   - NKRLS beyond: m starts at 1000 and doubles while the criterion
//     improves by more than 1%; at the first doubling (m = 2000), sigma
//     walks down from the best one as in the exact stage (walkDown), and
//     the walk's best is kept. Each evaluation costs O(n m^2).
//     Last, leverage-score centers (LeverageCenters) are scored at the
//     chosen sigma and m and kept when the criterion is lower
//     (Choice.Centers).
//
// Kernel family (TuneConfig.Family ""): at the chosen centers (at most
// familyM = 1000 of them, the winner rescored at the chosen m), the
// Matérn kernels of smoothness 5/2 and 3/2 (MaternKernel) search sigma up
// from the Gaussian choice's and the Manhattan kernel (ManhattanKernel,
// the L1 distance) from the median L1 distance, on the same scaled
// columns; Matérn 3/2 is kept unless the Gaussian kernel, Matérn 5/2 or
// the Manhattan kernel has a criterion lower by more than 1%
// (tuner.tryFamilies; Choice.Kernel says which). Below 250 rows
// (minMaternRows) the Gaussian kernel is kept.
//
// With the default criterion, 5-fold cross-validation (CriterionCV),
// every stage runs on Nyström paths (centers drawn from all rows, as the
// final model's): each sigma costs one pass over the rows, O(n m^2), and
// one O(4/3 m^3) reduction to band form per fold (cvScores), m grows as
// above, and a candidate (a halving of sigma, the walk at m = 2000, a
// doubling of m, leverage-score centers) is first screened on fold 0
// alone, one reduction, and cross-validated only when it wins there; a
// doubling of m to as many centers as fold 0 trains on rows is screened
// by exact KRLS on those rows instead (screenedGrowth); when m reaches n
// (every row a center) the model is exact KRLS, fitted by one Cholesky
// solve. With GCV or LOO, problems with at most 500 rows skip
// the Nyström stages: every sigma is scored on the exact path. x and y are
// not modified. Tune works on raw
// features; standardizing them first (as frames.Fit does) usually helps.
func Tune(ctx context.Context, x *mat.Dense, y []float64, cfg TuneConfig) (*TuneFit, error) {
	start := time.Now()
	t, err := newTuner(x, y, cfg)
	if err != nil {
		return nil, err
	}
	n, d := x.Dims()
	learn, err := relevanceFor(cfg, n, d)
	if err != nil {
		return nil, err
	}
	cand, forced, err := t.transformCandidate(x)
	if err != nil {
		return nil, err
	}
	// With held-out rows the relevance stage compares the map's columns and
	// x's; otherwise the map is chosen first, on leave-one-out errors.
	heldOut := learn && n-min(n, DefaultRelevanceRows) >= minRelevanceVal
	var warp, alt *NormalScores
	how := ""
	switch {
	case cand == nil:
	case forced:
		warp, how = cand, transformWhat(cand, d)+" mapped to normal scores (TuneConfig.Transform)"
	case heldOut:
		alt = cand
	default:
		if warp, how, err = t.looTransform(ctx, x, y, cand); err != nil {
			return nil, err
		}
	}
	if warp != nil {
		if x, err = warp.Apply(x); err != nil {
			return nil, err
		}
		if t, err = continuedTuner(x, y, cfg, t); err != nil {
			return nil, err
		}
	}
	var out *TuneFit
	switch {
	case cfg.Scales != nil:
		out, err = tuneScaled(ctx, x, y, cfg, cfg.Scales, "fixed by TuneConfig.Scales", t)
	case learn:
		var used *NormalScores
		var note string
		if out, used, note, err = tuneRelevance(ctx, t, x, y, cfg, alt); used != nil {
			warp = used
		}
		if note != "" {
			how = note
		}
	default:
		err = t.run(ctx)
		out = t.out
	}
	if err != nil {
		return nil, err
	}
	if how != "" {
		out.Choice.Stages = append([]string{how}, out.Choice.Stages...)
	}
	out.Choice.Transform, out.Fit.Model.Transform = warp, warp
	out.Choice.Elapsed = time.Since(start)
	return out, nil
}
