package vecmath

// SqDist returns ||a - b||^2 = sum_i (a_i - b_i)^2, summed in index order:
// the squared distance of credlab's pairwise (not Gram-form) kernel
// values. a and b have equal length. O(len(a)).
func SqDist(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		t := v - b[i]
		s += t * t
	}
	return s
}

// Dot returns a.b = sum_i a_i b_i, summed in index order. a and b have
// equal length. O(len(a)).
func Dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}
