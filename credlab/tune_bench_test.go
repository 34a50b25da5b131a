package credlab

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkRidgePath compares, at each n, one Cholesky solve of
// (K + mu I) z = y against the path: one tridiagonal reduction (Dsytrd,
// reflectors kept), eigenvalues (Dsterf) and GCV at 61 lambdas. The
// break-even number of lambdas is path-s / cholesky-s.
func BenchmarkRidgePath(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000} {
		x, y, _ := SmoothRegression(n, benchD, benchNoise, 1)
		k, _ := KernelMatrix(benchKernel(), x, nil)
		grid := LogGrid(1e-12, 1, 61)
		b.Run(fmt.Sprintf("cholesky/n=%d", n), func(b *testing.B) {
			work := mat.NewDense(n, n, nil)
			for i := 0; i < b.N; i++ {
				work.Copy(k)
				if _, ok := choleskySolve(work, 1e-3*float64(n), y); !ok {
					b.Fatal("Cholesky failed")
				}
			}
			reportGFlops(b, float64(n)*float64(n)*float64(n)/3)
		})
		b.Run(fmt.Sprintf("gcv/n=%d", n), func(b *testing.B) {
			pr := ridgeProblem{g: k, b: y, n: n, sse: func(zz, _, mu float64) float64 { return mu * mu * zz }}
			for i := 0; i < b.N; i++ {
				rp := newRidgePath(k, y, false)
				pr.scorePath(rp, grid, CriterionGCV, 1)
			}
			reportGFlops(b, 4*float64(n)*float64(n)*float64(n)/3)
		})
	}
}
