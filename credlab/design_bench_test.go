package credlab

import (
	"fmt"
	"testing"
)

// BenchmarkSampleDesign draws 10,000 rows from pools of up to 1,000,000
// with CRED-like skewed probabilities (a few rows capped at pi = 1).
func BenchmarkSampleDesign(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		rng := crRNG(9)
		q := make([]float64, n)
		for j := range q {
			q[j] = 0.5 + rng.ExpFloat64()
		}
		for j := 0; j < 20; j++ {
			q[j] = 2000
		}
		s := sum(q)
		for j := range q {
			q[j] /= s
		}
		for _, d := range []Design{WithoutReplacement, DistinctRows, WithReplacement} {
			b.Run(fmt.Sprintf("N=%d/n=10000/%v", n, d), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := SampleDesign(q, nil, 10_000, d, nil, uint64(i)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
