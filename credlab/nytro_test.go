package credlab

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// featureFilter returns beta_t = (gamma/n) sum_{k<t} (I - gamma A^T A/n)^k A^T y
// for t = 0..T.
func featureFilter(a *mat.Dense, y []float64, gamma float64, T int) [][]float64 {
	n := len(y)
	var g mat.Dense
	g.Mul(a.T(), a)
	return landweberFilterRHS(&g, matVec(a.T(), y), gamma/float64(n), T)
}

// landweberFilterRHS returns c sum_{k<t} (I - c G)^k b for t = 0..T.
func landweberFilterRHS(g *mat.Dense, b []float64, c float64, T int) [][]float64 {
	p := len(b)
	out := make([][]float64, T+1)
	out[0] = make([]float64, p)
	sum := make([]float64, p)
	term := append([]float64(nil), b...)
	for t := 1; t <= T; t++ {
		for i := range sum {
			sum[i] += term[i]
		}
		gt := matVec(g, term)
		for i := range term {
			term[i] -= c * gt[i]
		}
		v := make([]float64, p)
		for i := range v {
			v[i] = c * sum[i]
		}
		out[t] = v
	}
	return out
}

func TestNYTROIsSpectralFilter(t *testing.T) {
	rng := newRNG(60)
	x := randData(rng, 60, 2, 1.5)
	y := smoothTargets(rng, x, 0.2)
	xnew := randData(rng, 20, 2, 1.5)
	const m, seed, T = 12, 8, 50
	cases := []struct {
		name string
		k    Kernel
	}{
		{"gaussian", GaussianKernel{Sigma: 0.6}},
		{"polynomial", PolynomialKernel{Degree: 2, Gamma: 1, Coef0: 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ref := refOf(t, c.k)
			idx, err := NystromCenters(x, m, nil, seed)
			if err != nil {
				t.Fatal(err)
			}
			ny, err := NewNystrom(c.k, x, idx, 0)
			if err != nil {
				t.Fatal(err)
			}
			a, err := ny.Features(x)
			if err != nil {
				t.Fatal(err)
			}
			gamma := 1 / refMaxDiag(ref, x) // the NYTRO paper's step, given explicitly
			betas := featureFilter(a, y, gamma, T)

			// Fully independent: A beta_t = c G sum_k (I - c G)^k y with the
			// Nyström approximation G = K_nm K_mm^+ K_mn.
			cm := rowsOf(x, idx)
			kp := pinvSVD(t, refMatrix(ref, cm, cm), 1e-10)
			knm := refMatrix(ref, x, cm)
			g := mul(knm, mul(kp, knm.T()))
			us := landweberFilter(g, y, gamma, T)
			kxm := mul(refMatrix(ref, xnew, cm), mul(kp, knm.T()))

			for _, iters := range []int{1, 7, T} {
				fit, err := NYTRO(context.Background(), x, y, NYTROConfig{Kernel: c.k,
					Nystrom:    NystromConfig{M: m, Seed: seed},
					IterConfig: IterConfig{Iter: iters, StepSize: gamma, Plain: true, Keep: []int{1, 2, iters}}})
				if err != nil {
					t.Fatal(err)
				}
				if fit.Method != "NYTRO" || fit.Iter != iters || len(fit.Path) != iters || fit.Rank != ny.Rank() {
					t.Fatalf("fit record: %q iter %d path %d rank %d", fit.Method, fit.Iter, len(fit.Path), fit.Rank)
				}
				if !mat.Equal(fit.Model.Centers, ny.Centers) {
					t.Fatal("model centers differ from NewNystrom's on the same indices")
				}
				if d := relDiff(fit.Model.Coef, ny.Coef(betas[iters])); d > 1e-10 {
					t.Errorf("iterate %d differs from R beta_t: rel %g", iters, d)
				}
				for _, kt := range []int{1, 2, iters} {
					if kt > iters {
						continue
					}
					if d := relDiff(fit.Iterates[kt], ny.Coef(betas[kt])); d > 1e-10 {
						t.Errorf("Iterates[%d]: rel %g", kt, d)
					}
				}
				for i, p := range fit.Path {
					want := refRMSE(matVec(a, betas[i+1]), y)
					if !relClose(p.TrainRMSE, want, 1e-9) {
						t.Errorf("iteration %d: TrainRMSE %g, ||A beta_t - y||/sqrt(n) %g", i+1, p.TrainRMSE, want)
					}
				}
				got, err := fit.Model.Predict(xnew)
				if err != nil {
					t.Fatal(err)
				}
				if d := relDiff(got, matVec(kxm, us[iters])); d > 1e-7 {
					t.Errorf("iterate %d: predictions differ from the K_nm K_mm^+ K_mn filter: rel %g", iters, d)
				}
			}
		})
	}
}

// Run to convergence, NYTRO reaches the least-squares solution of
// min ||A beta - y||, which NKRLS approaches as lambda -> 0. With a linear
// kernel and centers spanning R^d that is ordinary least squares.
// Plain descent: it converges geometrically on a well-conditioned problem,
// the nu-method only polynomially.
func TestNYTROConvergesToLeastSquares(t *testing.T) {
	rng := newRNG(61)
	x := randData(rng, 40, 3, 1)
	y := smoothTargets(rng, x, 0.2)
	xnew := randData(rng, 15, 3, 1)
	nc := NystromConfig{M: 10, Seed: 2}
	fit, err := NYTRO(context.Background(), x, y, NYTROConfig{Kernel: LinearKernel{}, Nystrom: nc,
		IterConfig: IterConfig{Iter: 600, Plain: true}})
	if err != nil {
		t.Fatal(err)
	}
	var w mat.VecDense
	if err := w.SolveVec(x, mat.NewVecDense(40, append([]float64(nil), y...))); err != nil {
		t.Fatal(err)
	}
	ls := matVec(xnew, w.RawVector().Data)
	got, err := fit.Model.Predict(xnew)
	if err != nil {
		t.Fatal(err)
	}
	if d := relDiff(got, ls); d > 1e-8 {
		t.Errorf("NYTRO after 600 steps differs from least squares: rel %g", d)
	}
	nk, err := NKRLS(context.Background(), x, y, NKRLSConfig{Kernel: LinearKernel{}, Nystrom: nc, Lambda: 1e-12})
	if err != nil {
		t.Fatal(err)
	}
	pn, err := nk.Model.Predict(xnew)
	if err != nil {
		t.Fatal(err)
	}
	if d := relDiff(got, pn); d > 1e-8 {
		t.Errorf("NYTRO vs NKRLS(lambda=1e-12): rel %g", d)
	}

	// A Gaussian kernel with few centers: min eigenvalue of A^T A/n is
	// about 0.03, so 2000 steps converge to machine precision.
	xg := randData(rng, 40, 1, 1)
	yg := smoothTargets(rng, xg, 0.05)
	kg := GaussianKernel{Sigma: 0.5}
	ncg := NystromConfig{M: 4, Seed: 1}
	fg, err := NYTRO(context.Background(), xg, yg, NYTROConfig{Kernel: kg, Nystrom: ncg, IterConfig: IterConfig{Iter: 2000, Plain: true}})
	if err != nil {
		t.Fatal(err)
	}
	ng, err := NKRLS(context.Background(), xg, yg, NKRLSConfig{Kernel: kg, Nystrom: ncg, Lambda: 1e-13})
	if err != nil {
		t.Fatal(err)
	}
	xgn := randData(rng, 15, 1, 1)
	a, _ := fg.Model.Predict(xgn)
	b, _ := ng.Model.Predict(xgn)
	if d := relDiff(a, b); d > 1e-6 {
		t.Errorf("gaussian: NYTRO(2000 steps) vs NKRLS(lambda=1e-13): rel %g", d)
	}
}

func TestNYTROHoldoutPath(t *testing.T) {
	rng := newRNG(62)
	x := randData(rng, 80, 2, 1.5)
	y := smoothTargets(rng, x, 0.8)
	k := GaussianKernel{Sigma: 0.5}
	ref := refGaussian(0.5)
	h := Holdout{Seed: 21}
	nc := NystromConfig{M: 25, Seed: 6}
	const T = 120
	fit, err := NYTRO(context.Background(), x, y, NYTROConfig{Kernel: k, Nystrom: nc,
		IterConfig: IterConfig{MaxIter: T, Threshold: -1, Holdout: h, Plain: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(fit.Path) != T {
		t.Fatalf("%d steps, want %d", len(fit.Path), T)
	}
	tr, va, _ := h.Split(80)
	xt, xv, yt, yv := rowsOf(x, tr), rowsOf(x, va), pick(y, tr), pick(y, va)
	idx, _ := NystromCenters(xt, nc.M, nil, nc.Seed)
	cm := rowsOf(xt, idx)
	kp := pinvSVD(t, refMatrix(ref, cm, cm), 1e-10)
	ktm := refMatrix(ref, xt, cm)
	g := mul(ktm, mul(kp, ktm.T()))
	gv := mul(refMatrix(ref, xv, cm), mul(kp, ktm.T()))
	us := landweberFilter(g, yt, fit.StepSize, T)
	best := 0
	for i, p := range fit.Path {
		trr := refRMSE(matVec(g, us[i+1]), yt)
		vv := refRMSE(matVec(gv, us[i+1]), yv)
		if !relClose(p.TrainRMSE, trr, 1e-7) || !relClose(p.ValRMSE, vv, 1e-7) {
			t.Errorf("iteration %d: train/val %g/%g, independent %g/%g", i+1, p.TrainRMSE, p.ValRMSE, trr, vv)
		}
		if p.ValRMSE < fit.Path[best].ValRMSE {
			best = i
		}
	}
	if fit.Iter != best+1 {
		t.Errorf("fit.Iter %d, argmin %d", fit.Iter, best+1)
	}
	if best >= T-10 {
		t.Errorf("test problem should have an interior validation minimum, got iteration %d of %d", best+1, T)
	}
	pv, err := fit.Model.Predict(xv)
	if err != nil {
		t.Fatal(err)
	}
	if v := refRMSE(pv, yv); !relClose(v, fit.ValRMSE, 1e-9) || math.IsNaN(v) {
		t.Errorf("model's validation RMSE %g, fit.ValRMSE %g", v, fit.ValRMSE)
	}
}
