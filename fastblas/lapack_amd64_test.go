package fastblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// spdMat returns a random n×n symmetric positive definite matrix with
// condition number of order n.
func spdMat(rng *rand.Rand, n int) mat {
	x := newMat(rng, n, n, 0, false)
	a := newMat(rng, n, n, 0, false)
	gonum.Implementation{}.Dgemm(blas.NoTrans, blas.Trans, n, n, n, 1/float64(n), x.data, x.ld, x.data, x.ld, 0, a.data, a.ld)
	for i := range n {
		a.data[i*a.ld+i] += 0.1
	}
	return a
}

// factor runs Potrf, Trtri and Potrs with impl installed in blas64 and
// returns the factor, its inverse and the solution of A·X = B.
func factor(impl blas.Float64, a, b mat, ul blas.Uplo) (l, linv, x mat, ok bool) {
	defer blas64.Use(blas64.Implementation())
	blas64.Use(impl)
	l, x = a.clone(), b.clone()
	t, ok := lapack64.Potrf(blas64.Symmetric{N: l.r, Stride: l.ld, Data: l.data, Uplo: ul})
	if !ok {
		return l, linv, x, false
	}
	lapack64.Potrs(t, blas64.General{Rows: x.r, Cols: x.c, Stride: x.ld, Data: x.data})
	linv = l.clone()
	ok = lapack64.Trtri(blas64.Triangular{N: linv.r, Stride: linv.ld, Data: linv.data, Uplo: ul, Diag: blas.NonUnit})
	return l, linv, x, ok
}

func TestLapack(t *testing.T) {
	forKernels(t, func(t *testing.T, _ *kernel) {
		sizes := []int{1, 2, 5, 63, 64, 65, 127, 129, 200}
		if large() {
			sizes = append(sizes, 300, 451, 700)
		}
		rng := rand.New(rand.NewPCG(7, 8))
		for _, n := range sizes {
			a := spdMat(rng, n)
			b := newMat(rng, n, 20, 1, false)
			for _, ul := range []blas.Uplo{blas.Lower, blas.Upper} {
				name := fmt.Sprintf("n=%d,%c", n, ul)
				lw, iw, xw, okw := factor(gonum.Implementation{}, a, b, ul)
				l, li, x, ok := factor(Implementation{}, a, b, ul)
				if !ok || !okw {
					t.Fatalf("%s: factorization failed: %v (gonum %v)", name, ok, okw)
				}
				checkClose(t, name+" Potrf", l, lw, byte(ul), 1e-12)
				checkClose(t, name+" Trtri", li, iw, byte(ul), 1e-10*math.Max(1, iw.maxAbs()))
				checkClose(t, name+" Potrs", x, xw, 0, 1e-10*math.Max(1, xw.maxAbs()))
			}
		}
	})
}

// TestDeterminism checks that results do not depend on the number of
// goroutines: every C element is summed in the same order.
func TestDeterminism(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	forKernels(t, func(t *testing.T, _ *kernel) {
		rng := rand.New(rand.NewPCG(9, 10))
		n := 301
		if !large() {
			n = 150
		}
		a := spdMat(rng, n)
		b := newMat(rng, n, n+13, 1, false)
		c := newMat(rng, n, n+13, 2, false)
		run := func() [][]float64 {
			g := c.clone()
			Implementation{}.Dgemm(blas.Trans, blas.NoTrans, n, n+13, n, -0.7, a.data, a.ld, b.data, b.ld, 0.3, g.data, g.ld)
			s := c.clone()
			Implementation{}.Dsyrk(blas.Upper, blas.Trans, n, n, 1.1, b.data, b.ld, 0.5, s.data, s.ld)
			r := b.clone()
			Implementation{}.Dtrsm(blas.Right, blas.Lower, blas.Trans, blas.NonUnit, n, n, 1, a.data, a.ld, r.data, r.ld)
			m := b.clone()
			Implementation{}.Dtrmm(blas.Left, blas.Upper, blas.NoTrans, blas.NonUnit, n, n+13, 1, a.data, a.ld, m.data, m.ld)
			l, li, x, _ := factor(Implementation{}, a, b, blas.Lower)
			return [][]float64{g.data, s.data, r.data, m.data, l.data, li.data, x.data}
		}
		runtime.GOMAXPROCS(1)
		one := run()
		for _, p := range []int{2, 3} {
			runtime.GOMAXPROCS(p)
			for i, r := range run() {
				if !slices.EqualFunc(r, one[i], same) {
					t.Fatalf("result %d differs between GOMAXPROCS 1 and %d", i, p)
				}
			}
		}
	})
}
