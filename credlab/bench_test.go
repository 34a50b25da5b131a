package credlab

// Benchmarks at several sizes. Run them all with
//
//	go test -run '^$' -bench . -benchtime 1x ./credlab/
//
// or one family with, e.g., -bench 'KRLS/fixed'. Data come from
// SmoothRegression (d = 10 unless stated, noise 0.2, fixed seeds), so every
// run measures the same problem. Setup (data, kernels of other benchmarks)
// is outside the timer. Besides ns/op, benchmarks report the split of
// Fit.Timing (kernel-s, solve-s, select-s per op) and throughput figures:
// GFLOP/s counts the multiply-adds of the dominant dense operation as 2
// flops each (kernel Gram product, Cholesky n^3/3, Nyström n m^2 terms).

import (
	"context"
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"
)

const (
	benchD     = 10
	benchNoise = 0.2
	benchSigma = 1.5 // Gaussian bandwidth for d = 10 on [-1, 1]^d
)

func benchKernel() Kernel { return GaussianKernel{Sigma: benchSigma} }

// reportTiming adds the average Fit.Timing phases of b.N fits.
func reportTiming(b *testing.B, t Timing) {
	n := float64(b.N)
	b.ReportMetric(t.Kernel.Seconds()/n, "kernel-s/op")
	b.ReportMetric(t.Solve.Seconds()/n, "solve-s/op")
	b.ReportMetric(t.Select.Seconds()/n, "select-s/op")
}

func addTiming(sum *Timing, t Timing) {
	sum.Kernel += t.Kernel
	sum.Solve += t.Solve
	sum.Select += t.Select
}

// reportGFlops reports flops per op divided by the time per op.
func reportGFlops(b *testing.B, flops float64) {
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(flops*float64(b.N)/s/1e9, "GFLOP/s")
	}
}

func BenchmarkKernelMatrix(b *testing.B) {
	for _, d := range []int{10, 100} {
		for _, n := range []int{1000, 2000, 4000} {
			x, _, _ := SmoothRegression(n, d, benchNoise, 1)
			y, _, _ := SmoothRegression(n, d, benchNoise, 2)
			k := GaussianKernel{Sigma: benchSigma * float64(d) / benchD}
			// K(X, X): symmetric rank-d update, n^2 d flops.
			b.Run(fmt.Sprintf("sym/d=%d/n=%d", d, n), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := KernelMatrix(k, x, nil); err != nil {
						b.Fatal(err)
					}
				}
				reportGFlops(b, float64(n)*float64(n)*float64(d))
				b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/float64(n*n)*1e9, "ns/entry")
			})
			// K(X, Y): general product, 2 n^2 d flops.
			b.Run(fmt.Sprintf("cross/d=%d/n=%d", d, n), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := KernelMatrix(k, x, y); err != nil {
						b.Fatal(err)
					}
				}
				reportGFlops(b, 2*float64(n)*float64(n)*float64(d))
				b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/float64(n*n)*1e9, "ns/entry")
			})
		}
	}
}

// BenchmarkKRLS covers a single fit at a fixed lambda (kernel matrix plus
// one Cholesky on all n rows) and hold-out grid searches of 20 values
// (one Cholesky per value) and 100 values (the shared tridiagonal path).
func BenchmarkKRLS(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{1000, 2000, 4000} {
		x, y, _ := SmoothRegression(n, benchD, benchNoise, 1)
		b.Run(fmt.Sprintf("fixed/n=%d", n), func(b *testing.B) {
			var sum Timing
			for i := 0; i < b.N; i++ {
				fit, err := KRLS(ctx, x, y, KRLSConfig{Kernel: benchKernel(), Lambda: 1e-4})
				if err != nil {
					b.Fatal(err)
				}
				addTiming(&sum, fit.Timing)
			}
			reportTiming(b, sum)
			nf := float64(n)
			b.ReportMetric(nf*nf*nf/3/(sum.Solve.Seconds()/float64(b.N))/1e9, "chol-GFLOP/s")
		})
	}
	n := 2000
	x, y, _ := SmoothRegression(n, benchD, benchNoise, 1)
	for _, g := range []int{20, 100} {
		grid := LogGrid(1e-9, 1e-1, g)
		b.Run(fmt.Sprintf("grid%d/n=%d", g, n), func(b *testing.B) {
			var sum Timing
			var val float64
			for i := 0; i < b.N; i++ {
				fit, err := KRLS(ctx, x, y, KRLSConfig{Kernel: benchKernel(), Lambdas: grid, Holdout: Holdout{Seed: 7}})
				if err != nil {
					b.Fatal(err)
				}
				addTiming(&sum, fit.Timing)
				val = fit.ValRMSE
			}
			reportTiming(b, sum)
			b.ReportMetric(val, "val-rmse")
		})
	}
}

// BenchmarkEarlyStopping runs Landweber iteration with hold-out early
// stopping (default step, threshold and MaxIter), plain and with the
// nu-method.
func BenchmarkEarlyStopping(b *testing.B) {
	ctx := context.Background()
	n := 2000
	x, y, _ := SmoothRegression(n, benchD, benchNoise, 1)
	for _, acc := range []bool{false, true} {
		b.Run(fmt.Sprintf("holdout%s/n=%d", nuSuffix(acc), n), func(b *testing.B) {
			var sum Timing
			var val float64
			var iter int
			for i := 0; i < b.N; i++ {
				fit, err := EarlyStopping(ctx, x, y, EarlyStoppingConfig{Kernel: benchKernel(),
					IterConfig: IterConfig{Holdout: Holdout{Seed: 7}, Plain: !acc}})
				if err != nil {
					b.Fatal(err)
				}
				addTiming(&sum, fit.Timing)
				val, iter = fit.ValRMSE, len(fit.Path)
			}
			reportTiming(b, sum)
			b.ReportMetric(val, "val-rmse")
			b.ReportMetric(float64(iter), "steps")
		})
	}
}

func nuSuffix(accelerated bool) string {
	if accelerated {
		return "+nu"
	}
	return ""
}

// BenchmarkNystrom fits NKRLS at a fixed lambda on all rows and NYTRO
// (plain and nu-method) with hold-out selection of the iteration.
func BenchmarkNystrom(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{10000, 50000} {
		var x *mat.Dense
		var y []float64
		for _, m := range []int{500, 1000} {
			if x == nil {
				x, y, _ = SmoothRegression(n, benchD, benchNoise, 1)
			}
			ny := NystromConfig{M: m, Seed: 3}
			// A = K_nm L^-T (n m d + n m^2) and A^T A (n m^2).
			nf, mf := float64(n), float64(m)
			flops := 2*nf*mf*benchD + nf*mf*mf + nf*mf*mf
			b.Run(fmt.Sprintf("NKRLS/n=%d/m=%d", n, m), func(b *testing.B) {
				var sum Timing
				for i := 0; i < b.N; i++ {
					fit, err := NKRLS(ctx, x, y, NKRLSConfig{Kernel: benchKernel(), Nystrom: ny, Lambda: 1e-6})
					if err != nil {
						b.Fatal(err)
					}
					addTiming(&sum, fit.Timing)
				}
				reportTiming(b, sum)
				reportGFlops(b, flops)
			})
			for _, acc := range []bool{false, true} {
				b.Run(fmt.Sprintf("NYTRO%s/n=%d/m=%d", nuSuffix(acc), n, m), func(b *testing.B) {
					var sum Timing
					var val float64
					var iter int
					for i := 0; i < b.N; i++ {
						fit, err := NYTRO(ctx, x, y, NYTROConfig{Kernel: benchKernel(), Nystrom: ny,
							IterConfig: IterConfig{Holdout: Holdout{Seed: 7}, Plain: !acc}})
						if err != nil {
							b.Fatal(err)
						}
						addTiming(&sum, fit.Timing)
						val, iter = fit.ValRMSE, len(fit.Path)
					}
					reportTiming(b, sum)
					b.ReportMetric(val, "val-rmse")
					b.ReportMetric(float64(iter), "steps")
				})
			}
		}
	}
}
