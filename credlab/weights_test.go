package credlab

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// ---------------------------------------------------------------------------
// Importance-weighted fits (the CRED paper's Algorithm 1, lines 5-6, and the
// Remark on kernel ridge regression in section 4) against independent
// dense computations.
// ---------------------------------------------------------------------------

// crWRMSE is sqrt(sum_i w_i (p_i - y_i)^2 / n); w nil means 1.
func crWRMSE(p, y, w []float64) float64 {
	s := 0.0
	for i := range y {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		s += wi * (p[i] - y[i]) * (p[i] - y[i])
	}
	return math.Sqrt(s / float64(len(y)))
}

// crWeightedKRR returns alpha = (W K + mu I)^-1 W y by a dense LU solve.
func crWeightedKRR(t testing.TB, k *mat.Dense, w, y []float64, mu float64) []float64 {
	n := len(y)
	a := mat.NewDense(n, n, nil)
	wy := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a.Set(i, j, w[i]*k.At(i, j))
		}
		a.Set(i, i, a.At(i, i)+mu)
		wy[i] = w[i] * y[i]
	}
	return denseSolve(t, a, wy)
}

// crRidge returns beta = (A^T W A + mu I)^-1 A^T W y; w nil means 1.
func crRidge(t testing.TB, a *mat.Dense, w, y []float64, mu float64) []float64 {
	n, p := a.Dims()
	wa := mat.DenseCopyOf(a) // W A
	if w != nil {
		for i := 0; i < n; i++ {
			for j := 0; j < p; j++ {
				wa.Set(i, j, w[i]*a.At(i, j))
			}
		}
	}
	var g mat.Dense
	g.Mul(a.T(), wa)
	for i := 0; i < p; i++ {
		g.Set(i, i, g.At(i, i)+mu)
	}
	return denseSolve(t, &g, matVec(wa.T(), y))
}

// crGD returns the iterates beta_1 ... beta_T of
// beta_t = beta_{t-1} - (gamma/n) A^T W (A beta_{t-1} - y), beta_0 = 0.
func crGD(a *mat.Dense, w, y []float64, gamma float64, T int) [][]float64 {
	n, p := a.Dims()
	beta := make([]float64, p)
	var out [][]float64
	for t := 1; t <= T; t++ {
		r := matVec(a, beta)
		for i := range r {
			r[i] -= y[i]
			if w != nil {
				r[i] *= w[i]
			}
		}
		g := matVec(a.T(), r)
		next := make([]float64, p)
		for j := range next {
			next[j] = beta[j] - gamma/float64(n)*g[j]
		}
		beta = next
		out = append(out, beta)
	}
	return out
}

// crNystrom returns the map x -> K(x, C) L^-T with C the rows idx of xt and
// K(C, C) = L L^T, computed with gonum's Cholesky.
func crNystrom(t *testing.T, k func(a, b []float64) float64, xt *mat.Dense, idx []int) func(x *mat.Dense) *mat.Dense {
	c := rowsOf(xt, idx)
	m := len(idx)
	kmm := refMatrix(k, c, c)
	sym := mat.NewSymDense(m, nil)
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			sym.SetSym(i, j, kmm.At(i, j))
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(sym) {
		t.Fatal("reference Cholesky of K_mm failed")
	}
	var l, linv mat.TriDense
	ch.LTo(&l)
	if err := linv.InverseTri(&l); err != nil {
		t.Fatal(err)
	}
	return func(x *mat.Dense) *mat.Dense {
		var a mat.Dense
		a.Mul(refMatrix(k, x, c), linv.T())
		return &a
	}
}

// crPredictKernel returns K(x, centers) coef with the reference kernel.
func crPredictKernel(k func(a, b []float64) float64, centers *mat.Dense, coef []float64, x *mat.Dense) []float64 {
	return matVec(refMatrix(k, x, centers), coef)
}

func TestKRLSWeighted(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n      int
		sigma  float64
		lambda float64
		wlo    float64
		whi    float64
	}{
		{40, 0.6, 1e-3, 0.2, 5},
		{60, 1, 1e-5, 0.5, 2},
		{25, 0.3, 1e-1, 0.01, 30},
	} {
		t.Run(fmt.Sprintf("n=%d/lambda=%g", tc.n, tc.lambda), func(t *testing.T) {
			rng := crRNG(uint64(tc.n))
			x := randData(rng, tc.n, 2, 1)
			y := smoothTargets(rng, x, 0.2)
			w := crWeights(rng, tc.n, tc.wlo, tc.whi)
			x0, y0, w0 := mat.DenseCopyOf(x), append([]float64(nil), y...), append([]float64(nil), w...)
			fit, err := KRLS(ctx, x, y, KRLSConfig{Kernel: GaussianKernel{Sigma: tc.sigma}, Lambda: tc.lambda, Weights: w})
			if err != nil {
				t.Fatal(err)
			}
			k := refMatrix(refGaussian(tc.sigma), x, x)
			mu := tc.lambda * float64(tc.n)
			want := crWeightedKRR(t, k, w, y, mu)
			if d := crRelDiff(fit.Model.Coef, want); d > 1e-8 {
				t.Errorf("alpha differs from (W K + lambda n I)^-1 W y by %.3g", d)
			}
			if !mat.Equal(fit.Model.Centers, x) {
				t.Error("centers are not the training rows")
			}
			// alpha minimises J = (1/n) sum w_i ((K alpha)_i - y_i)^2 + lambda alpha^T K alpha:
			// grad J = (2/n) K W (K alpha - y) + 2 lambda K alpha = 0.
			r := matVec(k, fit.Model.Coef)
			for i := range r {
				r[i] = w[i] * (r[i] - y[i]) * 2 / float64(tc.n)
			}
			for i, v := range fit.Model.Coef {
				r[i] += 2 * tc.lambda * v
			}
			grad := matVec(k, r)
			wy := make([]float64, tc.n)
			for i := range wy {
				wy[i] = 2 * w[i] * y[i] / float64(tc.n)
			}
			if g, s := crMaxAbs(grad), crMaxAbs(matVec(k, wy)); !(g <= 1e-9*s) {
				t.Errorf("gradient of the weighted objective is %.3g (scale %.3g)", g, s)
			}
			// The weights matter: the unweighted solution is different.
			if d := crRelDiff(fit.Model.Coef, crWeightedKRR(t, k, crOnes(tc.n), y, mu)); d < 1e-3 {
				t.Errorf("weighted and unweighted solutions agree to %.3g", d)
			}
			// Training RMSE is weighted.
			if p, want := fit.Path[0].TrainRMSE, crWRMSE(matVec(k, fit.Model.Coef), y, w); math.Abs(p-want) > 1e-6*want {
				t.Errorf("TrainRMSE %v, want weighted %v", p, want)
			}
			if !math.IsNaN(fit.ValRMSE) || !math.IsNaN(fit.Path[0].ValRMSE) {
				t.Error("ValRMSE without validation is not NaN")
			}
			if !mat.Equal(x, x0) || !reflect.DeepEqual(y, y0) || !reflect.DeepEqual(w, w0) {
				t.Error("inputs were modified")
			}
		})
	}
}

func crMaxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		if math.IsNaN(x) {
			return math.NaN()
		}
		m = math.Max(m, math.Abs(x))
	}
	return m
}

func crConst(n int, c float64) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = c
	}
	return w
}

func crOnes(n int) []float64 { return crConst(n, 1) }

// Hold-out paths with weights: the training and validation RMSE are
// weighted, sqrt(sum w_i e_i^2 / n), for the Cholesky (< triBreakEven
// values) and tridiagonal paths.
func TestKRLSWeightedPath(t *testing.T) {
	ctx := context.Background()
	const n, sigma = 50, 0.7
	rng := crRNG(41)
	x := randData(rng, n, 2, 1)
	y := smoothTargets(rng, x, 0.3)
	w := crWeights(rng, n, 0.1, 4)
	h := Holdout{Seed: 3, Fraction: 0.3}
	tr, va, err := h.Split(n)
	if err != nil {
		t.Fatal(err)
	}
	xt, xv := rowsOf(x, tr), rowsOf(x, va)
	yt, yv, wt, wv := pick(y, tr), pick(y, va), pick(w, tr), pick(w, va)
	ktt := refMatrix(refGaussian(sigma), xt, xt)
	kvt := refMatrix(refGaussian(sigma), xv, xt)
	for _, grid := range [][]float64{LogGrid(1e-5, 1, 6), LogGrid(1e-5, 1, triBreakEven+1)} {
		t.Run(fmt.Sprintf("grid=%d", len(grid)), func(t *testing.T) {
			fit, err := KRLS(ctx, x, y, KRLSConfig{Kernel: GaussianKernel{Sigma: sigma}, Lambdas: grid, Holdout: h, Weights: w})
			if err != nil {
				t.Fatal(err)
			}
			if len(fit.Path) != len(grid) {
				t.Fatalf("%d path points", len(fit.Path))
			}
			best, bestVal := -1, math.Inf(1)
			var bestAlpha []float64
			for i, l := range grid {
				alpha := crWeightedKRR(t, ktt, wt, yt, l*float64(len(tr)))
				train := crWRMSE(matVec(ktt, alpha), yt, wt)
				val := crWRMSE(matVec(kvt, alpha), yv, wv)
				pt := fit.Path[i]
				if pt.Lambda != l || math.Abs(pt.TrainRMSE-train) > 1e-6*train || math.Abs(pt.ValRMSE-val) > 1e-7*val {
					t.Errorf("lambda %g: path (%v, %v), want weighted (%v, %v)", l, pt.TrainRMSE, pt.ValRMSE, train, val)
				}
				if val < bestVal {
					best, bestVal, bestAlpha = i, val, alpha
				}
			}
			if fit.Lambda != grid[best] || math.Abs(fit.ValRMSE-bestVal) > 1e-7*bestVal {
				t.Errorf("chose lambda %g (val %v), want %g (%v)", fit.Lambda, fit.ValRMSE, grid[best], bestVal)
			}
			if d := crRelDiff(fit.Model.Coef, bestAlpha); d > 1e-6 {
				t.Errorf("coefficients differ by %.3g", d)
			}
		})
	}
}

// Iterate t of weighted Landweber is
// alpha_t = alpha_{t-1} - (gamma/n) W (K alpha_{t-1} - y).
func TestEarlyStoppingWeighted(t *testing.T) {
	ctx := context.Background()
	const n, sigma, T = 45, 0.5, 30
	rng := crRNG(42)
	x := randData(rng, n, 2, 1)
	y := smoothTargets(rng, x, 0.2)
	w := crWeights(rng, n, 0.2, 6)
	x0, y0, w0 := mat.DenseCopyOf(x), append([]float64(nil), y...), append([]float64(nil), w...)
	k := refMatrix(refGaussian(sigma), x, x)
	keep := []int{1, 2, 9, T}
	for _, tc := range []struct {
		name string
		step float64 // 0: the default, reported in Fit.StepSize
	}{
		{"default step", 0},
		{"user step", 0.05},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fit, err := EarlyStopping(ctx, x, y, EarlyStoppingConfig{Kernel: GaussianKernel{Sigma: sigma}, Weights: w,
				IterConfig: IterConfig{Iter: T, StepSize: tc.step, Plain: true, Keep: keep}})
			if err != nil {
				t.Fatal(err)
			}
			gamma := fit.StepSize
			if tc.step != 0 && gamma != tc.step {
				t.Fatalf("Fit.StepSize %g, want the user's %g", gamma, tc.step)
			}
			alpha := make([]float64, n)
			for it := 1; it <= T; it++ {
				r := matVec(k, alpha)
				next := make([]float64, n)
				for i := range r {
					next[i] = alpha[i] - gamma/n*w[i]*(r[i]-y[i])
				}
				alpha = next
				if got, ok := fit.Iterates[it]; ok {
					if d := crRelDiff(got, alpha); d > 1e-12 {
						t.Errorf("iterate %d differs from the hand loop by %.3g", it, d)
					}
				}
				if train := crWRMSE(matVec(k, alpha), y, w); math.Abs(fit.Path[it-1].TrainRMSE-train) > 1e-12*train {
					t.Errorf("iteration %d: TrainRMSE %v, want weighted %v", it, fit.Path[it-1].TrainRMSE, train)
				}
			}
			if len(fit.Iterates) != len(keep) || fit.Iter != T || len(fit.Path) != T {
				t.Errorf("%d iterates kept, Iter %d, %d path points", len(fit.Iterates), fit.Iter, len(fit.Path))
			}
			if d := crRelDiff(fit.Model.Coef, alpha); d > 1e-12 {
				t.Errorf("final coefficients differ by %.3g", d)
			}
		})
	}
	if !mat.Equal(x, x0) || !reflect.DeepEqual(y, y0) || !reflect.DeepEqual(w, w0) {
		t.Error("inputs were modified")
	}
	// Constant weights c: the step check uses ||W^1/2 K W^1/2|| = c ||K||, so
	// a step of 1.5 n / (c ||K||), stable only because c is small, is
	// accepted, and the iterates are those of the hand loop.
	const c = 0.01
	gamma := 1.5 * n / (c * crLambdaMax(t, k))
	fit, err := EarlyStopping(ctx, x, y, EarlyStoppingConfig{Kernel: GaussianKernel{Sigma: sigma}, Weights: crConst(n, c),
		IterConfig: IterConfig{Iter: T, StepSize: gamma, Plain: true}})
	if err != nil {
		t.Fatalf("stable step for constant weights %g refused: %v", c, err)
	}
	alpha := make([]float64, n)
	for it := 1; it <= T; it++ {
		r := matVec(k, alpha)
		for i := range alpha {
			alpha[i] -= gamma / n * c * (r[i] - y[i])
		}
	}
	if d := crRelDiff(fit.Model.Coef, alpha); d > 1e-10 {
		t.Errorf("constant weights: coefficients differ from the hand loop by %.3g", d)
	}
	// A user step beyond 2 n / ||W^1/2 K W^1/2|| is refused.
	_, err = EarlyStopping(ctx, x, y, EarlyStoppingConfig{Kernel: GaussianKernel{Sigma: sigma}, Weights: w,
		IterConfig: IterConfig{Iter: 5, StepSize: 1e3}})
	wantErrKind(t, "diverging weighted step", err, divergedErr())
}

// Weighted Landweber with a hold-out split: validation RMSE on the path is
// sqrt(sum_v w_v e_v^2 / n_v).
func TestEarlyStoppingWeightedPath(t *testing.T) {
	ctx := context.Background()
	const n, sigma, T = 60, 0.4, 25
	rng := crRNG(43)
	x := randData(rng, n, 2, 1)
	y := smoothTargets(rng, x, 0.3)
	w := crWeights(rng, n, 0.3, 3)
	h := Holdout{Seed: 8}
	fit, err := EarlyStopping(ctx, x, y, EarlyStoppingConfig{Kernel: GaussianKernel{Sigma: sigma}, Weights: w,
		IterConfig: IterConfig{MaxIter: T, Threshold: -1, Holdout: h, Plain: true}})
	if err != nil {
		t.Fatal(err)
	}
	tr, va, _ := h.Split(n)
	xt, xv := rowsOf(x, tr), rowsOf(x, va)
	yt, yv, wt, wv := pick(y, tr), pick(y, va), pick(w, tr), pick(w, va)
	ktt, kvt := refMatrix(refGaussian(sigma), xt, xt), refMatrix(refGaussian(sigma), xv, xt)
	gamma := fit.StepSize
	alpha := make([]float64, len(tr))
	bestVal, bestIt := math.Inf(1), 0
	if len(fit.Path) != T {
		t.Fatalf("%d path points, want %d", len(fit.Path), T)
	}
	for it := 1; it <= T; it++ {
		r := matVec(ktt, alpha)
		for i := range alpha {
			alpha[i] -= gamma / float64(len(tr)) * wt[i] * (r[i] - yt[i])
		}
		val := crWRMSE(matVec(kvt, alpha), yv, wv)
		train := crWRMSE(matVec(ktt, alpha), yt, wt)
		pt := fit.Path[it-1]
		if math.Abs(pt.ValRMSE-val) > 1e-11*val || math.Abs(pt.TrainRMSE-train) > 1e-11*train {
			t.Errorf("iteration %d: path (%v, %v), want weighted (%v, %v)", it, pt.TrainRMSE, pt.ValRMSE, train, val)
		}
		if val < bestVal {
			bestVal, bestIt = val, it
		}
	}
	if fit.Iter != bestIt {
		t.Errorf("chose iteration %d, want %d", fit.Iter, bestIt)
	}
}

// Weighted NKRLS: beta = (A^T W A + lambda n I)^-1 A^T W y with the Nyström
// features A = K_nm L^-T of K_mm = L L^T, compared through predictions
// (they do not depend on the choice of the square root of K_mm).
func TestNKRLSWeighted(t *testing.T) {
	ctx := context.Background()
	const n, m, sigma = 70, 15, 0.6
	rng := crRNG(44)
	x := randData(rng, n, 2, 1)
	y := smoothTargets(rng, x, 0.2)
	w := crWeights(rng, n, 0.2, 5)
	xs := randData(rng, 12, 2, 1)
	ref := refGaussian(sigma)
	t.Run("fixed", func(t *testing.T) {
		for _, lambda := range []float64{1e-6, 1e-3} {
			x0, y0, w0 := mat.DenseCopyOf(x), append([]float64(nil), y...), append([]float64(nil), w...)
			fit, err := NKRLS(ctx, x, y, NKRLSConfig{Kernel: GaussianKernel{Sigma: sigma}, Nystrom: NystromConfig{M: m, Seed: 4},
				Lambda: lambda, Weights: w})
			if err != nil {
				t.Fatal(err)
			}
			if fit.Rank != m {
				t.Fatalf("rank %d, want %d", fit.Rank, m)
			}
			idx, err := NystromCenters(x, m, nil, 4)
			if err != nil {
				t.Fatal(err)
			}
			feat := crNystrom(t, ref, x, idx)
			beta := crRidge(t, feat(x), w, y, lambda*n)
			want := matVec(feat(xs), beta)
			got, err := fit.Model.Predict(xs)
			if err != nil {
				t.Fatal(err)
			}
			if d := crRelDiff(got, want); d > 1e-8 {
				t.Errorf("lambda %g: predictions differ by %.3g", lambda, d)
			}
			if d := crRelDiff(got, matVec(feat(xs), crRidge(t, feat(x), nil, y, lambda*n))); d < 1e-4 {
				t.Errorf("lambda %g: weighted and unweighted predictions agree to %.3g", lambda, d)
			}
			if !mat.Equal(x, x0) || !reflect.DeepEqual(y, y0) || !reflect.DeepEqual(w, w0) {
				t.Error("inputs were modified")
			}
		}
	})
	t.Run("path", func(t *testing.T) {
		h := Holdout{Seed: 2}
		grid := LogGrid(1e-6, 1e-1, 5)
		fit, err := NKRLS(ctx, x, y, NKRLSConfig{Kernel: GaussianKernel{Sigma: sigma}, Nystrom: NystromConfig{M: m, Seed: 4},
			Lambdas: grid, Holdout: h, Weights: w})
		if err != nil {
			t.Fatal(err)
		}
		tr, va, _ := h.Split(n)
		xt, xv := rowsOf(x, tr), rowsOf(x, va)
		yt, yv, wt, wv := pick(y, tr), pick(y, va), pick(w, tr), pick(w, va)
		idx, _ := NystromCenters(xt, m, nil, 4)
		feat := crNystrom(t, ref, xt, idx)
		at, av := feat(xt), feat(xv)
		for i, l := range grid {
			beta := crRidge(t, at, wt, yt, l*float64(len(tr)))
			val := crWRMSE(matVec(av, beta), yv, wv)
			train := crWRMSE(matVec(at, beta), yt, wt)
			pt := fit.Path[i]
			if math.Abs(pt.ValRMSE-val) > 1e-8*val || math.Abs(pt.TrainRMSE-train) > 1e-6*train {
				t.Errorf("lambda %g: path (%v, %v), want weighted (%v, %v)", l, pt.TrainRMSE, pt.ValRMSE, train, val)
			}
		}
	})
}

// Weighted NYTRO: beta_t = beta_{t-1} - (gamma/n) A^T W (A beta_{t-1} - y),
// compared through the predictions of the kept iterates.
func TestNYTROWeighted(t *testing.T) {
	ctx := context.Background()
	const n, m, sigma, T = 70, 12, 0.5, 20
	rng := crRNG(45)
	x := randData(rng, n, 2, 1)
	y := smoothTargets(rng, x, 0.2)
	w := crWeights(rng, n, 0.2, 5)
	xs := randData(rng, 10, 2, 1)
	ref := refGaussian(sigma)
	for _, tc := range []struct {
		name string
		step float64 // 0: the default, reported in Fit.StepSize
	}{
		{"default step", 0},
		{"user step", 0.08},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x0, y0, w0 := mat.DenseCopyOf(x), append([]float64(nil), y...), append([]float64(nil), w...)
			keep := []int{1, 7, T}
			fit, err := NYTRO(ctx, x, y, NYTROConfig{Kernel: GaussianKernel{Sigma: sigma}, Nystrom: NystromConfig{M: m, Seed: 6},
				Weights: w, IterConfig: IterConfig{Iter: T, StepSize: tc.step, Plain: true, Keep: keep}})
			if err != nil {
				t.Fatal(err)
			}
			idx, _ := NystromCenters(x, m, nil, 6)
			feat := crNystrom(t, ref, x, idx)
			a, as := feat(x), feat(xs)
			iters := crGD(a, w, y, fit.StepSize, T)
			for _, it := range keep {
				got := crPredictKernel(ref, fit.Model.Centers, fit.Iterates[it], xs)
				if d := crRelDiff(got, matVec(as, iters[it-1])); d > 1e-9 {
					t.Errorf("iterate %d: predictions differ by %.3g", it, d)
				}
				if train := crWRMSE(matVec(a, iters[it-1]), y, w); math.Abs(fit.Path[it-1].TrainRMSE-train) > 1e-10*train {
					t.Errorf("iterate %d: TrainRMSE %v, want weighted %v", it, fit.Path[it-1].TrainRMSE, train)
				}
			}
			if !mat.Equal(x, x0) || !reflect.DeepEqual(y, y0) || !reflect.DeepEqual(w, w0) {
				t.Error("inputs were modified")
			}
		})
	}
	t.Run("path", func(t *testing.T) {
		h := Holdout{Seed: 5}
		fit, err := NYTRO(ctx, x, y, NYTROConfig{Kernel: GaussianKernel{Sigma: sigma}, Nystrom: NystromConfig{M: m, Seed: 6},
			Weights: w, IterConfig: IterConfig{MaxIter: T, Threshold: -1, Holdout: h, Plain: true}})
		if err != nil {
			t.Fatal(err)
		}
		tr, va, _ := h.Split(n)
		xt, xv := rowsOf(x, tr), rowsOf(x, va)
		yt, yv, wt, wv := pick(y, tr), pick(y, va), pick(w, tr), pick(w, va)
		idx, _ := NystromCenters(xt, m, nil, 6)
		feat := crNystrom(t, ref, xt, idx)
		at, av := feat(xt), feat(xv)
		for i, beta := range crGD(at, wt, yt, fit.StepSize, T) {
			val := crWRMSE(matVec(av, beta), yv, wv)
			if pt := fit.Path[i]; math.Abs(pt.ValRMSE-val) > 1e-10*val {
				t.Errorf("iteration %d: ValRMSE %v, want weighted %v", i+1, pt.ValRMSE, val)
			}
		}
	})
}

// crEstimators is every weighted solver, as Estimators: the weights are
// the argument of Fit.
func crEstimators(holdout bool) map[string]Estimator {
	g := GaussianKernel{Sigma: 0.6}
	rf, _ := NewRandomFourier(2, 20, 0.6, 1)
	var lambda float64
	var lambdas, tridiagonal []float64
	it := IterConfig{Iter: 15, Keep: []int{3, 15}}
	h := Holdout{Seed: 1}
	if holdout {
		lambdas, tridiagonal = LogGrid(1e-6, 1, 7), LogGrid(1e-6, 1, 31)
		it = IterConfig{MaxIter: 15, Threshold: -1, Holdout: h, Keep: []int{3}}
	} else {
		lambda = 1e-3
	}
	userStep := it
	userStep.StepSize = 0.5
	ny := NystromConfig{M: 10, Seed: 2}
	return map[string]Estimator{
		"KRLS":                    KRLSConfig{Kernel: g, Lambda: lambda, Lambdas: lambdas, Holdout: h},
		"KRLS tridiagonal":        KRLSConfig{Kernel: g, Lambda: lambda, Lambdas: tridiagonal, Holdout: h},
		"EarlyStopping":           EarlyStoppingConfig{Kernel: g, IterConfig: it},
		"EarlyStopping user step": EarlyStoppingConfig{Kernel: g, IterConfig: userStep},
		"NKRLS":                   NKRLSConfig{Kernel: g, Nystrom: ny, Lambda: lambda, Lambdas: lambdas, Holdout: h},
		"NYTRO":                   NYTROConfig{Kernel: g, Nystrom: ny, IterConfig: it},
		"LinearRLS":               LinearRLSConfig{Features: rf, Lambda: lambda, Lambdas: lambdas, Holdout: h},
		"LinearGD":                LinearGDConfig{Features: rf, IterConfig: it},
		"LinearGD raw":            LinearGDConfig{IterConfig: it},
	}
}

func crSameFit(a, b *Fit) string {
	switch {
	case !sameBits(a.Model.Coef, b.Model.Coef):
		return "coefficients"
	case a.Lambda != b.Lambda || a.Iter != b.Iter || a.Rank != b.Rank:
		return "lambda, iteration or rank"
	case !sameBits([]float64{a.ValRMSE}, []float64{b.ValRMSE}):
		return "ValRMSE"
	case len(a.Path) != len(b.Path):
		return "path length"
	case len(a.Iterates) != len(b.Iterates):
		return "iterates"
	}
	for i := range a.Path {
		p, q := a.Path[i], b.Path[i]
		if !sameBits([]float64{p.Lambda, p.TrainRMSE, p.ValRMSE}, []float64{q.Lambda, q.TrainRMSE, q.ValRMSE}) || p.Iter != q.Iter {
			return fmt.Sprintf("path point %d", i)
		}
	}
	for k, v := range a.Iterates {
		if !sameBits(v, b.Iterates[k]) {
			return fmt.Sprintf("iterate %d", k)
		}
	}
	return ""
}

// All weights 1 is exactly the unweighted fit, bit for bit.
func TestUnitWeightsAreUnweighted(t *testing.T) {
	ctx := context.Background()
	rng := crRNG(46)
	x := randData(rng, 40, 2, 1)
	y := smoothTargets(rng, x, 0.2)
	for _, holdout := range []bool{false, true} {
		for name, e := range crEstimators(holdout) {
			a, err := e.Fit(ctx, x, y, nil)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			b, err := e.Fit(ctx, x, y, crOnes(40))
			if err != nil {
				t.Fatalf("%s with unit weights: %v", name, err)
			}
			if diff := crSameFit(a, b); diff != "" {
				t.Errorf("%s (hold-out %v): unit weights change the %s", name, holdout, diff)
			}
		}
	}
}

// Uniform selection (weights 1) gives exactly the ordinary KRR and GD on
// the selected rows, for every pool size.
func TestUniformSelectionIsOrdinaryFit(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{49, 60, 103} {
		rng := crRNG(uint64(n))
		pool := randData(rng, n, 2, 1)
		labels := smoothTargets(rng, pool, 0.1)
		sel, err := UniformSelector{}.Select(ctx, pool, 30, 3)
		if err != nil {
			t.Fatal(err)
		}
		xs, err := GatherRows(pool, sel.Index)
		if err != nil {
			t.Fatal(err)
		}
		ys := pick(labels, sel.Index)
		for name, e := range crEstimators(false) {
			a, err := e.Fit(ctx, xs, ys, nil)
			if err != nil {
				t.Fatal(err)
			}
			b, err := e.Fit(ctx, xs, ys, sel.Weight)
			if err != nil {
				t.Fatal(err)
			}
			if diff := crSameFit(a, b); diff != "" {
				t.Errorf("N = %d, %s: uniform selection weights change the %s", n, name, diff)
			}
		}
	}
}

// Bad weights are errors naming the weight; nothing is modified.
func TestBadWeights(t *testing.T) {
	ctx := context.Background()
	rng := crRNG(47)
	x := randData(rng, 30, 2, 1)
	y := smoothTargets(rng, x, 0.2)
	good := crWeights(rng, 30, 0.5, 2)
	with := func(i int, v float64) []float64 {
		w := append([]float64(nil), good...)
		w[i] = v
		return w
	}
	for _, tc := range []struct {
		name string
		w    []float64
		want errKind
	}{
		{"too short", good[:29], isErr(ErrShape)},
		{"too long", append(append([]float64(nil), good...), 1), isErr(ErrShape)},
		{"empty", []float64{}, isErr(ErrShape)},
		{"zero", with(2, 0), paramErr("weight[2]", 0.0)},
		{"negative", with(5, -1), paramErr("weight[5]", -1.0)},
		{"NaN", with(29, math.NaN()), notFiniteErr("weight", 29, -1, math.NaN())},
		{"+Inf", with(0, math.Inf(1)), notFiniteErr("weight", 0, -1, math.Inf(1))},
		{"-Inf", with(3, math.Inf(-1)), notFiniteErr("weight", 3, -1, math.Inf(-1))},
	} {
		for _, holdout := range []bool{false, true} {
			x0, y0, w0 := mat.DenseCopyOf(x), append([]float64(nil), y...), append([]float64(nil), tc.w...)
			for name, e := range crEstimators(holdout) {
				_, err := e.Fit(ctx, x, y, tc.w)
				wantErrKind(t, fmt.Sprintf("%s, %s weights, hold-out %v", name, tc.name, holdout), err, tc.want)
			}
			if !mat.Equal(x, x0) || !reflect.DeepEqual(y, y0) || !sameBits(tc.w, w0) {
				t.Errorf("%s: inputs modified", tc.name)
			}
		}
	}
	// Good weights: no solver modifies x, y or the weights.
	for _, holdout := range []bool{false, true} {
		x0, y0, w0 := mat.DenseCopyOf(x), append([]float64(nil), y...), append([]float64(nil), good...)
		for name, e := range crEstimators(holdout) {
			if _, err := e.Fit(ctx, x, y, good); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !mat.Equal(x, x0) || !reflect.DeepEqual(y, y0) || !reflect.DeepEqual(good, w0) {
				t.Fatalf("%s (hold-out %v) modified its inputs", name, holdout)
			}
		}
	}
}
