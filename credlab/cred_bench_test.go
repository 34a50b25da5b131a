package credlab

// Benchmarks of the CRED leverage scores.
//
//	go test -run '^$' -bench 'LeverageScores' -benchtime 1x ./credlab/
//
// runs the exact scores at N = 1000, 2000, 4000 (d = 10, Gaussian kernel),
// each next to the kernel matrix and Cholesky alone, and the streaming random-feature scores at N = 100000 (d = 50, D = 1000),
// next to a plain gonum mat.Dense Mul of the same shape (N x D times D x D)
// and the feature map alone. The N = 1000000 case (about 8 GB of features
// if they were held at once; several minutes) runs only when the -bench
// pattern names it, e.g. -bench 'FeatureLeverageScores/rf/N=1000000', or
// with CREDLAB_BIG=1; so does the exact N = 20000 case (3.2 GB), e.g.
// -bench 'LeverageScores/.*/N=20000'.
//
// GFLOP/s counts 2 flops per multiply-add: exact scores N^2 d (the kernel's
// Gram product) + N^3/3 (Cholesky) + N^3/3 (triangular inverse); random
// features 2 N D^2 (the symmetric rank-k update and the triangular solve,
// N D^2 each) + 2 * 2 N d D (the features, computed in both passes).
// peak-heap-MB is the largest runtime.MemStats.HeapInuse seen while the
// scores run (sampled every 10 ms) minus its value before, and pool-MB the
// size N D 8 bytes of the full feature matrix, which is never formed.

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

const (
	crBenchNoise = 0.2
	crBenchD     = 50   // input dimension of the random-feature benchmarks
	crBenchFeat  = 1000 // D, random features
	crBenchSigma = 7.5  // Gaussian bandwidth for d = 50 on [-1, 1]^d
	crBenchLQ    = 1e-6 // lambda_q
)

// crPeakHeap samples HeapInuse every 10 ms while f runs and returns the
// largest increase over its value before f, in bytes. The collection before
// f is outside the timer.
func crPeakHeap(b *testing.B, f func()) uint64 {
	b.StopTimer()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	b.StartTimer()
	var peak atomic.Uint64
	peak.Store(base)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				runtime.ReadMemStats(&m)
				if m.HeapInuse > peak.Load() {
					peak.Store(m.HeapInuse)
				}
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	runtime.ReadMemStats(&ms)
	if ms.HeapInuse > peak.Load() {
		peak.Store(ms.HeapInuse)
	}
	return peak.Load() - base
}

// crBenchBig reports whether the big case named size (such as "N=1000000")
// should run: with CREDLAB_BIG=1 or when -test.bench names it.
func crBenchBig(size string) bool {
	if os.Getenv("CREDLAB_BIG") == "1" {
		return true
	}
	f := flag.Lookup("test.bench")
	return f != nil && strings.Contains(f.Value.String(), size)
}

// BenchmarkLeverageScores times the exact scores (kernel matrix, Cholesky,
// triangular inverse) next to the kernel matrix and Cholesky alone, so that
// their ratio is the cost of the scores in Cholesky factorizations. N = 20000
// (3.2 GB) runs only when asked for (crBenchBig).
func BenchmarkLeverageScores(b *testing.B) {
	ctx := context.Background()
	const d = 10
	k := GaussianKernel{Sigma: 1.5}
	sizes := []int{1000, 2000, 4000}
	if crBenchBig("N=20000") {
		sizes = append(sizes, 20000)
	}
	for _, n := range sizes {
		x, _, _ := SmoothRegression(n, d, crBenchNoise, 1)
		fn := float64(n)
		b.Run(fmt.Sprintf("exact/N=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := LeverageScores(ctx, k, x, crBenchLQ); err != nil {
					b.Fatal(err)
				}
			}
			reportGFlops(b, fn*fn*d+2*fn*fn*fn/3)
		})
		b.Run(fmt.Sprintf("cholesky/N=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				km, err := KernelMatrix(k, x, x)
				if err != nil {
					b.Fatal(err)
				}
				raw := km.RawMatrix()
				for j := 0; j < n; j++ {
					raw.Data[j*raw.Stride+j] += fn * crBenchLQ
				}
				if _, ok := lapack64.Potrf(blas64.Symmetric{N: n, Stride: raw.Stride, Data: raw.Data, Uplo: blas.Lower}); !ok {
					b.Fatal("not positive definite")
				}
			}
			reportGFlops(b, fn*fn*d+fn*fn*fn/3)
		})
	}
}

func BenchmarkFeatureLeverageScores(b *testing.B) {
	ctx := context.Background()
	sizes := []int{100000}
	if crBenchBig("N=1000000") {
		sizes = append(sizes, 1000000)
	}
	rf, err := NewRandomFourier(crBenchD, crBenchFeat, crBenchSigma, 1)
	if err != nil {
		b.Fatal(err)
	}
	const D = crBenchFeat
	for _, n := range sizes {
		var x *mat.Dense
		data := func() *mat.Dense {
			if x == nil {
				x, _, _ = SmoothRegression(n, crBenchD, crBenchNoise, 1)
			}
			return x
		}
		fn := float64(n)
		poolMB := fn * D * 8 / 1e6
		// The scores: two streaming passes over the pool.
		b.Run(fmt.Sprintf("rf/N=%d", n), func(b *testing.B) {
			x := data()
			b.ReportAllocs()
			b.ResetTimer()
			var peak uint64
			for i := 0; i < b.N; i++ {
				p := crPeakHeap(b, func() {
					if _, err := FeatureLeverageScores(ctx, rf, x, crBenchLQ, 0); err != nil {
						b.Fatal(err)
					}
				})
				peak = max(peak, p)
			}
			reportGFlops(b, 2*fn*D*D+4*fn*crBenchD*D)
			b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
			b.ReportMetric(poolMB, "pool-MB")
		})
		// The feature map alone, once over the pool in DefaultBlock rows.
		b.Run(fmt.Sprintf("features/N=%d", n), func(b *testing.B) {
			x := data()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for lo := 0; lo < n; lo += DefaultBlock {
					hi := min(lo+DefaultBlock, n)
					if _, err := rf.Features(x.Slice(lo, hi, 0, crBenchD).(*mat.Dense)); err != nil {
						b.Fatal(err)
					}
				}
			}
			reportGFlops(b, 2*fn*crBenchD*D)
		})
		// Reference: a plain gonum Mul of the same shape, N x D times D x D.
		// At N = 1000000 the N x D operands would take 16 GB, so the product
		// is done in row blocks of DefaultBlock (the same flops; the rate of
		// a large Mul does not depend on N).
		b.Run(fmt.Sprintf("gemm/N=%d", n), func(b *testing.B) {
			rng := crRNG(1)
			rows := n
			if n > 100000 {
				rows = DefaultBlock
			}
			a := mat.NewDense(rows, D, nil)
			for i := range a.RawMatrix().Data {
				a.RawMatrix().Data[i] = rng.NormFloat64()
			}
			m := mat.NewDense(D, D, nil)
			for i := range m.RawMatrix().Data {
				m.RawMatrix().Data[i] = rng.NormFloat64()
			}
			c := mat.NewDense(rows, D, nil)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for lo := 0; lo < n; lo += rows {
					hi := min(lo+rows, n)
					cv := c.Slice(0, hi-lo, 0, D).(*mat.Dense)
					cv.Mul(a.Slice(0, hi-lo, 0, D), m)
				}
			}
			reportGFlops(b, 2*fn*D*D)
		})
		x = nil
		runtime.GC()
	}
}
