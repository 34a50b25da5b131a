package credlab

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// The 90% interval covers the pool's RMSE in about 90% of audit samples,
// for simple random samples and for unequal-probability (Poisson) samples
// weighted 1/pi, on residuals of uneven spread, and in at least 80% with
// heavy tails (a tenth of the rows with three times the spread), where
// the log-scale interval alone covered 0.77 with 100 uniform audit rows
// and 0.83 with 300 (0.81 and 0.88 now).
func TestEstimatePoolRMSECoverage(t *testing.T) {
	for _, heavy := range []bool{false, true} {
		coverage(t, heavy)
	}
}

func coverage(t *testing.T, heavy bool) {
	const N = 20000
	rng := rand.New(rand.NewPCG(1, 1))
	pool := make([]float64, N)
	size := make([]float64, N) // a size measure correlated with the residuals
	mse := 0.0
	for i := range pool {
		s := 0.5 + rng.Float64()
		if heavy && rng.Float64() < 0.1 {
			s *= 3 // a tenth of the rows with three times the spread
		}
		pool[i] = s * rng.NormFloat64()
		size[i] = 0.5 + s
		mse += pool[i] * pool[i] / N
	}
	truth := math.Sqrt(mse)
	for _, c := range []struct {
		name    string
		n       int
		unequal bool
	}{{"uniform 100", 100, false}, {"uniform 300", 300, false}, {"poisson 200", 200, true}} {
		cover, runs := 0, 1000
		for s := 0; s < runs; s++ {
			r := rand.New(rand.NewPCG(uint64(s), 7))
			var res, w []float64
			if c.unequal {
				tot := 0.0
				for _, v := range size {
					tot += v
				}
				for i, v := range size {
					pi := float64(c.n) * v / tot
					if r.Float64() < pi {
						res, w = append(res, pool[i]), append(w, 1/pi)
					}
				}
			} else {
				for _, i := range r.Perm(N)[:c.n] {
					res = append(res, pool[i])
				}
			}
			est, err := EstimatePoolRMSE(res, w, 0.9)
			if err != nil {
				t.Fatal(err)
			}
			if est.Lo <= truth && truth <= est.Hi {
				cover++
			}
		}
		f := float64(cover) / float64(runs)
		t.Logf("heavy tails %v, %s: the 90%% interval covers in %.3f of samples", heavy, c.name, f)
		if f > 0.95 || f < 0.86 && !heavy || f < 0.8 {
			t.Errorf("heavy tails %v, %s: the 90%% interval covers in %.3f of samples", heavy, c.name, f)
		}
	}
}

func TestEstimatePoolRMSE(t *testing.T) {
	est, err := EstimatePoolRMSE([]float64{1, -1, 2, -2}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	// MSE = 2.5, SE = sqrt(4/3 * (4*1.5^2)) / 4.
	if math.Abs(est.MSE-2.5) > 1e-12 || math.Abs(est.SE-math.Sqrt(4.0/3*9)/4) > 1e-12 || est.Level != 0.9 || !(est.Lo < est.RMSE && est.RMSE < est.Hi) {
		t.Errorf("%+v", est)
	}
	// r^2 = 1, 1, 1, 9: MSE 3, deviations -2, -2, -2, 6, SE = sqrt(4/3 * 48) / 4 = 2,
	// skewness (192 / 4^3) / 2^3; the pool's variance 48/4 = MSE^2 4/3 and
	// skewness 48 / 12^1.5.
	sk, err := EstimatePoolRMSE([]float64{1, -1, 1, 3}, nil, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	if !relClose(sk.SE, 2, 1e-12) || !relClose(sk.Skew, 0.375, 1e-12) || !relClose(sk.RelVar, 4.0/3, 1e-12) || !relClose(sk.VarSkew, 48/math.Pow(12, 1.5), 1e-12) {
		t.Errorf("%+v", sk)
	}
	// Hall's ends 3 - 2 t(+-q), t(x) solving t + a t^2 + a^2 t^3/3 + a/2 = x
	// for a = 0.375/3 (by bisection here), against the log scale's
	// 3 exp(-+2q/3): the hull takes Hall's lower end (0.312) and the log
	// scale's upper one (8.98 against Hall's 7.62).
	q := 1.6448536269514722
	solve := func(x float64) float64 {
		lo, hi := -100.0, 100.0
		for range 200 {
			mid := (lo + hi) / 2
			if a := 0.125; mid+a*mid*mid+a*a*mid*mid*mid/3+a/2 < x {
				lo = mid
			} else {
				hi = mid
			}
		}
		return (lo + hi) / 2
	}
	lo, hi := math.Sqrt(3-2*solve(q)), math.Sqrt(3*math.Exp(2*q/3))
	if !relClose(sk.Lo, lo, 1e-9) || !relClose(sk.Hi, hi, 1e-9) || !(3-2*solve(-q) < hi*hi) || !(3/math.Exp(2*q/3) > lo*lo) {
		t.Errorf("interval %g to %g, want %g to %g", sk.Lo, sk.Hi, lo, hi)
	}
	// Residuals of any scale: the moments are taken relative to MSE.
	for _, scale := range []float64{1e-60, 1e55} {
		e, err := EstimatePoolRMSE([]float64{scale, -scale, scale, 3 * scale}, nil, 0.9)
		if err != nil || !relClose(e.Skew, sk.Skew, 1e-9) || !relClose(e.Lo, scale*sk.Lo, 1e-9) || !relClose(e.Hi, scale*sk.Hi, 1e-9) {
			t.Errorf("residuals times %g: %+v, %v", scale, e, err)
		}
	}
	// Weights 1/pi: a row drawn with half the probability counts twice.
	a, _ := EstimatePoolRMSE([]float64{1, 3}, []float64{2, 1}, 0.9)
	b, _ := EstimatePoolRMSE([]float64{1, 1, 3}, nil, 0.9)
	if math.Abs(a.MSE-b.MSE) > 1e-12 {
		t.Errorf("weighted MSE %g, repeated rows %g", a.MSE, b.MSE)
	}
	var pe *ParamError
	var nf *NotFiniteError
	if _, err := EstimatePoolRMSE([]float64{1}, nil, 0.9); !errors.Is(err, ErrEmpty) {
		t.Errorf("one residual: %v", err)
	}
	if _, err := EstimatePoolRMSE([]float64{1, 2}, []float64{1, 0}, 0.9); !errors.As(err, &pe) {
		t.Errorf("zero weight: %v", err)
	}
	if _, err := EstimatePoolRMSE([]float64{1, math.NaN()}, nil, 0.9); !errors.As(err, &nf) || nf.Row != 1 {
		t.Errorf("NaN residual: %v", err)
	}
	if _, err := EstimatePoolRMSE([]float64{1, 2}, nil, 1.5); !errors.As(err, &pe) {
		t.Errorf("level 1.5: %v", err)
	}
	if _, err := EstimatePoolRMSE([]float64{1e200, 2}, nil, 0.9); !errors.As(err, &pe) || pe.Name != "residuals" {
		t.Errorf("a square that overflows: %v", err)
	}
}

// The interval of OverRows covers the RMSE over the rest of a finite pool
// in about 90% of samples, missing about as often on each side, with
// heavy-tailed residuals and with the rest large or small against the
// sample; the pool estimate's interval covers far less when the sample is
// most of the pool. (Hall's a = g/3 of the estimate alone in place of
// beta/2 - g/6 missed below in 0.9% of samples at 2,400 rows.)
func TestRMSEEstimateOverRows(t *testing.T) {
	const N = 3000
	rng := rand.New(rand.NewPCG(3, 3))
	pool := make([]float64, N)
	for i := range pool {
		s := 0.5 + rng.Float64()
		if rng.Float64() < 0.1 {
			s *= 3
		}
		pool[i] = s * rng.NormFloat64()
	}
	for _, n := range []int{300, 2400, 2900} {
		below, above, plain, runs := 0, 0, 0, 2000
		for s := 0; s < runs; s++ {
			p := rand.New(rand.NewPCG(uint64(s), 5)).Perm(N)
			res := gather(pool, p[:n])
			mse := 0.0
			for _, i := range p[n:] {
				mse += pool[i] * pool[i] / float64(N-n)
			}
			truth := math.Sqrt(mse)
			est, err := EstimatePoolRMSE(res, nil, 0.9)
			if err != nil {
				t.Fatal(err)
			}
			o := est.OverRows(N - n)
			if o.Rest != N-n || o.RMSE != est.RMSE || n > 300 && !(o.Lo < est.Lo && o.Hi > est.Hi) {
				t.Fatalf("OverRows(%d) %+v from %+v", N-n, o, est)
			}
			switch {
			case truth < o.Lo:
				below++
			case truth > o.Hi:
				above++
			}
			if est.Lo <= truth && truth <= est.Hi {
				plain++
			}
		}
		b, a, g := float64(below)/float64(runs), float64(above)/float64(runs), float64(plain)/float64(runs)
		t.Logf("%d of %d rows: OverRows misses below in %.3f and above in %.3f of samples; the pool interval covers in %.3f", n, N, b, a, g)
		if b < 0.025 || b > 0.075 || a < 0.025 || a > 0.075 || n == 2400 && g > 0.8 {
			t.Errorf("%d of %d rows: OverRows misses below in %.3f and above in %.3f of samples; the pool interval covers in %.3f", n, N, b, a, g)
		}
	}
	if e := (RMSEEstimate{RMSE: 1, Lo: 0.5, Hi: 2, SE: 1}); e.OverRows(0) != e {
		t.Errorf("OverRows(0) changed %+v", e)
	}
}

// TestTunePoolRMSE checks Choice.PoolRMSE against explicit refits of the
// chosen model on the complement of each fold (drawn with seed 1, the
// search's seed + 1), and Choice.Curve against explicit 3-, 5- and 10-fold
// cross-validation of exact KRLS over the lambda grid (the curve's Nyström
// path has every row as a center), its noise floor against the smoother
// S = K (W K + mu I)^-1 W of exact KRLS on every row at the 5-fold lambda,
// and its power law fitted here by the normal equations and anchored at
// the pool RMSE.
func TestTunePoolRMSE(t *testing.T) {
	rng := newRNG(9)
	x := randData(rng, 150, 2, 1)
	y := smoothTargets(rng, x, 0.1)
	w := make([]float64, len(y))
	for i := range w {
		w[i] = 0.5 + rng.Float64()
	}
	for _, weights := range [][]float64{nil, w} {
		res, err := Tune(t.Context(), x, y, TuneConfig{Criterion: CriterionCV, Relevance: RelevanceOff, Weights: weights})
		if err != nil {
			t.Fatal(err)
		}
		ch := res.Choice
		if ch.PoolRMSE == nil || ch.Curve == nil {
			t.Fatalf("no pool RMSE estimate or learning curve; stages %q", ch.Stages)
		}
		yc := make([]float64, len(y))
		for i, v := range y {
			yc[i] = v - ch.Intercept
		}
		want := refitRMSE(t, x, yc, weights, ch, DefaultFolds)
		if e := ch.PoolRMSE; !relClose(e.RMSE, want, 1e-8) || e.Rows != len(y) || !(e.Lo < e.RMSE && e.RMSE < e.Hi) {
			t.Errorf("weights %v: pool RMSE %+v, want %.10g from explicit refits", weights != nil, e, want)
		}
		c := ch.Curve
		var wantRMSE []float64
		var lambda5 float64
		for _, k := range []int{3, 5, 10} {
			e, l := cvLeast(t, x, yc, weights, ch, k)
			wantRMSE = append(wantRMSE, e)
			if k == 5 {
				lambda5 = l
			}
		}
		if !slices.Equal(c.Labels, []int{100, 120, 135}) || !floats.EqualApprox(c.RMSE, wantRMSE, 1e-4*want) {
			t.Errorf("weights %v: curve measured %v at %v, want %v at [100 120 135]", weights != nil, c.RMSE, c.Labels, wantRMSE)
		}
		floor := krlsNoiseFloor(t, x, yc, weights, ch.Kernel, lambda5)
		var sx, sy, sxx, sxy float64
		for i, l := range c.Labels {
			lx, ly := math.Log(float64(l)), math.Log(wantRMSE[i]*wantRMSE[i]-floor)
			sx, sy, sxx, sxy = sx+lx, sy+ly, sxx+lx*lx, sxy+lx*ly
		}
		b := -(3*sxy - sx*sy) / (3*sxx - sx*sx)
		b = math.Min(math.Max(b, 0), 1)
		a := math.Exp(sy/3 + b*sx/3)
		s := want * want / (floor + a*math.Pow(150, -b))
		if !relClose(c.Floor*c.Floor, s*floor, 1e-4) || !relClose(c.B, b/2, 1e-3) {
			t.Errorf("weights %v: floor %g, B %g; want %g, %g", weights != nil, c.Floor, c.B, math.Sqrt(s*floor), b/2)
		}
		for i, p := range []int{150, 225, 300} {
			if c.Project[i] != p || !relClose(c.Projected[i], math.Sqrt(s*(floor+a*math.Pow(float64(p), -b))), 1e-4) {
				t.Errorf("weights %v: projected %v at %v, want sqrt(%g (%g + %g n^-%g)) at [150 225 300]", weights != nil, c.Projected, c.Project, s, floor, a, b)
				break
			}
		}
		if !relClose(c.Projected[0], ch.PoolRMSE.RMSE, 1e-12) {
			t.Errorf("weights %v: the curve at the rows is %g, not the pool RMSE %g", weights != nil, c.Projected[0], ch.PoolRMSE.RMSE)
		}
	}
}

// krlsNoiseFloor returns the weighted residual mean square of exact KRLS
// on every row at lambda, RSS_w / sum w * n / (n - df - 1), from the
// smoother S = K (W K + mu I)^-1 W, mu = lambda n: f = S y, df = tr S.
func krlsNoiseFloor(t *testing.T, x *mat.Dense, yc, weights []float64, k Kernel, lambda float64) float64 {
	t.Helper()
	n := len(yc)
	km, err := KernelMatrix(k, x, x)
	if err != nil {
		t.Fatal(err)
	}
	wd := make([]float64, n)
	for i := range wd {
		wd[i] = 1
		if weights != nil {
			wd[i] = weights[i]
		}
	}
	w := mat.NewDiagDense(n, wd)
	var a, ainv, sm mat.Dense
	a.Mul(w, km)
	for i := 0; i < n; i++ {
		a.Set(i, i, a.At(i, i)+lambda*float64(n))
	}
	if err := ainv.Inverse(&a); err != nil {
		t.Fatal(err)
	}
	sm.Mul(km, &ainv)
	sm.Mul(&sm, w)
	f := mat.NewVecDense(n, nil)
	f.MulVec(&sm, mat.NewVecDense(n, yc))
	var rss, sw float64
	for i, v := range yc {
		rss += wd[i] * (v - f.AtVec(i)) * (v - f.AtVec(i))
		sw += wd[i]
	}
	return rss / sw * float64(n) / (float64(n) - mat.Trace(&sm) - 1)
}

// cvLeast returns the least over the lambda grid of the weighted K-fold
// cross-validation RMSE (folds drawn with seed 1) of exact KRLS with the
// choice's kernel, from explicit fits, and the lambda that gives it.
func cvLeast(t *testing.T, x *mat.Dense, yc, weights []float64, ch Choice, k int) (least, lambda float64) {
	t.Helper()
	least = math.Inf(1)
	for _, l := range LogGrid(1e-12, 10, 66) {
		if v := refitRMSE(t, x, yc, weights, Choice{Kernel: ch.Kernel, Lambda: l}, k); v < least {
			least, lambda = v, l
		}
	}
	return least, lambda
}

// refitRMSE returns the weighted out-of-fold RMSE of the choice's model
// refitted on the complement of each of folds folds drawn with seed 1.
func refitRMSE(t *testing.T, x *mat.Dense, yc, weights []float64, ch Choice, folds int) float64 {
	t.Helper()
	cv, err := newKFolds(x, yc, weights, folds, 1)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := cv.x.Dims()
	var sw, swr float64
	lo := 0
	for _, hi := range cv.end {
		var tr []int
		for i := 0; i < n; i++ {
			if i < lo || i >= hi {
				tr = append(tr, i)
			}
		}
		trRows := make([]int, len(tr))
		for i, p := range tr {
			trRows[i] = cv.order[p]
		}
		var wt []float64
		if weights != nil {
			wt = gather(cv.w, tr)
		}
		var fit *Fit
		if ch.M == 0 || ch.M >= len(tr) {
			fit, err = KRLS(t.Context(), gatherRows(cv.x, trRows), gather(cv.y, tr), KRLSConfig{Kernel: ch.Kernel, Lambda: ch.Lambda, Weights: wt})
		} else {
			fit, err = NKRLS(t.Context(), gatherRows(cv.x, trRows), gather(cv.y, tr), NKRLSConfig{Kernel: ch.Kernel, Lambda: ch.Lambda, Weights: wt, Nystrom: NystromConfig{M: ch.M}})
		}
		if err != nil {
			var ne *NumericalError
			if errors.As(err, &ne) {
				return math.Inf(1) // lambda too small for a Cholesky solve
			}
			t.Fatal(err)
		}
		pred, err := fit.Model.Predict(gatherRows(cv.x, cv.order[lo:hi]))
		if err != nil {
			t.Fatal(err)
		}
		for i := lo; i < hi; i++ {
			r := cv.y[i] - pred[i-lo]
			wi := 1.0
			if weights != nil {
				wi = cv.w[i]
			}
			sw += wi
			swr += wi * r * r
		}
		lo = hi
	}
	return math.Sqrt(swr / sw)
}

func seq(lo, hi int) []int {
	out := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}

func TestTunePoolRMSEAudit(t *testing.T) {
	// With 4 audit rows the folds are the rows one by one, whatever the
	// permutation: each audit row is predicted by the choice refitted on
	// every other row, and the estimate weighs the residuals by 1/pi.
	rng := newRNG(11)
	x := randData(rng, 120, 2, 1)
	y := smoothTargets(rng, x, 0.1)
	audit := make([]float64, len(y))
	rows := []int{3, 40, 77, 101}
	for i, j := range rows {
		audit[j] = 10 + float64(i)
	}
	res, err := Tune(t.Context(), x, y, TuneConfig{Criterion: CriterionCV, Relevance: RelevanceOff, Family: "gaussian", Audit: audit})
	if err != nil {
		t.Fatal(err)
	}
	ch := res.Choice
	if ch.PoolRMSE == nil || ch.M != 0 {
		t.Fatalf("no pool RMSE estimate, or not exact KRLS (m = %d); stages %q", ch.M, ch.Stages)
	}
	var r, w []float64
	for _, j := range rows {
		var tr []int
		for i := range y {
			if i != j {
				tr = append(tr, i)
			}
		}
		yc := make([]float64, len(tr))
		for k, i := range tr {
			yc[k] = y[i] - ch.Intercept
		}
		fit, err := KRLS(t.Context(), gatherRows(x, tr), yc, KRLSConfig{Kernel: ch.Kernel, Lambda: ch.Lambda})
		if err != nil {
			t.Fatal(err)
		}
		p, err := fit.Model.Predict(gatherRows(x, []int{j}))
		if err != nil {
			t.Fatal(err)
		}
		r, w = append(r, y[j]-ch.Intercept-p[0]), append(w, audit[j])
	}
	want, err := EstimatePoolRMSE(r, w, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	if e := ch.PoolRMSE; e.Rows != 4 || !relClose(e.RMSE, want.RMSE, 1e-8) || !relClose(e.Hi, want.Hi, 1e-8) {
		t.Errorf("pool RMSE %+v, want %+v from the audit rows", e, want)
	}
	for _, bad := range [][]float64{audit[:5], make([]float64, len(y)), append(append([]float64(nil), audit[:119]...), -1)} {
		if _, err := Tune(t.Context(), x, y, TuneConfig{Audit: bad}); err == nil {
			t.Errorf("audit weights %v...: no error", bad[:3])
		}
	}
}
