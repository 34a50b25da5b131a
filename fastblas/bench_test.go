package fastblas_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/floats"
	lapackgo "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"

	"github.com/credlab/credlab/fastblas"
)

// backend is a BLAS under test; kernel, if not empty, is the fastblas
// micro-kernel to put in use first.
type backend struct {
	name   string
	impl   blas.Float64
	kernel string
}

// backends are compared side by side; -tags openblas adds OpenBLAS.
var backends = []backend{
	{"gonum", gonum.Implementation{}, ""},
	{"go-avx2", fastblas.Implementation{}, "avx2"},
	{"go-avx512", fastblas.Implementation{}, "avx512"},
}

// use puts be's kernel in use, skipping b if this CPU lacks it.
func (be backend) use(b *testing.B) {
	if be.kernel != "" && !fastblas.UseKernel(be.kernel) {
		b.Skip("kernel not available")
	}
}

func randSlice(n int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := make([]float64, n)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	return x
}

// reportGflops reports flops per iteration as GFLOP/s.
func reportGflops(b *testing.B, flops float64) {
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

func BenchmarkDgemm(b *testing.B) {
	shapes := []struct {
		name    string
		tA, tB  blas.Transpose
		m, n, k int
	}{
		{"NN/256", blas.NoTrans, blas.NoTrans, 256, 256, 256},
		{"NN/512", blas.NoTrans, blas.NoTrans, 512, 512, 512},
		{"NN/1024", blas.NoTrans, blas.NoTrans, 1024, 1024, 1024},
		{"NN/2048", blas.NoTrans, blas.NoTrans, 2048, 2048, 2048},
		{"NT/4000x64x2000", blas.NoTrans, blas.Trans, 4000, 64, 2000}, // Dpotrf's update
	}
	for _, s := range shapes {
		lda, ldb := s.k, s.n
		if s.tB == blas.Trans {
			ldb = s.k
		}
		a := randSlice(s.m*s.k, 1)
		bm := randSlice(s.k*s.n, 2)
		c := randSlice(s.m*s.n, 3)
		for _, be := range backends {
			b.Run(fmt.Sprintf("%s/%s", s.name, be.name), func(b *testing.B) {
				be.use(b)
				for b.Loop() {
					be.impl.Dgemm(s.tA, s.tB, s.m, s.n, s.k, 1, a, lda, bm, ldb, 0, c, s.n)
				}
				reportGflops(b, 2*float64(s.m)*float64(s.n)*float64(s.k))
			})
		}
	}
}

func BenchmarkDsyrk(b *testing.B) {
	const n, k = 2000, 1000
	a := randSlice(n*k, 1)
	c := randSlice(n*n, 2)
	for _, be := range backends {
		b.Run(fmt.Sprintf("n=%d,k=%d/%s", n, k, be.name), func(b *testing.B) {
			be.use(b)
			for b.Loop() {
				be.impl.Dsyrk(blas.Lower, blas.NoTrans, n, k, 1, a, k, 0, c, n)
			}
			reportGflops(b, float64(n)*float64(n+1)*float64(k))
		})
	}
}

// spd returns a random n×n symmetric, diagonally dominant, hence positive
// definite, matrix (row-major).
func spd(n int, seed uint64) []float64 {
	a := randSlice(n*n, seed)
	for i := range n {
		a[i*n+i] = float64(n)
		for j := range i {
			a[j*n+i] = a[i*n+j]
		}
	}
	return a
}

func BenchmarkPotrf(b *testing.B) {
	defer blas64.Use(blas64.Implementation())
	for _, n := range []int{1000, 2000, 4000} {
		a := spd(n, uint64(n))
		work := make([]float64, n*n)
		for _, be := range backends {
			b.Run(fmt.Sprintf("n=%d/%s", n, be.name), func(b *testing.B) {
				be.use(b)
				blas64.Use(be.impl)
				for b.Loop() {
					b.StopTimer()
					copy(work, a)
					b.StartTimer()
					if _, ok := lapack64.Potrf(blas64.Symmetric{N: n, Stride: n, Data: work, Uplo: blas.Lower}); !ok {
						b.Fatal("not positive definite")
					}
				}
				reportGflops(b, float64(n)*float64(n)*float64(n)/3)
			})
		}
	}
}

// before is fastblas as it was before its level-2 routines: gonum's Dsymv,
// Dsyr2 and Dsyr2k; the benchmarks compare against it in the same run.
type before struct{ fastblas.Implementation }

func (before) Dsymv(ul blas.Uplo, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	gonum.Implementation{}.Dsymv(ul, n, alpha, a, lda, x, incX, beta, y, incY)
}

func (before) Dsyr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	gonum.Implementation{}.Dsyr2(ul, n, alpha, x, incX, y, incY, a, lda)
}

func (before) Dsyr2k(ul blas.Uplo, tA blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	gonum.Implementation{}.Dsyr2k(ul, tA, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// reportGBs reports bytes read per iteration as GB/s.
func reportGBs(b *testing.B, bytes float64) {
	b.ReportMetric(bytes*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}

// streamRead sums x split over GOMAXPROCS goroutines: a streaming read.
func streamRead(x, sums []float64) {
	p := len(sums)
	var wg sync.WaitGroup
	for t := range p {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums[t] = floats.Sum(x[t*len(x)/p : (t+1)*len(x)/p])
		}()
	}
	wg.Wait()
}

// BenchmarkStream is the streaming read bandwidth that bounds Dsymv: a
// sum over 256 MiB split over GOMAXPROCS goroutines.
func BenchmarkStream(b *testing.B) {
	x := randSlice(32<<20, 1)
	sums := make([]float64, runtime.GOMAXPROCS(0))
	for b.Loop() {
		streamRead(x, sums)
	}
	reportGBs(b, 8*float64(len(x)))
}

// BenchmarkDsymv runs the lower Dsymv as Dlatrd calls it in Dsytrd: x a
// column of A (stride lda), y a column of the n×32 W (stride 32).
// GB/s counts the triangle, n(n+1)/2 values, read once. "of-stream" is
// that rate over BenchmarkStream's, the two timed alternately in the same
// loop so that the machine's varying bandwidth cancels.
func BenchmarkDsymv(b *testing.B) {
	stream := randSlice(32<<20, 1)
	sums := make([]float64, runtime.GOMAXPROCS(0))
	for _, n := range []int{1000, 2000, 4000} {
		a := randSlice(n*n, 1)
		y := randSlice(n*32, 2)
		for _, be := range []backend{backends[0], {"go", fastblas.Implementation{}, ""}} {
			b.Run(fmt.Sprintf("n=%d/%s", n, be.name), func(b *testing.B) {
				var tSymv, tStream time.Duration
				for b.Loop() {
					t0 := time.Now()
					be.impl.Dsymv(blas.Lower, n-1, 1, a[n+1:], n, a[n:], n, 0, y, 32)
					tSymv += time.Since(t0)
					if n == 4000 {
						b.StopTimer()
						t0 = time.Now()
						streamRead(stream, sums)
						tStream += time.Since(t0)
						b.StartTimer()
					}
				}
				bytes := 8 * float64(n) * float64(n-1) / 2
				reportGBs(b, bytes)
				if tStream > 0 {
					b.ReportMetric(bytes/tSymv.Seconds()/(8*float64(len(stream))/tStream.Seconds()), "of-stream")
				}
			})
		}
	}
}

// BenchmarkSytrd times gonum's Dsytrd (lower, as credlab's tridiagonalize
// calls it) and a Cholesky factorization of the same matrix, and reports
// their ratio: the number of Choleskys one reduction costs, the
// break-even grid size of the tridiagonal lambda path. "before" is
// fastblas without its level-2 routines. Dsytrd with Dorgtr (forming Q)
// is reported as "choleskys+Q".
func BenchmarkSytrd(b *testing.B) {
	defer blas64.Use(blas64.Implementation())
	bes := append([]backend{{"go-before", before{}, "avx512"}}, backends...)
	for _, n := range []int{1000, 2000, 4000} {
		a := spd(n, uint64(n))
		work := make([]float64, n*n)
		d, e, tau := make([]float64, n), make([]float64, n), make([]float64, n)
		w := make([]float64, 64*n)
		for _, be := range bes {
			b.Run(fmt.Sprintf("n=%d/%s", n, be.name), func(b *testing.B) {
				be.use(b)
				blas64.Use(be.impl)
				var tChol, tTrd, tQ time.Duration
				for b.Loop() {
					b.StopTimer()
					copy(work, a)
					t0 := time.Now()
					lapack64.Potrf(blas64.Symmetric{N: n, Stride: n, Data: work, Uplo: blas.Lower})
					tChol += time.Since(t0)
					copy(work, a)
					b.StartTimer()
					t0 = time.Now()
					lapackgo.Implementation{}.Dsytrd(blas.Lower, n, work, n, d, e, tau, w, len(w))
					tTrd += time.Since(t0)
					b.StopTimer()
					t0 = time.Now()
					lapackgo.Implementation{}.Dorgtr(blas.Lower, n, work, n, tau, w, len(w))
					tQ += time.Since(t0)
					b.StartTimer()
				}
				b.ReportMetric(tTrd.Seconds()/tChol.Seconds(), "choleskys")
				b.ReportMetric((tTrd+tQ).Seconds()/tChol.Seconds(), "choleskys+Q")
				b.ReportMetric(tChol.Seconds()/float64(b.N)*1e3, "potrf-ms")
			})
		}
	}
}
