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
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
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
	// M is the number of Nyström features maxdet, maxdiag, bait and
	// herding select on (lcmd, kmeanspp and maxdist measure the kernel's
	// feature distances exactly); default credlab.DefaultBatchM.
	M int
	// Audit is the share of each batch a batch method draws as an audit
	// sample, as SelectSpec.Audit (default DefaultAuditShare, negative for
	// none); the fit's RMSE estimate then comes from the audit rows.
	Audit float64
	// NoPoolWeights fits the rows a batch method chose without weights.
	// By default they are fitted with their pool weights
	// (credlab.PoolWeights under the kernel the last batch was selected
	// with), as the command fit does with the pool_weight column select
	// writes, so that the fit's criteria and loss stand for the pool.
	// Uniform and CRED rows keep their own weights.
	NoPoolWeights bool
	// TimeBudget bounds the whole simulation: zero means
	// DefaultSimulateBudget, negative no bound. The loop runs batch by
	// batch across every repetition and method, so that a stop leaves every
	// method measured at the same budgets: a next batch starts only when its
	// time, estimated from the batch before it, fits in what is left, and
	// each fit's search gets an even share of the time left to the fits of
	// its batch (at most credlab.DefaultTimeBudget). When the budget stops
	// the loop, SimulateResult.OutOfTime and Warnings say where.
	TimeBudget time.Duration
	// Progress, if not nil, receives a line after every fit and before
	// every batch, with the time used and left.
	Progress func(line string)
}

// DefaultSimulateBudget is the default SimulateSpec.TimeBudget.
const DefaultSimulateBudget = 30 * time.Minute

// SimulateResult holds a simulation's learning curves and its comparison
// with uniform labeling.
type SimulateResult struct {
	// Curves has one row per repetition, method and budget: columns
	// "seed", "method", "labels", "rmse" (test RMSE of the default fit on
	// the labeled rows, its columns as they are: TransformOff, since the
	// selectors reuse its kernel), "kernel" (the family the fit chose:
	// gaussian, matern52, matern32 or manhattan), "sigma" and "lambda"
	// (the fit's choice, which the
	// next batch selects with), "seconds" (selection time), and "est_rmse",
	// "est_lo", "est_hi": the fit's own estimate of its RMSE with a 90%
	// interval, from the labels alone (credlab.Choice.PoolRMSE, its
	// interval widened to the RMSE over the unlabeled pool rows by
	// credlab.RMSEEstimate.OverRows; NaN without one), to set against
	// "pool_rmse"; "proj_1.5x" and "proj_2x", the
	// RMSE the fit's learning curve projects at 1.5 and 2 times the labels
	// (credlab.Choice.Curve; NaN without one), to set against the "rmse"
	// of a later budget; and "pool_rmse", the fit's RMSE on the pool rows
	// not labeled (NaN when none is left), what "est_rmse" estimates (the test rows are a smaller
	// sample of the same table, so "rmse" is a noisier reference).
	Curves dataframe.DataFrame
	// Ratios has one row per method and budget: "method", "labels",
	// "rmse" (geometric mean over repetitions), "ratio", the geometric
	// mean over repetitions of the method's test RMSE over uniform
	// labeling's (NaN without "uniform" among the methods), and
	// "ratio_lo", "ratio_hi", its 90% interval over the repetitions
	// (Student's t on the log ratios, paired by seed; NaN with one): a
	// method is ahead of uniform labeling only where ratio_hi < 1.
	Ratios dataframe.DataFrame
	// OutOfTime reports that the time budget stopped the loop before the
	// final budget; Warnings say where, in words, and which fits' searches
	// their share of the budget stopped.
	OutOfTime bool
	Warnings  []string
}

// Simulate hides the labels of a fully labeled table and runs the batch
// labeling loop for each method: it holds out TestShare of the rows for
// testing, labels a random first batch of the rest (the same for every
// method), then, for each next batch, fits the default model (credlab.Tune
// on the standardized features; "cred" rows weighted by their importance
// weights, a batch method's by their pool weights) on the labels so far,
// records its test RMSE, and selects the next batch with the method,
// using the fitted kernel and noise n lambda (credlab.BatchSelector, rows
// labeled so far count as chosen). "uniform" adds random rows; "cred"
// continues a CRED ranking design without replacement scored as Select
// scores by default (credlab.CREDSelector), its first batch its own. The
// table is not modified.
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
	budget := spec.TimeBudget
	if budget == 0 {
		budget = DefaultSimulateBudget
	}
	clock := simClock{start: time.Now(), budget: budget, progress: spec.Progress}
	var runs []*simRun
	for r := 0; r < seeds; r++ {
		seed := spec.Seed + uint64(r)
		perm := rand.New(rand.NewPCG(seed, 0x73696d)).Perm(n)
		test, poolRows := perm[:nTest], perm[nTest:]
		split := &simSplit{xt: gatherX(p.x, test), yt: gatherFloats(p.y, test), xp: gatherX(p.x, poolRows), yp: gatherFloats(p.y, poolRows)}
		for _, m := range methods {
			runs = append(runs, &simRun{method: m, seed: seed, split: split, random: randomFirst(m, spec.OneShot)})
		}
	}
	var rows []simRow
	var warnings []string
	var last time.Duration // time of the batch before
	for bi, b := range budgets {
		if bi > 0 && clock.budget > 0 {
			est := time.Duration(float64(last) * math.Pow(float64(b)/float64(budgets[bi-1]), 1.5))
			if left := clock.left(); est > left {
				warnings = append(warnings, fmt.Sprintf("the time budget (%v) stopped the simulation at %d labels: the batch to %d labels (%d fits) would take about %v, and %v is left; a larger -time (SimulateSpec.TimeBudget) or fewer methods, seeds or budgets reach further",
					clock.budget, budgets[bi-1], b, len(runs), est.Round(time.Second), left.Round(time.Second)))
				break
			}
		}
		clock.say(fmt.Sprintf("batch to %d labels: %d fits", b, len(runs)))
		t0 := time.Now()
		shared := map[uint64]*simRun{} // per seed, the run whose fit of the random first batch the others share
		for k, run := range runs {
			if err := run.next(ctx, bi, budgets, spec); err != nil {
				return nil, fmt.Errorf("frames: simulate %s, seed %d: %w", run.method, run.seed, err)
			}
			var row simRow
			if f, ok := shared[run.seed]; ok && run.random {
				row, run.kernel, run.lambda = f.first, f.kernel, f.lambda
				row.method = run.method
			} else {
				var err error
				if row, err = run.fit(ctx, b, clock.share(fitsLeft(runs, k, bi == 0)), !spec.NoPoolWeights && (bi > 0 || !run.random)); err != nil {
					return nil, fmt.Errorf("frames: simulate %s, seed %d: fit on %d labels: %w", run.method, run.seed, b, err)
				}
				if bi == 0 && run.random {
					run.first, shared[run.seed] = row, run
				}
			}
			rows = append(rows, row)
			cut := ""
			if row.cut {
				cut = "; its search cut short by its share of the time budget"
			}
			clock.say(fmt.Sprintf("seed %d %-8s %5d labels: test RMSE %.4g, estimated %.4g, projected at 2x %.4g (%s, sigma %.3g, lambda %.2g, selection %.1f s%s)",
				row.seed, row.method, b, row.rmse, row.est, row.proj2, row.kernel, row.sigma, row.lambda, row.seconds, cut))
		}
		last = time.Since(t0)
	}
	order := map[string]int{}
	for k, m := range methods {
		order[m] = k
	}
	sort.SliceStable(rows, func(i, j int) bool { // by repetition, method, then labels
		a, b := rows[i], rows[j]
		if a.seed != b.seed {
			return a.seed < b.seed
		}
		return order[a.method] < order[b.method]
	})
	res, err := simulateFrames(rows, methods, budgets)
	if err != nil {
		return nil, err
	}
	res.Warnings, res.OutOfTime = warnings, len(warnings) > 0
	if w := cutShort(rows); w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	return res, nil
}

// cutShort says which fits the time budget stopped before their search
// ended ("" for none): their test RMSE is that of a shorter search than
// the other fits', which the comparison of methods should know.
func cutShort(rows []simRow) string {
	var cut []string
	for _, r := range rows {
		if r.cut {
			cut = append(cut, fmt.Sprintf("%s at %d labels (seed %d)", r.method, r.labels, r.seed))
		}
	}
	if len(cut) == 0 {
		return ""
	}
	n, more := len(cut), ""
	if n > 5 {
		cut, more = cut[:5], ", ..."
	}
	return fmt.Sprintf("%d of %d fits stopped their search at their share of the time budget, so their test RMSE is that of a shorter search: %s%s; a larger -time (SimulateSpec.TimeBudget) gives every fit its whole search",
		n, len(rows), strings.Join(cut, ", "), more)
}

// simClock is the time budget and progress of a simulation.
type simClock struct {
	start    time.Time
	budget   time.Duration // <= 0: no bound
	progress func(string)
}

// left returns the time left in the budget.
func (c simClock) left() time.Duration { return c.budget - time.Since(c.start) }

// share returns a fit's search budget when fits fits remain in the
// batch: an even share of the time left, at most credlab.DefaultTimeBudget
// and at least a second; negative (no bound) without a budget.
func (c simClock) share(fits int) time.Duration {
	if c.budget <= 0 {
		return -1
	}
	return min(max(c.left()/time.Duration(max(fits, 1)), time.Second), credlab.DefaultTimeBudget)
}

// randomFirst says whether a method's first batch is the seed's random
// one, the same for each such method: every method's but CRED's (its own
// design) and, with OneShot, the batch methods' (their own choice).
func randomFirst(method string, oneShot bool) bool {
	return method != "cred" && !(oneShot && method != "uniform")
}

// fitsLeft counts the fits from runs[k] on in a batch: in the first
// (first true), the random runs after the first of their seed share its
// fit and do not count.
func fitsLeft(runs []*simRun, k int, first bool) int {
	n := 0
	seen := map[uint64]bool{}
	for j, r := range runs {
		shares := first && r.random && seen[r.seed]
		if first && r.random {
			seen[r.seed] = true
		}
		if j >= k && !shares {
			n++
		}
	}
	return n
}

// say sends a progress line with the time used and left.
func (c simClock) say(line string) {
	if c.progress == nil {
		return
	}
	el := time.Since(c.start).Round(time.Second)
	if c.budget > 0 {
		c.progress(fmt.Sprintf("%s [%v elapsed, %v left]", line, el, max(c.left(), 0).Round(time.Second)))
		return
	}
	c.progress(fmt.Sprintf("%s [%v elapsed]", line, el))
}

// simSplit is one repetition's test rows and pool.
type simSplit struct {
	xt, xp *mat.Dense
	yt, yp []float64
}

// simRow is one fit of the simulation.
type simRow struct {
	seed                uint64
	method, kernel      string
	labels              int
	rmse, sigma, lambda float64
	seconds             float64
	// est is the fit's estimate of its RMSE (credlab.Choice.PoolRMSE),
	// within estLo to estHi at 90%; NaN without one.
	est, estLo, estHi float64
	// proj15 and proj2 are the RMSE its learning curve projects at 1.5
	// and 2 times the labels (credlab.Choice.Curve); NaN without one.
	proj15, proj2 float64
	// cut reports that the time budget stopped the fit's search
	// (credlab.Choice.OutOfTime).
	cut bool
	// pool is its RMSE on the pool rows not labeled, the target of est
	// (NaN when every pool row is labeled).
	pool float64
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
	for _, v := range []struct {
		name string
		v    int
	}{{"Initial", ini}, {"Final", final}} {
		if v.v < 2 {
			return nil, &credlab.ParamError{Name: "SimulateSpec." + v.name, Value: v.v, Want: "at least 2 rows to fit"}
		}
	}
	final = min(final, pool)
	ini = min(ini, final)
	if ini < 2 {
		return nil, &credlab.ParamError{Name: "SimulateSpec.Final", Value: final, Want: fmt.Sprintf("at least 2 rows to fit (the pool has %d)", pool)}
	}
	b := []int{ini}
	for b[len(b)-1] < final {
		b = append(b, min(b[len(b)-1]+batch, final))
	}
	return b, nil
}

// simRun is one method's labeling loop on one repetition's pool.
type simRun struct {
	method string
	seed   uint64
	split  *simSplit
	perm   []int // the uniform order of the pool's rows
	// labeled are the pool rows labeled so far, w their importance weights
	// (CRED; nil otherwise), audit the batch methods' audit weights, sel
	// CRED's design so far.
	labeled   []int
	w, audit  []float64
	sel       *credlab.Selection
	kernel    credlab.Kernel // the last fit's kernel and lambda, which
	lambda    float64        // the next batch selects with
	selection float64        // seconds of the last selection
	// random says that the first batch is the seed's random one, the same
	// for every such method, and first is its fit.
	random bool
	first  simRow
}

// next labels the rows of batch bi: the random first batch (CRED's own,
// or the method's with OneShot), or the method's choice given the last fit.
func (r *simRun) next(ctx context.Context, bi int, budgets []int, spec SimulateSpec) error {
	xp := r.split.xp
	n, _ := xp.Dims()
	share := auditShare(spec.Audit)
	t0, timed := time.Now(), true // the random first batch takes no selection time
	defer func() {
		r.selection = 0
		if timed {
			r.selection = time.Since(t0).Seconds()
		}
	}()
	if bi == 0 {
		r.perm = rand.New(rand.NewPCG(r.seed, 0x66697273)).Perm(n)
		r.labeled = append([]int(nil), r.perm[:budgets[0]]...)
		switch {
		case r.method == "cred":
			sel, err := simulateCRED(ctx, xp, budgets[0], r.seed, nil)
			if err != nil {
				return err
			}
			r.sel, r.labeled, r.w = sel, sel.Index, sel.Weight
		case !r.random:
			s, err := credlab.BatchSelector{Method: r.method, M: min(spec.M, n), Audit: share}.Select(ctx, xp, budgets[0], r.seed)
			if err != nil {
				return err
			}
			r.labeled, r.audit = s.Index, s.Audit
		default: // r.random
			timed = false
		}
		return nil
	}
	b, next := budgets[bi-1], budgets[bi]
	switch r.method {
	case "uniform":
		r.labeled = append(r.labeled, r.perm[b:next]...)
	case "cred":
		sel, err := simulateCRED(ctx, xp, next-b, r.seed, r.sel)
		if err != nil {
			return err
		}
		r.sel, r.labeled, r.w = sel, sel.Index, sel.Weight
	default:
		noise := math.Min(math.Max(float64(len(r.labeled))*r.lambda, 1e-6), 1)
		bs := credlab.BatchSelector{Method: r.method, Kernel: r.kernel, M: min(spec.M, n), Noise: noise, Previous: &credlab.Selection{Index: r.labeled, Audit: r.audit}, Audit: share}
		s, err := bs.Select(ctx, xp, next-b, r.seed)
		if err != nil {
			return err
		}
		r.labeled, r.audit = s.Index, s.Audit
	}
	return nil
}

// fit fits the default model on the b rows labeled so far, with a search
// budget (weighted to the pool with poolWeights), and measures it on the
// test rows.
func (r *simRun) fit(ctx context.Context, b int, budget time.Duration, poolWeights bool) (simRow, error) {
	sp := r.split
	xl, yl := gatherX(sp.xp, r.labeled), gatherFloats(sp.yp, r.labeled)
	w := r.w
	if poolWeights && r.method != "uniform" && r.method != "cred" {
		var err error
		if w, err = credlab.PoolWeights(ctx, sp.xp, xl, r.kernel); err != nil {
			return simRow{}, err
		}
	}
	// The selectors reuse the fit's kernel on the pool's columns as they
	// are: no normal-score map.
	fit, err := credlab.Tune(ctx, xl, yl, credlab.TuneConfig{Weights: w, Audit: auditRows(r.audit), Seed: r.seed, TimeBudget: budget, Transform: credlab.TransformOff})
	if err != nil {
		return simRow{}, err
	}
	pred, err := fit.Fit.Model.Predict(sp.xt)
	if err != nil {
		return simRow{}, err
	}
	poolRMSE := math.NaN() // none when every pool row is labeled
	rest := unlabeledRows(len(sp.yp), r.labeled)
	if len(rest) > 0 {
		xr, err := credlab.GatherRows(sp.xp, rest)
		if err != nil {
			return simRow{}, err
		}
		p, err := fit.Fit.Model.Predict(xr)
		if err != nil {
			return simRow{}, err
		}
		poolRMSE = credlab.RMSE(p, gatherFloats(sp.yp, rest))
	}
	ch := fit.Choice
	r.kernel, r.lambda = ch.Kernel, ch.Lambda
	row := simRow{seed: r.seed, method: r.method, labels: b, rmse: credlab.RMSE(pred, sp.yt), kernel: kernelFamilyName(ch.Kernel), sigma: ch.Sigma, lambda: ch.Lambda, seconds: r.selection,
		est: math.NaN(), estLo: math.NaN(), estHi: math.NaN(), proj15: math.NaN(), proj2: math.NaN(),
		pool: poolRMSE, cut: ch.OutOfTime}
	if e := ch.PoolRMSE; e != nil {
		o := e.OverRows(len(rest))
		row.est, row.estLo, row.estHi = o.RMSE, o.Lo, o.Hi
	}
	if c := ch.Curve; c != nil {
		row.proj15, row.proj2 = c.Projected[1], c.Projected[2]
	}
	return row, nil
}

// unlabeledRows returns the rows 0..n-1 not in labeled, in order.
func unlabeledRows(n int, labeled []int) []int {
	in := make([]bool, n)
	for _, i := range labeled {
		in[i] = true
	}
	var rest []int
	for i, l := range in {
		if !l {
			rest = append(rest, i)
		}
	}
	return rest
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
// replacement, scored as Select scores a pool by default (scoreMap):
// the median-distance Gaussian kernel, exactly up to ExactScoreRows rows,
// on LargePoolM Nyström features beyond.
func simulateCRED(ctx context.Context, xp *mat.Dense, add int, seed uint64, prev *credlab.Selection) (*credlab.Selection, error) {
	c := credlab.CREDSelector{Design: credlab.WithoutReplacement, Previous: prev}
	if prev == nil {
		n, _ := xp.Dims()
		k := credlab.GaussianKernel{Sigma: credlab.MedianDistance(xp)}
		if fm, m, _ := scoreMap("", 0, n); fm == "" {
			c.Kernel = k
		} else {
			idx, err := credlab.NystromCenters(xp, m, nil, seed)
			if err != nil {
				return nil, err
			}
			if c.Features, err = credlab.NewNystrom(k, xp, idx, 0); err != nil {
				return nil, err
			}
		}
	}
	return c.Select(ctx, xp, add, seed)
}

// simulateFrames builds the result frames.
func simulateFrames(rows []simRow, methods []string, budgets []int) (*SimulateResult, error) {
	var seed, labels []int
	var method, kernel []string
	var rmse, sigma, lambda, secs, est, estLo, estHi, proj15, proj2, pool []float64
	uni := map[[2]int]float64{} // (seed, labels) -> uniform RMSE
	for _, r := range rows {
		seed = append(seed, int(r.seed))
		method, kernel = append(method, r.method), append(kernel, r.kernel)
		labels = append(labels, r.labels)
		rmse, sigma, lambda, secs = append(rmse, r.rmse), append(sigma, r.sigma), append(lambda, r.lambda), append(secs, r.seconds)
		est, estLo, estHi = append(est, r.est), append(estLo, r.estLo), append(estHi, r.estHi)
		proj15, proj2, pool = append(proj15, r.proj15), append(proj2, r.proj2), append(pool, r.pool)
		if r.method == "uniform" {
			uni[[2]int{int(r.seed), r.labels}] = r.rmse
		}
	}
	curves := dataframe.New(series.New(seed, series.Int, "seed"), series.New(method, series.String, "method"),
		series.New(labels, series.Int, "labels"), series.New(rmse, series.Float, "rmse"),
		series.New(kernel, series.String, "kernel"), series.New(sigma, series.Float, "sigma"), series.New(lambda, series.Float, "lambda"),
		series.New(secs, series.Float, "seconds"), series.New(est, series.Float, "est_rmse"),
		series.New(estLo, series.Float, "est_lo"), series.New(estHi, series.Float, "est_hi"),
		series.New(proj15, series.Float, "proj_1.5x"), series.New(proj2, series.Float, "proj_2x"),
		series.New(pool, series.Float, "pool_rmse"))
	type key struct {
		m string
		b int
	}
	logR, logQ := map[key][]float64{}, map[key][]float64{}
	for _, r := range rows {
		k := key{r.method, r.labels}
		logR[k] = append(logR[k], math.Log(r.rmse))
		q := math.NaN()
		if u, ok := uni[[2]int{int(r.seed), r.labels}]; ok {
			q = math.Log(r.rmse / u)
		}
		logQ[k] = append(logQ[k], q)
	}
	var rm []string
	var rb []int
	var rr, rq, lo, hi []float64
	sorted := append([]int(nil), budgets...)
	sort.Ints(sorted)
	for _, m := range methods {
		for _, b := range sorted {
			k := key{m, b}
			if len(logR[k]) == 0 {
				continue
			}
			rm, rb = append(rm, m), append(rb, b)
			rr = append(rr, math.Exp(stat.Mean(logR[k], nil)))
			q, l, h := ratioInterval(logQ[k])
			rq, lo, hi = append(rq, q), append(lo, l), append(hi, h)
		}
	}
	ratios := dataframe.New(series.New(rm, series.String, "method"), series.New(rb, series.Int, "labels"),
		series.New(rr, series.Float, "rmse"), series.New(rq, series.Float, "ratio"),
		series.New(lo, series.Float, "ratio_lo"), series.New(hi, series.Float, "ratio_hi"))
	if curves.Err != nil || ratios.Err != nil {
		return nil, fmt.Errorf("frames: simulate: building the result: %v %v", curves.Err, ratios.Err)
	}
	return &SimulateResult{Curves: curves, Ratios: ratios}, nil
}

// ratioInterval returns the geometric mean of the ratios whose logs are
// logQ, one per repetition, and its 90% interval: exp(mean +- t_{0.95,k-1}
// sd / sqrt(k)) over k repetitions (Student's t on the log ratios, paired
// by seed); NaN bounds with one repetition, all NaN when one is NaN.
func ratioInterval(logQ []float64) (ratio, lo, hi float64) {
	if len(logQ) == 1 {
		return math.Exp(logQ[0]), math.NaN(), math.NaN()
	}
	k := float64(len(logQ))
	m, sd := stat.MeanStdDev(logQ, nil)
	h := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: k - 1}.Quantile(0.95) * sd / math.Sqrt(k)
	return math.Exp(m), math.Exp(m - h), math.Exp(m + h)
}

// rowsOf is credlab.GatherRows on indices known to be rows of x.
func gatherX(x *mat.Dense, idx []int) *mat.Dense {
	g, _ := credlab.GatherRows(x, idx)
	return g
}
