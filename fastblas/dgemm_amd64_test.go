package fastblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// gemmSizes straddle k's tile (mr, nr), its cache blocks (kc, mc, nc) and
// the threshold for gonum.
func gemmSizes(k *kernel) [][3]int {
	mr, nr, kc, mc, nc := k.mr, k.nr, k.kc, k.mc, k.nc
	sizes := [][3]int{
		{0, 5, 5}, {5, 0, 5}, {5, 5, 0}, {1, 1, 1}, {1, 40, 40}, {40, 1, 40}, {40, 40, 1},
		{mr - 1, nr - 1, 17}, {mr, nr, 17}, {mr + 1, nr + 1, 17}, {2*mr + 1, 3*nr - 1, 33},
		// Tile edges above the threshold: m·n·k ≥ gemmMin for both kernels.
		{mr - 1, nr - 1, 130}, {mr, nr, 130}, {mr + 1, nr + 1, 130}, {mr - 1, nr + 1, 131},
		{mr + 1, nr - 1, 129}, {mr, 2 * nr, 70}, {2 * mr, nr, 70}, {2*mr - 1, 2*nr + 1, 40},
		{16, 16, 16}, {17, 15, 16}, {37, 29, kc - 1}, {25, 19, kc}, {31, 23, kc + 1},
		{mc - 1, 2*nr + 3, 20}, {mc + 1, nr - 3, 2*kc + 5}, {2*mc + mr - 1, 3*nr + 1, 7},
		{64, 64, 64}, {130, 71, 260}, {mr + 1, nc + nr + 1, 9},
	}
	if large() {
		sizes = append(sizes, [3]int{300, 517, 260}, [3]int{97, 1031, 40})
	}
	return sizes
}

func TestDgemm(t *testing.T) {
	forKernels(t, func(t *testing.T, kn *kernel) {
		rng := rand.New(rand.NewPCG(1, 2))
		trans := []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans}
		for _, s := range gemmSizes(kn) {
			m, n, k := s[0], s[1], s[2]
			for _, tA := range trans[:2] {
				for _, tB := range trans {
					alphas, betas := []float64{0, 1, -0.7}, []float64{0, 1, 0.3}
					if m*n*k > 1e6 { // large: the general case and beta == 0 only
						alphas, betas = alphas[2:], []float64{0, 0.3}
					}
					for _, alpha := range alphas {
						for _, beta := range betas {
							name := fmt.Sprintf("m=%d,n=%d,k=%d,%c%c,alpha=%v,beta=%v", m, n, k, tA, tB, alpha, beta)
							testDgemm(t, rng, name, tA, tB, m, n, k, alpha, beta)
						}
					}
				}
			}
		}
	})
}

func testDgemm(t *testing.T, rng *rand.Rand, name string, tA, tB blas.Transpose, m, n, k int, alpha, beta float64) {
	ar, ac := m, k
	if tA != blas.NoTrans {
		ar, ac = k, m
	}
	br, bc := k, n
	if tB != blas.NoTrans {
		br, bc = n, k
	}
	a := newMat(rng, ar, ac, 3, false)
	b := newMat(rng, br, bc, 1, false)
	c := newMat(rng, m, n, 2, beta == 0)
	want := c.clone()
	gonum.Implementation{}.Dgemm(tA, tB, m, n, k, alpha, a.data, a.ld, b.data, b.ld, beta, want.data, want.ld)
	got := c.clone()
	Implementation{}.Dgemm(tA, tB, m, n, k, alpha, a.data, a.ld, b.data, b.ld, beta, got.data, got.ld)
	checkPad(t, name, got, c, 0)
	tol := 1e-13 * math.Abs(alpha) * float64(k) * a.maxAbs() * b.maxAbs()
	if beta != 0 {
		tol += 1e-13 * math.Abs(beta) * c.maxAbs()
	}
	checkClose(t, name, got, want, 0, tol)
}

// TestKernels checks what the loops assume of every kernel's tile and
// blocks (gather needs w ≥ 4), and that Kernel names the kernel in use.
func TestKernels(t *testing.T) {
	for _, k := range []*kernel{avx2, avx512} {
		if k.mr*k.nr > len(scratch{}) || k.mr < 4 || k.nr < 4 || k.mc%k.mr != 0 || k.nc%k.nr != 0 {
			t.Errorf("kernel %s: bad tile or blocks %+v", k.name, *k)
		}
	}
	if want := map[bool]string{true: "avx512", false: "avx2"}[hasAVX512]; hasAVX2FMA && Kernel() != want {
		t.Errorf("Kernel() = %q, want %q", Kernel(), want)
	}
}
