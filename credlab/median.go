package credlab

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// MedianDistance returns the median Euclidean distance between the rows of
// an evenly spaced sample of up to 256 rows of x (the median heuristic for
// a kernel bandwidth sigma); 1 when it is zero or not finite. Cost
// O(min(n, 256)^2 d).
func MedianDistance(x *mat.Dense) float64 {
	n, _ := x.Dims()
	k := min(n, 256)
	rows := make([][]float64, k)
	for i := range rows {
		rows[i] = x.RawRowView(i * n / k)
	}
	var d []float64
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			s := 0.0
			for c, v := range rows[i] {
				t := v - rows[j][c]
				s += t * t
			}
			d = append(d, math.Sqrt(s))
		}
	}
	if len(d) == 0 {
		return 1
	}
	sort.Float64s(d)
	m := d[len(d)/2]
	if len(d)%2 == 0 {
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
