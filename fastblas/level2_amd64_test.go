package fastblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// vec is n elements with stride inc in data; the gaps hold sentinels.
type vec struct {
	n, inc int
	data   []float64
}

// newVec returns n uniform values in [-1, 1), or NaNs when nan, stored
// with stride inc (BLAS order: from the end when inc < 0).
func newVec(rng *rand.Rand, n, inc int, nan bool) vec {
	v := vec{n: n, inc: inc, data: make([]float64, max(0, (n-1)*abs(inc)+1)+2)}
	for i := range v.data {
		v.data[i] = sentinel
	}
	for i := range n {
		x := 2*rng.Float64() - 1
		if nan {
			x = math.NaN()
		}
		v.data[v.at(i)] = x
	}
	return v
}

func (v vec) at(i int) int {
	if v.inc < 0 {
		return (v.n-1-i)*-v.inc + 0
	}
	return i * v.inc
}

func (v vec) clone() vec {
	v.data = slices.Clone(v.data)
	return v
}

// checkVec fails unless got and want agree within tol on the n elements
// and got's gaps still hold orig's values.
func checkVec(t *testing.T, name string, got, want, orig vec, tol float64) {
	t.Helper()
	for k, g := range got.data {
		w := want.data[k]
		if !same(g, w) && !(math.Abs(g-w) <= tol) {
			t.Fatalf("%s: element %d = %v, want %v (tol %.3g)", name, k, g, w, tol)
		}
	}
	for k := range orig.data {
		if (k%abs(got.inc) != 0 || k/abs(got.inc) >= got.n) && !same(got.data[k], orig.data[k]) {
			t.Fatalf("%s: gap %d changed", name, k)
		}
	}
}

func (v vec) maxAbs() float64 {
	var s float64
	for i := range v.n {
		s = max(s, math.Abs(v.data[v.at(i)]))
	}
	return s
}

// level2Sizes are the orders tested: every n up to 40, the edges of the
// four-row blocks and of the chunks (symvChunks changes at n = 512, 627).
func level2Sizes() []int {
	s := []int{63, 64, 65, 127, 128, 129, 255, 256, 257, 300}
	for n := range 41 {
		s = append(s, n)
	}
	if large() {
		s = append(s, 511, 512, 513, 626, 627, 1001)
	}
	return s
}

var alphaBeta = [][2]float64{{1, 0}, {-0.7, 0.3}, {0, 0}, {0, 1}, {1.3, 1}, {0, 0.5}}

func TestDsymv(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range level2Sizes() {
		for _, ul := range []blas.Uplo{blas.Lower, blas.Upper} {
			a := newMat(rng, n, n, 3, false)
			for _, ab := range alphaBeta {
				for _, inc := range [][2]int{{1, 1}, {3, 1}, {1, -2}, {-1, 4}} {
					alpha, beta := ab[0], ab[1]
					name := fmt.Sprintf("n=%d,%c,alpha=%v,beta=%v,inc=%v", n, ul, alpha, beta, inc)
					x := newVec(rng, n, inc[0], false)
					y := newVec(rng, n, inc[1], beta == 0)
					want := y.clone()
					if beta == 0 { // gonum zeroes y first
						for i := range n {
							want.data[want.at(i)] = 0
						}
					}
					gonum.Implementation{}.Dsymv(ul, n, alpha, a.data, a.ld, x.data, x.inc, beta, want.data, want.inc)
					got, ac, xc := y.clone(), a.clone(), x.clone()
					Implementation{}.Dsymv(ul, n, alpha, ac.data, ac.ld, xc.data, xc.inc, beta, got.data, got.inc)
					checkPad(t, name+" A", ac, a, 0)
					checkClose(t, name+" A", ac, a, 0, 0)
					checkVec(t, name+" x", xc, x, x, 0)
					tol := 1e-14 * math.Abs(alpha) * float64(n) * a.maxAbs() * x.maxAbs()
					if beta != 0 {
						tol += 1e-14 * math.Abs(beta) * y.maxAbs()
					}
					checkVec(t, name, got, want, y, tol)
				}
			}
		}
	}
}

func TestDsyr2(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range level2Sizes() {
		for _, ul := range []blas.Uplo{blas.Lower, blas.Upper} {
			for _, alpha := range []float64{0, 1, -0.7} {
				for _, inc := range [][2]int{{1, 1}, {2, 1}, {1, -3}} {
					name := fmt.Sprintf("n=%d,%c,alpha=%v,inc=%v", n, ul, alpha, inc)
					x, y := newVec(rng, n, inc[0], false), newVec(rng, n, inc[1], false)
					a := newMat(rng, n, n, 2, false)
					want, got := a.clone(), a.clone()
					gonum.Implementation{}.Dsyr2(ul, n, alpha, x.data, x.inc, y.data, y.inc, want.data, want.ld)
					Implementation{}.Dsyr2(ul, n, alpha, x.data, x.inc, y.data, y.inc, got.data, got.ld)
					checkPad(t, name, got, a, byte(ul))
					checkClose(t, name, got, want, byte(ul), 1e-15*(1+4*math.Abs(alpha)))
				}
			}
		}
	}
}

func TestDsyr2k(t *testing.T) {
	forKernels(t, func(t *testing.T, kn *kernel) {
		mr, nr, kc := kn.mr, kn.nr, kn.kc
		sizes := [][2]int{
			{0, 3}, {3, 0}, {1, 1}, {7, 100}, {mr + 1, 30}, {nr - 1, 9}, {nr + 1, kc/2 + 1},
			{2*mr + 1, 11}, {23, 31}, {41, kc}, {64, 32}, {129, 32}, {300, 7},
		}
		if large() {
			sizes = append(sizes, [2]int{517, 32}, [2]int{300, 300})
		}
		rng := rand.New(rand.NewPCG(15, 16))
		for _, s := range sizes {
			n, k := s[0], s[1]
			for _, ul := range []blas.Uplo{blas.Lower, blas.Upper} {
				for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
					for _, ab := range alphaBeta {
						alpha, beta := ab[0], ab[1]
						name := fmt.Sprintf("n=%d,k=%d,%c%c,alpha=%v,beta=%v", n, k, ul, tA, alpha, beta)
						ar, ac := n, k
						if tA == blas.Trans {
							ar, ac = k, n
						}
						a, b := newMat(rng, ar, ac, 2, false), newMat(rng, ar, ac, 1, false)
						c := newMat(rng, n, n, 3, beta == 0)
						want := c.clone()
						if beta == 0 { // gonum's Dsyr2k reads C when beta == 0
							clear(want.data)
						}
						gonum.Implementation{}.Dsyr2k(ul, tA, n, k, alpha, a.data, a.ld, b.data, b.ld, beta, want.data, want.ld)
						got := c.clone()
						Implementation{}.Dsyr2k(ul, tA, n, k, alpha, a.data, a.ld, b.data, b.ld, beta, got.data, got.ld)
						checkPad(t, name, got, c, byte(ul))
						tol := 2e-13 * math.Abs(alpha) * float64(k) * a.maxAbs() * b.maxAbs()
						if beta != 0 {
							tol += 1e-13 * math.Abs(beta) * c.maxAbs()
						}
						checkClose(t, name, got, want, byte(ul), tol)
					}
				}
			}
		}
	})
}

// TestLevel2Determinism checks that Dsymv, Dsyr2 and Dsyr2k give the same
// bits on 1, 2 and 3 goroutines, at an order with several Dsymv chunks.
func TestLevel2Determinism(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rng := rand.New(rand.NewPCG(17, 18))
	n := 1203
	a := newMat(rng, n, n, 1, false)
	w := newMat(rng, n, 32, 0, false)
	x, y := newVec(rng, n, 1, false), newVec(rng, n, 3, false)
	run := func() [][]float64 {
		var out [][]float64
		for _, ul := range []blas.Uplo{blas.Lower, blas.Upper} {
			ys := y.clone()
			Implementation{}.Dsymv(ul, n, 0.9, a.data, a.ld, x.data, x.inc, 0.5, ys.data, ys.inc)
			r2 := a.clone()
			Implementation{}.Dsyr2(ul, n, -1, x.data, x.inc, y.data, y.inc, r2.data, r2.ld)
			r2k := a.clone()
			Implementation{}.Dsyr2k(ul, blas.NoTrans, n, 16, -1, w.data, w.ld, w.data[16:], w.ld, 1, r2k.data, r2k.ld)
			out = append(out, ys.data, r2.data, r2k.data)
		}
		return out
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
}
