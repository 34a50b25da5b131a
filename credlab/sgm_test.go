package credlab

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// sgmData returns n seeded points uniform on [0,1]^d with
// y = |x_1 - 1/2| - 1/2 + noise.
func sgmData(n, d int, noise float64, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, rng.Float64())
		}
		y[i] = math.Abs(x.At(i, 0)-0.5) - 0.5 + noise*rng.NormFloat64()
	}
	return x, y
}

// sgmHandLoop runs recursion (4) with explicit sums of k.Eval, drawing the
// indices as documented in SGMConfig.Seed. It returns the coefficients
// after each step (index t-1) and the first iteration whose drawn residual
// exceeds 1e3 max|y| (0 if none).
func sgmHandLoop(k Kernel, x *mat.Dense, y []float64, b int, eta, theta float64, T int, seed uint64) ([][]float64, int) {
	m := len(y)
	rng := rand.New(rand.NewPCG(seed, 0x73676d))
	alpha := make([]float64, m)
	scale := 0.0
	for _, v := range y {
		scale = math.Max(scale, math.Abs(v))
	}
	f := func(j int) float64 {
		s := 0.0
		for i := range alpha {
			s += alpha[i] * k.Eval(x.RawRowView(i), x.RawRowView(j))
		}
		return s
	}
	var out [][]float64
	for t := 1; t <= T; t++ {
		eta_t := eta * math.Pow(float64(t), -theta)
		idx := make([]int, b)
		for i := range idx {
			idx[i] = rng.IntN(m)
		}
		delta := make([]float64, b)
		for i, j := range idx {
			r := f(j) - y[j]
			if !(math.Abs(r) <= 1e3*scale) {
				return out, t
			}
			delta[i] = -eta_t / float64(b) * r
		}
		for i, j := range idx {
			alpha[j] += delta[i]
		}
		out = append(out, append([]float64(nil), alpha...))
	}
	return out, 0
}

func sgmMaxRel(a, b []float64) float64 {
	num, den := 0.0, 0.0
	for i := range a {
		num = math.Max(num, math.Abs(a[i]-b[i]))
		den = math.Max(den, math.Abs(b[i]))
	}
	return num / math.Max(den, 1e-300)
}

func TestSGMIterateMatchesHandLoop(t *testing.T) {
	x, y := sgmData(37, 2, 0.3, 1)
	k := GaussianKernel{Sigma: 0.4}
	const T = 45
	keep := []int{1, 7, 30, T}
	for _, tc := range []struct {
		name  string
		k     Kernel
		b     int
		theta float64
		cache int64
	}{
		{"b=3/cached", k, 3, 0, 0},
		{"b=3/streamed", k, 3, 0, -1},
		{"b=1/decay/streamed", k, 1, 0.4, -1},
		{"b=50/decay/cached", k, 50, 0.25, 0},
		{"laplacian/streamed", LaplacianKernel{Sigma: 0.7}, 4, 0, -1},
		{"custom/streamed", sgmCauchy{}, 5, 0, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eta := 0.3
			fit, err := SGM(context.Background(), x, y, SGMConfig{Kernel: tc.k, Batch: tc.b, StepSize: eta,
				Decay: tc.theta, Iter: T, Seed: 11, Keep: keep, CacheBytes: tc.cache})
			if err != nil {
				t.Fatal(err)
			}
			want, div := sgmHandLoop(tc.k, x, y, tc.b, eta, tc.theta, T, 11)
			if div != 0 {
				t.Fatalf("hand loop diverged at %d", div)
			}
			for _, it := range keep {
				if d := sgmMaxRel(fit.Iterates[it], want[it-1]); d > 1e-12 {
					t.Errorf("iterate %d: relative difference %g from the hand loop", it, d)
				}
			}
			if d := sgmMaxRel(fit.Model.Coef, want[T-1]); d > 1e-12 {
				t.Errorf("final coefficients differ by %g", d)
			}
			if fit.Batch != tc.b || fit.StepSize != eta || fit.Iter != T || !math.IsNaN(fit.ValRMSE) {
				t.Errorf("record b=%d eta=%g iter=%d val=%g", fit.Batch, fit.StepSize, fit.Iter, fit.ValRMSE)
			}
		})
	}
}

func TestSGMStreamedBlockPath(t *testing.T) {
	// b and d of at least 32 take the kernel-block path on the fly.
	x, y := sgmData(70, 40, 0.3, 12)
	k := GaussianKernel{Sigma: 2.5}
	want, _ := sgmHandLoop(k, x, y, 48, 0.5, 0, 6, 3)
	for _, cache := range []int64{0, -1} {
		fit, err := SGM(context.Background(), x, y, SGMConfig{Kernel: k, Batch: 48, StepSize: 0.5, Iter: 6, Seed: 3, CacheBytes: cache})
		if err != nil {
			t.Fatal(err)
		}
		if d := sgmMaxRel(fit.Model.Coef, want[5]); d > 1e-12 {
			t.Errorf("cache %d: differs from the hand loop by %g", cache, d)
		}
	}
	// Full batch on the fly, d >= 32: the whole training set is the batch.
	es, err := EarlyStopping(context.Background(), x, y, EarlyStoppingConfig{Kernel: k, IterConfig: IterConfig{StepSize: 0.125, Iter: 5, Plain: true}})
	if err != nil {
		t.Fatal(err)
	}
	fit, err := SGM(context.Background(), x, y, SGMConfig{Kernel: k, Preset: SGMBatch, Iter: 5, CacheBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	if d := sgmMaxRel(fit.Model.Coef, es.Model.Coef); d > 1e-12 {
		t.Errorf("streamed batch GD differs from EarlyStopping by %g", d)
	}
}

// sgmCauchy is a kernel outside the built-in fast paths.
type sgmCauchy struct{}

func (sgmCauchy) Eval(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return 1 / (1 + 4*s)
}
func (sgmCauchy) Validate() error { return nil }
func (sgmCauchy) String() string  { return "cauchy" }

func TestSGMBatchPresetMatchesEarlyStopping(t *testing.T) {
	x, y := sgmData(60, 1, 1, 2)
	k := GaussianKernel{Sigma: 0.2}
	const T = 40
	keep := []int{1, 3, 17, T}
	es, err := EarlyStopping(context.Background(), x, y, EarlyStoppingConfig{Kernel: k,
		IterConfig: IterConfig{StepSize: 1.0 / 8, Iter: T, Plain: true, Keep: keep}})
	if err != nil {
		t.Fatal(err)
	}
	for _, cache := range []int64{0, -1} {
		fit, err := SGM(context.Background(), x, y, SGMConfig{Kernel: k, Preset: SGMBatch, Iter: T, Keep: keep, CacheBytes: cache})
		if err != nil {
			t.Fatal(err)
		}
		if fit.Batch != 60 || fit.StepSize != 1.0/8 {
			t.Fatalf("batch preset used b = %d, eta = %g; want 60, 1/8", fit.Batch, fit.StepSize)
		}
		for _, it := range keep {
			if d := sgmMaxRel(fit.Iterates[it], es.Iterates[it]); d > 1e-12 {
				t.Errorf("cache %d, iteration %d: SGMBatch differs from EarlyStopping by %g", cache, it, d)
			}
		}
		// Every step of batch GD is one pass.
		if len(fit.Path) != T || fit.PathPasses[T-1] != T {
			t.Errorf("batch GD path has %d points, last at %g passes; want %d, %d", len(fit.Path), fit.PathPasses[len(fit.PathPasses)-1], T, T)
		}
		for i, pt := range fit.Path {
			if d := math.Abs(pt.TrainRMSE - es.Path[i].TrainRMSE); d > 1e-12 {
				t.Fatalf("training RMSE at %d differs by %g", pt.Iter, d)
			}
		}
	}
}

func TestSGMPresets(t *testing.T) {
	x, y := sgmData(100, 1, 1, 3)
	k := GaussianKernel{Sigma: 0.2}
	for _, tc := range []struct {
		p    SGMPreset
		b    int
		eta  float64
		iter int // iterations for 3 passes
	}{
		{SGMMiniBatch, 10, 1.0 / 80, 30},
		{SGMSimple, 1, 1.0 / 800, 300},
		{SGMBatch, 100, 1.0 / 8, 3},
	} {
		fit, err := SGM(context.Background(), x, y, SGMConfig{Kernel: k, Preset: tc.p, Passes: 3, Holdout: Holdout{None: true}})
		if err != nil {
			t.Fatal(err)
		}
		if fit.Batch != tc.b || math.Abs(fit.StepSize-tc.eta) > 1e-15 || fit.Iter != tc.iter || fit.Passes != 3 {
			t.Errorf("%v: b=%d eta=%g iter=%d passes=%g; want %d %g %d 3", tc.p, fit.Batch, fit.StepSize, fit.Iter, fit.Passes, tc.b, tc.eta, tc.iter)
		}
		if len(fit.Path) != 3 {
			t.Errorf("%v: %d path points for 3 passes", tc.p, len(fit.Path))
		}
		for i, pt := range fit.Path {
			if want := (i + 1) * tc.iter / 3; pt.Iter != want || fit.PathPasses[i] != float64(i+1) {
				t.Errorf("%v: path point %d at iteration %d (%g passes); want %d (%d)", tc.p, i, pt.Iter, fit.PathPasses[i], want, i+1)
			}
		}
	}
	// A kernel with k(x,x) = 4 scales the preset step by 1/kappa^2.
	fit, err := SGM(context.Background(), x, y, SGMConfig{Kernel: PolynomialKernel{Degree: 2, Gamma: 1, Coef0: 1}, Iter: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 / (8 * 10 * maxKernelDiag(PolynomialKernel{}, x, nil)); math.Abs(fit.StepSize-want) > 1e-15 {
		t.Errorf("polynomial kernel: eta = %g, want %g", fit.StepSize, want)
	}
}

func TestSGMPathsRecordPassEnds(t *testing.T) {
	// m = 40 training rows, b = 7: passes end at ceil(40k/7).
	x, y := sgmData(40, 2, 0.5, 4)
	fit, err := SGM(context.Background(), x, y, SGMConfig{Kernel: GaussianKernel{Sigma: 0.5}, Batch: 7, Passes: 5, Holdout: Holdout{None: true}})
	if err != nil {
		t.Fatal(err)
	}
	want := []int{6, 12, 18, 23, 29}
	if len(fit.Path) != len(want) {
		t.Fatalf("path has %d points, want %d", len(fit.Path), len(want))
	}
	for i, pt := range fit.Path {
		if pt.Iter != want[i] || math.Abs(fit.PathPasses[i]-7*float64(want[i])/40) > 1e-15 {
			t.Errorf("point %d at iteration %d (%g passes), want %d", i, pt.Iter, fit.PathPasses[i], want[i])
		}
		if !math.IsNaN(pt.ValRMSE) {
			t.Errorf("validation RMSE %g without validation", pt.ValRMSE)
		}
	}
	// Every records every k iterations plus the last.
	fit, err = SGM(context.Background(), x, y, SGMConfig{Kernel: GaussianKernel{Sigma: 0.5}, Batch: 7, Iter: 10, Every: 4})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, pt := range fit.Path {
		got = append(got, pt.Iter)
	}
	if fmt.Sprint(got) != "[4 8 10]" {
		t.Errorf("Every = 4 over 10 iterations recorded %v", got)
	}
}

func TestSGMHoldoutSelectsPasses(t *testing.T) {
	x, y := sgmData(200, 1, 1, 5)
	k := GaussianKernel{Sigma: 0.2}
	fit, err := SGM(context.Background(), x, y, SGMConfig{Kernel: k, Passes: 60, Threshold: -1, Holdout: Holdout{Seed: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if len(fit.Path) != 60 {
		t.Fatalf("Threshold < 0 should run all 60 passes, got %d points", len(fit.Path))
	}
	best := 0
	for i, pt := range fit.Path {
		if pt.ValRMSE < fit.Path[best].ValRMSE {
			best = i
		}
	}
	if fit.Iter != fit.Path[best].Iter || fit.ValRMSE != fit.Path[best].ValRMSE {
		t.Errorf("chose iteration %d (val %g), the path's best is %d (%g)", fit.Iter, fit.ValRMSE, fit.Path[best].Iter, fit.Path[best].ValRMSE)
	}
	// The model is the chosen iterate: its validation RMSE matches.
	tr, va, _ := Holdout{Seed: 3}.Split(200)
	if fit.Rank != len(tr) {
		t.Errorf("trained on %d rows, want %d", fit.Rank, len(tr))
	}
	p, err := fit.Model.Predict(gatherRows(x, va))
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(rmse(p, gather(y, va)) - fit.ValRMSE); d > 1e-12 {
		t.Errorf("model's validation RMSE differs from the path's by %g", d)
	}
	// The default stopping rule stops after the validation error rises 5%.
	stop, err := SGM(context.Background(), x, y, SGMConfig{Kernel: k, Passes: 60, Holdout: Holdout{Seed: 3}})
	if err != nil {
		t.Fatal(err)
	}
	last := stop.Path[len(stop.Path)-1]
	if len(stop.Path) < 60 && !(last.ValRMSE > 1.05*stop.ValRMSE) {
		t.Errorf("stopped at %d with validation %g, best %g", last.Iter, last.ValRMSE, stop.ValRMSE)
	}
	for i := range stop.Path {
		if stop.Path[i] != fit.Path[i] {
			t.Fatalf("the stopped run's path differs at %d", i)
		}
	}
}

func TestSGMCacheAndGOMAXPROCS(t *testing.T) {
	x, y := sgmData(150, 3, 0.5, 6)
	cfg := SGMConfig{Kernel: GaussianKernel{Sigma: 0.6}, Passes: 4, Threshold: -1, Seed: 9}
	run := func(c SGMConfig) *SGMFit {
		fit, err := SGM(context.Background(), x, y, c)
		if err != nil {
			t.Fatal(err)
		}
		return fit
	}
	cached := run(cfg)
	cfg.CacheBytes = -1
	var s1, s4 *SGMFit
	withProcs(1, func() { s1 = run(cfg) })
	withProcs(4, func() { s4 = run(cfg) })
	for i := range s1.Model.Coef {
		if math.Float64bits(s1.Model.Coef[i]) != math.Float64bits(s4.Model.Coef[i]) {
			t.Fatalf("streamed coefficients depend on GOMAXPROCS at %d", i)
		}
	}
	if d := sgmMaxRel(s1.Model.Coef, cached.Model.Coef); d > 1e-12 {
		t.Errorf("streamed and cached runs differ by %g", d)
	}
	for i := range cached.Path {
		if math.Abs(cached.Path[i].ValRMSE-s1.Path[i].ValRMSE) > 1e-12 {
			t.Errorf("validation path differs at %d", i)
		}
	}
}

func TestSGMDivergenceReportsIteration(t *testing.T) {
	x, y := sgmData(30, 1, 0.5, 7)
	k := GaussianKernel{Sigma: 0.3}
	for _, b := range []int{1, 4} {
		_, want := sgmHandLoop(k, x, y, b, 3.5, 0, 500, 2)
		if want == 0 {
			t.Fatal("hand loop did not diverge")
		}
		_, err := SGM(context.Background(), x, y, SGMConfig{Kernel: k, Batch: b, StepSize: 3.5, Iter: 500, Seed: 2})
		var de *DivergedError
		if !errors.As(err, &de) || de.Iter != want || de.Step != 3.5 {
			t.Errorf("diverge b=%d: got %v (%T), want a *DivergedError at iteration %d with step 3.5", b, err, err, want)
		}
	}
	// Batch GD with eta beyond 2/||K/m|| diverges too.
	_, err := SGM(context.Background(), x, y, SGMConfig{Kernel: k, Preset: SGMBatch, StepSize: 40, Iter: 500})
	wantErrKind(t, "batch diverge", err, divergedErr("SGM"))
}

func TestSGMBadInput(t *testing.T) {
	x, y := sgmData(20, 2, 0.5, 8)
	k := GaussianKernel{Sigma: 0.5}
	run := func(c SGMConfig) error {
		_, err := SGM(context.Background(), x, y, c)
		return err
	}
	wantErrKind(t, "b<0", run(SGMConfig{Kernel: k, Batch: -1}), paramErr("SGMConfig.Batch", -1))
	wantErrKind(t, "eta<0", run(SGMConfig{Kernel: k, StepSize: -0.1}), paramErr("SGMConfig.StepSize", -0.1))
	wantErrKind(t, "eta NaN", run(SGMConfig{Kernel: k, StepSize: math.NaN()}), paramErr("SGMConfig.StepSize", math.NaN()))
	wantErrKind(t, "eta Inf", run(SGMConfig{Kernel: k, StepSize: math.Inf(1)}), paramErr("SGMConfig.StepSize", math.Inf(1)))
	wantErrKind(t, "decay", run(SGMConfig{Kernel: k, Decay: 1}), paramErr("SGMConfig.Decay", 1.0))
	wantErrKind(t, "preset", run(SGMConfig{Kernel: k, Preset: 7}), paramErr("SGMConfig.Preset", SGMPreset(7)))
	wantErrKind(t, "batch+b", run(SGMConfig{Kernel: k, Preset: SGMBatch, Batch: 5}), paramErr("SGMConfig.Batch", 5))
	wantErrKind(t, "passes", run(SGMConfig{Kernel: k, Passes: -2}), paramErr("SGMConfig.Passes", -2))
	wantErrKind(t, "iter", run(SGMConfig{Kernel: k, Iter: -2}), paramErr("SGMConfig.Iter", -2))
	wantErrKind(t, "every", run(SGMConfig{Kernel: k, Every: -1}), paramErr("SGMConfig.Every", -1))
	wantErrKind(t, "threshold NaN", run(SGMConfig{Kernel: k, Threshold: math.NaN()}), paramErr("SGMConfig.Threshold", math.NaN()))
	wantErrKind(t, "sigma", run(SGMConfig{Kernel: GaussianKernel{}}), paramErr("Gaussian kernel sigma", 0.0))
	_, err := ParseSGMPreset("fast")
	wantErrKind(t, "ParseSGMPreset", err, paramErr("SGMConfig.Preset", `"fast"`))
	bad := mat.DenseCopyOf(x)
	bad.Set(3, 1, math.NaN())
	_, err = SGM(context.Background(), bad, y, SGMConfig{Kernel: k})
	wantNotFinite(t, "NaN x", err, "x", 3, 1)
	yb := append([]float64(nil), y...)
	yb[2] = math.Inf(-1)
	_, err = SGM(context.Background(), x, yb, SGMConfig{Kernel: k})
	wantNotFinite(t, "Inf y", err, "y", 2, -1)
	_, err = SGM(context.Background(), x, y[:5], SGMConfig{Kernel: k})
	wantErrKind(t, "shape", err, isErr(ErrShape))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = SGM(ctx, x, y, SGMConfig{Kernel: k})
	wantErrKind(t, "cancelled", err, isErr(context.Canceled))
}

func TestSGMInputsNotModified(t *testing.T) {
	x, y := sgmData(30, 2, 0.5, 9)
	x0, y0 := mat.DenseCopyOf(x), append([]float64(nil), y...)
	for _, c := range []int64{0, -1} {
		if _, err := SGM(context.Background(), x, y, SGMConfig{Kernel: GaussianKernel{Sigma: 0.5}, Passes: 3, CacheBytes: c}); err != nil {
			t.Fatal(err)
		}
	}
	if !mat.Equal(x, x0) || sgmMaxRel(y, y0) != 0 {
		t.Error("SGM modified its inputs")
	}
}

// sgmPopulationLoop runs mu_{t+1} = mu_t - eta_t (K/N)(mu_t - F) on the
// population values directly.
func sgmPopulationLoop(k Kernel, xp *mat.Dense, f []float64, eta, theta float64, iters []int) [][]float64 {
	N := len(f)
	km, _ := KernelMatrix(k, xp, nil)
	u := make([]float64, N)
	var out [][]float64
	next := 0
	for t := 1; next < len(iters); t++ {
		e := make([]float64, N)
		for i := range e {
			e[i] = u[i] - f[i]
		}
		ke := make([]float64, N)
		for i := 0; i < N; i++ {
			for j := 0; j < N; j++ {
				ke[i] += km.At(i, j) * e[j]
			}
		}
		et := eta * math.Pow(float64(t), -theta)
		for i := range u {
			u[i] -= et / float64(N) * ke[i]
		}
		if t == iters[next] {
			out = append(out, append([]float64(nil), u...))
			next++
		}
	}
	return out
}

func TestSGMDecompositionAgainstHandLoops(t *testing.T) {
	k := GaussianKernel{Sigma: 0.2}
	xp, _ := sgmData(80, 1, 0, 10)
	fp := make([]float64, 80)
	for i := range fp {
		fp[i] = math.Abs(xp.At(i, 0)-0.5) - 0.5
	}
	pop, err := NewSGMPopulation(k, xp, fp)
	if err != nil {
		t.Fatal(err)
	}
	x, y := sgmData(25, 1, 1, 11)
	// nu on the population, from EarlyStopping's iterates.
	kxp, _ := KernelMatrix(k, xp, x)
	for _, theta := range []float64{0, 0.3} {
		iters := []int{1, 4, 9, 30, 61}
		cfg := SGMDecompositionConfig{SGM: SGMConfig{Batch: 5, StepSize: 0.4, Decay: theta, Seed: 4}, Iters: iters}
		dec, err := pop.Decompose(context.Background(), x, y, cfg)
		if err != nil {
			t.Fatal(err)
		}
		mu := sgmPopulationLoop(k, xp, fp, 0.4, theta, iters)
		// The sample iteration: batch GD with the same steps, by hand.
		nu := make([]float64, 25)
		kmm, _ := KernelMatrix(k, x, nil)
		next := 0
		omega, _ := sgmHandLoop(k, x, y, 5, 0.4, theta, 61, 4)
		for it := 1; next < len(iters); it++ {
			r := matVecSGM(kmm, nu)
			et := 0.4 * math.Pow(float64(it), -theta)
			for i := range nu {
				nu[i] -= et / 25 * (r[i] - y[i])
			}
			if it != iters[next] {
				continue
			}
			fnu := matVecSGM(kxp, nu)
			fom := matVecSGM(kxp, omega[it-1])
			for name, got := range map[string][2]float64{
				"bias":         {dec.Bias[next], meanSqDiff(mu[next], fp)},
				"sample var":   {dec.SampleVar[next], meanSqDiff(fnu, mu[next])},
				"sample total": {dec.SampleTotal[next], meanSqDiff(fnu, fp)},
				"total":        {dec.Total[next], meanSqDiff(fom, fp)},
				"comp var":     {dec.CompVar[next], meanSqDiff(fom, fnu)},
			} {
				if math.Abs(got[0]-got[1]) > 1e-9*math.Max(got[1], 1e-3) {
					t.Errorf("theta %g, iteration %d: %s = %g, hand loop %g", theta, it, name, got[0], got[1])
				}
			}
			// The per-draw triangle inequality behind (16).
			if math.Sqrt(dec.Total[next]) > math.Sqrt(dec.CompVar[next])+math.Sqrt(dec.SampleVar[next])+math.Sqrt(dec.Bias[next])+1e-12 {
				t.Errorf("triangle inequality fails at %d", it)
			}
			if dec.Passes[next] != 5*float64(it)/25 {
				t.Errorf("passes at %d = %g", it, dec.Passes[next])
			}
			next++
		}
	}
	// Batch GD: omega = nu, no computational variance.
	dec, err := pop.Decompose(context.Background(), x, y, SGMDecompositionConfig{SGM: SGMConfig{Preset: SGMBatch, Passes: 20}})
	if err != nil {
		t.Fatal(err)
	}
	if len(dec.Iter) != 20 || dec.Batch != 25 || dec.StepSize != 0.125 {
		t.Fatalf("batch decomposition: %d points, b = %d, eta = %g", len(dec.Iter), dec.Batch, dec.StepSize)
	}
	for i := range dec.Iter {
		if dec.CompVar[i] != 0 || dec.Total[i] != dec.SampleTotal[i] {
			t.Fatalf("batch GD at %d: comp var %g, total %g vs %g", dec.Iter[i], dec.CompVar[i], dec.Total[i], dec.SampleTotal[i])
		}
	}
	// More draws average the computational variance; bias and sample
	// variance do not depend on the draws.
	d1, _ := pop.Decompose(context.Background(), x, y, SGMDecompositionConfig{SGM: SGMConfig{Passes: 10}})
	d4, err := pop.Decompose(context.Background(), x, y, SGMDecompositionConfig{SGM: SGMConfig{Passes: 10}, Draws: 4})
	if err != nil {
		t.Fatal(err)
	}
	if sgmMaxRel(d1.Bias, d4.Bias) != 0 || sgmMaxRel(d1.SampleVar, d4.SampleVar) != 0 || sgmMaxRel(d1.CompVar, d4.CompVar) == 0 {
		t.Error("draws should change only the expectations over J")
	}
	// A kernel with a slowly decaying spectrum keeps (nearly) full rank.
	lap := LaplacianKernel{Sigma: 0.5}
	lpop, err := NewSGMPopulation(lap, xp, fp)
	if err != nil {
		t.Fatal(err)
	}
	if lpop.Rank() < 70 || pop.Rank() > 40 {
		t.Errorf("ranks: Laplacian %d of 80, Gaussian %d", lpop.Rank(), pop.Rank())
	}
	ld, err := lpop.Decompose(context.Background(), x, y, SGMDecompositionConfig{SGM: SGMConfig{StepSize: 0.7}, Iters: []int{2, 50}})
	if err != nil {
		t.Fatal(err)
	}
	for i, u := range sgmPopulationLoop(lap, xp, fp, 0.7, 0, []int{2, 50}) {
		if want := meanSqDiff(u, fp); math.Abs(ld.Bias[i]-want) > 1e-9*want {
			t.Errorf("Laplacian bias %g, hand loop %g", ld.Bias[i], want)
		}
	}
	_, err = pop.Decompose(context.Background(), x, y, SGMDecompositionConfig{Iters: []int{3, 3}})
	wantErrKind(t, "iters", err, paramErr("SGMDecompositionConfig.Iters[1]", 3))
	_, err = pop.Decompose(context.Background(), mat.NewDense(3, 2, nil), []float64{1, 2, 3}, SGMDecompositionConfig{})
	wantErrKind(t, "dims", err, isErr(ErrShape))
	_, err = pop.Decompose(context.Background(), x, y, SGMDecompositionConfig{Draws: -1})
	wantErrKind(t, "draws", err, paramErr("SGMDecompositionConfig.Draws", -1))
	_, err = NewSGMPopulation(k, xp, fp[:3])
	wantErrKind(t, "population shape", err, isErr(ErrShape))
	_, err = (*SGMPopulation)(nil).Decompose(context.Background(), x, y, SGMDecompositionConfig{})
	wantErrKind(t, "no population", err, isErr(ErrEmpty))
}

func matVecSGM(a *mat.Dense, v []float64) []float64 {
	r, c := a.Dims()
	out := make([]float64, r)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			out[i] += a.At(i, j) * v[j]
		}
	}
	return out
}
