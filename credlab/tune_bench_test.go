package credlab

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
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
				if _, ok := CholeskySolve(work, 1e-3*float64(n), y); !ok {
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

// BenchmarkTune runs Tune with its defaults (5-fold cross-validation,
// learned column scales, automatic method and kernel family) and
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

// BenchmarkFoldPath compares the two reductions a cross-validation fold
// can use for its 66-lambda path on a p x p Gram matrix G = K^T K of
// kernel features: the tridiagonal one (ridgePath: Dsytrd, half of it
// memory-bound matrix-vector work; Gtsv solves; Dormqr), which folds used
// until 27 November 2026, against the band one they use (bandPath:
// matrix products; band Cholesky solves; Dlarfb), each with its solves
// for every lambda and Q applied to the 66 solutions.
func BenchmarkFoldPath(b *testing.B) {
	grid := LogGrid(1e-12, 10, 66)
	for _, p := range []int{500, 1000, 2000, 4000} {
		x, y, _ := SmoothRegression(p+p/4, benchD, benchNoise, 1)
		k, _ := KernelMatrix(benchKernel(), x, x.Slice(0, p, 0, benchD).(*mat.Dense))
		g := mat.NewDense(p, p, nil)
		g.Mul(k.T(), k)
		rhs := matVec(k.T(), y)
		n := float64(p + p/4)
		L := len(grid)
		mus := make([]float64, L)
		for i, l := range grid {
			mus[i] = l * n
		}
		a := make([]float64, p*p)
		z := blas64.General{Rows: p, Cols: L, Stride: L, Data: make([]float64, p*L)}
		b.Run(fmt.Sprintf("tridiagonal/p=%d", p), func(b *testing.B) {
			zh := make([]float64, p)
			for b.Loop() {
				copy(a, g.RawMatrix().Data)
				rp := reduceRidge(a, p, rhs, pathEigenvalues)
				for i, mu := range mus {
					if rp.solve(mu, zh) {
						for j, v := range zh {
							z.Data[j*L+i] = v
						}
					}
				}
				impl := gonum.Implementation{}
				work := make([]float64, L*64)
				impl.Dormqr(blas.Left, blas.NoTrans, p-1, L, p-1, rp.refl[p:], p, rp.tau, z.Data[L:], L, work, len(work))
			}
			reportGFlops(b, 4*float64(p)*float64(p)*float64(p)/3)
		})
		b.Run(fmt.Sprintf("band/p=%d", p), func(b *testing.B) {
			ok := make([]bool, L)
			for b.Loop() {
				copy(a, g.RawMatrix().Data)
				bp := reduceBand(a, p, rhs)
				bp.solvePath(mus, z, ok)
				bp.applyQ(blas.NoTrans, z)
			}
			reportGFlops(b, 4*float64(p)*float64(p)*float64(p)/3)
		})
	}
}

// BenchmarkLOOEval times one evaluation of LearnScales's criterion with
// its gradient (d = 10): a kernel matrix, a Cholesky factorization and
// inverse, one symmetric rank-n update and one product with the rows.
func BenchmarkLOOEval(b *testing.B) {
	for _, n := range []int{250, 500, 1000} {
		x, y, _ := SmoothRegression(n, benchD, benchNoise, 1)
		p := newLOOProblem(x, y, nil)
		th := fullParams([]float64{0, -7}, benchD)
		grad := make([]float64, benchD+1)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				p.eval(th, grad)
			}
			reportGFlops(b, 2*float64(n)*float64(n)*float64(n)) // Potrf n^3/3, Potri 2n^3/3, Syrk n^3
		})
	}
}
