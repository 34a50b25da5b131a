package credlab

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// crFeatureCases are feature maps for inputs of dimension d.
func crFeatureCases(t *testing.T, d int) []struct {
	name string
	fm   FeatureMap
} {
	rf, err := NewRandomFourier(d, 30, 0.8, 2)
	if err != nil {
		t.Fatal(err)
	}
	net, err := NewReLUNetwork(d, []int{12, 9}, 3)
	if err != nil {
		t.Fatal(err)
	}
	x := randData(crRNG(50), 40, d, 1)
	idx, _ := NystromCenters(x, 10, nil, 1)
	ny, err := NewNystrom(GaussianKernel{Sigma: 0.7}, x, idx, 0)
	if err != nil {
		t.Fatal(err)
	}
	return []struct {
		name string
		fm   FeatureMap
	}{
		{"default (raw)", nil},
		{"raw with bias", RawFeatures{Bias: true}},
		{"random Fourier", rf},
		{"ReLU", net},
		{"Nystrom", ny},
	}
}

// crFeatures returns fm(x), RawFeatures{} for nil, with bias computed by hand.
func crFeatures(t *testing.T, fm FeatureMap, x *mat.Dense) *mat.Dense {
	if fm == nil {
		return mat.DenseCopyOf(x)
	}
	if rf, ok := fm.(RawFeatures); ok && rf.Bias {
		n, d := x.Dims()
		out := mat.NewDense(n, d+1, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				out.Set(i, j, x.At(i, j))
			}
			out.Set(i, d, 1)
		}
		return out
	}
	phi, err := fm.Features(x)
	if err != nil {
		t.Fatal(err)
	}
	return phi
}

// LinearRLS fits beta = (Phi^T W Phi + lambda n I)^-1 Phi^T W y.
func TestLinearRLSWeighted(t *testing.T) {
	ctx := context.Background()
	const n, d = 60, 3
	rng := crRNG(51)
	x := randData(rng, n, d, 1)
	y := smoothTargets(rng, x, 0.2)
	w := crWeights(rng, n, 0.2, 5)
	xs := randData(rng, 9, d, 1)
	for _, fc := range crFeatureCases(t, d) {
		for _, lambda := range []float64{1e-6, 1e-2} {
			for _, weights := range [][]float64{nil, w} {
				t.Run(fmt.Sprintf("%s/lambda=%g/weighted=%v", fc.name, lambda, weights != nil), func(t *testing.T) {
					x0, y0, w0 := mat.DenseCopyOf(x), append([]float64(nil), y...), append([]float64(nil), w...)
					fit, err := LinearRLS(ctx, x, y, LinearRLSConfig{Features: fc.fm, Lambda: lambda, Weights: weights})
					if err != nil {
						t.Fatal(err)
					}
					phi := crFeatures(t, fc.fm, x)
					want := crRidge(t, phi, weights, y, lambda*n)
					if dd := crRelDiff(fit.Model.Coef, want); dd > 1e-8 {
						t.Errorf("beta differs from (Phi^T W Phi + lambda n I)^-1 Phi^T W y by %.3g", dd)
					}
					if _, D := phi.Dims(); fit.Rank != D || fit.Method != "LinearRLS" || fit.Lambda != lambda {
						t.Errorf("rank %d, method %q, lambda %g", fit.Rank, fit.Method, fit.Lambda)
					}
					train := crWRMSE(matVec(phi, want), y, weights)
					if tr := fit.Path[0].TrainRMSE; math.Abs(tr-train) > 1e-6*train {
						t.Errorf("TrainRMSE %v, want %v", tr, train)
					}
					p, err := fit.Model.Predict(xs)
					if err != nil {
						t.Fatal(err)
					}
					if dd := crRelDiff(p, matVec(crFeatures(t, fc.fm, xs), want)); dd > 1e-8 {
						t.Errorf("predictions differ by %.3g", dd)
					}
					if !mat.Equal(x, x0) || !reflect.DeepEqual(y, y0) || !reflect.DeepEqual(w, w0) {
						t.Error("inputs were modified")
					}
				})
			}
		}
	}
}

// Hold-out path of LinearRLS with weights, both grid algorithms.
func TestLinearRLSWeightedPath(t *testing.T) {
	ctx := context.Background()
	const n, d = 80, 2
	rng := crRNG(52)
	x := randData(rng, n, d, 1)
	y := smoothTargets(rng, x, 0.3)
	w := crWeights(rng, n, 0.2, 4)
	rf, _ := NewRandomFourier(d, 25, 0.5, 7)
	h := Holdout{Seed: 4, Fraction: 0.25}
	tr, va, _ := h.Split(n)
	at, av := crFeatures(t, rf, rowsOf(x, tr)), crFeatures(t, rf, rowsOf(x, va))
	yt, yv, wt, wv := pick(y, tr), pick(y, va), pick(w, tr), pick(w, va)
	for _, grid := range [][]float64{LogGrid(1e-5, 1, 5), LogGrid(1e-5, 1, 33)} {
		t.Run(fmt.Sprintf("grid=%d", len(grid)), func(t *testing.T) {
			fit, err := LinearRLS(ctx, x, y, LinearRLSConfig{Features: rf, Lambdas: grid, Holdout: h, Weights: w})
			if err != nil {
				t.Fatal(err)
			}
			best, bestVal := -1, math.Inf(1)
			var bestBeta []float64
			for i, l := range grid {
				beta := crRidge(t, at, wt, yt, l*float64(len(tr)))
				val := crWRMSE(matVec(av, beta), yv, wv)
				train := crWRMSE(matVec(at, beta), yt, wt)
				pt := fit.Path[i]
				if math.Abs(pt.ValRMSE-val) > 1e-8*val || math.Abs(pt.TrainRMSE-train) > 1e-6*train {
					t.Errorf("lambda %g: path (%v, %v), want weighted (%v, %v)", l, pt.TrainRMSE, pt.ValRMSE, train, val)
				}
				if val < bestVal {
					best, bestVal, bestBeta = i, val, beta
				}
			}
			if fit.Lambda != grid[best] {
				t.Errorf("chose lambda %g, want %g", fit.Lambda, grid[best])
			}
			if dd := crRelDiff(fit.Model.Coef, bestBeta); dd > 1e-7 {
				t.Errorf("coefficients differ by %.3g", dd)
			}
		})
	}
}

// LinearGD iterates against the hand loop, with the default step
// 1/max_i w_i ||phi_i||^2 and a user step.
func TestLinearGDWeighted(t *testing.T) {
	ctx := context.Background()
	const n, d, T = 50, 3, 25
	rng := crRNG(53)
	x := randData(rng, n, d, 1)
	y := smoothTargets(rng, x, 0.2)
	w := crWeights(rng, n, 0.2, 5)
	keep := []int{1, 4, T}
	for _, fc := range crFeatureCases(t, d) {
		for _, weights := range [][]float64{nil, w} {
			phi := crFeatures(t, fc.fm, x)
			m := 0.0
			for i := 0; i < n; i++ {
				r := mat.Row(nil, i, phi)
				v := refDot(r, r)
				if weights != nil {
					v *= weights[i]
				}
				m = math.Max(m, v)
			}
			for _, step := range []float64{0, 0.5 / m} {
				t.Run(fmt.Sprintf("%s/weighted=%v/step=%g", fc.name, weights != nil, step), func(t *testing.T) {
					x0, y0, w0 := mat.DenseCopyOf(x), append([]float64(nil), y...), append([]float64(nil), w...)
					fit, err := LinearGD(ctx, x, y, LinearGDConfig{Features: fc.fm, Weights: weights,
						IterConfig: IterConfig{Iter: T, StepSize: step, Plain: true, Keep: keep}})
					if err != nil {
						t.Fatal(err)
					}
					gamma := fit.StepSize // the default when step is 0
					if step != 0 && gamma != step {
						t.Fatalf("Fit.StepSize %g, want the user's %g", gamma, step)
					}
					iters := crGD(phi, weights, y, gamma, T)
					for _, it := range keep {
						if dd := crRelDiff(fit.Iterates[it], iters[it-1]); dd > 1e-11 {
							t.Errorf("iterate %d differs from the hand loop by %.3g", it, dd)
						}
					}
					for it, beta := range iters {
						if train := crWRMSE(matVec(phi, beta), y, weights); math.Abs(fit.Path[it].TrainRMSE-train) > 1e-11*train {
							t.Errorf("iteration %d: TrainRMSE %v, want %v", it+1, fit.Path[it].TrainRMSE, train)
						}
					}
					if dd := crRelDiff(fit.Model.Coef, iters[T-1]); dd > 1e-11 || fit.Iter != T {
						t.Errorf("final coefficients differ by %.3g; Iter %d", dd, fit.Iter)
					}
					if !mat.Equal(x, x0) || !reflect.DeepEqual(y, y0) || !reflect.DeepEqual(w, w0) {
						t.Error("inputs were modified")
					}
				})
			}
		}
	}
}

// Constant weights c allow a step of 1.5 n / (c ||Phi^T Phi||), which is
// stable only because c is small; the iterates are the hand loop's.
func TestLinearGDConstantWeightsStep(t *testing.T) {
	ctx := context.Background()
	const n, d, T, c = 40, 2, 15, 0.01
	rng := crRNG(56)
	x := randData(rng, n, d, 1)
	y := smoothTargets(rng, x, 0.2)
	rf, _ := NewRandomFourier(d, 20, 0.5, 3)
	phi := crFeatures(t, rf, x)
	var g mat.Dense
	g.Mul(phi.T(), phi)
	gamma := 1.5 * n / (c * crLambdaMax(t, &g))
	w := crConst(n, c)
	fit, err := LinearGD(ctx, x, y, LinearGDConfig{Features: rf, Weights: w, IterConfig: IterConfig{Iter: T, StepSize: gamma, Plain: true}})
	if err != nil {
		t.Fatalf("stable step refused: %v", err)
	}
	if dd := crRelDiff(fit.Model.Coef, crGD(phi, w, y, gamma, T)[T-1]); dd > 1e-10 {
		t.Errorf("coefficients differ from the hand loop by %.3g", dd)
	}
	// Twice that step diverges and is refused.
	_, err = LinearGD(ctx, x, y, LinearGDConfig{Features: rf, Weights: w, IterConfig: IterConfig{Iter: T, StepSize: 2 * gamma, Plain: true}})
	wantErrKind(t, "step 3 n / (c ||Phi^T Phi||)", err, divergedErr())
}

// LinearGD with a hold-out split: the weighted validation RMSE on the path,
// the chosen iteration, and the stopping rule.
func TestLinearGDWeightedPath(t *testing.T) {
	ctx := context.Background()
	const n, d, T = 90, 2, 40
	rng := crRNG(54)
	x := randData(rng, n, d, 1)
	y := smoothTargets(rng, x, 0.3)
	w := crWeights(rng, n, 0.2, 4)
	rf, _ := NewRandomFourier(d, 40, 0.4, 9)
	h := Holdout{Seed: 6}
	tr, va, _ := h.Split(n)
	at, av := crFeatures(t, rf, rowsOf(x, tr)), crFeatures(t, rf, rowsOf(x, va))
	yt, yv, wt, wv := pick(y, tr), pick(y, va), pick(w, tr), pick(w, va)
	fit, err := LinearGD(ctx, x, y, LinearGDConfig{Features: rf, Weights: w,
		IterConfig: IterConfig{MaxIter: T, Threshold: -1, Holdout: h, Plain: true}})
	if err != nil {
		t.Fatal(err)
	}
	iters := crGD(at, wt, yt, fit.StepSize, T)
	if len(fit.Path) != T {
		t.Fatalf("%d path points", len(fit.Path))
	}
	best, bestVal := 0, math.Inf(1)
	for i, beta := range iters {
		val := crWRMSE(matVec(av, beta), yv, wv)
		if pv := fit.Path[i].ValRMSE; math.Abs(pv-val) > 1e-11*val {
			t.Errorf("iteration %d: ValRMSE %v, want sqrt(sum w e^2 / n_v) = %v", i+1, pv, val)
		}
		if val < bestVal {
			best, bestVal = i+1, val
		}
	}
	if fit.Iter != best || math.Abs(fit.ValRMSE-bestVal) > 1e-11*bestVal {
		t.Errorf("chose iteration %d (%v), want %d (%v)", fit.Iter, fit.ValRMSE, best, bestVal)
	}
	if dd := crRelDiff(fit.Model.Coef, iters[best-1]); dd > 1e-11 {
		t.Errorf("coefficients of the chosen iterate differ by %.3g", dd)
	}
}

func TestLinearErrors(t *testing.T) {
	ctx := context.Background()
	rng := crRNG(55)
	x := randData(rng, 20, 2, 1)
	y := smoothTargets(rng, x, 0.1)
	rf3, _ := NewRandomFourier(3, 10, 1, 1)
	_, err := LinearRLS(ctx, x, y, LinearRLSConfig{Features: rf3, Lambda: 1e-3})
	wantErrKind(t, "LinearRLS feature map of another input dimension", err, isErr(ErrShape))
	_, err = LinearGD(ctx, x, y, LinearGDConfig{Features: rf3, IterConfig: IterConfig{Iter: 3}})
	wantErrKind(t, "LinearGD feature map of another input dimension", err, isErr(ErrShape))
	_, err = LinearRLS(ctx, x, y, LinearRLSConfig{Lambda: -1})
	wantErrKind(t, "negative lambda", err, paramErr("lambda", -1.0))
	_, err = LinearRLS(ctx, x, y, LinearRLSConfig{Holdout: Holdout{None: true}})
	wantErrKind(t, "no lambda without hold-out", err, paramErr("lambda", 0.0))
	_, err = LinearGD(ctx, mat.NewDense(3, 2, nil), []float64{1, 2, 3}, LinearGDConfig{IterConfig: IterConfig{Iter: 3}})
	wantErrKind(t, "zero features", err, degenerateErr("feature vector zero"))
	_, err = LinearGD(ctx, x, y, LinearGDConfig{IterConfig: IterConfig{Iter: 3, StepSize: 1e6}})
	wantErrKind(t, "diverging step", err, divergedErr("LinearGD"))
	_, err = LinearRLS(ctx, x, y[:19], LinearRLSConfig{Lambda: 1e-3})
	wantErrKind(t, "short y", err, isErr(ErrShape))
}
