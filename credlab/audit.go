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
	// Skew is the skewness of the MSE estimate's error; Var and VarSkew
	// the variance and skewness of the pool's squared residuals,
	// estimated from the audit rows.
	Skew, Var, VarSkew float64
	// Rest, when positive, is the number of other pool rows whose RMSE
	// the interval predicts (OverRows).
	Rest int
}

// EstimatePoolRMSE estimates a model's RMSE on a pool from the residuals
// r_i = y_i - f(x_i) of audit rows the model was not fitted on, drawn from
// the pool with known inclusion probabilities pi_i: weights holds w_i
// proportional to 1/pi_i (nil: a simple random sample, every w_i = 1). The
// estimate is Hajek's ratio MSE = sum w_i r_i^2 / sum w_i, consistent for
// the pool's mean squared error. Its error is linearized as
// sum_i z_i / sum w_i with z_i = w_i (r_i^2 - MSE), of variance
// SE^2 = n/(n-1) sum z_i^2 / (sum w_i)^2 (sampling with replacement,
// conservative without) and skewness sum z_i^3 / (sum w_i)^3 / SE^3.
// Squared residuals are right-skewed, and a few hundred rows often miss
// the tail, so the interval at confidence level (default 0.9) is the hull
// of two corrections for that skewness: the log scale,
// exp(log MSE -+ z SE/MSE), and Hall's (1992) transformation of the
// studentized estimate, which removes its skewness; square-rooted. O(n).
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
	var z2, z3, d2, d3 float64
	for i, r := range residuals {
		d := r*r - mse
		z := w(i) * d
		z2, z3 = z2+z*z, z3+z*z*z
		d2, d3 = d2+w(i)*d*d, d3+w(i)*d*d*d
	}
	se := math.Sqrt(z2*float64(n)/float64(n-1)) / sw
	est := RMSEEstimate{RMSE: math.Sqrt(mse), MSE: mse, SE: se, Level: level, Rows: n, Var: d2 / sw}
	if se > 0 {
		est.Skew = z3 / (sw * sw * sw) / (se * se * se)
		est.VarSkew = d3 / sw / math.Pow(est.Var, 1.5)
	}
	est.Lo, est.Hi = mseInterval(mse, se, est.Skew, level)
	est.Lo, est.Hi = math.Sqrt(est.Lo), math.Sqrt(est.Hi)
	return est, nil
}

// OverRows returns the estimate as a prediction of the RMSE over m other
// rows of the pool, drawn like the audit rows: the unlabeled rest of a
// finite pool, which is what the labeled rows' model is used on. Their
// mean squared error varies about the pool's with variance Var/m and third
// cumulant VarSkew Var^1.5/m^2, which the interval adds to the estimate's
// error. m <= 0 returns e.
func (e RMSEEstimate) OverRows(m int) RMSEEstimate {
	if m <= 0 || !(e.SE > 0) {
		return e
	}
	fm := float64(m)
	se := math.Sqrt(e.SE*e.SE + e.Var/fm)
	k3 := e.Skew*e.SE*e.SE*e.SE - e.VarSkew*math.Pow(e.Var, 1.5)/(fm*fm)
	lo, hi := mseInterval(e.MSE, se, k3/(se*se*se), e.Level)
	e.Lo, e.Hi, e.Rest = math.Sqrt(lo), math.Sqrt(hi), m
	return e
}

// mseInterval returns an interval at confidence level for a mean squared
// error estimated at mse, with standard error se and skewness g of the
// error (estimate minus truth): the hull of the log-scale interval
// mse exp(-+ q se/mse) and Hall's (1992) skewness-corrected interval
// [mse - se h(q), mse - se h(-q)], q the normal quantile at (1+level)/2 and
// h the inverse of t + a t^2 + a^2 t^3/3 + a/2 with a = g/3, which removes
// the skewness of the studentized estimate. Hall's lower end is dropped
// when it is not positive.
func mseInterval(mse, se, g, level float64) (lo, hi float64) {
	if !(mse > 0) || !(se > 0) {
		return mse, mse
	}
	q := distuv.UnitNormal.Quantile(0.5 + level/2)
	f := math.Exp(q * se / mse)
	lo, hi = mse/f, mse*f
	a := g / 3
	h := func(x float64) float64 {
		if math.Abs(a) < 1e-12 {
			return x - a/2
		}
		return (math.Cbrt(1+3*a*(x-a/2)) - 1) / a
	}
	if l := mse - se*h(q); l > 0 {
		lo = math.Min(lo, l)
	}
	return lo, math.Max(hi, mse-se*h(-q))
}
