package credlab

import (
	"context"
	"errors"
	"math"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// refGram returns Phi^T W Phi, Phi^T W y and y^T W y by dense products.
func refGram(phi *mat.Dense, y, w []float64) (*mat.Dense, []float64, float64) {
	n, d := phi.Dims()
	pw := mat.NewDense(n, d, nil)
	yw := make([]float64, n)
	for i := 0; i < n; i++ {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		for j := 0; j < d; j++ {
			pw.Set(i, j, wi*phi.At(i, j))
		}
		yw[i] = wi * y[i]
	}
	var h mat.Dense
	h.Mul(phi.T(), pw)
	return &h, matVec(phi.T(), yw), refDot(y, yw)
}

func TestGramStatsAccumulate(t *testing.T) {
	bg := context.Background()
	rng := newRNG(170)
	rf, err := NewRandomFourier(3, 12, 1.3, 7)
	if err != nil {
		t.Fatal(err)
	}
	x := randData(rng, 9000, 3, 1) // more rows than one block (gramBlock)
	y := smoothTargets(rng, x, 0.1)
	w := crWeights(rng, 9000, 0.2, 3)
	phi, err := rf.Features(x)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		w    []float64
		add  func(s *GramStats) error
	}{
		{"Add at once", nil, func(s *GramStats) error { return s.Add(phi, y, nil) }},
		{"Add weighted", w, func(s *GramStats) error { return s.Add(phi, y, w) }},
		{"AddRows in blocks", nil, func(s *GramStats) error { return s.AddRows(bg, rf, x, y, nil) }},
		{"AddRows weighted", w, func(s *GramStats) error { return s.AddRows(bg, rf, x, y, w) }},
		{"Merge of three shards", w, func(s *GramStats) error {
			for _, r := range [][2]int{{0, 100}, {100, 5000}, {5000, 9000}} {
				part, err := NewGramStats(12)
				if err != nil {
					return err
				}
				if err := part.AddRows(bg, rf, x.Slice(r[0], r[1], 0, 3).(*mat.Dense), y[r[0]:r[1]], w[r[0]:r[1]]); err != nil {
					return err
				}
				if err := s.Merge(part); err != nil {
					return err
				}
			}
			return nil
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := mat.DenseCopyOf(phi)
			s, err := NewGramStats(12)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.add(s); err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(before, phi) {
				t.Fatal("the caller's features were modified")
			}
			h, b, yy := refGram(phi, y, c.w)
			if d := relDiffMat(s.full(), h); d > 1e-12 {
				t.Errorf("H: rel %g", d)
			}
			if d := relDiff(s.B, b); d > 1e-12 {
				t.Errorf("B: rel %g", d)
			}
			if !relClose(s.YY, yy, 1e-12) || s.Rows != 9000 {
				t.Errorf("YY %g rows %d, want %g and 9000", s.YY, s.Rows, yy)
			}
		})
	}
}

// TestRidgeGram checks RidgeGram on statistics against an explicit solve
// and explicit validation errors at every lambda, for short grids
// (Cholesky per lambda) and long ones (the rotated validation statistics
// of the tridiagonal path), and that with a Nyström map it is NKRLS.
func TestRidgeGram(t *testing.T) {
	bg := context.Background()
	rng := newRNG(171)
	x := randData(rng, 300, 2, 2)
	y := smoothTargets(rng, x, 0.2)
	w := crWeights(rng, 300, 0.5, 2)
	k := GaussianKernel{Sigma: 0.8}
	idx := []int{3, 17, 40, 41, 99, 120, 150, 201, 230, 235, 10, 11, 60, 61, 62} // training rows
	ny, err := NewNystrom(k, x, idx, 0)
	if err != nil {
		t.Fatal(err)
	}
	xt, xv := x.Slice(0, 240, 0, 2).(*mat.Dense), x.Slice(240, 300, 0, 2).(*mat.Dense)
	at, _ := ny.Features(xt)
	av, _ := ny.Features(xv)
	for _, c := range []struct {
		name string
		w    []float64
		grid []float64
	}{
		{"short grid", nil, LogGrid(1e-6, 1e-1, 5)},
		{"long grid", nil, LogGrid(1e-8, 1, 40)},
		{"long grid weighted", w, LogGrid(1e-8, 1, 40)},
	} {
		t.Run(c.name, func(t *testing.T) {
			var wt, wv []float64
			if c.w != nil {
				wt, wv = c.w[:240], c.w[240:]
			}
			train, _ := NewGramStats(ny.Rank())
			val, _ := NewGramStats(ny.Rank())
			if err := train.AddRows(bg, ny, xt, y[:240], wt); err != nil {
				t.Fatal(err)
			}
			if err := val.AddRows(bg, ny, xv, y[240:], wv); err != nil {
				t.Fatal(err)
			}
			fit, err := RidgeGram(bg, train, val, GramFitConfig{Features: ny, Lambdas: c.grid})
			if err != nil {
				t.Fatal(err)
			}
			if fit.Method != "NKRLS" || len(fit.Path) != len(c.grid) {
				t.Fatalf("method %s, %d path points", fit.Method, len(fit.Path))
			}
			h, b, _ := refGram(at, y[:240], wt)
			for _, p := range fit.Path {
				beta := denseSolve(t, addDiag(mat.DenseCopyOf(h), p.Lambda*240), b)
				r := matVec(av, beta)
				s := 0.0
				for i, v := range y[240:] {
					wi := 1.0
					if wv != nil {
						wi = wv[i]
					}
					s += wi * (r[i] - v) * (r[i] - v)
				}
				if want := math.Sqrt(s / 60); !relClose(p.ValRMSE, want, 1e-7) {
					t.Errorf("lambda %g: validation RMSE %.10g, explicit %.10g", p.Lambda, p.ValRMSE, want)
				}
			}
			// The chosen model against NKRLS at the chosen lambda on the
			// same rows and centers.
			want, err := NKRLS(bg, xt, y[:240], NKRLSConfig{Kernel: k, Lambda: fit.Lambda, Weights: wt,
				Nystrom: NystromConfig{M: len(idx), Sampler: fixedSampler(idx)}})
			if err != nil {
				t.Fatal(err)
			}
			p1, _ := fit.Model.Predict(xv)
			p2, _ := want.Model.Predict(xv)
			if d := relDiff(p1, p2); d > 1e-8 {
				t.Errorf("predictions against NKRLS at lambda %g: rel %g", fit.Lambda, d)
			}
		})
	}
}

// TestGradientGram checks the plain gradient path on statistics against
// the spectral filter beta_t = (gamma/n) sum_{k<t} (I - gamma A^T A/n)^k
// A^T y, and the early-stopped path against NYTRO's own hold-out run.
func TestGradientGram(t *testing.T) {
	bg := context.Background()
	rng := newRNG(172)
	x := randData(rng, 200, 2, 2)
	y := smoothTargets(rng, x, 0.2)
	rf, _ := NewRandomFourier(2, 10, 1, 3)
	a, _ := rf.Features(x)
	train, _ := NewGramStats(10)
	if err := train.Add(a, y, nil); err != nil {
		t.Fatal(err)
	}
	const gamma, T = 0.5, 25
	fit, err := GradientGram(bg, train, nil, GramFitConfig{Features: rf,
		Iter: IterConfig{Iter: T, Plain: true, StepSize: gamma, Keep: []int{1, 10, T}}})
	if err != nil {
		t.Fatal(err)
	}
	ref := featureFilter(a, y, gamma, T)
	for _, it := range []int{1, 10, T} {
		if d := relDiff(fit.Iterates[it], ref[it]); d > 1e-10 {
			t.Errorf("iterate %d: rel %g", it, d)
		}
	}
	if fit.Method != "LinearGD" || fit.Iter != T {
		t.Errorf("method %s iter %d", fit.Method, fit.Iter)
	}
	// Hold-out: the same rows through NYTRO and through statistics.
	k := GaussianKernel{Sigma: 0.7}
	h := Holdout{Seed: 4, Fraction: 0.25}
	nfit, err := NYTRO(bg, x, y, NYTROConfig{Kernel: k, Nystrom: NystromConfig{M: 20, Seed: 2}, IterConfig: IterConfig{Holdout: h, MaxIter: 80}})
	if err != nil {
		t.Fatal(err)
	}
	tr, va, _ := h.Split(200)
	xt, xv := rowsOf(x, tr), rowsOf(x, va)
	idx, _ := NystromCenters(xt, 20, nil, 2)
	ny, _ := NewNystrom(k, xt, idx, 0)
	st, sv := &GramStats{}, &GramStats{}
	for _, p := range []struct {
		s  **GramStats
		x  *mat.Dense
		yy []float64
	}{{&st, xt, pick(y, tr)}, {&sv, xv, pick(y, va)}} {
		*p.s, _ = NewGramStats(ny.Rank())
		if err := (*p.s).AddRows(bg, ny, p.x, p.yy, nil); err != nil {
			t.Fatal(err)
		}
	}
	gfit, err := GradientGram(bg, st, sv, GramFitConfig{Features: ny, Iter: IterConfig{MaxIter: 80}})
	if err != nil {
		t.Fatal(err)
	}
	if gfit.Method != "NYTRO" || gfit.Iter != nfit.Iter || !relClose(gfit.ValRMSE, nfit.ValRMSE, 1e-9) {
		t.Errorf("statistics: %s t = %d val %.10g; NYTRO t = %d val %.10g", gfit.Method, gfit.Iter, gfit.ValRMSE, nfit.Iter, nfit.ValRMSE)
	}
	if d := relDiff(gfit.Model.Coef, nfit.Model.Coef); d > 1e-9 {
		t.Errorf("coefficients against NYTRO: rel %g", d)
	}
}

func TestGramStatsErrors(t *testing.T) {
	bg := context.Background()
	rng := newRNG(173)
	x := randData(rng, 20, 3, 1)
	y := smoothTargets(rng, x, 0.1)
	rf, _ := NewRandomFourier(3, 4, 1, 1)
	good := func() *GramStats {
		s, _ := NewGramStats(4)
		if err := s.AddRows(bg, rf, x, y, nil); err != nil {
			t.Fatal(err)
		}
		return s
	}
	nan := good()
	nan.H[5] = math.NaN()
	three, _ := NewGramStats(3)
	short := good()
	short.B = short.B[:2]
	var nf *NotFiniteError
	cases := []struct {
		name string
		call func() error
		want errKind
	}{
		{"NewGramStats 0", func() error { _, err := NewGramStats(0); return err }, paramErr("GramStats.Dim", 0)},
		{"Add width", func() error { return good().Add(x, y, nil) }, isErr(ErrShape)},
		{"Add weights", func() error { a, _ := rf.Features(x); return good().Add(a, y, y[:3]) }, isErr(ErrShape)},
		{"AddRows nil map", func() error { return good().AddRows(bg, nil, x, y, nil) }, paramErr("fm")},
		{"Merge dims", func() error { return good().Merge(three) }, isErr(ErrShape)},
		{"Merge NaN", func() error { return good().Merge(nan) }, errKind{"a *NotFiniteError", func(err error) bool { return errors.As(err, &nf) }}},
		{"Merge short B", func() error { return good().Merge(short) }, isErr(ErrShape)},
		{"RidgeGram no map", func() error { _, err := RidgeGram(bg, good(), good(), GramFitConfig{}); return err }, paramErr("GramFitConfig.Features")},
		{"RidgeGram no validation", func() error {
			_, err := RidgeGram(bg, good(), nil, GramFitConfig{Features: rf})
			return err
		}, paramErr("lambda")},
		{"RidgeGram dims", func() error { _, err := RidgeGram(bg, good(), three, GramFitConfig{Features: rf}); return err }, isErr(ErrShape)},
		{"GradientGram no validation", func() error {
			_, err := GradientGram(bg, good(), nil, GramFitConfig{Features: rf})
			return err
		}, paramErr("GramFitConfig.Iter.Iter", 0)},
		{"NewLeverageFactor lambda", func() error { _, err := NewLeverageFactor(good(), -1); return err }, paramErr("lambda_q", -1.0)},
		{"NewLeverageFactor empty", func() error { s, _ := NewGramStats(4); _, err := NewLeverageFactor(s, 1e-3); return err }, isErr(ErrEmpty)},
	}
	for _, c := range cases {
		wantErrKind(t, c.name, c.call(), c.want)
	}
}

// TestNKRLSStreamedMatchesInMemory fits NKRLS on more rows than one block
// (the rows stream through GramStats) and compares its coefficients with
// the in-memory solution from the whole feature matrix A = K_nm R:
// beta = (A^T W A + lambda n I)^-1 A^T W y.
func TestNKRLSStreamedMatchesInMemory(t *testing.T) {
	rng := newRNG(174)
	const n = 3*DefaultBlock + 123
	x := randData(rng, n, 2, 2)
	y := smoothTargets(rng, x, 0.2)
	w := crWeights(rng, n, 0.5, 2)
	k := GaussianKernel{Sigma: 0.7}
	idx := []int{5, 400, 900, 1700, 2500, 3300, 4100, 5000, 6100, 7000, 8000, 9000, 10000, 11000, 12000}
	const lambda = 1e-5
	fit, err := NKRLS(context.Background(), x, y, NKRLSConfig{Kernel: k, Lambda: lambda, Weights: w,
		Nystrom: NystromConfig{M: len(idx), Sampler: fixedSampler(idx)}})
	if err != nil {
		t.Fatal(err)
	}
	ny, err := NewNystrom(k, x, idx, 0)
	if err != nil {
		t.Fatal(err)
	}
	a, err := ny.Features(x)
	if err != nil {
		t.Fatal(err)
	}
	h, b, _ := refGram(a, y, w)
	beta := denseSolve(t, addDiag(h, lambda*n), b)
	if d := relDiff(fit.Model.Coef, ny.Coef(beta)); d > 1e-8 {
		t.Errorf("streamed coefficients against the in-memory solution: rel %g", d)
	}
}

// TestGramStatsNoTarget checks that statistics without targets (H only,
// as CRED's scores need) take weights: H = Phi^T W Phi, B and YY zero.
func TestGramStatsNoTarget(t *testing.T) {
	rng := newRNG(175)
	x := randData(rng, 50, 3, 1)
	w := crWeights(rng, 50, 0.5, 2)
	s, _ := NewGramStats(3)
	if err := s.AddRows(context.Background(), RawFeatures{}, x, nil, w); err != nil {
		t.Fatal(err)
	}
	h, _, _ := refGram(x, make([]float64, 50), w)
	if d := relDiffMat(s.full(), h); d > 1e-12 {
		t.Errorf("H: rel %g", d)
	}
	if s.YY != 0 || refDot(s.B, s.B) != 0 || s.Rows != 50 {
		t.Errorf("B %v YY %v rows %d: want zeros and 50 rows", s.B, s.YY, s.Rows)
	}
}

// TestTuneFixedSigmaNystrom checks that a fixed sigma stays fixed on the
// Nyström path (no walk in the grow stage).
func TestTuneFixedSigmaNystrom(t *testing.T) {
	x, y, _ := SmoothRegression(1200, 5, 0.1, 3)
	res, err := Tune(t.Context(), x, y, TuneConfig{Sigma: 20, MaxExactRows: 100, MaxM: 2 * refineM})
	if err != nil {
		t.Fatal(err)
	}
	if res.Choice.Sigma != 20 {
		t.Errorf("chose sigma %g with Sigma = 20 fixed", res.Choice.Sigma)
	}
	// m grew to every row: leverage-score centers would be the same rows.
	if res.Choice.Centers != "uniform" {
		t.Errorf("Choice.Centers %q with m = n", res.Choice.Centers)
	}
	for _, p := range res.Table {
		if p.Sigma != 20 {
			t.Fatalf("evaluated sigma %g (stage %s) with Sigma = 20 fixed", p.Sigma, p.Stage)
		}
	}
}

// TestNKRLSNoCopyWithoutHoldout checks that a fit on all rows (fixed
// lambda) reads x in place: it allocates far less than one copy of x.
func TestNKRLSNoCopyWithoutHoldout(t *testing.T) {
	x, y, _ := SmoothRegression(100000, 20, 0.1, 1) // x is 16 MB
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := NKRLS(context.Background(), x, y, NKRLSConfig{Kernel: GaussianKernel{Sigma: 3}, Lambda: 1e-3,
		Nystrom: NystromConfig{M: 20, Seed: 1}}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 12<<20 { // 3/4 of a copy: 4.7 MB measured, 8.5 MB under -race
		t.Errorf("NKRLS on all rows allocated %d bytes: a copy of the 16 MB input?", grew)
	}
	if v := viewRows(x, []int{0, 2}); v == x || v.At(1, 0) != x.At(2, 0) {
		t.Error("viewRows of a subset must be a copy of those rows")
	}
}
