package credlab

import (
	"math"
	"sort"

	"github.com/credlab/credlab/internal/vecmath"
	"gonum.org/v1/gonum/mat"
)

// MedianDistance returns the median Euclidean distance between the rows of
// an evenly spaced sample of up to 256 rows of x (the median heuristic for
// a kernel bandwidth sigma); 1 when it is zero or not finite. Cost
// O(min(n, 256)^2 d).
func MedianDistance(x *mat.Dense) float64 {
	return medianPairDistance(x, func(a, b []float64) float64 { return math.Sqrt(vecmath.SqDist(a, b)) }, true)
}

// MedianL1Distance is MedianDistance for the L1 distance sum_j |a_j - b_j|,
// the median heuristic for the Manhattan kernel's sigma.
func MedianL1Distance(x *mat.Dense) float64 {
	return medianPairDistance(x, func(a, b []float64) float64 { return scaledL1Dist(a, b, nil) }, true)
}

// medianPairDistance returns the median of dist over the pairs of an
// evenly spaced sample of up to 256 rows of x (of an even number of pairs
// the mean of the middle two when mean is set, else the upper one); 1
// when it is not positive and finite.
func medianPairDistance(x *mat.Dense, dist func(a, b []float64) float64, mean bool) float64 {
	n, _ := x.Dims()
	k := min(n, 256)
	var d []float64
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			d = append(d, dist(x.RawRowView(i*n/k), x.RawRowView(j*n/k)))
		}
	}
	if len(d) == 0 {
		return 1
	}
	sort.Float64s(d)
	m := d[len(d)/2]
	if mean && len(d)%2 == 0 {
		m = (d[len(d)/2-1] + d[len(d)/2]) / 2
	}
	if !(m > 0) || math.IsInf(m, 0) {
		return 1
	}
	return m
}

// defaultKernel returns k, or when k is nil the Gaussian kernel with the
// median heuristic's sigma on x: the default of the estimators' Kernel
// fields. Invalid x is left for the estimator's checks.
func defaultKernel(k Kernel, x *mat.Dense) Kernel {
	if k != nil || x == nil || x.IsEmpty() {
		return k
	}
	return GaussianKernel{Sigma: MedianDistance(x)}
}
