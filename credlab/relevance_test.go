package credlab

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// relevanceData returns n rows of d standard normal columns and a target
// that is a smooth function of the first k columns plus noise.
func relevanceData(n, d, k int, noise float64, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		row := x.RawRowView(i)
		for j := range row {
			row[j] = rng.NormFloat64()
		}
		for j := 0; j < k; j++ {
			y[i] += math.Sin(1.5 * row[j])
		}
		y[i] += noise * rng.NormFloat64()
	}
	return x, y
}

// TestLOOGradient checks the analytic gradient of the leave-one-out
// criterion against central finite differences, with and without weights.
func TestLOOGradient(t *testing.T) {
	x, y := relevanceData(60, 4, 2, 0.1, 1)
	rng := rand.New(rand.NewPCG(2, 2))
	w := make([]float64, len(y))
	for i := range w {
		w[i] = 0.5 + rng.Float64()
	}
	for _, tc := range []struct {
		name string
		w    []float64
		nu   float64
	}{{"unweighted", nil, 0}, {"weighted", w, 0}, {"Matérn 3/2", nil, 1.5}, {"Matérn 5/2, weighted", w, 2.5}} {
		p := newLOOProblem(x, y, tc.w)
		p.nu = tc.nu
		th := []float64{math.Log(0.7), math.Log(0.2), math.Log(1.3), math.Log(0.05), math.Log(1e-2)}
		g := make([]float64, len(th))
		p.eval(th, g)
		for j := range th {
			h := 1e-5
			tp := append([]float64(nil), th...)
			tm := append([]float64(nil), th...)
			tp[j] += h
			tm[j] -= h
			fd := (p.eval(tp, nil) - p.eval(tm, nil)) / (2 * h)
			if math.Abs(fd-g[j]) > 1e-5*math.Max(1, math.Abs(fd)) {
				t.Errorf("%s: d/dtheta_%d: analytic %.8g, finite differences %.8g", tc.name, j, g[j], fd)
			}
		}
	}
}

// TestLOOCriterion checks the closed-form leave-one-out residual
// c_i / (A^-1)_ii against refitting without each row.
func TestLOOCriterion(t *testing.T) {
	for _, k := range []Kernel{GaussianKernel{Sigma: 1, Scales: []float64{0.8, 0.3, 1.1}},
		MaternKernel{Nu: 1.5, Sigma: 1, Scales: []float64{0.8, 0.3, 1.1}},
		MaternKernel{Nu: 2.5, Sigma: 1, Scales: []float64{0.8, 0.3, 1.1}}} {
		t.Run(k.String(), func(t *testing.T) { testLOOCriterion(t, k) })
	}
}

func testLOOCriterion(t *testing.T, kern Kernel) {
	x, y := relevanceData(25, 3, 1, 0.1, 3)
	p := newLOOProblem(x, y, nil)
	if m, ok := kern.(MaternKernel); ok {
		p.nu = m.Nu
	}
	th := []float64{math.Log(0.8), math.Log(0.3), math.Log(1.1), math.Log(1e-2)}
	got := p.eval(th, nil)
	n := len(y)
	lam := 1e-2
	sum := 0.0
	for i := 0; i < n; i++ {
		var rows []int
		for j := 0; j < n; j++ {
			if j != i {
				rows = append(rows, j)
			}
		}
		// Ridge on n-1 rows with the same n lambda on the diagonal.
		k := mat.NewSymDense(n-1, nil)
		for a, ra := range rows {
			for b, rb := range rows {
				k.SetSym(a, b, kern.Eval(x.RawRowView(ra), x.RawRowView(rb)))
			}
			k.SetSym(a, a, k.At(a, a)+float64(n)*lam)
		}
		var ch mat.Cholesky
		if !ch.Factorize(k) {
			t.Fatal("not positive definite")
		}
		yy := mat.NewVecDense(n-1, nil)
		for a, r := range rows {
			yy.SetVec(a, p.y[r])
		}
		var c mat.VecDense
		if err := ch.SolveVecTo(&c, yy); err != nil {
			t.Fatal(err)
		}
		f := 0.0
		for a, r := range rows {
			f += c.AtVec(a) * kern.Eval(x.RawRowView(i), x.RawRowView(r))
		}
		sum += (p.y[i] - f) * (p.y[i] - f)
	}
	if want := sum / float64(n); math.Abs(got-want) > 1e-9*want {
		t.Errorf("leave-one-out criterion %.12g, refits %.12g", got, want)
	}
}

// TestLearnScalesRelevantColumns: a target that depends on 2 of 8 columns.
// The learned scales rank those two first, and the leave-one-out error
// beats the isotropic kernel's.
func TestLearnScalesRelevantColumns(t *testing.T) {
	x, y := relevanceData(400, 8, 2, 0.1, 4)
	r, err := LearnScales(context.Background(), x, y, RelevanceConfig{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rel := r.Relevance()
	for j := 2; j < 8; j++ {
		if rel[j] > 0.3*math.Min(rel[0], rel[1]) {
			t.Errorf("column %d: relevance %.3g against %.3g and %.3g of the two informative columns", j, rel[j], rel[0], rel[1])
		}
	}
	if !(r.LOO < 0.7*r.IsoLOO) {
		t.Errorf("leave-one-out %.4g with learned scales, %.4g isotropic: want at most 0.7x", r.LOO, r.IsoLOO)
	}
	t.Logf("relevance %.3g, LOO %.4g (isotropic %.4g), start %s, %d evaluations", rel, r.LOO, r.IsoLOO, r.Start, r.Evals)
}

// TestScaledKernelIsotropic: equal scales give the isotropic kernel of
// width Sigma / scale, and nil scales today's kernel bit for bit.
func TestScaledKernelIsotropic(t *testing.T) {
	x, _ := relevanceData(30, 3, 1, 0, 5)
	iso, err := KernelMatrix(GaussianKernel{Sigma: 0.5}, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := KernelMatrix(GaussianKernel{Sigma: 1, Scales: []float64{2, 2, 2}}, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.EqualApprox(iso, sc, 1e-13) {
		t.Error("equal scales differ from the isotropic kernel of width sigma/scale")
	}
	blk, err := KernelMatrix(GaussianKernel{Sigma: 1, Scales: []float64{2, 0, 1}}, x, x.Slice(0, 5, 0, 3).(*mat.Dense))
	if err != nil {
		t.Fatal(err)
	}
	k := GaussianKernel{Sigma: 1, Scales: []float64{2, 0, 1}}
	for i := 0; i < 30; i++ {
		for j := 0; j < 5; j++ {
			if want := k.Eval(x.RawRowView(i), x.RawRowView(j)); math.Abs(blk.At(i, j)-want) > 1e-13 {
				t.Fatalf("K[%d,%d] = %g, Eval %g", i, j, blk.At(i, j), want)
			}
		}
	}
	if _, err := KernelMatrix(GaussianKernel{Sigma: 1, Scales: []float64{1, 1}}, x, nil); err == nil {
		t.Error("2 scales for 3 columns: no error")
	}
	if _, err := KernelMatrix(GaussianKernel{Sigma: 1, Scales: []float64{1, -1, 1}}, x, nil); err == nil {
		t.Error("a negative scale: no error")
	}
}

// TestTuneRelevance: the default search learns scales where 2 of 8
// columns carry the signal, ranks them first and predicts better than one
// shared scale; equal fixed scales give the isotropic search's model bit
// for bit.
func TestTuneRelevance(t *testing.T) {
	x, y := relevanceData(700, 8, 2, 0.1, 11)
	xtr, ytr := x.Slice(0, 450, 0, 8).(*mat.Dense), y[:450]
	xte, yte := x.Slice(450, 700, 0, 8).(*mat.Dense), y[450:]
	ctx := context.Background()
	// One shared scale of the Gaussian kernel (the Manhattan kernel, which
	// the family stage may choose, copes better with irrelevant columns).
	iso, err := Tune(ctx, xtr, ytr, TuneConfig{Relevance: RelevanceOff, Family: "gaussian", TimeBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	ard, err := Tune(ctx, xtr, ytr, TuneConfig{TimeBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	// Below 2000 rows the search runs with and without the scales, unless
	// the learned scales' error is under half of one scale's (noise 0.1
	// here); the kernel family is tried, and the model fitted, for the
	// winner alone.
	for _, c := range []struct {
		noise    float64
		searched bool
		kept     string
	}{{0.1, false, "no search with one scale"}, {0.7, true, "criterion"}} {
		x, y := relevanceData(450, 8, 2, c.noise, 11)
		cfg := TuneConfig{TimeBudget: -1}
		isoT, err := newTuner(x, y, cfg)
		if err != nil {
			t.Fatal(err)
		}
		won, _, _, err := tuneRelevance(ctx, isoT, x, y, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		searched := strings.Contains(strings.Join(isoT.out.Choice.Stages, "\n"), "coarse:")
		kept := strings.Join(won.Choice.Stages, "\n")
		if won.Choice.Scales == nil || isoT.out.Fit != nil || searched != c.searched || !strings.Contains(kept, "relevance: learned scales kept: "+c.kept) {
			t.Errorf("noise %g: scales %v, the search with one scale fitted: %v, ran: %v; stages %q", c.noise, won.Choice.Scales, isoT.out.Fit != nil, searched, won.Choice.Stages)
		}
	}
	rel := ard.Choice.Relevance()
	if rel == nil {
		t.Fatalf("no scales learned; stages %q", ard.Choice.Stages)
	}
	for j := 2; j < 8; j++ {
		if rel[j] >= math.Min(rel[0], rel[1]) {
			t.Errorf("column %d: relevance %.3g ranks with the informative columns (%.3g)", j, rel[j], rel)
		}
	}
	pi, _ := iso.Fit.Model.Predict(xte)
	pa, _ := ard.Fit.Model.Predict(xte)
	ri, ra := RMSE(pi, yte), RMSE(pa, yte)
	if !(ra < 0.7*ri) {
		t.Errorf("test RMSE %.4g with learned scales, %.4g with one scale: want at most 0.7x", ra, ri)
	}
	// The model maps back to x's columns: it is the fit of the chosen
	// kernel (with its scales) on x.
	var ref *Fit
	yc := make([]float64, len(ytr))
	for i, v := range ytr {
		yc[i] = v - ard.Choice.Intercept
	}
	if ard.Choice.Method == "KRLS" {
		ref, err = KRLS(ctx, xtr, yc, KRLSConfig{Kernel: ard.Choice.Kernel, Lambda: ard.Choice.Lambda})
	} else {
		ref, err = NKRLS(ctx, xtr, yc, NKRLSConfig{Kernel: ard.Choice.Kernel, Lambda: ard.Choice.Lambda, Nystrom: NystromConfig{M: ard.Choice.M}})
	}
	if err != nil {
		t.Fatal(err)
	}
	pr, _ := ref.Model.Predict(xte)
	for i := range pr {
		if d := math.Abs(pr[i] + ard.Choice.Intercept - pa[i]); d > 1e-6*(1+math.Abs(pa[i])) {
			t.Fatalf("row %d: the model predicts %v, %s refitted with its kernel %v", i, pa[i], ard.Choice.Method, pr[i]+ard.Choice.Intercept)
		}
	}
	ones := make([]float64, 8)
	for j := range ones {
		ones[j] = 1
	}
	fixed, err := Tune(ctx, xtr, ytr, TuneConfig{Scales: ones, Family: "gaussian", TimeBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	pf, _ := fixed.Fit.Model.Predict(xte)
	for i := range pf {
		if pf[i] != pi[i] {
			t.Fatalf("row %d: unit scales predict %v, one shared scale %v", i, pf[i], pi[i])
		}
	}
}

// TestTuneTimeBudget: a budget that runs out at once stops the search
// after its first evaluation, says so, and still returns a fitted model,
// without the error estimate, which a warning names.
func TestTuneTimeBudget(t *testing.T) {
	x, y := relevanceData(400, 3, 3, 0.1, 12)
	var stages []string
	f, err := Tune(context.Background(), x, y, TuneConfig{TimeBudget: time.Nanosecond,
		Status: func(s TuneStatus) { stages = append(stages, s.Stage) }})
	if err != nil {
		t.Fatal(err)
	}
	if !f.Choice.OutOfTime || len(f.Choice.Warnings) == 0 || !strings.Contains(strings.Join(f.Choice.Warnings, " "), "time budget") {
		t.Errorf("OutOfTime %v, warnings %q", f.Choice.OutOfTime, f.Choice.Warnings)
	}
	if _, err := f.Fit.Model.Predict(x); err != nil {
		t.Error(err)
	}
	// What the budget left out beside the search is named too.
	if w := strings.Join(f.Choice.Warnings, " "); f.Choice.PoolRMSE != nil || !strings.Contains(w, "no pool RMSE estimate: its 5 out-of-fold refits would take about") {
		t.Errorf("pool RMSE %v, warnings %q", f.Choice.PoolRMSE, f.Choice.Warnings)
	}
	full, err := Tune(context.Background(), x, y, TuneConfig{TimeBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	if full.Choice.OutOfTime || len(full.Table) <= len(f.Table) {
		t.Errorf("without a budget: OutOfTime %v, %d evaluations against %d with it", full.Choice.OutOfTime, len(full.Table), len(f.Table))
	}
	if len(stages) == 0 {
		t.Error("Status was never called")
	}
}

// On 100 rows of 10 columns that all matter, scales learned and scored on
// the same rows overfit (2.1x the test RMSE of one scale before the
// nested check); the cross-validation of the learning keeps one scale.
func TestTuneRelevanceFewRows(t *testing.T) {
	rng := newRNG(2)
	const n, d = 100, 10
	x := randData(rng, n+2000, d, 1)
	y := make([]float64, n+2000)
	for i := range y {
		s := 0.0
		for j, v := range x.RawRowView(i) {
			s += math.Sin(2*v) * (1 + 0.3*float64(j%3))
		}
		y[i] = s + 0.5*rng.NormFloat64()
	}
	xt, yt := gatherRows(x, seq(n, n+2000)), y[n:]
	xl, yl := gatherRows(x, seq(0, n)), y[:n]
	var rmse [2]float64
	var stages []string
	for k, rel := range []string{"", RelevanceOff} {
		f, err := Tune(t.Context(), xl, yl, TuneConfig{Relevance: rel, Family: "gaussian"})
		if err != nil {
			t.Fatal(err)
		}
		p, err := f.Fit.Model.Predict(xt)
		if err != nil {
			t.Fatal(err)
		}
		rmse[k] = RMSE(p, yt)
		if k == 0 {
			stages = f.Choice.Stages
		}
	}
	if rmse[0] > 1.02*rmse[1] || !strings.Contains(strings.Join(stages, "\n"), "learned on each 5-fold complement") {
		t.Errorf("test RMSE %.4g with relevance, %.4g with one scale; stages:\n%s", rmse[0], rmse[1], strings.Join(stages, "\n"))
	}
}

// TestTuneStatusStages: each stage reports its start before its first
// evaluation, so that a progress display names the stage that runs, and
// the fit on all rows, the pool RMSE estimate and the learning curve
// report theirs last, once each.
func TestTuneStatusStages(t *testing.T) {
	x, y, _ := SmoothRegression(1600, 4, 0.1, 5)
	var got []TuneStatus
	res, err := Tune(t.Context(), x, y, TuneConfig{MaxExactRows: 100, Relevance: RelevanceOff, Seed: 1,
		Status: func(s TuneStatus) { got = append(got, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || got[0].Done != 0 {
		t.Fatalf("statuses %v: want a stage's start (Done 0) first", got)
	}
	seen := map[string]bool{}
	for i, s := range got {
		seen[s.Stage] = true
		if i > 0 && s.Done > got[i-1].Done && s.Stage != got[i-1].Stage {
			t.Errorf("status %d: an evaluation of %q after a status of %q: the stage did not report its start", i, s.Stage, got[i-1].Stage)
		}
	}
	var tail []string
	for _, s := range got[len(got)-3:] {
		tail = append(tail, s.Stage)
	}
	count := map[string]int{}
	for _, s := range got {
		count[s.Stage]++
	}
	if strings.Join(tail, ",") != "model,estimate,curve" || count["model"] != 1 || count["estimate"] != 1 || count["curve"] != 1 {
		t.Errorf("last statuses %q, counts %v: want model, estimate, curve, once each", tail, count)
	}
	if res.Choice.PoolRMSE == nil || res.Choice.Curve == nil {
		t.Fatalf("no estimate (%v) or no curve (%v)", res.Choice.PoolRMSE, res.Choice.Curve)
	}
	for _, st := range res.Choice.Stages {
		name, _, _ := strings.Cut(st, ":")
		if !seen[map[string]string{"model": "model", "pool RMSE": "estimate", "learning curve": "curve"}[name]] && !seen[name] {
			t.Errorf("stage %q ran without a status", st)
		}
	}
}

// TestTuneSearchOnly: SearchOnly gives the same model without the error
// estimate and the learning curve, and reports no stage for them.
func TestTuneSearchOnly(t *testing.T) {
	x, y, _ := SmoothRegression(400, 3, 0.1, 4)
	full, err := Tune(t.Context(), x, y, TuneConfig{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var stages []string
	only, err := Tune(t.Context(), x, y, TuneConfig{Seed: 1, SearchOnly: true, Status: func(s TuneStatus) { stages = append(stages, s.Stage) }})
	if err != nil {
		t.Fatal(err)
	}
	if full.Choice.PoolRMSE == nil || full.Choice.Curve == nil || only.Choice.PoolRMSE != nil || only.Choice.Curve != nil {
		t.Fatalf("estimates %v, %v; with SearchOnly %v, %v", full.Choice.PoolRMSE, full.Choice.Curve, only.Choice.PoolRMSE, only.Choice.Curve)
	}
	if len(stages) == 0 || slices.Contains(stages, "estimate") || slices.Contains(stages, "curve") || stages[len(stages)-1] != "model" {
		t.Errorf("stages %q", stages)
	}
	pf, _ := full.Fit.Model.Predict(x)
	po, _ := only.Fit.Model.Predict(x)
	if !slices.Equal(pf, po) || full.Choice.Lambda != only.Choice.Lambda || full.Choice.Sigma != only.Choice.Sigma {
		t.Errorf("SearchOnly changed the model: sigma %v, lambda %v against %v, %v", only.Choice.Sigma, only.Choice.Lambda, full.Choice.Sigma, full.Choice.Lambda)
	}
}
