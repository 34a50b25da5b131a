package credlab

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// d_eff from one eigendecomposition equals the mean of the leverage
// scores computed by the independent solvers.
func TestEffectiveDimensions(t *testing.T) {
	ctx := context.Background()
	x := randData(crRNG(51), 150, 3, 1)
	k := GaussianKernel{Sigma: 0.8}
	lams := []float64{1e-4, 1e-2}
	got, err := EffectiveDimensions(ctx, k, nil, x, lams)
	if err != nil {
		t.Fatal(err)
	}
	rf, _ := NewRandomFourier(3, 30, 0.8, 1)
	gotF, err := EffectiveDimensions(ctx, nil, rf, x, lams)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range lams {
		s, _ := LeverageScores(ctx, k, x, l)
		sf, _ := FeatureLeverageScores(ctx, rf, x, l, 0)
		if want := sum(s) / 150; math.Abs(got[i]-want) > 1e-8*want {
			t.Errorf("lambda %g: d_eff %v, leverage scores give %v", l, got[i], want)
		}
		if want := sum(sf) / 150; math.Abs(gotF[i]-want) > 1e-8*want {
			t.Errorf("lambda %g: feature d_eff %v, feature scores give %v", l, gotF[i], want)
		}
	}
}

// Flat scores: TV 0, top 1% carries 1%, no gain. Skewed scores: the
// variance gain bounds the Monte Carlo ratio of the Hilbert-Schmidt
// variances of the whitened covariance estimate from below.
func TestSummarizeScores(t *testing.T) {
	flat := make([]float64, 300)
	for i := range flat {
		flat[i] = 2
	}
	f, err := SummarizeScores(flat)
	if err != nil {
		t.Fatal(err)
	}
	if f.TV > 1e-12 || math.Abs(f.Top1-0.01) > 1e-12 || math.Abs(f.VarianceGain-1) > 1e-12 || f.Deff != 2 {
		t.Errorf("flat scores: %+v", f)
	}
	// Raw features with a few far rows.
	const n, lambda = 200, 0.05
	x := randData(crRNG(52), n, 2, 1)
	for i := 0; i < 4; i++ {
		x.Set(i, 0, 12+float64(i))
	}
	s, err := FeatureLeverageScores(context.Background(), RawFeatures{}, x, lambda, 0)
	if err != nil {
		t.Fatal(err)
	}
	sum0, err := SummarizeScores(s)
	if err != nil {
		t.Fatal(err)
	}
	// Whitened A_j = W x_j x_j^T W with W = (X^T X/N + lambda I)^-1/2.
	var cov mat.SymDense
	cov.SymOuterK(1.0/n, x.T())
	for i := 0; i < 2; i++ {
		cov.SetSym(i, i, cov.At(i, i)+lambda)
	}
	var eig mat.EigenSym
	eig.Factorize(&cov, true)
	var vec mat.Dense
	eig.VectorsTo(&vec)
	vals := eig.Values(nil)
	w := mat.NewDense(2, 2, nil)
	for a := 0; a < 2; a++ {
		for b := 0; b < 2; b++ {
			v := 0.0
			for i := range vals {
				v += vec.At(a, i) * vec.At(b, i) / math.Sqrt(vals[i])
			}
			w.Set(a, b, v)
		}
	}
	var z mat.Dense
	z.Mul(x, w) // rows z_j, A_j = z_j z_j^T, ||A_j||_HS = |z_j|^2 = s_j
	amean := mat.NewDense(2, 2, nil)
	for j := 0; j < n; j++ {
		zj := z.RawRowView(j)
		for a := 0; a < 2; a++ {
			for b := 0; b < 2; b++ {
				amean.Set(a, b, amean.At(a, b)+zj[a]*zj[b]/n)
			}
		}
	}
	variance := func(q []float64) float64 { // exact single-draw E||A_j/(N q_j) - A||^2
		v := 0.0
		for j := 0; j < n; j++ {
			zj := z.RawRowView(j)
			for a := 0; a < 2; a++ {
				for b := 0; b < 2; b++ {
					d := zj[a]*zj[b]/(n*q[j]) - amean.At(a, b)
					v += q[j] * d * d
				}
			}
		}
		return v
	}
	q, _ := CREDDistribution(s)
	uni := make([]float64, n)
	for i := range uni {
		uni[i] = 1.0 / n
	}
	ratio := variance(uni) / variance(q)
	t.Logf("gain bound %.3f, exact variance ratio %.3f, top 1%% share %.3f, TV %.3f", sum0.VarianceGain, ratio, sum0.Top1, sum0.TV)
	if sum0.VarianceGain < 1.2 || ratio < sum0.VarianceGain*(1-1e-9) {
		t.Errorf("variance gain %v, exact ratio %v: want a gain > 1.2 bounding the ratio from below", sum0.VarianceGain, ratio)
	}
	if sum0.Top1 <= 0.05 || sum0.TV <= 0.05 {
		t.Errorf("skewed scores: top 1%% share %v, TV %v", sum0.Top1, sum0.TV)
	}
}

func TestProjectLearningCurve(t *testing.T) {
	ctx := context.Background()
	rng := crRNG(53)
	x := randData(rng, 240, 1, 2)
	y := smoothTargets(rng, x, 0.1)
	k := GaussianKernel{Sigma: 0.5}
	s, _ := LeverageScores(ctx, k, x, 1e-3)
	q, _ := CREDDistribution(s)
	curves, err := ProjectLearningCurve(ctx, x, y, q, LearningCurveConfig{Kernel: k, Lambda: 1e-3, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(curves) != 2 || curves[0].Method != "uniform" || curves[1].Method != "cred" {
		t.Fatalf("curves %+v", curves)
	}
	for _, c := range curves {
		t.Logf("%s: RMSE %.3f n^-%.3f; measured %v at %v", c.Method, c.A, c.B, c.RMSE, c.Labels)
		if !(c.B > 0) || c.Projected[len(c.Projected)-1] >= c.RMSE[0] {
			t.Errorf("%s: exponent %v, projections %v: the error should fall", c.Method, c.B, c.Projected)
		}
	}
	// The curves do not depend on the target's mean: the fits have an
	// intercept, as the default fit has.
	shifted := make([]float64, len(y))
	for i, v := range y {
		shifted[i] = v + 100
	}
	again, err := ProjectLearningCurve(ctx, x, shifted, q, LearningCurveConfig{Kernel: k, Lambda: 1e-3, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range curves {
		if !floats.EqualApprox(c.RMSE, again[i].RMSE, 1e-9) {
			t.Errorf("%s: RMSE %v with the target shifted by 100, %v without", c.Method, again[i].RMSE, c.RMSE)
		}
	}
	_, err = ProjectLearningCurve(ctx, x.Slice(0, 20, 0, 1).(*mat.Dense), y[:20], q[:20], LearningCurveConfig{Kernel: k, Lambda: 1e-3})
	var be *ParamError
	if !errors.As(err, &be) || be.Name != "pilot labels" || be.Value != 20 {
		t.Errorf("pilot of 20: %v", err)
	}
}
