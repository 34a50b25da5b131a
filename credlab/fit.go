package credlab

import (
	"math"
	"time"
)

// Fit is the result of an estimator: the model and its record.
type Fit struct {
	// Method names the estimator: "KRLS", "KOLS", "EarlyStopping",
	// "NKRLS", "NYTRO", "LinearRLS", "LinearGD", "SGM", or "KTR3" or
	// "SSSR" (package credlab/baselines). RidgeGram and GradientGram report
	// the method they stand for (NKRLS or LinearRLS, NYTRO or LinearGD);
	// Tune the one it chose (KRLS or NKRLS). Package credlab/distreg's
	// estimators return their own Fit.
	Method string
	Model  *Model

	// Lambda is the regularization parameter used (KRLS, NKRLS); Iter the
	// number of gradient steps (EarlyStopping, NYTRO). Zero when unused.
	Lambda float64
	Iter   int
	// Rank is the numerical rank used by KOLS or of K_mm for Nyström methods.
	Rank int

	// Path holds one point per lambda or iteration examined, in order.
	Path []PathPoint
	// ValRMSE is the validation RMSE of the chosen parameter, NaN when no
	// validation set was used.
	ValRMSE float64
	// AtCap reports that an iterative method's best validation error came
	// in the last 5% of the steps allowed (IterConfig.MaxIter): the error
	// was still falling, and more steps would likely fit better.
	AtCap bool
	// StepSize is the gradient step gamma used by EarlyStopping, NYTRO and
	// LinearGD: the user's or the default (IterConfig.StepSize).
	StepSize float64

	// Iterates maps the iterations listed in IterConfig.Keep to their
	// coefficients on Model.Centers.
	Iterates map[int][]float64

	// Timing splits the wall-clock time of the fit.
	Timing Timing
}

// PathPoint is one step of a regularization path. With importance weights
// w, TrainRMSE and ValRMSE are weighted, sqrt(sum_i w_i (f(x_i) - y_i)^2 / n):
// an unbiased estimate of the risk on the pool the points were drawn from.
type PathPoint struct {
	Lambda    float64 // for Tikhonov methods
	Iter      int     // for iterative methods
	TrainRMSE float64
	ValRMSE   float64 // NaN without a validation set
}

// Timing is the time spent in each phase of a fit.
type Timing struct {
	Kernel time.Duration // kernel evaluations
	Solve  time.Duration // factorizations and iterations
	// Select is validation and choice of parameter. Iterative methods
	// update validation predictions inside each step's matrix-vector
	// product, so their validation cost is counted in Solve.
	Select time.Duration
}

// Total is the sum of the phases.
func (t Timing) Total() time.Duration { return t.Kernel + t.Solve + t.Select }

// wrmse is sqrt(sum_i w_i (pred_i - y_i)^2 / n), the square root of the
// importance-weighted empirical risk; w nil means all weights 1.
func wrmse(pred, y, w []float64) float64 {
	if w == nil {
		return rmse(pred, y)
	}
	if len(y) == 0 {
		return math.NaN()
	}
	s := 0.0
	for i, v := range y {
		d := pred[i] - v
		s += w[i] * d * d
	}
	return math.Sqrt(s / float64(len(y)))
}

func rmse(pred, y []float64) float64 {
	if len(y) == 0 {
		return math.NaN()
	}
	s := 0.0
	for i, v := range y {
		d := pred[i] - v
		s += d * d
	}
	return math.Sqrt(s / float64(len(y)))
}

// RMSE returns the root mean squared error between predictions and
// targets, sqrt(sum_i (pred_i - y_i)^2 / n); NaN when y is empty or pred
// and y differ in length. O(n).
func RMSE(pred, y []float64) float64 {
	if len(pred) != len(y) {
		return math.NaN()
	}
	return rmse(pred, y)
}
