package credlab

import (
	"context"
	"math"
	"testing"
)

// TestGramStepsMatchDirectSteps runs the feature-space descents (NYTRO,
// LinearGD) once in Gram form and once on the features directly: the paths,
// the chosen iteration and the coefficients must agree.
func TestGramStepsMatchDirectSteps(t *testing.T) {
	rng := newRNG(71)
	x := randData(rng, 150, 3, 1.2)
	y := smoothTargets(rng, x, 0.3)
	w := make([]float64, len(y))
	for i := range w {
		w[i] = 0.2 + 2*rng.Float64()
	}
	k := GaussianKernel{Sigma: 0.8}
	rf, err := NewRandomFourier(3, 60, 0.8, 5)
	if err != nil {
		t.Fatal(err)
	}
	type run func(IterConfig, []float64) (*Fit, error)
	methods := []struct {
		name string
		fit  run
	}{
		{"NYTRO", func(ic IterConfig, w []float64) (*Fit, error) {
			return NYTRO(context.Background(), x, y, NYTROConfig{Kernel: k, Nystrom: NystromConfig{M: 40, Seed: 3}, Weights: w, IterConfig: ic})
		}},
		{"LinearGD", func(ic IterConfig, w []float64) (*Fit, error) {
			return LinearGD(context.Background(), x, y, LinearGDConfig{Features: rf, Weights: w, IterConfig: ic})
		}},
	}
	configs := []struct {
		name    string
		cfg     IterConfig
		weights []float64
	}{
		{"holdout/plain", IterConfig{MaxIter: 120, Threshold: -1, Plain: true, Holdout: Holdout{Seed: 2}}, nil},
		{"holdout/plain/weights", IterConfig{MaxIter: 120, Threshold: -1, Plain: true, Holdout: Holdout{Seed: 2}}, w},
		{"holdout/nu", IterConfig{MaxIter: 60, Threshold: -1, Holdout: Holdout{Seed: 2}}, w},
		{"fixed/plain", IterConfig{Iter: 80, Plain: true, Keep: []int{10, 80}}, nil},
		{"fixed/nu/weights", IterConfig{Iter: 40}, w},
	}
	defer func(f func(int, int) bool) { useGram = f }(useGram)
	for _, m := range methods {
		for _, c := range configs {
			t.Run(m.name+"/"+c.name, func(t *testing.T) {
				useGram = func(int, int) bool { return false }
				direct, err := m.fit(c.cfg, c.weights)
				if err != nil {
					t.Fatal(err)
				}
				useGram = func(int, int) bool { return true }
				gram, err := m.fit(c.cfg, c.weights)
				if err != nil {
					t.Fatal(err)
				}
				if len(gram.Path) != len(direct.Path) || gram.Iter != direct.Iter {
					t.Fatalf("gram: %d steps, chose %d; direct: %d steps, chose %d",
						len(gram.Path), gram.Iter, len(direct.Path), direct.Iter)
				}
				for i, p := range direct.Path {
					q := gram.Path[i]
					if math.Abs(q.TrainRMSE-p.TrainRMSE) > 1e-9*p.TrainRMSE ||
						!(math.Abs(q.ValRMSE-p.ValRMSE) <= 1e-9*p.ValRMSE || math.IsNaN(p.ValRMSE) && math.IsNaN(q.ValRMSE)) {
						t.Fatalf("step %d: gram train/val %v/%v, direct %v/%v", p.Iter, q.TrainRMSE, q.ValRMSE, p.TrainRMSE, p.ValRMSE)
					}
				}
				if d := relDiff(gram.Model.Coef, direct.Model.Coef); d > 1e-9 {
					t.Errorf("coefficients differ by %.3g", d)
				}
				for it, c := range direct.Iterates {
					if d := relDiff(gram.Iterates[it], c); d > 1e-9 {
						t.Errorf("iterate %d differs by %.3g", it, d)
					}
				}
			})
		}
	}
}
