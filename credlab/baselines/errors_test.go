package baselines

import (
	"context"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/internal/errtest"
)

// TestEntryPointErrorTypes calls each entry point with data of the wrong
// shape and with a bad setting; the errors are credlab's types, as for
// credlab's own methods.
func TestEntryPointErrorTypes(t *testing.T) {
	bg := context.Background()
	x, y := blData(86, 20, []float64{1, 1, 1}, []float64{1, -1, 2}, 0.1)
	x2, _ := blData(87, 5, []float64{1, 1}, []float64{0, 0}, 0) // two columns where three are expected
	short := y[:7]
	g := credlab.GaussianKernel{Sigma: 1}
	rf, err := credlab.NewRandomFourier(3, 8, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	ktr3, err := KTR3(bg, x, y, KTR3Config{Kernel: g, Lambda: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	basis, err := NewSSSRBasis(bg, SSSRConfig{Pool: x})
	if err != nil {
		t.Fatal(err)
	}
	shape := credlab.ErrShape
	cases := []struct {
		name string
		call func() error
		want error
	}{
		{"KTR3 shape", func() error { _, err := KTR3(bg, x, short, KTR3Config{Lambda: 1}); return err }, shape},
		{"KTR3 nil y", func() error { _, err := KTR3(bg, x, nil, KTR3Config{Lambda: 1}); return err }, shape},
		{"KTR3 Bound", func() error { _, err := KTR3(bg, x, y, KTR3Config{Lambda: 1, Bound: -1}); return err }, &credlab.ParamError{Name: "KTR3Config.Bound", Value: -1.0}},
		{"KTR3 Lambdas", func() error { _, err := KTR3(bg, x, y, KTR3Config{Lambdas: []float64{}}); return err }, &credlab.ParamError{Name: "Lambdas"}},
		{"KTR3 singular", func() error {
			_, err := KTR3(bg, x, y, KTR3Config{Kernel: credlab.LinearKernel{}, Lambdas: []float64{1e-300}, Prefix: 10})
			return err
		}, &credlab.SingularError{}},
		{"KTR3Fit.Predict shape", func() error { _, err := ktr3.Predict(x2); return err }, shape},
		{"SSSR shape", func() error { _, err := SSSR(bg, x2, short[:5], SSSRConfig{Pool: x}); return err }, shape},
		{"SSSR Floor", func() error { _, err := SSSR(bg, x, y, SSSRConfig{Pool: x, Floor: 2}); return err }, &credlab.ParamError{Name: "SSSRConfig.Floor", Value: 2.0}},
		{"SSSRBasis.Transform shape", func() error { _, err := basis.Transform(x2, 1); return err }, shape},
		{"SSSRBasis.Transform s", func() error { _, err := basis.Transform(x, 99); return err }, &credlab.ParamError{Name: "SSSRConfig.S", Value: 99}},
		{"NewSSSRBasis Features", func() error {
			_, err := NewSSSRBasis(bg, SSSRConfig{Pool: x, Kernel: g, Features: rf})
			return err
		}, &credlab.ParamError{Name: "SSSRConfig.Features"}},
	}
	for _, c := range cases {
		errtest.Want(t, c.name, c.call(), c.want)
	}
}

// TestZeroConfigs: KTR3 runs with its zero config; SSSR's names its
// required field (Pool or Basis).
func TestZeroConfigs(t *testing.T) {
	ctx := context.Background()
	x, y := blData(26, 60, []float64{1, 1}, []float64{1, 1}, 0.1)
	if _, err := KTR3(ctx, x, y, KTR3Config{}); err != nil {
		t.Errorf("KTR3Config{}: %v", err)
	}
	_, err := SSSR(ctx, x, y, SSSRConfig{})
	errtest.Want(t, "SSSRConfig{}", err, credlab.ErrEmpty)
}
