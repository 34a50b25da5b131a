package credlab

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// nuLoop runs the nu-method (nu = 1) by hand on alpha for the operator
// K/n with step gamma, from Engl, Hanke and Neubauer's recurrence.
func nuLoop(k *mat.Dense, y []float64, gamma float64, T int) [][]float64 {
	n := len(y)
	out := make([][]float64, T+1)
	prev := make([]float64, n)
	cur := make([]float64, n)
	out[0] = append([]float64(nil), cur...)
	for t := 1; t <= T; t++ {
		var mu, omega float64
		if t == 1 {
			mu, omega = 0, 6.0/5
		} else {
			s := float64(t)
			mu = (s - 1) * (2*s - 3) * (2*s + 1) / ((s + 1) * (2*s + 3) * (2*s - 1))
			omega = 4 * (2*s + 1) * s / ((s + 1) * (2*s + 3))
		}
		next := make([]float64, n)
		for i := 0; i < n; i++ {
			ka := 0.0
			for j := 0; j < n; j++ {
				ka += k.At(i, j) * cur[j]
			}
			next[i] = cur[i] + mu*(cur[i]-prev[i]) + omega*gamma/float64(n)*(y[i]-ka)
		}
		prev, cur = cur, next
		out[t] = append([]float64(nil), cur...)
	}
	return out
}

func TestAcceleratedEarlyStoppingIsNuMethod(t *testing.T) {
	x, y, _ := SmoothRegression(40, 2, 0.1, 3)
	kern := GaussianKernel{Sigma: 0.5}
	k, err := KernelMatrix(kern, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	const T = 25
	want := nuLoop(k, y, 1, T) // the NYTRO paper's step 1/max k(x,x) = 1
	fit, err := EarlyStopping(context.Background(), x, y, EarlyStoppingConfig{Kernel: kern,
		IterConfig: IterConfig{Iter: T, StepSize: 1, Keep: []int{1, 2, 10}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range []int{1, 2, 10, T} {
		got := fit.Iterates[it]
		if it == T {
			got = fit.Model.Coef
		}
		for i := range got {
			if d := math.Abs(got[i] - want[it][i]); d > 1e-9*(1+math.Abs(want[it][i])) {
				t.Fatalf("iterate %d, coefficient %d: got %g, want %g", it, i, got[i], want[it][i])
			}
		}
	}
	// The training RMSE on the path is that of K alpha_t.
	p := make([]float64, len(y))
	for i := range p {
		for j := range p {
			p[i] += k.At(i, j) * want[T][j]
		}
	}
	if got, w := fit.Path[T-1].TrainRMSE, rmse(p, y); math.Abs(got-w) > 1e-9*w {
		t.Fatalf("path training RMSE %g, want %g", got, w)
	}
}

func TestAcceleratedReachesSmallerTrainingError(t *testing.T) {
	x, y, _ := SmoothRegression(200, 2, 0.1, 4)
	for _, c := range []struct {
		name string
		fit  func(acc bool) (*Fit, error)
	}{
		{"EarlyStopping", func(acc bool) (*Fit, error) {
			return EarlyStopping(context.Background(), x, y, EarlyStoppingConfig{Kernel: GaussianKernel{Sigma: 0.3},
				IterConfig: IterConfig{Iter: 50, StepSize: 1, Plain: !acc}})
		}},
		{"NYTRO", func(acc bool) (*Fit, error) {
			return NYTRO(context.Background(), x, y, NYTROConfig{Kernel: GaussianKernel{Sigma: 0.3},
				Nystrom: NystromConfig{M: 50}, IterConfig: IterConfig{Iter: 50, StepSize: 1, Plain: !acc}})
		}},
	} {
		plain, err := c.fit(false)
		if err != nil {
			t.Fatal(err)
		}
		nu, err := c.fit(true)
		if err != nil {
			t.Fatal(err)
		}
		// After t nu-steps the filter matches about t^2 plain steps: the
		// training error must be clearly lower. (The NYTRO paper's step 1/max
		// k = 1, far below the default: with the default both reach the
		// noise level within 50 steps.)
		if a, b := nu.Path[49].TrainRMSE, plain.Path[49].TrainRMSE; !(a < 0.8*b) {
			t.Errorf("%s: nu-method training RMSE %g not below plain %g", c.name, a, b)
		}
	}
}

func TestAcceleratedStepLimit(t *testing.T) {
	x, y, _ := SmoothRegression(60, 2, 0.1, 5)
	k, _ := KernelMatrix(GaussianKernel{Sigma: 0.5}, x, nil)
	var e mat.EigenSym
	if !e.Factorize(mat.NewSymDense(60, k.RawMatrix().Data), false) {
		t.Fatal("eigen")
	}
	vals := e.Values(nil)
	lmax := vals[len(vals)-1]
	// 1.5 n/lmax is stable for plain descent but not for the nu-method.
	gamma := 1.5 * 60 / lmax
	cfg := EarlyStoppingConfig{Kernel: GaussianKernel{Sigma: 0.5}, IterConfig: IterConfig{Iter: 5, StepSize: gamma, Plain: true}}
	if _, err := EarlyStopping(context.Background(), x, y, cfg); err != nil {
		t.Fatalf("plain descent refused a stable step: %v", err)
	}
	cfg.Plain = false
	if _, err := EarlyStopping(context.Background(), x, y, cfg); err == nil {
		t.Fatal("nu-method accepted gamma ||K||/n = 1.5")
	}
}
