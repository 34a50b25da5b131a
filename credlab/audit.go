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
	// Skew is the skewness of the MSE estimate's error; RelVar and
	// VarSkew the variance (over MSE^2) and the skewness of the pool's
	// squared residuals, estimated from the audit rows.
	Skew, RelVar, VarSkew float64
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
	if math.IsInf(mse, 0) || math.IsNaN(mse) {
		return RMSEEstimate{}, &ParamError{Name: "residuals", Value: mse, Want: "audit residuals whose weighted mean square is finite"}
	}
	est := RMSEEstimate{RMSE: math.Sqrt(mse), MSE: mse, Level: level, Rows: n, Lo: math.Sqrt(mse), Hi: math.Sqrt(mse)}
	if !(mse > 0) {
		return est, nil
	}
	// Moments of u_i = r_i^2/MSE - 1, free of the residuals' scale: their
	// cubes neither overflow nor underflow.
	var z2, z3, u2, u3 float64
	for i, r := range residuals {
		u := r*r/mse - 1
		z := w(i) * u
		z2, z3 = z2+z*z, z3+z*z*z
		u2, u3 = u2+w(i)*u*u, u3+w(i)*u*u*u
	}
	rel := math.Sqrt(z2*float64(n)/float64(n-1)) / sw // SE/MSE
	est.SE = mse * rel
	if rel > 0 {
		est.Skew = z3 / (sw * sw * sw) / (rel * rel * rel)
		est.RelVar = u2 / sw
		est.VarSkew = u3 / sw / math.Pow(est.RelVar, 1.5)
	}
	// For a mean, the covariance of the estimate with its variance
	// estimate is its skewness (beta = g below).
	lo, hi := mseInterval(mse, est.SE, est.Skew/3, est.Skew/6, level)
	est.Lo, est.Hi = math.Sqrt(lo), math.Sqrt(hi)
	return est, nil
}

// OverRows returns the estimate as a prediction of the RMSE over m other
// rows of the same pool: the unlabeled rest of a finite pool, which is
// what the labeled rows' model is used on. (Rows a design left out
// unevenly, as a batch method's rest, are a different population; the
// interval does not correct for that.) Their mean squared error varies
// about the pool's with variance RelVar MSE^2/m and third cumulant
// VarSkew (RelVar MSE^2)^1.5/m^2, which the interval adds to the
// estimate's error e = estimate - rest. Hall's transformation then takes
// the skewness g of e and the covariance beta of e with its variance
// estimate (both over its standard deviation cubed; beta = g for the
// estimate alone): a = beta/2 - g/6, b = g/6. m <= 0 returns e.
func (e RMSEEstimate) OverRows(m int) RMSEEstimate {
	if m <= 0 || !(e.SE > 0) || !(e.MSE > 0) || e.Rows < 1 {
		return e
	}
	fm, fn := float64(m), float64(e.Rows)
	rel := e.SE / e.MSE
	rest := e.RelVar / fm // the rest's variance over MSE^2
	s := math.Sqrt(rel*rel + rest)
	mu3 := e.VarSkew * math.Pow(e.RelVar, 1.5) // third central moment over MSE^3
	s3 := s * s * s
	g := (e.Skew*rel*rel*rel - mu3/(fm*fm)) / s3
	beta := (e.Skew*rel*rel*rel + mu3/(fn*fm)) / s3
	lo, hi := mseInterval(e.MSE, e.MSE*s, beta/2-g/6, g/6, e.Level)
	e.Lo, e.Hi, e.Rest = math.Sqrt(lo), math.Sqrt(hi), m
	return e
}

// mseInterval returns an interval at confidence level for a mean squared
// error estimated at mse with standard error se: the hull of the
// log-scale interval mse exp(-+ q se/mse) and Hall's (1992) interval
// [mse - se h(q), mse - se h(-q)], q the normal quantile at (1+level)/2
// and h the inverse of the monotone t + a t^2 + a^2 t^3/3 + b, which
// removes the bias (b) and skewness (a) of the studentized estimate to
// order 1/sqrt(n). Hall's lower end is dropped when it is not positive.
func mseInterval(mse, se, a, b, level float64) (lo, hi float64) {
	if !(mse > 0) || !(se > 0) {
		return mse, mse
	}
	q := distuv.UnitNormal.Quantile(0.5 + level/2)
	f := math.Exp(q * se / mse)
	lo, hi = mse/f, mse*f
	h := func(x float64) float64 {
		if math.Abs(a) < 1e-12 {
			return x - b
		}
		return (math.Cbrt(1+3*a*(x-b)) - 1) / a
	}
	if l := mse - se*h(q); l > 0 {
		lo = math.Min(lo, l)
	}
	if u := mse - se*h(-q); u > hi && !math.IsInf(u, 0) {
		hi = u
	}
	return lo, hi
}
