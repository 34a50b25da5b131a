package fastblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

func TestDsyrk(t *testing.T) {
	forKernels(t, func(t *testing.T, kn *kernel) {
		mr, nr, kc, mc := kn.mr, kn.nr, kn.kc, kn.mc
		sizes := [][2]int{
			{0, 3}, {3, 0}, {1, 1}, {7, 100}, {mr - 1, 30}, {mr + 1, 30}, {nr - 1, 9}, {nr + 1, kc + 1},
			{2*mr + 1, 11}, {2*nr - 1, 12}, {23, 31}, {41, kc - 1}, {mc + 7, 19}, {2*mc + 1, 40}, {64, 300},
		}
		if large() {
			sizes = append(sizes, [2]int{517, 260})
		}
		rng := rand.New(rand.NewPCG(3, 4))
		for _, s := range sizes {
			n, k := s[0], s[1]
			for _, ul := range []blas.Uplo{blas.Lower, blas.Upper} {
				for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
					for _, alpha := range []float64{0, 1, -0.7} {
						for _, beta := range []float64{0, 1, 0.3} {
							name := fmt.Sprintf("n=%d,k=%d,%c%c,alpha=%v,beta=%v", n, k, ul, tA, alpha, beta)
							ar, ac := n, k
							if tA == blas.Trans {
								ar, ac = k, n
							}
							a := newMat(rng, ar, ac, 2, false)
							c := newMat(rng, n, n, 3, beta == 0)
							want := c.clone()
							if beta == 0 { // gonum's Lower/Trans case reads C when beta == 0
								clear(want.data)
							}
							gonum.Implementation{}.Dsyrk(ul, tA, n, k, alpha, a.data, a.ld, beta, want.data, want.ld)
							got := c.clone()
							Implementation{}.Dsyrk(ul, tA, n, k, alpha, a.data, a.ld, beta, got.data, got.ld)
							checkPad(t, name, got, c, byte(ul))
							tol := 1e-13 * math.Abs(alpha) * float64(k) * a.maxAbs() * a.maxAbs()
							if beta != 0 {
								tol += 1e-13 * c.maxAbs()
							}
							checkClose(t, name, got, want, byte(ul), tol)
						}
					}
				}
			}
		}
	})
}
