package fastblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// triangular returns a t×t matrix whose ul triangle is well conditioned
// (diagonal in [1, 2), small off-diagonal entries) and whose other triangle
// holds NaN, which must never be read; so does the diagonal when d is Unit.
func triangular(rng *rand.Rand, t int, ul blas.Uplo, d blas.Diag) mat {
	a := newMat(rng, t, t, 2, false)
	for i := range t {
		for j := range t {
			v := &a.data[i*a.ld+j]
			switch {
			case i == j && d == blas.Unit:
				*v = math.NaN()
			case i == j:
				*v = 1 + rng.Float64()
			case (j < i) == (ul == blas.Lower):
				*v /= float64(t)
			default:
				*v = math.NaN()
			}
		}
	}
	return a
}

// triSizes straddle the assembly kernels' orders (trsmM for Left, trsmN for
// Right), gonum's Dtrmm base and the least number of right-hand sides.
var triSizes = [][2]int{
	{0, 4}, {4, 0}, {1, 1}, {trsmM - 1, 50}, {trsmM, 50}, {trsmM + 1, 51}, {50, trsmN - 1}, {50, trsmN}, {51, trsmN + 1},
	{13, 19}, {trmmBase, 70}, {trmmBase + 1, 70}, {70, trmmBase + 1}, {130, 9}, {9, 130},
	{200, trMinRHS - 1}, {trMinRHS - 1, 200}, {150, 1}, {1, 150}, {150, 161},
}

type triFunc func(blas.Side, blas.Uplo, blas.Transpose, blas.Diag, int, int, float64, []float64, int, []float64, int)

// testTri compares f (Dtrsm or Dtrmm of Implementation) with gonum's g on
// every variant; inv, if not nil, undoes f (Dtrmm for Dtrsm) for a
// residual check.
func testTri(t *testing.T, name string, f, g, inv triFunc) {
	sizes := triSizes
	if large() {
		sizes = append(sizes, [2]int{300, 517}, [2]int{517, 300})
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, sz := range sizes {
		m, n := sz[0], sz[1]
		for _, s := range []blas.Side{blas.Left, blas.Right} {
			for _, ul := range []blas.Uplo{blas.Lower, blas.Upper} {
				for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
					for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
						alphas := []float64{0, 1, -0.7}
						if m*n > 1e5 { // large: the general case only
							alphas = alphas[2:]
						}
						for _, alpha := range alphas {
							id := fmt.Sprintf("%s m=%d,n=%d,%c%c%c%c,alpha=%v", name, m, n, s, ul, tA, d, alpha)
							tt := n
							if s == blas.Left {
								tt = m
							}
							a := triangular(rng, tt, ul, d)
							b := newMat(rng, m, n, 3, false)
							want := b.clone()
							g(s, ul, tA, d, m, n, alpha, a.data, a.ld, want.data, want.ld)
							got := b.clone()
							f(s, ul, tA, d, m, n, alpha, a.data, a.ld, got.data, got.ld)
							checkPad(t, id, got, b, 0)
							checkClose(t, id, got, want, 0, 1e-12*math.Max(1, want.maxAbs()))
							if inv == nil || alpha == 0 {
								continue
							}
							// op(A)·X or X·op(A) must give back alpha·B.
							inv(s, ul, tA, d, m, n, 1/alpha, a.data, a.ld, got.data, got.ld)
							checkClose(t, id+" residual", got, b, 0, 1e-12*float64(tt)*math.Max(1, want.maxAbs()))
						}
					}
				}
			}
		}
	}
}

func TestDtrsm(t *testing.T) {
	forKernels(t, func(t *testing.T, _ *kernel) {
		testTri(t, "Dtrsm", Implementation{}.Dtrsm, gonum.Implementation{}.Dtrsm, gonum.Implementation{}.Dtrmm)
	})
}

func TestDtrmm(t *testing.T) {
	forKernels(t, func(t *testing.T, _ *kernel) {
		testTri(t, "Dtrmm", Implementation{}.Dtrmm, gonum.Implementation{}.Dtrmm, nil)
	})
}
