package credlab

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// landweberFilter returns alpha_t = (gamma/n) sum_{k<t} (I - gamma K/n)^k y
// for every t = 0..T, by an explicit matrix-power loop.
func landweberFilter(k *mat.Dense, y []float64, gamma float64, T int) [][]float64 {
	return landweberFilterRHS(k, y, gamma/float64(len(y)), T)
}

// refMaxDiag returns max_i k(x_i, x_i) by the reference formula.
func refMaxDiag(ref refKernel, x *mat.Dense) float64 {
	n, _ := x.Dims()
	m := 0.0
	for i := 0; i < n; i++ {
		m = math.Max(m, ref(row(x, i), row(x, i)))
	}
	return m
}

func TestEarlyStoppingIsSpectralFilter(t *testing.T) {
	rng := newRNG(50)
	x := randData(rng, 50, 2, 1)
	y := smoothTargets(rng, x, 0.1)
	// A polynomial kernel: the diagonal varies, so the NYTRO paper's step
	// 1/max_i k(x_i, x_i) is not 1. Plain Landweber with the default step
	// (reported in Fit.StepSize) and with a user step.
	k := PolynomialKernel{Degree: 2, Gamma: 1, Coef0: 1}
	ref := refPoly(2, 1, 1)
	kmat := refMatrix(ref, x, x)
	gamma0 := 1 / refMaxDiag(ref, x)
	const T = 40
	cases := []struct {
		name  string
		step  float64 // 0: default
		gamma float64
	}{
		{"default step", 0, 0},
		{"user step", 1.5 * gamma0, 1.5 * gamma0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var filt [][]float64
			for _, iters := range []int{1, 5, T} {
				fit, err := EarlyStopping(context.Background(), x, y, EarlyStoppingConfig{Kernel: k,
					IterConfig: IterConfig{Iter: iters, StepSize: c.step, Plain: true, Keep: []int{1, 3, iters, iters + 5}}})
				if err != nil {
					t.Fatal(err)
				}
				if c.gamma != 0 && fit.StepSize != c.gamma {
					t.Fatalf("Fit.StepSize %g, want the user's %g", fit.StepSize, c.gamma)
				}
				if filt == nil {
					filt = landweberFilter(kmat, y, fit.StepSize, T)
				}
				if fit.Iter != iters || len(fit.Path) != iters || !math.IsNaN(fit.ValRMSE) {
					t.Fatalf("Iter %d: fit.Iter %d, path %d, val %g", iters, fit.Iter, len(fit.Path), fit.ValRMSE)
				}
				if d := relDiff(fit.Model.Coef, filt[iters]); d > 1e-10 {
					t.Errorf("iterate %d differs from the spectral filter: rel %g", iters, d)
				}
				for _, kt := range []int{1, 3, iters} {
					if kt > iters {
						continue
					}
					got, ok := fit.Iterates[kt]
					if !ok {
						t.Errorf("Iter %d: Iterates lacks kept iteration %d", iters, kt)
						continue
					}
					if d := relDiff(got, filt[kt]); d > 1e-10 {
						t.Errorf("Iterates[%d] differs from the filter: rel %g", kt, d)
					}
				}
				if _, ok := fit.Iterates[iters+5]; ok {
					t.Errorf("Iterates has iteration %d beyond the run", iters+5)
				}
				for i, p := range fit.Path {
					if p.Iter != i+1 {
						t.Errorf("path[%d].Iter = %d", i, p.Iter)
					}
					want := refRMSE(matVec(kmat, filt[i+1]), y)
					if !relClose(p.TrainRMSE, want, 1e-9) {
						t.Errorf("iteration %d: TrainRMSE %g, ||K alpha_t - y||/sqrt(n) = %g", i+1, p.TrainRMSE, want)
					}
					if !math.IsNaN(p.ValRMSE) {
						t.Errorf("iteration %d: ValRMSE %g without validation", i+1, p.ValRMSE)
					}
				}
			}
		})
	}
}

// With a hold-out split, the path's validation RMSE is that of the filter
// on the training rows, and the returned model is the argmin iterate.
func TestEarlyStoppingHoldoutPath(t *testing.T) {
	rng := newRNG(51)
	x := randData(rng, 60, 2, 1.5)
	y := smoothTargets(rng, x, 0.3)
	k := GaussianKernel{Sigma: 0.5}
	ref := refGaussian(0.5)
	h := Holdout{Seed: 3}
	const T = 120
	fit, err := EarlyStopping(context.Background(), x, y, EarlyStoppingConfig{Kernel: k,
		IterConfig: IterConfig{MaxIter: T, Threshold: -1, Holdout: h, Plain: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(fit.Path) != T {
		t.Fatalf("negative threshold: %d steps, want all %d", len(fit.Path), T)
	}
	tr, va, _ := h.Split(60)
	xt, xv, yt, yv := rowsOf(x, tr), rowsOf(x, va), pick(y, tr), pick(y, va)
	ktt, kvt := refMatrix(ref, xt, xt), refMatrix(ref, xv, xt)
	filt := landweberFilter(ktt, yt, fit.StepSize, T)
	best := 0
	for i, p := range fit.Path {
		va := refRMSE(matVec(kvt, filt[i+1]), yv)
		trr := refRMSE(matVec(ktt, filt[i+1]), yt)
		if !relClose(p.ValRMSE, va, 1e-9) || !relClose(p.TrainRMSE, trr, 1e-9) {
			t.Errorf("iteration %d: train/val %g/%g, independent %g/%g", i+1, p.TrainRMSE, p.ValRMSE, trr, va)
		}
		if p.ValRMSE < fit.Path[best].ValRMSE {
			best = i
		}
	}
	if fit.Iter != best+1 || fit.ValRMSE != fit.Path[best].ValRMSE {
		t.Errorf("fit.Iter %d (val %g), argmin iteration %d (val %g)", fit.Iter, fit.ValRMSE, best+1, fit.Path[best].ValRMSE)
	}
	if d := relDiff(fit.Model.Coef, filt[fit.Iter]); d > 1e-10 {
		t.Errorf("model is not the filter at the chosen iteration: rel %g", d)
	}
	if best >= T-10 {
		t.Errorf("test problem should have an interior validation minimum, got iteration %d of %d", best+1, T)
	}
}
