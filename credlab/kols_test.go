package credlab

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestKOLSRankDeficient compares KOLS with the pseudo-inverse solution
// alpha = K^+ y computed by EigenSym on kernel matrices that are exactly
// rank deficient.
func TestKOLSRankDeficient(t *testing.T) {
	rng := newRNG(20)
	// Linear kernel, d = 3 < n: rank 3.
	xLin := randData(rng, 30, 3, 1)
	// Polynomial of degree 2 in d = 2: 6 monomials, rank 6.
	xPoly := randData(rng, 30, 2, 1)
	// Gaussian with duplicated points: 16 distinct rows among 24.
	xDup := randData(rng, 24, 2, 2)
	for i := 16; i < 24; i++ {
		xDup.SetRow(i, row(xDup, (i*5)%16))
	}
	cases := []struct {
		name string
		k    Kernel
		x    *mat.Dense
		rank int
	}{
		{"linear d=3", LinearKernel{}, xLin, 3},
		{"polynomial deg 2, d=2", PolynomialKernel{Degree: 2, Gamma: 1, Coef0: 1}, xPoly, 6},
		{"gaussian duplicates", GaussianKernel{Sigma: 0.6}, xDup, 16},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, _ := c.x.Dims()
			y := smoothTargets(rng, c.x, 0.3)
			xc, yc := mat.DenseCopyOf(c.x), append([]float64(nil), y...)
			fit, err := KOLS(context.Background(), c.x, y, KOLSConfig{Kernel: c.k})
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(xc, c.x) || !sameBits(yc, y) {
				t.Error("KOLS modified its inputs")
			}
			if fit.Rank != c.rank {
				t.Errorf("rank %d, want %d", fit.Rank, c.rank)
			}
			kmat := refMatrix(refOf(t, c.k), c.x, c.x)
			kp := pinvSym(t, kmat, 1e-10)
			want := matVec(kp, y)
			alpha := fit.Model.Coef
			if len(alpha) != n {
				t.Fatalf("%d coefficients, want %d", len(alpha), n)
			}
			// Predictions K alpha are the projection of y on range(K).
			pred, wantPred := matVec(kmat, alpha), matVec(kmat, want)
			if d := relDiff(pred, wantPred); d > 1e-8 {
				t.Errorf("K alpha differs from K K^+ y: rel %g", d)
			}
			// Minimum norm: alpha lies in range(K), alpha = K K^+ alpha, and
			// so equals K^+ y.
			proj := matVec(mul(kmat, kp), alpha)
			if d := relDiff(alpha, proj); d > 1e-6 {
				t.Errorf("alpha not in range(K): ||alpha - K K^+ alpha||/||alpha|| = %g", d)
			}
			if d := relDiff(alpha, want); d > 1e-6 {
				t.Errorf("alpha differs from K^+ y: rel %g", d)
			}
			if tr := refRMSE(wantPred, y); !relClose(fit.Path[0].TrainRMSE, tr, 1e-6) {
				t.Errorf("TrainRMSE %g, independent %g", fit.Path[0].TrainRMSE, tr)
			}
			if fit.Method != "KOLS" || !math.IsNaN(fit.ValRMSE) {
				t.Errorf("fit record: %q val %g", fit.Method, fit.ValRMSE)
			}
		})
	}
}

// For the linear kernel KOLS is ordinary least squares: K alpha equals the
// projection X (X^T X)^-1 X^T y computed by a QR least-squares solve.
func TestKOLSLinearIsLeastSquares(t *testing.T) {
	rng := newRNG(21)
	x := randData(rng, 40, 4, 1)
	y := smoothTargets(rng, x, 0.2)
	fit, err := KOLS(context.Background(), x, y, KOLSConfig{Kernel: LinearKernel{}})
	if err != nil {
		t.Fatal(err)
	}
	var w mat.VecDense
	if err := w.SolveVec(x, mat.NewVecDense(40, append([]float64(nil), y...))); err != nil {
		t.Fatal(err)
	}
	xnew := randData(rng, 15, 4, 1)
	want := matVec(xnew, w.RawVector().Data)
	got, err := fit.Model.Predict(xnew)
	if err != nil {
		t.Fatal(err)
	}
	if d := relDiff(got, want); d > 1e-8 {
		t.Errorf("KOLS linear predictions differ from least squares: rel %g", d)
	}
}

// With a well-conditioned full-rank K, KOLS interpolates: alpha = K^-1 y.
func TestKOLSFullRankInterpolates(t *testing.T) {
	rng := newRNG(22)
	x := randData(rng, 25, 2, 3)
	y := smoothTargets(rng, x, 0.5)
	k := GaussianKernel{Sigma: 0.4}
	fit, err := KOLS(context.Background(), x, y, KOLSConfig{Kernel: k})
	if err != nil {
		t.Fatal(err)
	}
	if fit.Rank != 25 {
		t.Errorf("rank %d, want 25", fit.Rank)
	}
	want := denseSolve(t, refMatrix(refGaussian(0.4), x, x), y)
	if d := relDiff(fit.Model.Coef, want); d > 1e-8 {
		t.Errorf("alpha differs from K^-1 y: rel %g", d)
	}
	pred, err := fit.Model.Predict(x)
	if err != nil {
		t.Fatal(err)
	}
	if d := relDiff(pred, y); d > 1e-8 {
		t.Errorf("does not interpolate: rel %g", d)
	}
	if fit.Path[0].TrainRMSE > 1e-8 {
		t.Errorf("TrainRMSE %g, want ~0", fit.Path[0].TrainRMSE)
	}
}

// A larger Tol lowers the numerical rank.
func TestKOLSTolerance(t *testing.T) {
	rng := newRNG(23)
	x := randData(rng, 30, 1, 1)
	y := smoothTargets(rng, x, 0.1)
	k := GaussianKernel{Sigma: 1} // fast spectral decay in 1-d
	loose, err := KOLS(context.Background(), x, y, KOLSConfig{Kernel: k, Tol: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	tight, err := KOLS(context.Background(), x, y, KOLSConfig{Kernel: k})
	if err != nil {
		t.Fatal(err)
	}
	if !(loose.Rank < tight.Rank) {
		t.Errorf("rank with Tol 1e-3 = %d, default = %d: want fewer", loose.Rank, tight.Rank)
	}
	// Count the eigenvalues a pivoted Cholesky would keep is not exact, but
	// the numerical rank must not exceed the count above tol^2 * max, nor
	// fall below the count above tol * max.
	kmat := refMatrix(refGaussian(1), x, x)
	var es mat.EigenSym
	es.Factorize(mat.NewSymDense(30, denseBits(kmat)), false)
	vals := es.Values(nil)
	top := vals[len(vals)-1]
	above := func(r float64) int {
		c := 0
		for _, v := range vals {
			if v > r*top {
				c++
			}
		}
		return c
	}
	if loose.Rank < above(1e-3)/2 || loose.Rank > above(1e-8) {
		t.Errorf("rank %d with Tol 1e-3: eigenvalues above 1e-3: %d, above 1e-8: %d", loose.Rank, above(1e-3), above(1e-8))
	}
}
