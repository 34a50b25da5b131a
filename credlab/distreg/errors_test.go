package distreg

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/internal/errtest"

	"gonum.org/v1/gonum/mat"
)

// callNoPanic runs f, turning a panic into an error that matches no
// expected kind.
func callNoPanic(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

// TestEntryPointErrorTypes calls every entry point of the package with a
// wrong shape and with a bad setting and checks the error's type only:
// errors.Is(err, credlab.ErrShape) for the shape, and for the setting a
// *credlab.ParamError (errors.As) whose Name is the setting, as for
// credlab's own methods.
func TestEntryPointErrorTypes(t *testing.T) {
	bg := context.Background()
	g := credlab.GaussianKernel{Sigma: 1}
	rf, err := credlab.NewRandomFourier(3, 8, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	bags := drBags(12, 2, 4, 2, 87)
	bags3 := drBags(3, 2, 4, 3, 88) // points of dimension 3
	bk := Kernel{Inner: credlab.GaussianKernel{Sigma: 0.5}}
	bfit, err := TwoStageKRR(bg, bags, TwoStageKRRConfig{Kernel: bk, Lambda: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	shape := credlab.ErrShape
	for _, c := range []struct {
		name string
		call func() error
		want error
	}{
		{"NewBags shape", func() error {
			_, err := NewBags(append(append([]*mat.Dense(nil), bags.X...), bags3.X[0]), nil)
			return err
		}, shape},
		{"NewBags labels", func() error { _, err := NewBags(bags.X, bags.Y[:3]); return err }, shape},
		{"NewBags NaN label", func() error {
			yb := append([]float64(nil), bags.Y...)
			yb[2] = math.NaN()
			_, err := NewBags(bags.X, yb)
			return err
		}, &credlab.NotFiniteError{Name: "Bags.Y", Row: 2, Col: -1, Value: math.NaN()}},
		{"TwoStageKRR shape", func() error {
			_, err := TwoStageKRR(bg, &Bags{X: bags.X, Y: bags.Y[:5]}, TwoStageKRRConfig{Kernel: bk, Lambda: 1})
			return err
		}, shape},
		{"TwoStageKRR Lambda", func() error { _, err := TwoStageKRR(bg, bags, TwoStageKRRConfig{Kernel: bk, Lambda: -1}); return err }, &credlab.ParamError{Name: "lambda", Value: -1.0}},
		{"TailSGD shape", func() error { _, err := TailSGD(bg, &Bags{X: bags.X}, TailSGDConfig{Kernel: bk}); return err }, shape},
		{"TailSGD Batch", func() error { _, err := TailSGD(bg, bags, TailSGDConfig{Kernel: bk, Batch: -1}); return err }, &credlab.ParamError{Name: "TailSGDConfig.Batch", Value: -1}},
		{"Model.Predict shape", func() error { _, err := bfit.Model.Predict(bags3); return err }, shape},
		{"Model.Predict corrupt", func() error {
			m := *bfit.Model
			m.Coef = m.Coef[:3]
			_, err := m.Predict(bags)
			return err
		}, shape},
		{"Kernel.Gram shape", func() error { _, err := bk.Gram(bg, bags, bags3); return err }, shape},
		{"Kernel.Gram Outer", func() error {
			_, err := Kernel{Inner: g, Outer: GaussianOuter{Sigma: -1}}.Gram(bg, bags, nil)
			return err
		}, &credlab.ParamError{Name: "Gaussian outer kernel sigma", Value: -1.0}},
		{"EmbeddingGram shape", func() error { _, err := EmbeddingGram(bg, g, bags, bags3); return err }, shape},
		{"EmbeddingGram kernel", func() error { _, err := EmbeddingGram(bg, nil, bags, nil); return err }, &credlab.ParamError{Name: "Kernel.Inner"}},
		{"MeanFeatures shape", func() error { _, err := MeanFeatures(bg, rf, bags); return err }, shape},
		{"MeanFeatures fm", func() error { _, err := MeanFeatures(bg, nil, bags); return err }, &credlab.ParamError{Name: "fm"}},
	} {
		errtest.Want(t, c.name, callNoPanic(c.call), c.want)
	}
}

// TestZeroConfigs runs each config at its zero value: its doc names the
// required field, and the zero value is a *credlab.ParamError naming it
// (never a panic).
func TestZeroConfigs(t *testing.T) {
	ctx := context.Background()
	bags := drBags(12, 5, 5, 2, 26)
	for _, tc := range []struct {
		name string
		want error
		run  func() error
	}{
		{"TwoStageKRRConfig (Kernel.Inner or Kernel.Features)", &credlab.ParamError{Name: "Kernel.Inner"}, func() error { _, err := TwoStageKRR(ctx, bags, TwoStageKRRConfig{}); return err }},
		{"TailSGDConfig (Kernel.Inner or Kernel.Features)", &credlab.ParamError{Name: "Kernel.Inner"}, func() error { _, err := TailSGD(ctx, bags, TailSGDConfig{}); return err }},
	} {
		errtest.Want(t, tc.name+" zero", callNoPanic(tc.run), tc.want)
	}
}
