package fastblas_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"

	"github.com/credlab/credlab/internal/fastblas"
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
