package credlab

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// RMSEEstimate is an estimate of a model's RMSE over a whole pool from
// labeled audit rows (EstimatePoolRMSE).
type RMSEEstimate struct {
	// RMSE is the point estimate sqrt(MSE); Lo and Hi the ends of the
	// interval at confidence Level.
	RMSE, Lo, Hi, Level float64
	// MSE is the estimated pool mean squared error and SE its standard
	// error; Rows the number of audit rows.
	MSE, SE float64
	Rows    int
}

// EstimatePoolRMSE estimates a model's RMSE on a pool from the residuals
// r_i = y_i - f(x_i) of audit rows the model was not fitted on, drawn from
// the pool with known inclusion probabilities pi_i: weights holds w_i
// proportional to 1/pi_i (nil: a simple random sample, every w_i = 1). The
// estimate is Hajek's ratio MSE = sum w_i r_i^2 / sum w_i, consistent for
// the pool's mean squared error; its variance is linearized as
// V = n/(n-1) sum_i (w_i (r_i^2 - MSE))^2 / (sum w_i)^2 (sampling with
// replacement, conservative without), and the interval at confidence
// level (default 0.9) is exp(log MSE -+ z SE/MSE), square-rooted: on the
// log scale, as squared residuals are right-skewed. O(n).
func EstimatePoolRMSE(residuals, weights []float64, level float64) (RMSEEstimate, error) {
	n := len(residuals)
	if n < 2 {
		return RMSEEstimate{}, emptyf("%d audit residuals: at least 2 are needed for an interval", n)
	}
	if weights != nil && len(weights) != n {
		return RMSEEstimate{}, shapef("%d audit weights for %d residuals", len(weights), n)
	}
	if level == 0 {
		level = 0.9
	}
	if !(level > 0 && level < 1) {
		return RMSEEstimate{}, &ParamError{Name: "level", Value: level, Want: "a confidence level in (0, 1)"}
	}
	w := func(i int) float64 {
		if weights == nil {
			return 1
		}
		return weights[i]
	}
	sw, swr := 0.0, 0.0
	for i, r := range residuals {
		if math.IsNaN(r) || math.IsInf(r, 0) {
			return RMSEEstimate{}, &NotFiniteError{Name: "audit residuals", Row: i, Value: r}
		}
		if wi := w(i); !(wi > 0) || math.IsInf(wi, 0) {
			return RMSEEstimate{}, &ParamError{Name: fmt.Sprintf("weights[%d]", i), Value: wi, Want: "a positive, finite weight 1/pi"}
		}
		sw += w(i)
		swr += w(i) * r * r
	}
	mse := swr / sw
	v := 0.0
	for i, r := range residuals {
		z := w(i) * (r*r - mse)
		v += z * z
	}
	se := math.Sqrt(v*float64(n)/float64(n-1)) / sw
	z := distuv.UnitNormal.Quantile(0.5 + level/2)
	est := RMSEEstimate{RMSE: math.Sqrt(mse), MSE: mse, SE: se, Level: level, Rows: n}
	if mse > 0 {
		f := math.Exp(z * se / mse)
		est.Lo, est.Hi = math.Sqrt(mse/f), math.Sqrt(mse*f)
	}
	return est, nil
}
