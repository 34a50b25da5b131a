package credlab

import (
	"context"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestDefaultStep: the default step is 0.95 n/||op|| with ||op|| from a
// dense eigen solve here (W^1/2 K W^1/2 for EarlyStopping, A^T W A for
// NYTRO and LinearGD): within a factor 2.2 of the divergence bound
// 2 n/||op||, below the nu-method's n/||op||, and many steps of either
// method do not diverge.
func TestDefaultStep(t *testing.T) {
	ctx := context.Background()
	rng := crRNG(90)
	for _, sigma := range []float64{0.1, 0.5, 3} {
		const n = 80
		x := randData(rng, n, 2, 1)
		y := smoothTargets(rng, x, 0.2)
		w := crWeights(rng, n, 0.2, 5)
		kern := GaussianKernel{Sigma: sigma}
		k := refMatrix(refGaussian(sigma), x, x)
		sw := mat.NewDense(n, n, nil)
		sw.Apply(func(i, j int, v float64) float64 { return v * math.Sqrt(w[i]*w[j]) }, k)
		rf, _ := NewRandomFourier(2, 30, sigma, 4)
		phi := crFeatures(t, rf, x)
		var g mat.Dense
		g.Mul(phi.T(), phi)
		for _, plain := range []bool{false, true} {
			ic := IterConfig{Iter: 400, Plain: plain}
			cases := []struct {
				name string
				norm float64
				run  func() (*Fit, error)
			}{
				{"EarlyStopping", crLambdaMax(t, k), func() (*Fit, error) {
					return EarlyStopping(ctx, x, y, EarlyStoppingConfig{Kernel: kern, IterConfig: ic})
				}},
				{"EarlyStopping weighted", crLambdaMax(t, sw), func() (*Fit, error) {
					return EarlyStopping(ctx, x, y, EarlyStoppingConfig{Kernel: kern, Weights: w, IterConfig: ic})
				}},
				{"LinearGD", crLambdaMax(t, &g), func() (*Fit, error) {
					return LinearGD(ctx, x, y, LinearGDConfig{Features: rf, IterConfig: ic})
				}},
			}
			for _, c := range cases {
				name := fmt.Sprintf("%s/sigma=%g/plain=%v", c.name, sigma, plain)
				fit, err := c.run()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				bound := 2 * n / c.norm
				if r := fit.StepSize / bound; !(r >= 0.45 && r <= 0.5) {
					t.Errorf("%s: step %g is %.3g of the bound 2n/||op|| = %g, want 0.475", name, fit.StepSize, r, bound)
				}
				if last := fit.Path[len(fit.Path)-1].TrainRMSE; !(last <= fit.Path[0].TrainRMSE) {
					t.Errorf("%s: training RMSE grew from %g to %g", name, fit.Path[0].TrainRMSE, last)
				}
			}
		}
	}
}

// TestOperatorNorm checks the Lanczos estimate against a dense eigen
// solve on operators with a clustered top of the spectrum.
func TestOperatorNorm(t *testing.T) {
	rng := crRNG(91)
	for _, n := range []int{1, 2, 5, 29, 30, 31, 200} {
		a := randData(rng, n, n, 1)
		var s mat.Dense
		s.Mul(a, a.T())
		want := crLambdaMax(t, &s)
		got := operatorNorm(n, func(dst, src []float64) {
			copy(dst, matVec(&s, src))
		})
		if math.Abs(got-want) > 1e-6*want {
			t.Errorf("n=%d: estimate %g, largest eigenvalue %g", n, got, want)
		}
	}
	if got := operatorNorm(4, func(dst, _ []float64) { clear(dst) }); got != 0 {
		t.Errorf("zero operator: %g", got)
	}
}

// TestAtCap: Fit.AtCap is set when the best validation error comes in the
// last 5% of the steps allowed, and not otherwise.
func TestAtCap(t *testing.T) {
	ctx := context.Background()
	x, y, _ := SmoothRegression(300, 2, 0.1, 5)
	run := func(ic IterConfig) *Fit {
		t.Helper()
		ic.Holdout = Holdout{Seed: 2}
		fit, err := EarlyStopping(ctx, x, y, EarlyStoppingConfig{Kernel: GaussianKernel{Sigma: 0.3}, IterConfig: ic})
		if err != nil {
			t.Fatal(err)
		}
		return fit
	}
	// The paper's tiny step, plain: 5 steps are far too few.
	if fit := run(IterConfig{MaxIter: 5, StepSize: 1, Plain: true}); !fit.AtCap || fit.Iter != 5 {
		t.Errorf("5 plain steps of 1/max k: AtCap %v at iteration %d, want true at 5", fit.AtCap, fit.Iter)
	}
	// 40 plain steps of the paper's step: the error still falls at the end.
	if fit := run(IterConfig{MaxIter: 40, StepSize: 1, Plain: true}); !fit.AtCap || fit.Iter < 38 {
		t.Errorf("40 plain steps of 1/max k: AtCap %v at iteration %d", fit.AtCap, fit.Iter)
	}
	// The defaults: the validation minimum is interior.
	if fit := run(IterConfig{Threshold: -1}); fit.AtCap || fit.Iter >= len(fit.Path)*95/100 {
		t.Errorf("defaults: AtCap %v, best %d of %d steps", fit.AtCap, fit.Iter, len(fit.Path))
	}
	// A fixed number of steps is the user's choice: never flagged.
	if fit := run(IterConfig{Iter: 5}); fit.AtCap {
		t.Error("fixed Iter flagged AtCap")
	}
}
