package credlab

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
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

// BenchmarkTune runs Tune with its defaults (GCV, automatic method) and
// reports the criterion's RMSE estimate and the test RMSE on 2000 fresh
// points of the same problem.
func BenchmarkTune(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000} {
		x, y, _ := SmoothRegression(n, benchD, benchNoise, 1)
		xt, yt, _ := SmoothRegression(2000, benchD, benchNoise, 2)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var res *TuneFit
			var err error
			for i := 0; i < b.N; i++ {
				if res, err = Tune(b.Context(), x, y, TuneConfig{}); err != nil {
					b.Fatal(err)
				}
			}
			p, _ := res.Fit.Model.Predict(xt)
			b.ReportMetric(res.Choice.ValRMSE, "val-rmse")
			b.ReportMetric(RMSE(p, yt), "test-rmse")
		})
	}
}

// BenchmarkApplyQ compares the two ways to map the validation kernel
// block W (nv x n, nv = n/4) into the tridiagonal basis, W Q: Dormqr with
// the reflectors kept (ridgePath.rightQ, 2 nv n^2 flops) against forming Q
// by Dorgtr (4/3 n^3) and one Gemm (2 nv n^2).
func BenchmarkApplyQ(b *testing.B) {
	for _, n := range []int{1000, 2000} {
		x, y, _ := SmoothRegression(n, benchD, benchNoise, 1)
		xv, _, _ := SmoothRegression(n/4, benchD, benchNoise, 2)
		k, _ := KernelMatrix(benchKernel(), x, nil)
		w, _ := KernelMatrix(benchKernel(), xv, x)
		rp := newRidgePath(k, y, false)
		b.Run(fmt.Sprintf("dormqr/n=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				rp.rightQ(mat.DenseCopyOf(w))
			}
		})
		b.Run(fmt.Sprintf("dorgtr+gemm/n=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				q := mat.NewDense(n, n, append([]float64(nil), rp.refl...))
				impl := gonum.Implementation{}
				work := []float64{0}
				qr := q.RawMatrix()
				impl.Dorgtr(blas.Lower, n, qr.Data, qr.Stride, rp.tau, work, -1)
				work = make([]float64, int(work[0]))
				impl.Dorgtr(blas.Lower, n, qr.Data, qr.Stride, rp.tau, work, len(work))
				var out mat.Dense
				out.Mul(w, q)
			}
		})
	}
}
