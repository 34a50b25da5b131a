package credlab

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"
)

// Criterion names a model-selection criterion of Tune.
type Criterion string

const (
	// CriterionGCV is generalized cross-validation (Golub, Heath and Wahba),
	// computed on all rows:
	//   GCV(lambda) = n ||W^1/2 (y - f)||^2 / (n - 1 - tr H)^2,
	// H the (weighted) hat matrix and 1 the intercept's degree of freedom.
	// It is the default.
	CriterionGCV Criterion = "gcv"
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
	// over Lambdas (default LogGrid(1e-12, 1, 61)), extended when the best
	// value sits at an end.
	Lambda  float64
	Lambdas []float64
	// Criterion is the selection criterion; default CriterionGCV.
	Criterion Criterion
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
	// otherwise m starts at 500 (or n) and doubles while the criterion
	// improves by more than 1%, up to MaxM (default 8000) and the memory
	// limit.
	M    int
	MaxM int
	// Seed seeds the Nyström centers and the subsample of the sigma search.
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
}

// DefaultMaxExactRows is the default TuneConfig.MaxExactRows: the size up to
// which the exact path (one O(10/3 n^3) tridiagonal reduction per sigma)
// takes seconds rather than minutes on two cores.
const DefaultMaxExactRows = 6000

// TuneFit is the result of Tune.
type TuneFit struct {
	// Fit is the chosen model fitted on all rows (on the training rows for
	// CriterionHoldout), with Path the criterion's lambda path at the chosen
	// sigma and m; Model.Intercept holds the intercept.
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
	Kernel Kernel // the chosen kernel, with its sigma
	Sigma  float64
	Lambda float64
	M      int // Nyström centers kept (rank); 0 for KRLS
	// Criterion is the criterion used and Score its value at the choice, an
	// estimate of the mean squared prediction error.
	Criterion Criterion
	Score     float64
	// ValRMSE is the criterion's estimate of the prediction RMSE: the
	// hold-out RMSE for CriterionHoldout, sqrt(Score) otherwise.
	ValRMSE float64
	// Intercept is the (weighted) mean of the target; 0 with NoIntercept.
	Intercept float64
	// Edges lists grid ends the search hit and could not extend past
	// ("sigma max", "lambda min", ...); empty when the optimum is interior.
	Edges []string
	// Warnings are problems the user should know about, in words.
	Warnings []string
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
	// solve failed; ValRMSE is sqrt(Score) (the hold-out RMSE for
	// CriterionHoldout) and TrainRMSE the training RMSE.
	Score     float64
	ValRMSE   float64
	TrainRMSE float64
	// Stage names the search stage: "coarse", "refine" or "final".
	Stage string
}

// TuneError is an error of model selection that no setting of the data can
// avoid silently: Problem says what went wrong in words.
type TuneError struct {
	Problem string
}

func (e *TuneError) Error() string { return "credlab: model selection: " + e.Problem }

// ErrConstantTarget is returned (wrapped in a *TuneError) when the target
// is constant: nothing is left to fit once it is centered.
var ErrConstantTarget = errors.New("the target is constant")

// Tune fits a kernel ridge regression with sigma, lambda and the method
// chosen automatically:
//
//   - the target is centered by its (weighted) mean, an unpenalized
//     intercept kept in Model.Intercept;
//   - sigma is searched on a log grid around the median heuristic (the
//     median distance between rows), refined around the best value and
//     extended while the best value sits at an end; each sigma costs one
//     tridiagonal reduction, after which every lambda costs O(n) for GCV;
//   - exact KRLS is used up to MaxExactRows rows, NKRLS with a growing
//     number of Nyström centers beyond.
//
// x and y are not modified. Tune works on raw features; standardizing them
// first (as frames.Fit does) usually helps.
func Tune(ctx context.Context, x *mat.Dense, y []float64, cfg TuneConfig) (*TuneFit, error) {
	return nil, fmt.Errorf("credlab: Tune is not implemented yet")
}
