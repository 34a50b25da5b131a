package credlab

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

func mean(v []float64) float64 { return crSum(v) / float64(len(v)) }

// refGCV is n ||yc - K alpha||^2 / (n - 1 - 1.4 tr H)^2 with alpha and
// H = K (K + mu I)^-1 from one dense inverse.
func refGCV(t *testing.T, k *mat.Dense, yc []float64, mu float64) float64 {
	n := len(yc)
	inv := inverse(t, addDiag(k, mu))
	h := mul(k, inv)
	f := matVec(h, yc)
	sse, tr := 0.0, 0.0
	for i := range yc {
		sse += (yc[i] - f[i]) * (yc[i] - f[i])
		tr += h.At(i, i)
	}
	if den := float64(n) - 1 - 1.4*tr; den > 0 {
		return float64(n) * sse / (den * den)
	}
	return math.Inf(1)
}

// TestTuneExactGCV checks, on a problem small enough for the exact path at
// every sigma, the table's GCV scores against dense references, the choice
// against the table, and the model against KRLS at the chosen parameters.
func TestTuneExactGCV(t *testing.T) {
	rng := newRNG(21)
	x := randData(rng, 120, 2, 1.5)
	y := smoothTargets(rng, x, 0.2)
	for i := range y {
		y[i] += 3 // an intercept to recover
	}
	calls, last := 0, 0
	res, err := Tune(t.Context(), x, y, TuneConfig{Criterion: CriterionGCV, Relevance: RelevanceOff, Lambdas: LogGrid(1e-8, 1, 17), Progress: func(done, total int) {
		if done != last+1 || total < done {
			t.Errorf("progress (%d, %d) after %d", done, total, last)
		}
		calls, last = calls+1, done
	}})
	if err != nil {
		t.Fatal(err)
	}
	ch := res.Choice
	if sigmas := len(res.Table) / 17; calls != sigmas {
		t.Errorf("%d progress calls for %d sigmas", calls, sigmas)
	}
	if ch.Method != "KRLS" || ch.Criterion != CriterionGCV || ch.M != 0 {
		t.Errorf("choice %s %s m = %d, want KRLS gcv m = 0", ch.Method, ch.Criterion, ch.M)
	}
	if !relClose(ch.Intercept, mean(y), 1e-12) {
		t.Errorf("intercept %g, want the mean %g", ch.Intercept, mean(y))
	}
	yc := make([]float64, len(y))
	for i := range y {
		yc[i] = y[i] - mean(y)
	}
	checked := 0
	for i, p := range res.Table {
		if p.Score < ch.Score {
			t.Errorf("table point %d (sigma %g, lambda %g) scores %g below the choice's %g", i, p.Sigma, p.Lambda, p.Score, ch.Score)
		}
		if i%23 != 0 && !(p.Sigma == ch.Sigma && p.Lambda == ch.Lambda) {
			continue
		}
		want := refGCV(t, refMatrix(refGaussian(p.Sigma), x, x), yc, p.Lambda*120)
		if !relClose(p.Score, want, 1e-6) && !(math.IsInf(want, 1) && math.IsInf(p.Score, 1)) || p.Rows != 120 || p.M != 0 {
			t.Errorf("sigma %g lambda %g: GCV %.10g on %d rows, want %.10g on 120", p.Sigma, p.Lambda, p.Score, p.Rows, want)
		}
		checked++
	}
	if checked < 5 {
		t.Fatalf("only %d table points checked", checked)
	}
	if !relClose(ch.ValRMSE, math.Sqrt(ch.Score), 1e-12) {
		t.Errorf("ValRMSE %g, want sqrt(score) %g", ch.ValRMSE, math.Sqrt(ch.Score))
	}
	fit, err := KRLS(t.Context(), x, yc, KRLSConfig{Kernel: GaussianKernel{Sigma: ch.Sigma}, Lambda: ch.Lambda})
	if err != nil {
		t.Fatal(err)
	}
	if d := relDiff(res.Fit.Model.Coef, fit.Model.Coef); d > 1e-10 {
		t.Errorf("coefficients differ from KRLS at the choice by %.2g", d)
	}
	xs := randData(rng, 10, 2, 1.5)
	got, _ := res.Fit.Model.Predict(xs)
	want, _ := fit.Model.Predict(xs)
	for i := range want {
		if math.Abs(got[i]-want[i]-mean(y)) > 1e-9 {
			t.Errorf("prediction %d: %g, want KRLS %g + intercept %g", i, got[i], want[i], mean(y))
		}
	}
	if len(res.Fit.Path) != 17 || res.Fit.Lambda != ch.Lambda {
		t.Errorf("fit path has %d points (want 17), lambda %g (want %g)", len(res.Fit.Path), res.Fit.Lambda, ch.Lambda)
	}
	// One sigma: the model comes from the path's own reduction (LOO: from
	// its eigenvectors).
	for _, crit := range []Criterion{CriterionGCV, CriterionLOO} {
		one, err := Tune(t.Context(), x, y, TuneConfig{Sigma: 0.6, Criterion: crit, Lambdas: LogGrid(1e-8, 1, 17)})
		if err != nil {
			t.Fatal(err)
		}
		fit, err := KRLS(t.Context(), x, yc, KRLSConfig{Kernel: GaussianKernel{Sigma: 0.6}, Lambda: one.Choice.Lambda})
		if err != nil {
			t.Fatal(err)
		}
		if d := relDiff(one.Fit.Model.Coef, fit.Model.Coef); d > 1e-9 {
			t.Errorf("%s, one sigma: coefficients differ from KRLS at the choice by %.2g", crit, d)
		}
	}
}

// TestTuneHoldout checks the hold-out scores against KRLS's own hold-out
// path (Cholesky per lambda) on the same split.
func TestTuneHoldout(t *testing.T) {
	rng := newRNG(3)
	x := randData(rng, 150, 3, 1)
	y := smoothTargets(rng, x, 0.1)
	w := crWeights(rng, 150, 0.5, 2)
	grid := []float64{1e-6, 1e-4, 1e-2, 1}
	h := Holdout{Seed: 9, Fraction: 0.25}
	for _, weighted := range []bool{false, true} {
		cfg := TuneConfig{Sigma: 0.7, Lambdas: grid, Criterion: CriterionHoldout, Holdout: h, NoIntercept: true}
		if weighted {
			cfg.Weights = w
		}
		res, err := Tune(t.Context(), x, y, cfg)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := KRLS(t.Context(), x, y, KRLSConfig{Kernel: GaussianKernel{Sigma: 0.7}, Lambdas: grid, Holdout: h, Weights: cfg.Weights})
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range res.Table {
			want := ref.Path[i].ValRMSE
			if !relClose(p.ValRMSE, want, 1e-7) || !relClose(p.Score, want*want, 1e-7) {
				t.Errorf("weighted %v lambda %g: hold-out RMSE %.10g, want %.10g", weighted, p.Lambda, p.ValRMSE, want)
			}
		}
		if res.Choice.Lambda != ref.Lambda || !relClose(res.Choice.ValRMSE, ref.ValRMSE, 1e-7) {
			t.Errorf("weighted %v: chose lambda %g (RMSE %g), KRLS %g (RMSE %g)", weighted, res.Choice.Lambda, res.Choice.ValRMSE, ref.Lambda, ref.ValRMSE)
		}
	}
}

// TestTuneLOO checks leave-one-out scores against n explicit refits.
func TestTuneLOO(t *testing.T) {
	rng := newRNG(8)
	n := 40
	x := randData(rng, n, 2, 1)
	y := smoothTargets(rng, x, 0.2)
	grid := []float64{1e-5, 1e-3, 0.1}
	res, err := Tune(t.Context(), x, y, TuneConfig{Sigma: 0.5, Lambdas: grid, Criterion: CriterionLOO, NoIntercept: true})
	if err != nil {
		t.Fatal(err)
	}
	ref := refGaussian(0.5)
	for i, l := range grid {
		loo := 0.0
		for j := 0; j < n; j++ {
			var rows []int
			for r := 0; r < n; r++ {
				if r != j {
					rows = append(rows, r)
				}
			}
			xr := rowsOf(x, rows)
			// The left-out fit keeps mu = lambda n of the full problem.
			alpha := denseSolve(t, addDiag(refMatrix(ref, xr, xr), l*float64(n)), pick(y, rows))
			f := refDot(matVec(refMatrix(ref, rowsOf(x, []int{j}), xr), alpha), []float64{1})
			loo += (y[j] - f) * (y[j] - f)
		}
		loo /= float64(n)
		if got := res.Table[i].Score; !relClose(got, loo, 1e-6) {
			t.Errorf("lambda %g: LOO %.10g, want %.10g", l, got, loo)
		}
	}
}

// TestTuneNystrom checks the NKRLS route: the table's final scores are
// Nyström GCV scores of the model Tune returns, and the model is NKRLS at
// the chosen parameters.
func TestTuneNystrom(t *testing.T) {
	rng := newRNG(4)
	x := randData(rng, 300, 2, 1.5)
	y := smoothTargets(rng, x, 0.2)
	res, err := Tune(t.Context(), x, y, TuneConfig{Criterion: CriterionGCV, Method: "NKRLS", M: 40, Seed: 2, Sigma: 0.5, Lambdas: LogGrid(1e-8, 1, 9)})
	if err != nil {
		t.Fatal(err)
	}
	ch := res.Choice
	if ch.Method != "NKRLS" || ch.M != 40 {
		t.Fatalf("choice %s with m = %d, want NKRLS with 40", ch.Method, ch.M)
	}
	yc := make([]float64, len(y))
	for i := range y {
		yc[i] = y[i] - mean(y)
	}
	var sampler CenterSampler
	switch ch.Centers {
	case "leverage":
		sampler = LeverageCenters{Kernel: GaussianKernel{Sigma: ch.Sigma}}
	case "uniform":
	default:
		t.Fatalf("Choice.Centers %q", ch.Centers)
	}
	fit, err := NKRLS(t.Context(), x, yc, NKRLSConfig{Kernel: GaussianKernel{Sigma: ch.Sigma}, Lambda: ch.Lambda, Nystrom: NystromConfig{M: 40, Seed: 2, Sampler: sampler}})
	if err != nil {
		t.Fatal(err)
	}
	if d := relDiff(res.Fit.Model.Coef, fit.Model.Coef); d > 1e-8 {
		t.Errorf("coefficients differ from NKRLS at the choice by %.2g", d)
	}
	// GCV of the chosen point from the model's own fitted values and
	// the hat matrix A (A^T A + mu I)^-1 A^T.
	idx, _ := NystromCenters(x, 40, sampler, 2)
	ref := refGaussian(ch.Sigma)
	cm := rowsOf(x, idx)
	knm := refMatrix(ref, x, cm)
	mu := ch.Lambda * 300
	// H = K_nm (K_mn K_nm + mu K_mm)^-1 K_mn, valid for invertible K_mm.
	h := mul(knm, mul(inverse(t, addMat(mul(knm.T(), knm), scaleMat(mu, refMatrix(ref, cm, cm)))), knm.T()))
	f := matVec(h, yc)
	sse, tr := 0.0, 0.0
	for i := range yc {
		sse += (yc[i] - f[i]) * (yc[i] - f[i])
		tr += h.At(i, i)
	}
	want := 300 * sse / math.Pow(300-1-1.4*tr, 2)
	if !relClose(ch.Score, want, 1e-5) {
		t.Errorf("Nyström GCV at the choice %.10g, want %.10g", ch.Score, want)
	}
}

func addMat(a, b *mat.Dense) *mat.Dense {
	var c mat.Dense
	c.Add(a, b)
	return &c
}

func scaleMat(s float64, a *mat.Dense) *mat.Dense {
	var c mat.Dense
	c.Scale(s, a)
	return &c
}

// TestTuneSigmaEdge checks that a sigma grid far below the optimum is
// extended, and that running off the extended grid is reported.
func TestTuneSigmaEdge(t *testing.T) {
	rng := newRNG(6)
	x := randData(rng, 200, 2, 1)
	y := smoothTargets(rng, x, 0.1)
	res, err := Tune(t.Context(), x, y, TuneConfig{Criterion: CriterionGCV, Sigmas: []float64{0.02, 0.04}, Relevance: RelevanceOff})
	if err != nil {
		t.Fatal(err)
	}
	if res.Choice.Sigma < 0.2 || len(res.Choice.Edges) != 0 {
		t.Errorf("sigma %g, edges %v: want the grid extended to an interior optimum above 0.2", res.Choice.Sigma, res.Choice.Edges)
	}
	// A grid so narrow and so far below the optimum that the extensions
	// (12 points of its spacing) cannot reach it.
	res, err = Tune(t.Context(), x, y, TuneConfig{Criterion: CriterionGCV, Sigmas: []float64{0.03, 0.0306}, Relevance: RelevanceOff})
	if err != nil {
		t.Fatal(err)
	}
	ch := res.Choice
	if len(ch.Edges) == 0 || ch.Edges[0] != "sigma max" || len(ch.Warnings) == 0 {
		t.Errorf("edges %v, warnings %v: want sigma max reported", ch.Edges, ch.Warnings)
	}
	if want := 0.0306 * math.Pow(1.02, 2*sigmaExtensions); !relClose(ch.Sigma, want, 1e-9) {
		t.Errorf("sigma %g, want the last extension %g", ch.Sigma, want)
	}
}

// TestTuneEdges checks that a choice at an end of the lambda grid, or
// below a sigma grid the search could not extend far enough, is listed in
// Choice.Edges with a warning, and that an interior choice is not.
func TestTuneEdges(t *testing.T) {
	rng := newRNG(8)
	x := randData(rng, 200, 2, 1)
	smooth := smoothTargets(rng, x, 0.01)
	noise := make([]float64, len(smooth))
	for i := range noise {
		noise[i] = rng.NormFloat64()
	}
	for _, c := range []struct {
		name string
		y    []float64
		cfg  TuneConfig
		edge string
	}{
		{"lambda min", smooth, TuneConfig{Sigma: 0.5, Lambdas: []float64{1e-2, 1e-1, 1}}, "lambda min"},
		{"lambda max", noise, TuneConfig{Sigma: 0.5, Lambdas: []float64{1e-9, 1e-8, 1e-7}}, "lambda max"},
		// A narrow grid far above the optimum: the extensions (12 points
		// of its spacing) cannot reach it.
		{"sigma min", smooth, TuneConfig{Sigmas: []float64{50, 51}}, "sigma min"},
		{"interior", smooth, TuneConfig{Sigma: 0.5}, ""},
	} {
		res, err := Tune(t.Context(), x, c.y, c.cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ch := res.Choice
		if c.edge == "" {
			if len(ch.Edges) != 0 || len(ch.Warnings) != 0 {
				t.Errorf("%s: edges %v, warnings %v: want none", c.name, ch.Edges, ch.Warnings)
			}
			continue
		}
		if !slices.Contains(ch.Edges, c.edge) || len(ch.Warnings) < len(ch.Edges) {
			t.Errorf("%s: edges %v, warnings %v: want %q with a warning", c.name, ch.Edges, ch.Warnings, c.edge)
		}
	}
}

// checkWalk checks the exact sigmas of a walk down, in the order scored,
// against their best scores: halvings, walkScan of them always, then more
// while the smallest is the best, at most walkMore.
func checkWalk(t *testing.T, what string, sigmas []float64, score map[float64]float64) {
	t.Helper()
	if len(sigmas) < 1+walkScan || len(sigmas) > 1+walkScan+walkMore {
		t.Fatalf("%s: exact sigmas %v: want the Nyström choice, %d halvings and at most %d more", what, sigmas, walkScan, walkMore)
	}
	for i := 1; i < len(sigmas); i++ {
		if !relClose(sigmas[i], sigmas[i-1]/2, 1e-12) {
			t.Fatalf("%s: exact sigmas %v: want halvings", what, sigmas)
		}
	}
	for k := walkScan + 1; k <= len(sigmas); k++ {
		// Before scoring sigmas[k], was the smallest so far the best?
		smallestBest := true
		for _, s := range sigmas[:k-1] {
			if score[s] <= score[sigmas[k-1]] {
				smallestBest = false
			}
		}
		if more := k < len(sigmas); more != (smallestBest && k <= walkScan+walkMore) {
			t.Errorf("%s: exact sigmas %v, scores %v: the walk must go on exactly while the smallest is the best", what, sigmas, score)
		}
	}
}

// TestTuneWalkDown checks the exact stage above exactPathRows rows: it
// scores the Nyström stages' sigma and its halves while the criterion
// improves, and the choice is the best of them, refitted when it is not
// the last one scored.
func TestTuneWalkDown(t *testing.T) {
	defer func(v int) { exactPathRows = v }(exactPathRows)
	exactPathRows = 100
	for _, seed := range []uint64{1, 2, 3, 4} {
		rng := newRNG(seed)
		x := randData(rng, coarseM+100, 2, float64(seed))
		y := smoothTargets(rng, x, 0.1)
		res, err := Tune(t.Context(), x, y, TuneConfig{Criterion: CriterionGCV, NoIntercept: true, Relevance: RelevanceOff})
		if err != nil {
			t.Fatal(err)
		}
		best := map[float64]float64{}
		var sigmas []float64
		for _, p := range res.Table {
			if p.Stage != "exact" {
				continue
			}
			if _, ok := best[p.Sigma]; !ok {
				best[p.Sigma] = math.Inf(1)
				sigmas = append(sigmas, p.Sigma)
			}
			best[p.Sigma] = math.Min(best[p.Sigma], p.Score)
		}
		checkWalk(t, fmt.Sprintf("seed %d", seed), sigmas, best)
		t.Logf("seed %d: exact sigmas %v", seed, sigmas)
		want := sigmas[0]
		for _, s := range sigmas {
			if best[s] < best[want] {
				want = s
			}
		}
		if res.Choice.Sigma != want || res.Choice.Score != best[want] {
			t.Errorf("seed %d: chose sigma %g (score %g), want %g (score %g)", seed, res.Choice.Sigma, res.Choice.Score, want, best[want])
		}
		// From a sigma 8 times the choice the walk goes on while it improves.
		tu, err := newTuner(x, y, TuneConfig{Criterion: CriterionGCV, NoIntercept: true})
		if err != nil {
			t.Fatal(err)
		}
		ev, err := tu.exactEval(1)
		if err != nil {
			t.Fatal(err)
		}
		s8 := 8 * res.Choice.Sigma
		walk, b, _, err := tu.walkDown(t.Context(), ev, s8, "exact")
		if err != nil {
			t.Fatal(err)
		}
		walked := map[float64]float64{}
		var ws []float64
		for _, r := range slices.Backward(walk) {
			ws = append(ws, r.sigma)
			walked[r.sigma] = r.score()
		}
		checkWalk(t, fmt.Sprintf("seed %d, from sigma %g", seed, s8), ws, walked)
		if ws[len(ws)-1] > res.Choice.Sigma || walk[b].sigma != ws[len(ws)-1] && walked[walk[b].sigma] > walked[ws[len(ws)-1]] {
			t.Errorf("seed %d: walk from %g: sigmas %v, best %g: want it to reach the choice %g", seed, s8, ws, walk[b].sigma, res.Choice.Sigma)
		}
		// The model is exact KRLS at the chosen sigma and lambda.
		fit, err := KRLS(t.Context(), x, y, KRLSConfig{Kernel: GaussianKernel{Sigma: want}, Lambda: res.Choice.Lambda})
		if err != nil {
			t.Fatal(err)
		}
		pa, _ := res.Fit.Model.Predict(x)
		pb, _ := fit.Model.Predict(x)
		for i := range pa {
			if math.Abs(pa[i]-pb[i]) > 1e-6*(1+math.Abs(pb[i])) {
				t.Fatalf("seed %d: prediction %d: %g, KRLS at the choice %g", seed, i, pa[i], pb[i])
			}
		}
	}
}

func TestTuneErrors(t *testing.T) {
	rng := newRNG(1)
	x := randData(rng, 30, 2, 1)
	y := smoothTargets(rng, x, 0.1)
	same := mat.NewDense(30, 2, nil)
	alt := make([]float64, 30)
	for i := range alt {
		alt[i] = float64(i%2*2 - 1)
	}
	huge, tiny := make([]float64, 30), make([]float64, 30)
	for i, v := range y {
		huge[i], tiny[i] = v*1e200, v*1e-200
	}
	for _, tc := range []struct {
		name string
		x    *mat.Dense
		y    []float64
		cfg  TuneConfig
		want errKind
	}{
		{"constant target", x, make([]float64, 30), TuneConfig{}, tuneErr(ErrConstantTarget)},
		{"single row", mat.NewDense(1, 2, []float64{1, 2}), []float64{1}, TuneConfig{}, tuneErr(nil)},
		{"hold-out on 2 rows", mat.NewDense(2, 1, []float64{1, 2}), []float64{1, 2}, TuneConfig{Criterion: CriterionHoldout}, tuneErr(nil)},
		{"loo too large", mat.NewDense(MaxLOORows+1, 1, nil), make([]float64, MaxLOORows+1), TuneConfig{Criterion: CriterionLOO}, tuneErr(nil)},
		{"kernel", x, y, TuneConfig{Family: "cosine"}, paramErr("TuneConfig.Family", `"cosine"`)},
		{"criterion", x, y, TuneConfig{Criterion: "aic"}, paramErr("TuneConfig.Criterion", `"aic"`)},
		{"method", x, y, TuneConfig{Method: "SVR"}, paramErr("TuneConfig.Method", `"SVR"`)},
		{"one fold", x, y, TuneConfig{Folds: 1}, paramErr("TuneConfig.Folds", 1)},
		{"negative folds", x, y, TuneConfig{Folds: -2}, paramErr("TuneConfig.Folds", -2)},
		{"cv with KRLS", x, y, TuneConfig{Method: "KRLS", Criterion: CriterionCV}, paramErr("TuneConfig.Criterion", `"cv"`)},
		{"loo with NKRLS", x, y, TuneConfig{Method: "NKRLS", Criterion: CriterionLOO}, paramErr("TuneConfig.Criterion", `"loo"`)},
		{"sigma", x, y, TuneConfig{Sigma: -1}, paramErr("TuneConfig.Sigma", -1.0)},
		{"lambda", x, y, TuneConfig{Lambda: math.NaN()}, paramErr("TuneConfig.Lambda", math.NaN())},
		{"sigmas", x, y, TuneConfig{Sigmas: []float64{1, 0}}, paramErr("TuneConfig.Sigmas[1]", 0.0)},
		{"lambdas", x, y, TuneConfig{Lambdas: []float64{}}, paramErr("Lambdas")},
		{"M", x, y, TuneConfig{M: -1}, paramErr("TuneConfig.M", -1)},
		{"MaxM", x, y, TuneConfig{MaxM: -1}, paramErr("TuneConfig.MaxM", -1)},
		{"MaxExactRows", x, y, TuneConfig{MaxExactRows: -1}, paramErr("TuneConfig.MaxExactRows", -1)},
		{"short y", x, y[:5], TuneConfig{}, isErr(ErrShape)},
		{"target beyond squares", x, huge, TuneConfig{}, paramErr("target")},
		{"target below squares", x, tiny, TuneConfig{}, paramErr("target")},
		{"degenerate gcv", same, alt, TuneConfig{Criterion: CriterionGCV, Lambdas: []float64{1e-300}, NoIntercept: true}, tuneErr(ErrFlatCriterion)},
		{"degenerate loo", same, alt, TuneConfig{Lambdas: []float64{1e-300, 2e-300}, NoIntercept: true, Criterion: CriterionLOO}, tuneErr(ErrFlatCriterion)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Tune(t.Context(), tc.x, tc.y, tc.cfg)
			wantErrKind(t, tc.name, err, tc.want)
		})
	}
	// A fixed m over the memory limit is refused before any stage runs.
	defer func(v int64) { MemoryLimit = v }(MemoryLimit)
	MemoryLimit = 4 << 10
	var stages int
	_, err := Tune(t.Context(), x, y, TuneConfig{Method: "NKRLS", M: 25, Progress: func(int, int) { stages++ }})
	wantErrKind(t, "m over the memory limit", err, tooLargeErr("m = 25"))
	if stages != 0 {
		t.Errorf("%d evaluations before the refusal", stages)
	}
}

// TestTuneGrowWalk checks the Nyström grow stage: at m = 2 refineM it
// walks down from the refined sigma as the exact stage does (halvings,
// checkWalk; under cross-validation on fold 0, scoring its winner only),
// and the choice is the best of the refined point, the walk and
// leverage-score centers at the chosen sigma.
func TestTuneGrowWalk(t *testing.T) {
	x, y, _ := SmoothRegression(2*refineM+500, 10, 0.1, 3)
	for _, crit := range []Criterion{CriterionGCV, CriterionCV} {
		res, err := Tune(t.Context(), x, y, TuneConfig{Criterion: crit, MaxExactRows: 100, MaxM: 2 * refineM, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		refined, leverage := math.Inf(1), math.Inf(1)
		var refSigma float64
		best := map[float64]float64{}
		var sigmas []float64 // in evaluation order
		for _, p := range res.Table {
			switch p.Stage {
			case "refine":
				if p.Score < refined {
					refined, refSigma = p.Score, p.Sigma
				}
			case "centers":
				leverage = math.Min(leverage, p.Score)
			case "grow":
				if _, ok := best[p.Sigma]; !ok {
					best[p.Sigma] = math.Inf(1)
					sigmas = append(sigmas, p.Sigma)
				}
				best[p.Sigma] = math.Min(best[p.Sigma], p.Score)
			}
		}
		if crit == CriterionCV {
			// The walk runs on fold 0 (screenWalk): only its winner, a
			// halving of the refined sigma, is cross-validated, and only
			// when it beats the refined point there; else a stage says so.
			screened := false
			for _, st := range res.Choice.Stages {
				screened = screened || strings.HasPrefix(st, fmt.Sprintf("grow: m = %d screened out on fold 1 of 5", 2*refineM))
			}
			if len(sigmas) > 1 || len(sigmas) == 1 == screened {
				t.Errorf("cv: grow sigmas %v, screened out %v: want one sigma or a screen", sigmas, screened)
			}
			for _, s := range sigmas {
				if k := math.Log2(refSigma / s); math.Abs(k-math.Round(k)) > 1e-9 || k < 0 || k > walkScan+walkMore {
					t.Errorf("cv: grow sigma %g is not a halving of %g", s, refSigma)
				}
			}
		} else {
			if len(sigmas) == 0 || sigmas[0] != refSigma {
				t.Fatalf("%s: grow sigmas %v, want the walk to start at the refined sigma %g", crit, sigmas, refSigma)
			}
			checkWalk(t, "grow", sigmas, best)
		}
		want, wantScore := refSigma, refined
		for _, s := range sigmas {
			if best[s] < wantScore {
				want, wantScore = s, best[s]
			}
		}
		ch := res.Choice
		if leverage < wantScore*0.99 {
			wantScore = leverage // at the same sigma, kept for a gain over 1%
		}
		if ch.Sigma != want || ch.Score != wantScore {
			t.Errorf("%s: chose sigma %g (score %g), want %g (score %g)", crit, ch.Sigma, ch.Score, want, wantScore)
		}
		t.Logf("%s: refined sigma %g (score %.4g); grow sigmas %v; chose %g (score %.4g); stages %q", crit, refSigma, refined, sigmas, ch.Sigma, ch.Score, ch.Stages)
	}
}

// TestTuneFamily: with TuneConfig.Family empty the search tries the Matérn
// kernels and keeps one on a target with a kink, y = |x1| + noise, where
// the Gaussian kernel's smoothness costs accuracy; a named family is
// searched alone.
func TestTuneFamily(t *testing.T) {
	rng := newRNG(21)
	const n = 400
	x := mat.NewDense(n, 1, nil)
	y := make([]float64, n)
	for i := range y {
		v := 4*rng.Float64() - 2
		x.Set(i, 0, v)
		y[i] = math.Abs(v) + 0.05*rng.NormFloat64()
	}
	auto, err := Tune(t.Context(), x, y, TuneConfig{})
	if err != nil {
		t.Fatal(err)
	}
	gauss, err := Tune(t.Context(), x, y, TuneConfig{Family: "gaussian"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := auto.Choice.Kernel.(MaternKernel); !ok || !(auto.Choice.Score < 0.99*gauss.Choice.Score) || !hasStage(auto.Choice.Stages, "family: matern") {
		t.Errorf("auto chose %v (criterion %.4g) against gaussian's %.4g; stages %q", auto.Choice.Kernel, auto.Choice.Score, gauss.Choice.Score, auto.Choice.Stages)
	}
	if _, ok := gauss.Choice.Kernel.(GaussianKernel); !ok || hasStage(gauss.Choice.Stages, "family") {
		t.Errorf("Kernel gaussian chose %v; stages %q", gauss.Choice.Kernel, gauss.Choice.Stages)
	}
	// Below minMaternRows rows the Gaussian kernel is kept.
	few, err := Tune(t.Context(), gatherRows(x, seq(0, minMaternRows-1)), y[:minMaternRows-1], TuneConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := few.Choice.Kernel.(GaussianKernel); !ok || !hasStage(few.Choice.Stages, "family: the Gaussian kernel kept: other families are tried from") {
		t.Errorf("%d rows: chose %v; stages %q", minMaternRows-1, few.Choice.Kernel, few.Choice.Stages)
	}
	m32, err := Tune(t.Context(), x, y, TuneConfig{Family: "matern32"})
	if err != nil {
		t.Fatal(err)
	}
	if k, ok := m32.Choice.Kernel.(MaternKernel); !ok || k.Nu != 1.5 || m32.Fit.Model.Kernel.String() != k.String() {
		t.Errorf("Kernel matern32 chose %v, model kernel %v", m32.Choice.Kernel, m32.Fit.Model.Kernel)
	}
}

// TestTuneFamilySmooth: on a smooth target the criterion favours the
// Gaussian kernel by more than familyMargin, and the search keeps it.
func TestTuneFamilySmooth(t *testing.T) {
	rng := newRNG(22)
	const n = 400
	x := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := range y {
		a, b := 4*rng.Float64()-2, 4*rng.Float64()-2
		x.Set(i, 0, a)
		x.Set(i, 1, b)
		y[i] = math.Sin(1.5*a) + math.Cos(b) + 0.02*rng.NormFloat64()
	}
	auto, err := Tune(t.Context(), x, y, TuneConfig{Relevance: RelevanceOff})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := auto.Choice.Kernel.(GaussianKernel); !ok || !hasStage(auto.Choice.Stages, "family: the Gaussian kernel kept") {
		t.Errorf("chose %v; stages %q", auto.Choice.Kernel, auto.Choice.Stages)
	}
}

// TestChooseFamily checks tryFamilies's rule: Matérn 3/2 unless another
// family scores more than familyMargin lower.
func TestChooseFamily(t *testing.T) {
	all := []string{"", "matern52", "matern32"}
	four := append(all, "manhattan")
	for _, c := range []struct {
		names  []string
		scores []float64
		want   string
	}{
		{all, []float64{1, 1, 1}, "matern32"},
		{all, []float64{1, 1, 1.005}, "matern32"},
		{all, []float64{0.98, 1, 1}, ""},
		{all, []float64{0.98, 0.96, 1}, "matern52"},
		{all, []float64{0.98, 0.975, 1}, ""},
		{all, []float64{1, 0.985, 1}, "matern52"},
		{[]string{"", "matern52"}, []float64{1, 0.985}, "matern52"},
		{[]string{"", "matern52"}, []float64{1, 0.995}, ""},
		{[]string{"", "matern32"}, []float64{1, 1.009}, "matern32"},
		{[]string{""}, []float64{1}, ""},
		{four, []float64{1, 1, 1, 0.98}, "manhattan"},
		{four, []float64{1, 1, 1, 0.995}, "matern32"},
		{four, []float64{1, 0.97, 1, 0.98}, "matern52"},
		{four, []float64{1, 0.98, 1, 0.96}, "manhattan"},
		{[]string{"", "manhattan"}, []float64{1, 1.005}, ""},
	} {
		if got := c.names[chooseFamily(c.names, c.scores)]; got != c.want {
			t.Errorf("%q scores %v: chose %q, want %q", c.names, c.scores, got, c.want)
		}
	}
}

func hasStage(stages []string, prefix string) bool {
	for _, s := range stages {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// Tune's model clips predictions to the training targets' range widened
// by BoundsMargin: far outside the rows, a wide kernel with a small
// lambda can extrapolate without bound.
func TestTuneBounds(t *testing.T) {
	x := mat.NewDense(60, 1, nil)
	y := make([]float64, 60)
	for i := range y {
		v := float64(i) / 59
		x.Set(i, 0, v)
		y[i] = 10 + 5*v*v*v
	}
	f, err := Tune(t.Context(), x, y, TuneConfig{})
	if err != nil {
		t.Fatal(err)
	}
	m := f.Fit.Model
	if !floats.EqualApprox(m.Bounds, []float64{9.5, 15.5}, 1e-12) {
		t.Fatalf("bounds %v, want [9.5 15.5]", m.Bounds)
	}
	rows := mat.NewDense(3, 1, []float64{0, 0.5, 1})
	unclipped := *m
	unclipped.Bounds = nil
	for _, shift := range []float64{-100, 0, 100} {
		m.Intercept, unclipped.Intercept = f.Choice.Intercept+shift, f.Choice.Intercept+shift
		p, err := m.Predict(rows)
		if err != nil {
			t.Fatal(err)
		}
		q, err := unclipped.Predict(rows)
		if err != nil {
			t.Fatal(err)
		}
		for i := range p {
			if want := min(max(q[i], 9.5), 15.5); p[i] != want || (shift != 0 && p[i] != 12.5-math.Copysign(3, -shift)) {
				t.Errorf("shift %g, row %d: prediction %g, want %g (%g clipped)", shift, i, p[i], want, q[i])
			}
		}
	}
}

// TestExactDistanceCache: the exact evaluator's kernel matrices mapped from
// distances computed once (squared, or L1 for the Manhattan kernel) score
// every lambda as the matrices computed for each sigma do.
func TestExactDistanceCache(t *testing.T) {
	rng := newRNG(4)
	x := randData(rng, 80, 3, 1)
	y := smoothTargets(rng, x, 0.1)
	for _, fam := range []string{"gaussian", "matern32", "manhattan"} {
		tu, err := newTuner(x, y, TuneConfig{Family: fam, Criterion: CriterionGCV})
		if err != nil {
			t.Fatal(err)
		}
		direct, err := tu.exactEval(1)
		if err != nil {
			t.Fatal(err)
		}
		cached, err := tu.exactEval(3)
		if err != nil {
			t.Fatal(err)
		}
		for _, sigma := range []float64{0.4, 2.5} {
			a, err := direct.eval(t.Context(), sigma)
			if err != nil {
				t.Fatal(err)
			}
			b, err := cached.eval(t.Context(), sigma)
			if err != nil {
				t.Fatal(err)
			}
			for i := range a {
				if math.Abs(a[i].score-b[i].score) > 1e-9*a[i].score {
					t.Fatalf("%s, sigma %g, lambda %d: score %g from the kernel, %g from cached distances", fam, sigma, i, a[i].score, b[i].score)
				}
			}
		}
	}
}

// TestTuneFamilyManhattan: on a target that steps at thresholds of two
// columns the criterion favours the Manhattan kernel, whose functions may
// step along one column at a time, by more than familyMargin, and the
// search keeps it; the model is the kernel chosen.
func TestTuneFamilyManhattan(t *testing.T) {
	rng := newRNG(23)
	const n = 500
	x := mat.NewDense(n, 3, nil)
	y := make([]float64, n)
	for i := range y {
		for j := 0; j < 3; j++ {
			x.Set(i, j, 4*rng.Float64()-2)
		}
		y[i] = 0.05 * rng.NormFloat64()
		if x.At(i, 0) > 0 {
			y[i]++
		}
		if x.At(i, 1) > 0.5 {
			y[i]++
		}
	}
	auto, err := Tune(t.Context(), x, y, TuneConfig{Relevance: RelevanceOff})
	if err != nil {
		t.Fatal(err)
	}
	k, ok := auto.Choice.Kernel.(ManhattanKernel)
	if !ok || !hasStage(auto.Choice.Stages, "family: manhattan chosen") || auto.Fit.Model.Kernel.String() != k.String() {
		t.Errorf("chose %v, model kernel %v; stages %q", auto.Choice.Kernel, auto.Fit.Model.Kernel, auto.Choice.Stages)
	}
	// Judged at fewer centers than the choice's, the winner is rescored
	// at the choice's m, and the stage says so.
	const m = 200
	defer func(v int) { familyM = v }(familyM)
	familyM = m / 4
	small, err := Tune(t.Context(), x, y, TuneConfig{Relevance: RelevanceOff, Method: "NKRLS", M: m})
	if err != nil {
		t.Fatal(err)
	}
	judged := fmt.Sprintf("judged at m = %d, the Gaussian kernel", m/4)
	rescored := fmt.Sprintf("rescored at m = %d, manhattan", m)
	var st string
	for _, s := range small.Choice.Stages {
		if strings.HasPrefix(s, "family:") {
			st = s
		}
	}
	if !strings.Contains(st, judged) || !strings.Contains(st, rescored) {
		t.Errorf("family stage %q: want %q and %q", st, judged, rescored)
	}
	if _, ok := small.Choice.Kernel.(ManhattanKernel); !ok {
		t.Errorf("judged at m = %d: chose %v", m/4, small.Choice.Kernel)
	}
}
