package frames

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

// SimulateSpec says how Simulate runs the labeling loop on a fully labeled
// table.
type SimulateSpec struct {
	// Target is the label column (required); Features, Exclude, OneHot and
	// DropNA choose the features as in Spec. The features are
	// standardized on the whole table, as Fit's default scaling does.
	Target            string
	Features, Exclude []string
	OneHot, DropNA    bool
	// Methods are the selection methods compared: "uniform", "cred" and
	// credlab.BatchMethods; default all of them.
	Methods []string
	// Initial, Batch and Final are the sizes of the random first batch,
	// of each next batch and the final budget; defaults 256, 256 and
	// 4352, capped by the pool. Budgets, when set, replaces them: the
	// labels after each batch, the first one random.
	Initial, Batch, Final int
	Budgets               []int
	// TestShare is the share of rows held out for the test RMSE; default
	// 0.2.
	TestShare float64
	// Seeds is the number of repetitions (splits and first batches),
	// default 1; repetition r uses seed Seed + r.
	Seeds int
	Seed  uint64
	// OneShot makes each batch method choose the first batch too, with no
	// labels (the median-distance Gaussian kernel), as a one-shot
	// selection does; by default the first batch is random.
	OneShot bool
	// M is the number of Nyström features the batch methods select on;
	// default credlab.DefaultBatchM.
	M int
	// Audit is the share of each batch a batch method draws as an audit
	// sample, as SelectSpec.Audit (default DefaultAuditShare, negative for
	// none); the fit's RMSE estimate then comes from the audit rows.
	Audit float64
	// Progress, if not nil, receives a line after every fit.
	Progress func(line string)
}

// SimulateResult holds a simulation's learning curves and its comparison
// with uniform labeling.
type SimulateResult struct {
	// Curves has one row per repetition, method and budget: columns
	// "seed", "method", "labels", "rmse" (test RMSE of the default fit on
	// the labeled rows), "sigma" and "lambda" (the fit's choice, which the
	// next batch selects with), "seconds" (selection time), and "est_rmse",
	// "est_lo", "est_hi": the fit's own estimate of its RMSE with a 90%
	// interval, from the labels alone (credlab.Choice.PoolRMSE; NaN
	// without one), to set against "rmse"; "proj_1.5x" and "proj_2x", the
	// RMSE the fit's learning curve projects at 1.5 and 2 times the labels
	// (credlab.Choice.Curve; NaN without one), to set against the "rmse"
	// of a later budget.
	Curves dataframe.DataFrame
	// Ratios has one row per method and budget: "method", "labels",
	// "rmse" (geometric mean over repetitions) and "ratio", the geometric
	// mean over repetitions of the method's test RMSE over uniform
	// labeling's (NaN without "uniform" among the methods).
	Ratios dataframe.DataFrame
}

// Simulate hides the labels of a fully labeled table and runs the batch
// labeling loop for each method: it holds out TestShare of the rows for
// testing, labels a random first batch of the rest (the same for every
// method), then, for each next batch, fits the default model (credlab.Tune
// on the standardized features, weighted for "cred") on the labels so far,
// records its test RMSE, and selects the next batch with the method,
// using the fitted kernel and noise n lambda (credlab.BatchSelector, rows
// labeled so far count as chosen). "uniform" adds random rows; "cred"
// continues a CRED ranking design without replacement on Nyström features
// (credlab.CREDSelector), its first batch its own. The table is not
// modified.
func Simulate(ctx context.Context, table dataframe.DataFrame, spec SimulateSpec) (*SimulateResult, error) {
	if spec.Target == "" {
		return nil, &credlab.ParamError{Name: "SimulateSpec.Target", Value: "", Want: "the label column"}
	}
	fs := Spec{Target: spec.Target, Features: spec.Features, Exclude: spec.Exclude, OneHot: spec.OneHot,
		DropNA: spec.DropNA, Scale: ScaleStandardize}
	p, err := prepare(table, &fs, "table")
	if err != nil {
		return nil, err
	}
	methods, err := simulateMethods(spec.Methods)
	if err != nil {
		return nil, err
	}
	n, _ := p.x.Dims()
	share := spec.TestShare
	if share == 0 {
		share = 0.2
	}
	nTest := int(math.Round(share * float64(n)))
	if !(share > 0 && share < 1) || nTest < 1 || nTest >= n-1 {
		return nil, &credlab.ParamError{Name: "SimulateSpec.TestShare", Value: share, Want: fmt.Sprintf("a share in (0, 1) leaving test and pool rows of the %d rows", n)}
	}
	budgets, err := simulateBudgets(spec, n-nTest)
	if err != nil {
		return nil, err
	}
	seeds := spec.Seeds
	if seeds == 0 {
		seeds = 1
	}
	if seeds < 0 {
		return nil, &credlab.ParamError{Name: "SimulateSpec.Seeds", Value: seeds, Want: "a positive number of repetitions"}
	}
	var rows []simRow
	for r := 0; r < seeds; r++ {
		seed := spec.Seed + uint64(r)
		perm := rand.New(rand.NewPCG(seed, 0x73696d)).Perm(n)
		test, poolRows := perm[:nTest], perm[nTest:]
		xt := gatherX(p.x, test)
		yt := gatherFloats(p.y, test)
		xp := gatherX(p.x, poolRows)
		yp := gatherFloats(p.y, poolRows)
		for _, m := range methods {
			out, err := simulateMethod(ctx, m, xp, yp, xt, yt, budgets, seed, spec)
			if err != nil {
				return nil, fmt.Errorf("frames: simulate %s, seed %d: %w", m, seed, err)
			}
			rows = append(rows, out...)
		}
	}
	return simulateFrames(rows, methods, budgets)
}

// simRow is one fit of the simulation.
type simRow struct {
	seed                uint64
	method              string
	labels              int
	rmse, sigma, lambda float64
	seconds             float64
	// est is the fit's estimate of its RMSE (credlab.Choice.PoolRMSE),
	// within estLo to estHi at 90%; NaN without one.
	est, estLo, estHi float64
	// proj15 and proj2 are the RMSE its learning curve projects at 1.5
	// and 2 times the labels (credlab.Choice.Curve); NaN without one.
	proj15, proj2 float64
}

// simulateMethods checks and completes the method list.
func simulateMethods(ms []string) ([]string, error) {
	if len(ms) == 0 {
		return append([]string{"uniform", "cred"}, credlab.BatchMethods...), nil
	}
	var out []string
	for _, m := range ms {
		m = strings.ToLower(strings.TrimSpace(m))
		if m != "uniform" && m != "cred" {
			if _, err := credlab.ParseBatchMethod(m); err != nil {
				return nil, &credlab.ParamError{Name: "SimulateSpec.Methods", Value: strconv.Quote(m), Want: "uniform, cred or " + strings.Join(credlab.BatchMethods, ", ")}
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// simulateBudgets returns the increasing label counts after each batch.
func simulateBudgets(spec SimulateSpec, pool int) ([]int, error) {
	if len(spec.Budgets) > 0 {
		for i, b := range spec.Budgets {
			if b < 2 || b > pool || (i > 0 && b <= spec.Budgets[i-1]) {
				return nil, &credlab.ParamError{Name: fmt.Sprintf("SimulateSpec.Budgets[%d]", i), Value: b, Want: fmt.Sprintf("increasing label counts from 2 to the %d pool rows", pool)}
			}
		}
		return append([]int(nil), spec.Budgets...), nil
	}
	ini, batch, final := spec.Initial, spec.Batch, spec.Final
	if ini == 0 {
		ini = 256
	}
	if batch == 0 {
		batch = 256
	}
	if final == 0 {
		final = 4352
	}
	for _, v := range []struct {
		name string
		v    int
	}{{"Initial", ini}, {"Batch", batch}, {"Final", final}} {
		if v.v < 1 {
			return nil, &credlab.ParamError{Name: "SimulateSpec." + v.name, Value: v.v, Want: "a positive number of rows"}
		}
	}
	final = min(final, pool)
	ini = min(ini, final)
	if ini < 2 {
		return nil, &credlab.ParamError{Name: "SimulateSpec.Initial", Value: ini, Want: "at least 2 rows to fit"}
	}
	b := []int{ini}
	for b[len(b)-1] < final {
		b = append(b, min(b[len(b)-1]+batch, final))
	}
	return b, nil
}

// simulateMethod runs one method's labeling loop on the pool (xp, yp).
func simulateMethod(ctx context.Context, method string, xp *mat.Dense, yp []float64, xt *mat.Dense, yt []float64, budgets []int, seed uint64, spec SimulateSpec) ([]simRow, error) {
	n, _ := xp.Dims()
	perm := rand.New(rand.NewPCG(seed, 0x66697273)).Perm(n)
	labeled := append([]int(nil), perm[:budgets[0]]...)
	var w, audit []float64
	var sel *credlab.Selection
	var secs float64
	share := auditShare(spec.Audit)
	if method == "cred" {
		var err error
		t0 := time.Now()
		if sel, err = simulateCRED(ctx, xp, budgets[0], seed, spec.M, nil); err != nil {
			return nil, err
		}
		secs = time.Since(t0).Seconds()
		labeled, w = sel.Index, sel.Weight
	} else if spec.OneShot && method != "uniform" {
		t0 := time.Now()
		s, err := credlab.BatchSelector{Method: method, M: min(spec.M, n), Audit: share}.Select(ctx, xp, budgets[0], seed)
		if err != nil {
			return nil, err
		}
		secs = time.Since(t0).Seconds()
		labeled, audit = s.Index, s.Audit
	}
	var out []simRow
	for bi, b := range budgets {
		xl, yl := gatherX(xp, labeled), gatherFloats(yp, labeled)
		fit, err := credlab.Tune(ctx, xl, yl, credlab.TuneConfig{Weights: w, Audit: auditRows(audit), Seed: seed})
		if err != nil {
			return nil, fmt.Errorf("fit on %d labels: %w", b, err)
		}
		pred, err := fit.Fit.Model.Predict(xt)
		if err != nil {
			return nil, err
		}
		ch := fit.Choice
		row := simRow{seed: seed, method: method, labels: b, rmse: credlab.RMSE(pred, yt), sigma: ch.Sigma, lambda: ch.Lambda, seconds: secs,
			est: math.NaN(), estLo: math.NaN(), estHi: math.NaN(), proj15: math.NaN(), proj2: math.NaN()}
		if e := ch.PoolRMSE; e != nil {
			row.est, row.estLo, row.estHi = e.RMSE, e.Lo, e.Hi
		}
		if c := ch.Curve; c != nil {
			row.proj15, row.proj2 = c.Projected[1], c.Projected[2]
		}
		out = append(out, row)
		if spec.Progress != nil {
			spec.Progress(fmt.Sprintf("seed %d %-8s %5d labels: test RMSE %.4g, estimated %.4g, projected at 2x %.4g (sigma %.3g, lambda %.2g, selection %.1f s)",
				seed, method, b, row.rmse, row.est, row.proj2, ch.Sigma, ch.Lambda, secs))
		}
		if bi == len(budgets)-1 {
			break
		}
		next := budgets[bi+1]
		t0 := time.Now()
		switch method {
		case "uniform":
			labeled = append(labeled, perm[b:next]...)
		case "cred":
			if sel, err = simulateCRED(ctx, xp, next-b, seed, spec.M, sel); err != nil {
				return nil, err
			}
			labeled, w = sel.Index, sel.Weight
		default:
			noise := math.Min(math.Max(float64(len(labeled))*ch.Lambda, 1e-6), 1)
			bs := credlab.BatchSelector{Method: method, Kernel: ch.Kernel, M: min(spec.M, n), Noise: noise, Previous: &credlab.Selection{Index: labeled, Audit: audit}, Audit: share}
			s, err := bs.Select(ctx, xp, next-b, seed)
			if err != nil {
				return nil, err
			}
			labeled, audit = s.Index, s.Audit
		}
		secs = time.Since(t0).Seconds()
	}
	return out, nil
}

// auditRows returns the audit weights for credlab.TuneConfig.Audit: nil
// with fewer than 2 audit rows.
func auditRows(a []float64) []float64 {
	rows := 0
	for _, v := range a {
		if v > 0 {
			rows++
		}
	}
	if rows < 2 {
		return nil
	}
	return a
}

// simulateCRED continues (or starts) CRED's ranking design without
// replacement on Nyström features of the median-heuristic Gaussian kernel.
func simulateCRED(ctx context.Context, xp *mat.Dense, add int, seed uint64, m int, prev *credlab.Selection) (*credlab.Selection, error) {
	n, _ := xp.Dims()
	if m == 0 {
		m = credlab.DefaultBatchM
	}
	m = min(m, n)
	var fm credlab.FeatureMap
	if prev == nil {
		idx, err := credlab.NystromCenters(xp, m, nil, seed)
		if err != nil {
			return nil, err
		}
		ny, err := credlab.NewNystrom(credlab.GaussianKernel{Sigma: credlab.MedianDistance(xp)}, xp, idx, 0)
		if err != nil {
			return nil, err
		}
		fm = ny
	}
	return credlab.CREDSelector{Features: fm, Design: credlab.WithoutReplacement, Previous: prev}.Select(ctx, xp, add, seed)
}

// simulateFrames builds the result frames.
func simulateFrames(rows []simRow, methods []string, budgets []int) (*SimulateResult, error) {
	var seed, labels []int
	var method []string
	var rmse, sigma, lambda, secs, est, estLo, estHi, proj15, proj2 []float64
	uni := map[[2]int]float64{} // (seed, labels) -> uniform RMSE
	for _, r := range rows {
		seed = append(seed, int(r.seed))
		method = append(method, r.method)
		labels = append(labels, r.labels)
		rmse, sigma, lambda, secs = append(rmse, r.rmse), append(sigma, r.sigma), append(lambda, r.lambda), append(secs, r.seconds)
		est, estLo, estHi = append(est, r.est), append(estLo, r.estLo), append(estHi, r.estHi)
		proj15, proj2 = append(proj15, r.proj15), append(proj2, r.proj2)
		if r.method == "uniform" {
			uni[[2]int{int(r.seed), r.labels}] = r.rmse
		}
	}
	curves := dataframe.New(series.New(seed, series.Int, "seed"), series.New(method, series.String, "method"),
		series.New(labels, series.Int, "labels"), series.New(rmse, series.Float, "rmse"),
		series.New(sigma, series.Float, "sigma"), series.New(lambda, series.Float, "lambda"),
		series.New(secs, series.Float, "seconds"), series.New(est, series.Float, "est_rmse"),
		series.New(estLo, series.Float, "est_lo"), series.New(estHi, series.Float, "est_hi"),
		series.New(proj15, series.Float, "proj_1.5x"), series.New(proj2, series.Float, "proj_2x"))
	type key struct {
		m string
		b int
	}
	logR, logQ, cnt := map[key]float64{}, map[key]float64{}, map[key]int{}
	for _, r := range rows {
		k := key{r.method, r.labels}
		logR[k] += math.Log(r.rmse)
		u, ok := uni[[2]int{int(r.seed), r.labels}]
		if ok {
			logQ[k] += math.Log(r.rmse / u)
		} else {
			logQ[k] = math.NaN()
		}
		cnt[k]++
	}
	var rm []string
	var rb []int
	var rr, rq []float64
	sorted := append([]int(nil), budgets...)
	sort.Ints(sorted)
	for _, m := range methods {
		for _, b := range sorted {
			k := key{m, b}
			if cnt[k] == 0 {
				continue
			}
			rm, rb = append(rm, m), append(rb, b)
			rr = append(rr, math.Exp(logR[k]/float64(cnt[k])))
			rq = append(rq, math.Exp(logQ[k]/float64(cnt[k])))
		}
	}
	ratios := dataframe.New(series.New(rm, series.String, "method"), series.New(rb, series.Int, "labels"),
		series.New(rr, series.Float, "rmse"), series.New(rq, series.Float, "ratio"))
	if curves.Err != nil || ratios.Err != nil {
		return nil, fmt.Errorf("frames: simulate: building the result: %v %v", curves.Err, ratios.Err)
	}
	return &SimulateResult{Curves: curves, Ratios: ratios}, nil
}

// rowsOf is credlab.GatherRows on indices known to be rows of x.
func gatherX(x *mat.Dense, idx []int) *mat.Dense {
	g, _ := credlab.GatherRows(x, idx)
	return g
}
