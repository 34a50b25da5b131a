package credlab

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

// TestBandPath checks the band reduction's solves against dense solves of
// (G + mu I) z = b, and Q's orthogonality, for sizes around the band
// width (no panel, one partial panel, several).
func TestBandPath(t *testing.T) {
	for _, p := range []int{1, 2, 3, bandWidth, bandWidth + 1, bandWidth + 2, 2*bandWidth + 5, 150} {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			rng := newRNG(uint64(p))
			// G = X^T X of rank min(p, 40): singular for p > 40.
			x := randData(rng, 40, p, 1)
			g := mat.NewDense(p, p, nil)
			g.Mul(x.T(), x)
			b := make([]float64, p)
			for i := range b {
				b[i] = rng.NormFloat64()
			}
			a := append([]float64(nil), g.RawMatrix().Data...)
			bp := reduceBand(a, p, b)
			// B is a band matrix with bandWidth subdiagonals whose
			// eigenvalues are G's: its trace and Frobenius norm agree.
			var trB, frB, trG, frG float64
			for i := 0; i < p; i++ {
				for j := max(0, i-bp.w); j <= i; j++ {
					v := bp.band[i*(bp.w+1)+bp.w+j-i]
					if i == j {
						trB += v
						frB += v * v
					} else {
						frB += 2 * v * v
					}
				}
				trG += g.At(i, i)
				for j := 0; j < p; j++ {
					frG += g.At(i, j) * g.At(i, j)
				}
			}
			if !relClose(trB, trG, 1e-12) || !relClose(frB, frG, 1e-12) {
				t.Errorf("trace %g, squared norm %g of B; G's %g, %g", trB, frB, trG, frG)
			}
			mus := []float64{1e-3, 0.1, 10}
			z := mat.NewDense(p, len(mus), nil)
			ok := make([]bool, len(mus))
			bp.solvePath(mus, z.RawMatrix(), ok)
			bp.applyQ(blas.NoTrans, z.RawMatrix())
			for i, mu := range mus {
				if !ok[i] {
					t.Fatalf("mu = %g: solve failed", mu)
				}
				want := denseSolve(t, addDiag(g, mu), b)
				if d := relDiff(mat.Col(nil, i, z), want); d > 1e-9 {
					t.Errorf("mu = %g: relative difference %g from the dense solve", mu, d)
				}
			}
			// Q^T Q z = z for a block of vectors.
			v := mat.NewDense(p, 3, nil)
			for i := 0; i < p; i++ {
				for j := 0; j < 3; j++ {
					v.Set(i, j, rng.NormFloat64())
				}
			}
			w := mat.DenseCopyOf(v)
			bp.applyQ(blas.Trans, w.RawMatrix())
			bp.applyQ(blas.NoTrans, w.RawMatrix())
			if d := relDiffMat(w, v); d > 1e-13 {
				t.Errorf("Q Q^T z differs from z by %g", d)
			}
		})
	}
}

// TestBandPathIndefinite checks that a shift that leaves B + mu I
// indefinite is reported, not solved.
func TestBandPathIndefinite(t *testing.T) {
	p := 50
	g := mat.NewDense(p, p, nil)
	for i := 0; i < p; i++ {
		g.Set(i, i, float64(i-10))
	}
	b := make([]float64, p)
	b[0] = 1
	bp := reduceBand(append([]float64(nil), g.RawMatrix().Data...), p, b)
	ok := make([]bool, 2)
	bp.solvePath([]float64{5, 11}, mat.NewDense(p, 2, nil).RawMatrix(), ok)
	if ok[0] {
		t.Error("G + 5 I has negative eigenvalues; solve reported success")
	}
	if !ok[1] {
		t.Error("G + 11 I is positive definite; solve failed")
	}
}

// TestBandPathProcs checks that the reduction and the solves give the same
// bits on one core and on several, with several symmLower blocks.
func TestBandPathProcs(t *testing.T) {
	p := 2*symmBlock + 90
	rng := newRNG(9)
	x := randData(rng, p+50, p, 1)
	g := mat.NewDense(p, p, nil)
	g.Mul(x.T(), x)
	b := make([]float64, p)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	mus := []float64{1e-6, 1e-2, 1, 100}
	run := func() []float64 {
		bp := reduceBand(append([]float64(nil), g.RawMatrix().Data...), p, b)
		z := mat.NewDense(p, len(mus), nil)
		bp.solvePath(mus, z.RawMatrix(), make([]bool, len(mus)))
		bp.applyQ(blas.NoTrans, z.RawMatrix())
		return append(denseBits(z), bp.band...)
	}
	var one, four []float64
	withProcs(1, func() { one = run() })
	withProcs(4, func() { four = run() })
	if !sameBits(one, four) {
		t.Error("the band path differs between 1 and 4 cores")
	}
}
