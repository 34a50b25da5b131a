package credlab

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// refNKRLS returns eq. (13), alpha = (K_nm^T K_nm + lambda n K_mm)^+ K_nm^T y,
// on the centers cm, by an SVD pseudo-inverse.
func refNKRLS(t *testing.T, ref refKernel, x, cm *mat.Dense, y []float64, lambda float64) []float64 {
	t.Helper()
	n := len(y)
	knm := refMatrix(ref, x, cm)
	kmm := refMatrix(ref, cm, cm)
	var g mat.Dense
	g.Mul(knm.T(), knm)
	var lk mat.Dense
	lk.Scale(lambda*float64(n), kmm)
	g.Add(&g, &lk)
	return matVec(pinvSVD(t, &g, 1e-12), matVec(knm.T(), y))
}

func TestNKRLSEq13(t *testing.T) {
	rng := newRNG(40)
	x := randData(rng, 80, 2, 2)
	y := smoothTargets(rng, x, 0.1)
	// Duplicated rows, so that some seeds draw duplicate centers.
	xd := mat.DenseCopyOf(x)
	for i := 0; i < 30; i++ {
		xd.SetRow(50+i, row(xd, i))
	}
	xl := randData(rng, 60, 3, 1)
	yl := smoothTargets(rng, xl, 0.1)
	xnew := randData(rng, 30, 2, 2)
	xnewl := randData(rng, 30, 3, 1)
	cases := []struct {
		name   string
		k      Kernel
		x      *mat.Dense
		y      []float64
		xnew   *mat.Dense
		m      int
		lambda float64
	}{
		{"gaussian 1e-3", GaussianKernel{Sigma: 0.7}, x, y, xnew, 15, 1e-3},
		{"gaussian 1e-6", GaussianKernel{Sigma: 0.7}, x, y, xnew, 15, 1e-6},
		{"gaussian duplicates", GaussianKernel{Sigma: 0.7}, xd, y, xnew, 40, 1e-4},
		{"laplacian", LaplacianKernel{Sigma: 1}, x, y, xnew, 20, 1e-4},
		{"linear m>d", LinearKernel{}, xl, yl, xnewl, 10, 1e-3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			const seed = 5
			fit, err := NKRLS(context.Background(), c.x, c.y, NKRLSConfig{Kernel: c.k, Lambda: c.lambda,
				Nystrom: NystromConfig{M: c.m, Seed: seed}})
			if err != nil {
				t.Fatal(err)
			}
			idx, err := NystromCenters(c.x, c.m, nil, seed)
			if err != nil {
				t.Fatal(err)
			}
			cm := rowsOf(c.x, idx)
			ref := refOf(t, c.k)
			alpha := refNKRLS(t, ref, c.x, cm, c.y, c.lambda)
			want := matVec(refMatrix(ref, c.xnew, cm), alpha)
			got, err := fit.Model.Predict(c.xnew)
			if err != nil {
				t.Fatal(err)
			}
			if d := relDiff(got, want); d > 1e-6 {
				t.Errorf("predictions differ from eq. (13): rel %g", d)
			}
			train := matVec(refMatrix(ref, c.x, cm), alpha)
			if tr := refRMSE(train, c.y); !relClose(fit.Path[0].TrainRMSE, tr, 1e-6) {
				t.Errorf("TrainRMSE %g, independent %g", fit.Path[0].TrainRMSE, tr)
			}
			if fit.Method != "NKRLS" || fit.Lambda != c.lambda || !math.IsNaN(fit.ValRMSE) {
				t.Errorf("fit record: %q lambda %g val %g", fit.Method, fit.Lambda, fit.ValRMSE)
			}
			// The rank is that of K_mm.
			var svd mat.SVD
			svd.Factorize(refMatrix(ref, cm, cm), mat.SVDNone)
			if r := svd.Rank(1e-10); fit.Rank != r {
				t.Errorf("rank %d, SVD rank of K_mm %d", fit.Rank, r)
			}
			if deficient := c.name == "gaussian duplicates" || c.name == "linear m>d"; deficient && fit.Rank >= c.m {
				t.Errorf("case meant to have a rank-deficient K_mm has rank %d = m", fit.Rank)
			}
		})
	}
}

// With m = n every point is a center and NKRLS is KRLS.
func TestNKRLSAllCentersIsKRLS(t *testing.T) {
	rng := newRNG(41)
	x := randData(rng, 40, 2, 2)
	y := smoothTargets(rng, x, 0.1)
	xnew := randData(rng, 20, 2, 2)
	for _, lambda := range []float64{1e-2, 1e-4} {
		k := GaussianKernel{Sigma: 0.6}
		nk, err := NKRLS(context.Background(), x, y, NKRLSConfig{Kernel: k, Lambda: lambda, Nystrom: NystromConfig{M: 40, Seed: 3}})
		if err != nil {
			t.Fatal(err)
		}
		kr, err := KRLS(context.Background(), x, y, KRLSConfig{Kernel: k, Lambda: lambda})
		if err != nil {
			t.Fatal(err)
		}
		a, err := nk.Model.Predict(xnew)
		if err != nil {
			t.Fatal(err)
		}
		b, err := kr.Model.Predict(xnew)
		if err != nil {
			t.Fatal(err)
		}
		if d := relDiff(a, b); d > 1e-6 {
			t.Errorf("lambda %g: NKRLS(m=n) and KRLS predictions differ: rel %g", lambda, d)
		}
		if !relClose(nk.Path[0].TrainRMSE, kr.Path[0].TrainRMSE, 1e-6) {
			t.Errorf("lambda %g: TrainRMSE %g vs %g", lambda, nk.Path[0].TrainRMSE, kr.Path[0].TrainRMSE)
		}
	}
}

// TestNKRLSGridPaths checks the lambda path of both solvers against eq. (13)
// recomputed on the hold-out split with the same centers.
func TestNKRLSGridPaths(t *testing.T) {
	rng := newRNG(42)
	x := randData(rng, 100, 2, 2)
	y := smoothTargets(rng, x, 0.2)
	k := GaussianKernel{Sigma: 0.6}
	ref := refGaussian(0.6)
	h := Holdout{Seed: 11, Fraction: 0.25}
	nc := NystromConfig{M: 20, Seed: 4}
	tr, va, err := h.Split(100)
	if err != nil {
		t.Fatal(err)
	}
	xt, xv, yt, yv := rowsOf(x, tr), rowsOf(x, va), pick(y, tr), pick(y, va)
	idx, err := NystromCenters(xt, nc.M, nil, nc.Seed)
	if err != nil {
		t.Fatal(err)
	}
	cm := rowsOf(xt, idx)
	g31 := LogGrid(1e-7, 1, 31)
	var g11 []float64
	for i := 0; i < 31; i += 3 {
		g11 = append(g11, g31[i])
	}
	fits := map[int]*Fit{}
	for _, grid := range [][]float64{g11, g31} {
		fit, err := NKRLS(context.Background(), x, y, NKRLSConfig{Kernel: k, Lambdas: grid, Holdout: h, Nystrom: nc})
		if err != nil {
			t.Fatal(err)
		}
		fits[len(grid)] = fit
		if len(fit.Path) != len(grid) {
			t.Fatalf("grid %d: path has %d points", len(grid), len(fit.Path))
		}
		best, compared := -1, 0
		for i, p := range fit.Path {
			if math.IsNaN(p.ValRMSE) {
				continue
			}
			compared++
			alpha := refNKRLS(t, ref, xt, cm, yt, p.Lambda)
			va := refRMSE(matVec(refMatrix(ref, xv, cm), alpha), yv)
			trr := refRMSE(matVec(refMatrix(ref, xt, cm), alpha), yt)
			if !relClose(p.ValRMSE, va, 1e-6) || !relClose(p.TrainRMSE, trr, 1e-6) {
				t.Errorf("grid %d, lambda %g: train/val %.10g/%.10g, independent %.10g/%.10g",
					len(grid), p.Lambda, p.TrainRMSE, p.ValRMSE, trr, va)
			}
			if best < 0 || p.ValRMSE < fit.Path[best].ValRMSE {
				best = i
			}
		}
		if compared < len(grid)*3/4 {
			t.Fatalf("grid %d: only %d finite path points", len(grid), compared)
		}
		if fit.Lambda != fit.Path[best].Lambda {
			t.Errorf("grid %d: selected %g, argmin %g", len(grid), fit.Lambda, fit.Path[best].Lambda)
		}
		alpha := refNKRLS(t, ref, xt, cm, yt, fit.Lambda)
		xn := randData(rng, 20, 2, 2)
		got, err := fit.Model.Predict(xn)
		if err != nil {
			t.Fatal(err)
		}
		if d := relDiff(got, matVec(refMatrix(ref, xn, cm), alpha)); d > 1e-6 {
			t.Errorf("grid %d: selected model's predictions: rel %g", len(grid), d)
		}
	}
	for j, p := range fits[11].Path {
		q := fits[31].Path[3*j]
		if !math.IsNaN(p.ValRMSE) && !math.IsNaN(q.ValRMSE) && !relClose(p.ValRMSE, q.ValRMSE, 1e-6) {
			t.Errorf("lambda %g: Cholesky val %g, tridiagonal val %g", p.Lambda, p.ValRMSE, q.ValRMSE)
		}
	}
}

// TestNystromDefaultM checks that a zero NystromConfig.M means
// min(DefaultNystromM, training rows): the zero configurations of NKRLS
// and NYTRO fit as with that M given.
func TestNystromDefaultM(t *testing.T) {
	x, y, _ := SmoothRegression(300, 2, 0.1, 1)
	nt := 300 - 60 // the default 20% hold-out
	want := min(DefaultNystromM, nt)
	a, err := NKRLS(t.Context(), x, y, NKRLSConfig{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NKRLS(t.Context(), x, y, NKRLSConfig{Nystrom: NystromConfig{M: want}})
	c, err := NYTRO(t.Context(), x, y, NYTROConfig{})
	if err != nil {
		t.Fatal(err)
	}
	d, _ := NYTRO(t.Context(), x, y, NYTROConfig{Nystrom: NystromConfig{M: want}})
	if relDiff(a.Model.Coef, b.Model.Coef) != 0 || relDiff(c.Model.Coef, d.Model.Coef) != 0 {
		t.Errorf("zero M differs from M = %d", want)
	}
	if _, err := NKRLS(t.Context(), x, y, NKRLSConfig{Nystrom: NystromConfig{M: -1}}); err == nil {
		t.Error("M = -1: no error")
	}
}
