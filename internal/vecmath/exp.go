package vecmath

import "math"

// ExpNegDiv sets dst[j] = math.Exp(-dst[j]/c) for every j, the Gaussian
// kernel's exp(-||x-y||^2 / (2 sigma^2)) from squared distances with
// c = 2 sigma^2. The result is math.Exp's, bit for bit, on every CPU (see
// the package documentation).
func ExpNegDiv(dst []float64, c float64) { expNegDiv(dst, c) }

// expNegDivGo is the portable loop, and the reference of the assembly.
func expNegDivGo(dst []float64, c float64) {
	for j, v := range dst {
		dst[j] = math.Exp(-v / c)
	}
}

// The assembly evaluates arguments in [ExpLow, ExpHigh], where 2^k, k =
// round(x/ln 2), is a normal number; others (NaN, ±Inf, results that
// overflow or are subnormal) go to math.Exp.
const (
	ExpLow  = -708
	ExpHigh = 709
)
