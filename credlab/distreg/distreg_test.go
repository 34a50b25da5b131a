package distreg

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/internal/errtest"

	"gonum.org/v1/gonum/mat"
)

// drTailHand runs the SGD recursion on a precomputed Gram k with the
// documented index draws and returns every iterate's coefficients
// (index t-1 for h_t).
func drTailHand(k *mat.Dense, y []float64, b int, eta float64, T int, seed uint64) [][]float64 {
	n := len(y)
	rng := rand.New(rand.NewPCG(seed, 0x73676d))
	h := make([]float64, n)
	var out [][]float64
	for t := 1; t <= T; t++ {
		idx := make([]int, b)
		for i := range idx {
			idx[i] = rng.IntN(n)
		}
		delta := make([]float64, b)
		for i, j := range idx {
			f := 0.0
			for l := range h {
				f += h[l] * k.At(l, j)
			}
			delta[i] = -eta / float64(b) * (f - y[j])
		}
		for i, j := range idx {
			h[j] += delta[i]
		}
		out = append(out, append([]float64(nil), h...))
	}
	return out
}

// drGramDirect is the outer Gram matrix by double sums.
func drGramDirect(bk Kernel, a, b *Bags) *mat.Dense {
	out := mat.NewDense(a.Len(), b.Len(), nil)
	for i := range a.X {
		aa := drDirect(bk.Inner, a.X[i], a.X[i])
		for j := range b.X {
			out.Set(i, j, bk.outer().FromEmbeddings(drDirect(bk.Inner, a.X[i], b.X[j]), aa, drDirect(bk.Inner, b.X[j], b.X[j])))
		}
	}
	return out
}

func TestTailSGDMatchesHandLoop(t *testing.T) {
	bags := drBags(14, 2, 6, 2, 11)
	for _, tc := range []struct {
		name string
		bk   Kernel
		T, b int
	}{
		{"linear/odd T", Kernel{Inner: credlab.GaussianKernel{Sigma: 0.5}}, 9, 2},
		{"gaussian/even T", Kernel{Inner: credlab.GaussianKernel{Sigma: 0.5}, Outer: GaussianOuter{Sigma: 0.3}}, 12, 3},
		{"laplacian/T=2", Kernel{Inner: credlab.LaplacianKernel{Sigma: 1}, Outer: GaussianOuter{Sigma: 0.5}}, 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const eta = 0.4
			fit, err := TailSGD(context.Background(), bags, TailSGDConfig{Kernel: tc.bk, Batch: tc.b, StepSize: eta, Iter: tc.T, Seed: 5})
			if err != nil {
				t.Fatal(err)
			}
			k := drGramDirect(tc.bk, bags, bags)
			hs := drTailHand(k, bags.Y, tc.b, eta, tc.T, 5)
			// Average of h_t over t = floor(T/2)+1 .. T.
			want := make([]float64, bags.Len())
			for t := tc.T/2 + 1; t <= tc.T; t++ {
				for i := range want {
					want[i] += hs[t-1][i] / float64(tc.T-tc.T/2)
				}
			}
			if tc.T%2 == 0 { // the paper's (2/T) sum_{t > T/2} h_t
				alt := make([]float64, len(want))
				for t := tc.T/2 + 1; t <= tc.T; t++ {
					for i := range alt {
						alt[i] += 2 / float64(tc.T) * hs[t-1][i]
					}
				}
				if maxRel(alt, want) > 1e-14 {
					t.Fatal("test helper: tail averages disagree for even T")
				}
			}
			if d := maxRel(fit.Model.Coef, want); d > 1e-12 {
				t.Errorf("tail-averaged coefficients differ from the hand loop by %g", d)
			}
			if fit.Iter != tc.T || fit.Batch != tc.b || fit.StepSize != eta || len(fit.Path) != 1 || !math.IsNaN(fit.ValRMSE) {
				t.Errorf("record: T=%d b=%d eta=%g path=%d val=%g", fit.Iter, fit.Batch, fit.StepSize, len(fit.Path), fit.ValRMSE)
			}
			// The model predicts the training bags as K alpha.
			p, err := fit.Model.Predict(bags)
			if err != nil {
				t.Fatal(err)
			}
			if d := maxRel(p, matVec(k, want)); d > 1e-12 {
				t.Errorf("predictions differ from K alpha by %g", d)
			}
			if d := math.Abs(credlab.RMSE(p, bags.Y) - fit.Path[0].TrainRMSE); d > 1e-12 {
				t.Errorf("path training RMSE differs from the model's by %g", d)
			}
		})
	}
}

func TestTailSGDHoldoutPath(t *testing.T) {
	bags := drBags(60, 5, 10, 2, 12)
	bk := Kernel{Inner: credlab.GaussianKernel{Sigma: 0.6}, Outer: GaussianOuter{Sigma: 0.5}}
	fit, err := TailSGD(context.Background(), bags, TailSGDConfig{Kernel: bk, MaxIter: 400, Checkpoints: 12, Holdout: credlab.Holdout{Seed: 2}, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	tr, va, _ := credlab.Holdout{Seed: 2}.Split(60)
	nt := len(tr)
	// Defaults: b = round(sqrt(nt)), eta = 1/(5 kappa^2) = 0.2.
	if fit.Batch != int(math.Round(math.Sqrt(float64(nt)))) || math.Abs(fit.StepSize-0.2) > 1e-15 {
		t.Errorf("default b = %d, eta = %g", fit.Batch, fit.StepSize)
	}
	if len(fit.Path) != 12 || fit.Path[0].Iter != 2 || fit.Path[11].Iter != 400 {
		t.Fatalf("checkpoints %v", fit.Path)
	}
	best := 0
	for i, pt := range fit.Path {
		if pt.Iter%2 != 0 {
			t.Errorf("checkpoint %d is odd", pt.Iter)
		}
		if pt.ValRMSE < fit.Path[best].ValRMSE {
			best = i
		}
	}
	if fit.Iter != fit.Path[best].Iter || fit.ValRMSE != fit.Path[best].ValRMSE {
		t.Errorf("chose T = %d, path best %d", fit.Iter, fit.Path[best].Iter)
	}
	// The chosen model's validation RMSE is the path's, and its
	// coefficients are the tail average of the hand loop.
	val := bags.subset(va)
	p, err := fit.Model.Predict(val)
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(credlab.RMSE(p, val.Y) - fit.ValRMSE); d > 1e-12 {
		t.Errorf("validation RMSE of the model differs by %g", d)
	}
	train := bags.subset(tr)
	hs := drTailHand(drGramDirect(bk, train, train), train.Y, fit.Batch, fit.StepSize, fit.Iter, 3)
	want := make([]float64, nt)
	for t := fit.Iter/2 + 1; t <= fit.Iter; t++ {
		for i := range want {
			want[i] += hs[t-1][i] / float64(fit.Iter-fit.Iter/2)
		}
	}
	if d := maxRel(fit.Model.Coef, want); d > 1e-10 {
		t.Errorf("chosen tail average differs from the hand loop by %g", d)
	}
}

func TestTailSGDSchedules(t *testing.T) {
	const n = 400
	for _, tc := range []struct {
		name  string
		cfg   TailSGDConfig
		b     int
		eta   float64
		T     int
		full  bool
		error error
	}{
		{"3.5 one-pass", TailSGDConfig{Schedule: TailOnePass}, 1, 0.2 / 20, 400, false, nil},
		{"3.5 mini-batch", TailSGDConfig{}, 20, 0.2, 20, false, nil},
		{"3.5 batch", TailSGDConfig{Schedule: TailBatchGD}, n, 0.2, 20, true, nil},
		{"3.5 r=1 nu=1/2", TailSGDConfig{Source: 1, Capacity: 0.5, Eta0: 0.1}, int(math.Round(math.Pow(n, 0.6))), 0.1, int(math.Ceil(math.Pow(n, 0.4))), false, nil},
		{"3.6 mini-batch", TailSGDConfig{Source: 0.25, Capacity: 1}, 20, 0.2, int(math.Ceil(math.Pow(n, 1/1.5))), false, nil},
		{"3.6 batch", TailSGDConfig{Schedule: TailBatchGD, Source: 0.25, Capacity: 1}, n, 0.2, int(math.Ceil(math.Pow(n, 1/1.5))), true, nil},
		{"3.6 one-pass", TailSGDConfig{Schedule: TailOnePass, Source: 0.25}, 0, 0, 0, false, &credlab.ParamError{Name: "TailSGDConfig.Schedule", Value: TailOnePass}},
		{"3.7 one-pass", TailSGDConfig{Schedule: TailOnePass, Source: 0.1, Capacity: 0.5}, 1, math.Pow(n/math.Pow(math.Log(n), 2), -0.7), int(math.Ceil(math.Pow(n/math.Pow(math.Log(n), 2), 1.7))), false, nil},
		{"3.7 mini-batch", TailSGDConfig{Source: 0.1, Capacity: 0.5}, int(math.Round(math.Pow(n/math.Pow(math.Log(n), 2), 0.7))), 0.2, int(math.Ceil(n / math.Pow(math.Log(n), 2))), false, nil},
		{"overrides", TailSGDConfig{Batch: 7, StepSize: 0.05, Iter: 33}, 7, 0.05, 33, false, nil},
		{"batch+b", TailSGDConfig{Schedule: TailBatchGD, Batch: 3}, 0, 0, 0, false, &credlab.ParamError{Name: "TailSGDConfig.Batch", Value: 3}},
	} {
		p, err := tc.cfg.params(n, 1)
		if tc.error != nil {
			errtest.Want(t, tc.name, err, tc.error)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if p.B != tc.b || math.Abs(p.Eta-tc.eta) > 1e-12*tc.eta || p.T != tc.T || p.Full != tc.full {
			t.Errorf("%s: b=%d eta=%g T=%d full=%v; want %d %g %d %v", tc.name, p.B, p.Eta, p.T, p.Full, tc.b, tc.eta, tc.T, tc.full)
		}
	}
	// With credlab.Holdout.None and no Iter the schedule's T is run.
	bags := drBags(25, 2, 4, 1, 13)
	fit, err := TailSGD(context.Background(), bags, TailSGDConfig{Kernel: Kernel{Inner: credlab.GaussianKernel{Sigma: 1}}, Holdout: credlab.Holdout{None: true}})
	if err != nil {
		t.Fatal(err)
	}
	if fit.Iter != 5 || fit.Batch != 5 {
		t.Errorf("n = 25 mini-batch schedule ran T = %d, b = %d; want 5, 5", fit.Iter, fit.Batch)
	}
	// Batch GD: deterministic, equal to tail-averaged Landweber iterates.
	bk := Kernel{Inner: credlab.GaussianKernel{Sigma: 1}, Outer: GaussianOuter{Sigma: 0.5}}
	gd, err := TailSGD(context.Background(), bags, TailSGDConfig{Kernel: bk, Schedule: TailBatchGD, Iter: 8})
	if err != nil {
		t.Fatal(err)
	}
	k := drGramDirect(bk, bags, bags)
	alpha := make([]float64, 25)
	want := make([]float64, 25)
	for it := 1; it <= 8; it++ {
		r := matVec(k, alpha)
		for i := range alpha {
			alpha[i] -= gd.StepSize / 25 * (r[i] - bags.Y[i])
		}
		if it > 4 {
			for i := range want {
				want[i] += alpha[i] / 4
			}
		}
	}
	if d := maxRel(gd.Model.Coef, want); d > 1e-12 {
		t.Errorf("tail-averaged batch GD differs from the hand loop by %g", d)
	}
}

func TestTwoStageKRRMatchesKRLS(t *testing.T) {
	ctx := context.Background()
	// Bags of one point: exact embeddings of G with a linear outer kernel
	// make K = G on the points, so two-stage KRR is credlab.KRLS with G.
	x, y, _ := credlab.SmoothRegression(50, 2, 0.3, 14)
	single := &Bags{Y: y}
	for i := 0; i < 50; i++ {
		single.X = append(single.X, mat.NewDense(1, 2, append([]float64(nil), x.RawRowView(i)...)))
	}
	g := credlab.GaussianKernel{Sigma: 0.4}
	for _, tc := range []struct {
		name string
		krr  TwoStageKRRConfig
		krls credlab.KRLSConfig
	}{
		{"fixed", TwoStageKRRConfig{Kernel: Kernel{Inner: g}, Lambda: 1e-3}, credlab.KRLSConfig{Kernel: g, Lambda: 1e-3}},
		{"holdout", TwoStageKRRConfig{Kernel: Kernel{Inner: g}, Lambdas: credlab.LogGrid(1e-8, 1, 12), Holdout: credlab.Holdout{Seed: 4}},
			credlab.KRLSConfig{Kernel: g, Lambdas: credlab.LogGrid(1e-8, 1, 12), Holdout: credlab.Holdout{Seed: 4}}},
		{"holdout/tridiagonal", TwoStageKRRConfig{Kernel: Kernel{Inner: g}, Holdout: credlab.Holdout{Seed: 5}},
			credlab.KRLSConfig{Kernel: g, Holdout: credlab.Holdout{Seed: 5}}},
	} {
		a, err := TwoStageKRR(ctx, single, tc.krr)
		if err != nil {
			t.Fatal(err)
		}
		b, err := credlab.KRLS(ctx, x, y, tc.krls)
		if err != nil {
			t.Fatal(err)
		}
		if a.Lambda != b.Lambda || len(a.Path) != len(b.Path) {
			t.Fatalf("%s: lambda %g vs %g, path %d vs %d", tc.name, a.Lambda, b.Lambda, len(a.Path), len(b.Path))
		}
		if d := maxRel(a.Model.Coef, b.Model.Coef); d > 1e-8 {
			t.Errorf("%s: coefficients differ from credlab.KRLS by %g", tc.name, d)
		}
		for i := range a.Path {
			// The Grams agree to rounding (direct versus Gram-form squared
			// distances), which lambda = 1e-15 amplifies to about 1e-8.
			if math.Abs(a.Path[i].ValRMSE-b.Path[i].ValRMSE) > 1e-6 && !(math.IsNaN(a.Path[i].ValRMSE) && math.IsNaN(b.Path[i].ValRMSE)) {
				t.Errorf("%s: validation path differs at %d: %g vs %g", tc.name, i, a.Path[i].ValRMSE, b.Path[i].ValRMSE)
			}
		}
	}
	// A linear inner kernel embeds bags as their means; a Gaussian outer
	// kernel then is the Gaussian kernel on the means.
	bags := drBags(40, 3, 9, 3, 15)
	means := mat.NewDense(40, 3, nil)
	for j, xb := range bags.X {
		means.SetRow(j, drMean(xb))
	}
	a, err := TwoStageKRR(ctx, bags, TwoStageKRRConfig{Kernel: Kernel{Inner: credlab.LinearKernel{}, Outer: GaussianOuter{Sigma: 0.7}}, Lambda: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	b, err := credlab.KRLS(ctx, means, bags.Y, credlab.KRLSConfig{Kernel: credlab.GaussianKernel{Sigma: 0.7}, Lambda: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	if d := maxRel(a.Model.Coef, b.Model.Coef); d > 1e-7 {
		t.Errorf("Gaussian outer on linear embeddings differs from credlab.KRLS on the means by %g", d)
	}
	// Prediction on new bags matches credlab.KRLS on their means.
	test := drBags(7, 2, 5, 3, 16)
	tm := mat.NewDense(7, 3, nil)
	for j, xb := range test.X {
		tm.SetRow(j, drMean(xb))
	}
	pa, err := a.Model.Predict(test)
	if err != nil {
		t.Fatal(err)
	}
	pb, _ := b.Model.Predict(tm)
	if d := maxRel(pa, pb); d > 1e-7 {
		t.Errorf("predictions on new bags differ by %g", d)
	}
}

func TestModelPredictFeatures(t *testing.T) {
	bags := drBags(30, 5, 15, 2, 17)
	test := drBags(6, 5, 15, 2, 18)
	rf, _ := credlab.NewRandomFourier(2, 300, 0.6, 1)
	bk := Kernel{Features: rf, Outer: GaussianOuter{Sigma: 0.5}}
	fit, err := TwoStageKRR(context.Background(), bags, TwoStageKRRConfig{Kernel: bk, Lambda: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	if fit.Model.Centers != nil || fit.Model.Embeddings == nil || len(fit.Model.Norms) != 30 {
		t.Fatal("feature model should keep the mean features and norms, not the bags")
	}
	p, err := fit.Model.Predict(test)
	if err != nil {
		t.Fatal(err)
	}
	// Direct formula: sum_j alpha_j exp(-||phi_bar(test) - phi_bar(train_j)||^2 / (2 0.25)).
	ft, _ := MeanFeatures(context.Background(), rf, test)
	fr, _ := MeanFeatures(context.Background(), rf, bags)
	for i := range p {
		want := 0.0
		for j := 0; j < 30; j++ {
			d := 0.0
			for c := 0; c < 300; c++ {
				e := ft.At(i, c) - fr.At(j, c)
				d += e * e
			}
			want += fit.Model.Coef[j] * math.Exp(-d/0.5)
		}
		if math.Abs(p[i]-want) > 1e-10 {
			t.Errorf("bag %d: prediction %g, direct %g", i, p[i], want)
		}
	}
	// The exact model copies its centers: changing the caller's bags after
	// the fit does not change predictions.
	ex, err := TwoStageKRR(context.Background(), bags, TwoStageKRRConfig{Kernel: Kernel{Inner: credlab.GaussianKernel{Sigma: 0.6}}, Lambda: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	p0, _ := ex.Model.Predict(test)
	saved := mat.DenseCopyOf(bags.X[0])
	bags.X[0].Scale(3, bags.X[0])
	p1, _ := ex.Model.Predict(test)
	bags.X[0].Copy(saved)
	if maxRel(p0, p1) != 0 {
		t.Error("the model aliases the caller's bags")
	}
	_, err = (&Model{}).Predict(test)
	errtest.Want(t, "empty model", err, credlab.ErrEmpty)
	_, err = ex.Model.Predict(drBags(2, 1, 2, 3, 19))
	errtest.Want(t, "dims", err, credlab.ErrShape)
}

func TestDistRegBadInput(t *testing.T) {
	ctx := context.Background()
	bags := drBags(20, 2, 5, 2, 20)
	bk := Kernel{Inner: credlab.GaussianKernel{Sigma: 0.5}}
	sgd := func(c TailSGDConfig) error {
		c.Kernel = bk
		_, err := TailSGD(ctx, bags, c)
		return err
	}
	errtest.Want(t, "b<0", sgd(TailSGDConfig{Batch: -3}), &credlab.ParamError{Name: "TailSGDConfig.Batch", Value: -3})
	errtest.Want(t, "eta<0", sgd(TailSGDConfig{StepSize: -1}), &credlab.ParamError{Name: "TailSGDConfig.StepSize", Value: -1.0})
	errtest.Want(t, "eta0 NaN", sgd(TailSGDConfig{Eta0: math.NaN()}), &credlab.ParamError{Name: "TailSGDConfig.Eta0", Value: math.NaN()})
	errtest.Want(t, "T=1", sgd(TailSGDConfig{Iter: 1}), &credlab.ParamError{Name: "TailSGDConfig.Iter", Value: 1})
	errtest.Want(t, "MaxIter=1", sgd(TailSGDConfig{MaxIter: 1}), &credlab.ParamError{Name: "TailSGDConfig.MaxIter", Value: 1})
	errtest.Want(t, "nu", sgd(TailSGDConfig{Capacity: 2}), &credlab.ParamError{Name: "TailSGDConfig.Capacity", Value: 2.0})
	errtest.Want(t, "r", sgd(TailSGDConfig{Source: -1}), &credlab.ParamError{Name: "TailSGDConfig.Source", Value: -1.0})
	errtest.Want(t, "schedule", sgd(TailSGDConfig{Schedule: 9}), &credlab.ParamError{Name: "TailSGDConfig.Schedule", Value: TailSGDSchedule(9)})
	errtest.Want(t, "checkpoints", sgd(TailSGDConfig{Checkpoints: -1}), &credlab.ParamError{Name: "TailSGDConfig.Checkpoints", Value: -1})
	err := sgd(TailSGDConfig{Batch: 1, StepSize: 30, Iter: 400})
	errtest.Want(t, "diverge", err, &credlab.DivergedError{Method: "TailSGD"})
	if de := (*credlab.DivergedError)(nil); errors.As(err, &de) && de.Iter < 1 {
		t.Errorf("diverge: iteration %d, want the iteration where it was noticed", de.Iter)
	}
	unl := &Bags{X: bags.X}
	_, err = TailSGD(ctx, unl, TailSGDConfig{Kernel: bk})
	errtest.Want(t, "no labels", err, credlab.ErrShape)
	_, err = TwoStageKRR(ctx, unl, TwoStageKRRConfig{Kernel: bk})
	errtest.Want(t, "krr no labels", err, credlab.ErrShape)
	empty := &Bags{X: append([]*mat.Dense{mat.NewDense(1, 2, nil)}, bags.X[1:]...), Y: bags.Y}
	empty.X[3] = nil
	_, err = TwoStageKRR(ctx, empty, TwoStageKRRConfig{Kernel: bk})
	errtest.Want(t, "empty", err, credlab.ErrEmpty)
	mixed := &Bags{X: append([]*mat.Dense(nil), bags.X...), Y: bags.Y}
	mixed.X[5] = mat.NewDense(2, 4, nil)
	_, err = TailSGD(ctx, mixed, TailSGDConfig{Kernel: bk})
	errtest.Want(t, "mixed", err, credlab.ErrShape)
	_, err = TwoStageKRR(ctx, bags, TwoStageKRRConfig{Kernel: bk, Lambda: -1})
	errtest.Want(t, "lambda", err, &credlab.ParamError{Name: "lambda", Value: -1.0})
	_, err = TwoStageKRR(ctx, bags, TwoStageKRRConfig{Kernel: bk, Holdout: credlab.Holdout{None: true}})
	errtest.Want(t, "no lambda", err, &credlab.ParamError{Name: "lambda", Value: 0.0})
	_, err = TwoStageKRR(ctx, bags, TwoStageKRRConfig{})
	errtest.Want(t, "kernel", err, &credlab.ParamError{Name: "Kernel.Inner"})
}

func TestDistRegIndependentOfGOMAXPROCS(t *testing.T) {
	bags := drBags(80, 5, 20, 2, 21)
	cfg := TailSGDConfig{Kernel: Kernel{Inner: credlab.GaussianKernel{Sigma: 0.5}, Outer: GaussianOuter{Sigma: 0.5}}, MaxIter: 200, Seed: 1}
	var a, b *Fit
	var err1, err2 error
	withProcs(1, func() { a, err1 = TailSGD(context.Background(), bags, cfg) })
	withProcs(4, func() { b, err2 = TailSGD(context.Background(), bags, cfg) })
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	for i := range a.Model.Coef {
		if math.Float64bits(a.Model.Coef[i]) != math.Float64bits(b.Model.Coef[i]) {
			t.Fatalf("TailSGD depends on GOMAXPROCS at %d", i)
		}
	}
}
