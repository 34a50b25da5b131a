package frames

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// Grid lists the parameter values Sweep tries. Empty lists keep the
// Spec's value. Settings are the product Sigma x M x LambdaQ, in that
// nesting order; each setting is one solver call whose path covers every
// lambda (krls, nkrls, linear) or every iteration (earlystopping, nytro,
// lineargd).
type Grid struct {
	// Lambda is the lambda path of krls, nkrls and linear.
	Lambda []float64
	// Sigma is the kernel (or random Fourier) bandwidth.
	Sigma []float64
	// M is the number of Nyström centers or random features.
	M []int
	// LambdaQ makes each setting fit on a CRED sample of Budget rows of
	// the frame drawn with that lambda_q (kernel and sigma of the setting),
	// weighted by the importance weights; validation RMSE is then the
	// weighted estimate of the risk on the whole frame.
	LambdaQ []float64
	Budget  int
	// Passes lists the numbers of passes reported for sgm: one run of
	// max(Passes) passes per setting records them all. Batch lists
	// mini-batch sizes, one sgm run each.
	Passes []int
	Batch  []int
}

// Sweep column names.
const (
	SweepMethod    = "method"
	SweepSetting   = "setting"
	SweepSigma     = "sigma"
	SweepM         = "m"
	SweepLambdaQ   = "lambda_q"
	SweepBatch     = "batch"
	SweepLambda    = "lambda"
	SweepIter      = "iter"
	SweepPasses    = "passes"
	SweepTrainRMSE = "train_rmse"
	SweepValRMSE   = "val_rmse"
	SweepSeconds   = "seconds"
	SweepCriterion = "criterion"
	SweepScore     = "score"
	SweepStage     = "stage"
	SweepBest      = "best"
)

// Sweep fits spec for every setting of grid, with hold-out validation, and
// returns one row per (setting x lambda, iteration or pass) with the
// columns method, setting (0-based index), sigma (0 when unused), m (0
// when unused), lambda_q (0 when unused), batch (sgm's mini-batch size, 0
// for other methods), lambda (0 for iterative methods), iter (0 for lambda
// paths), passes (sgm's passes over the data at iter, 0 for other
// methods), train_rmse, val_rmse, seconds (the setting's fit, including
// CRED selection; the same on each of its rows), criterion (the selection
// criterion: "holdout" for a named method), score (the criterion's value,
// an estimate of the mean squared prediction error: val_rmse squared on a
// hold-out split), stage (the search stage of the automatic method,
// "path" for a named method) and best (true on the one row of the chosen
// setting: least score over the whole sweep).
//
// The automatic method (Method "") runs credlab.Tune once (once per value
// of Grid.M, each with that many Nyström centers) with Grid.Sigma as its
// initial sigma grid and Grid.Lambda as its lambda grid, and returns every
// (sigma, lambda, m) it evaluated, including the points its search added
// when it refined or extended the grids, sorted by m, sigma and lambda;
// a setting is one (sigma, m) pair, seconds is the whole search's time,
// val_rmse is the square root of the score (the hold-out RMSE for
// Selection "holdout") and best marks the choice.
//
// A fixed Spec.Lambda or Spec.Iters does not disable validation here: a
// lambda method runs the path Grid.Lambda (else Spec.Lambdas, else
// Spec.Lambda, else the default grid), and an iterative method runs
// max(Spec.Iters, Spec.MaxIter) steps (default 500) without early stopping
// unless Spec.Threshold is positive.
func Sweep(df dataframe.DataFrame, spec Spec, grid Grid) (dataframe.DataFrame, error) {
	return SweepContext(context.Background(), df, spec, grid)
}

// SweepContext is Sweep with cancellation.
func SweepContext(ctx context.Context, df dataframe.DataFrame, spec Spec, grid Grid) (dataframe.DataFrame, error) {
	var none dataframe.DataFrame
	if spec.Target == "" {
		return none, errNoTarget
	}
	mi, crit, err := resolveSpec(&spec)
	if err != nil {
		return none, err
	}
	if mi == nil {
		return sweepAuto(ctx, df, spec, crit, grid)
	}
	if err := checkGrid(&spec, mi, &grid); err != nil {
		return none, err
	}
	p, err := prepare(df, &spec, "training")
	if err != nil {
		return none, err
	}
	base := pathSpec(spec, mi, grid)
	sigmas := grid.Sigma
	if len(sigmas) == 0 {
		sigmas = []float64{spec.Sigma}
	}
	ms := grid.M
	if len(ms) == 0 {
		ms = []int{spec.M}
	}
	lqs := grid.LambdaQ
	if len(lqs) == 0 {
		lqs = []float64{0}
	}
	batches := grid.Batch
	if len(batches) == 0 {
		batches = []int{spec.Batch}
	}
	t := sweepTable{passes: grid.Passes}
	for _, sigma := range sigmas {
		for _, m := range ms {
			for _, lq := range lqs {
				for _, b := range batches {
					s := base
					s.Sigma, s.M, s.Batch = sigma, m, b
					if err := t.run(ctx, p, s, mi, lq, grid.Budget); err != nil {
						return none, fmt.Errorf("%w (setting %d: sigma %g, m %d, lambda_q %g, batch %d)", err, t.setting, sigma, m, lq, b)
					}
				}
			}
		}
	}
	return t.frame(), nil
}

// checkGrid refuses grid entries the method does not use.
func checkGrid(spec *Spec, mi *methodInfo, g *Grid) error {
	if mi.path == pathNone {
		return &credlab.ParamError{Name: "Spec.Method", Value: strconv.Quote(spec.Method), Want: fmt.Sprintf("a method with a regularization path to sweep (%s has none; use krls)", mi.name)}
	}
	if mi.name != "sgm" {
		if len(g.Passes) > 0 {
			return notApply("Grid.Passes", g.Passes, "it applies to sgm, not "+mi.name)
		}
		if len(g.Batch) > 0 {
			return notApply("Grid.Batch", g.Batch, "it applies to sgm, not "+mi.name)
		}
	}
	if err := positiveInts("Grid.Passes", g.Passes); err != nil {
		return err
	}
	if err := positiveInts("Grid.Batch", g.Batch); err != nil {
		return err
	}
	if len(g.Lambda) > 0 && mi.path != pathLambda {
		return notApply("Grid.Lambda", g.Lambda, mi.name+" is an iterative method; its path runs over iterations")
	}
	if err := positiveFloats("Grid.Sigma", g.Sigma); err != nil {
		return err
	}
	if len(g.Sigma) > 0 && !usesSigma(spec, mi) {
		return notApply("Grid.Sigma", g.Sigma, fmt.Sprintf("method %s with kernel %q and feature map %q has no bandwidth", mi.name, spec.Kernel, spec.FeatureMap))
	}
	if err := positiveInts("Grid.M", g.M); err != nil {
		return err
	}
	if len(g.M) > 0 && !mi.usesM && !(mi.feature && spec.FeatureMap != "" && spec.FeatureMap != "raw" && spec.FeatureMap != "relu") {
		return notApply("Grid.M", g.M, "it sets the Nyström centers of nkrls and nytro or the random features of linear and lineargd, not "+mi.name)
	}
	if err := positiveFloats("Grid.LambdaQ", g.LambdaQ); err != nil {
		return err
	}
	if len(g.LambdaQ) > 0 {
		if g.Budget <= 0 {
			return &credlab.ParamError{Name: "Grid.Budget", Value: g.Budget, Want: "a positive number of rows, which each CRED sample of Grid.LambdaQ draws"}
		}
		if spec.Weight != "" {
			return &credlab.ParamError{Name: "Spec.Weight", Value: strconv.Quote(spec.Weight), Want: `"": Grid.LambdaQ draws its own importance weights`}
		}
	} else if g.Budget != 0 {
		return &credlab.ParamError{Name: "Grid.Budget", Value: g.Budget, Want: "0 without Grid.LambdaQ"}
	}
	return nil
}

// notApply is the *credlab.ParamError of a Grid list set where it does not
// apply, for the reason why.
func notApply(name string, v any, why string) error {
	return &credlab.ParamError{Name: name, Value: v, Want: "an empty list: " + why}
}

// positiveInts refuses a non-positive entry of a Grid list: the
// *credlab.ParamError names the entry, as "Grid.M[2]".
func positiveInts(name string, v []int) error {
	for i, x := range v {
		if x <= 0 {
			return &credlab.ParamError{Name: fmt.Sprintf("%s[%d]", name, i), Value: x, Want: "a positive number"}
		}
	}
	return nil
}

// positiveFloats refuses an entry of a Grid list that is not positive and
// finite, as positiveInts.
func positiveFloats(name string, v []float64) error {
	for i, x := range v {
		if !(x > 0) || math.IsInf(x, 0) {
			return &credlab.ParamError{Name: fmt.Sprintf("%s[%d]", name, i), Value: x, Want: "a positive finite number"}
		}
	}
	return nil
}

// pathSpec sets the spec up to record a validated path.
func pathSpec(s Spec, mi *methodInfo, g Grid) Spec {
	switch mi.path {
	case pathLambda:
		switch {
		case len(g.Lambda) > 0:
			s.Lambdas = g.Lambda
		case len(s.Lambdas) > 0:
		case s.Lambda > 0:
			s.Lambdas = []float64{s.Lambda}
		}
		s.Lambda = 0
	case pathIter:
		s.MaxIter = max(s.Iters, s.MaxIter)
		s.Iters = 0
		if !(s.Threshold > 0) {
			s.Threshold = -1
		}
		for _, p := range g.Passes {
			s.Passes = max(s.Passes, p)
		}
	}
	return s
}

// sweepAuto is Sweep of the automatic method.
func sweepAuto(ctx context.Context, df dataframe.DataFrame, spec Spec, crit credlab.Criterion, grid Grid) (dataframe.DataFrame, error) {
	var none dataframe.DataFrame
	const auto = "it does not apply to the automatic method; name a method"
	switch {
	case len(grid.LambdaQ) > 0:
		return none, notApply("Grid.LambdaQ", grid.LambdaQ, auto)
	case grid.Budget != 0:
		return none, &credlab.ParamError{Name: "Grid.Budget", Value: grid.Budget, Want: "0: " + auto}
	case len(grid.Passes) > 0:
		return none, notApply("Grid.Passes", grid.Passes, auto)
	case len(grid.Batch) > 0:
		return none, notApply("Grid.Batch", grid.Batch, auto)
	}
	if err := positiveFloats("Grid.Sigma", grid.Sigma); err != nil {
		return none, err
	}
	if err := positiveInts("Grid.M", grid.M); err != nil {
		return none, err
	}
	p, err := prepare(df, &spec, "training")
	if err != nil {
		return none, err
	}
	cfg := tuneConfig(spec, crit, p.w, p.audit)
	cfg.Sigmas = grid.Sigma
	if len(grid.Lambda) > 0 {
		cfg.Lambdas, cfg.Lambda = grid.Lambda, 0
	}
	ms := grid.M
	if len(ms) == 0 {
		ms = []int{0}
	}
	type row struct {
		credlab.TunePoint
		secs float64
		best bool
	}
	var rows []row
	best, bestScore := -1, math.Inf(1)
	for _, m := range ms {
		c := cfg
		if m > 0 {
			c.M, c.Method = m, "NKRLS"
		}
		tf, err := credlab.Tune(ctx, p.x, p.y, c)
		if err != nil {
			if m > 0 {
				err = fmt.Errorf("%w (m %d)", err, m)
			}
			return none, err
		}
		ch := tf.Choice
		chosen := -1
		for _, pt := range tf.Table {
			rows = append(rows, row{TunePoint: pt, secs: ch.Elapsed.Seconds()})
			if pt.Sigma == ch.Sigma && pt.Lambda == ch.Lambda && pt.M == ch.M {
				chosen = len(rows) - 1
			}
		}
		if chosen >= 0 && (best < 0 || ch.Score < bestScore) {
			best, bestScore = chosen, ch.Score
		}
	}
	if best >= 0 {
		rows[best].best = true
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.M != b.M {
			return a.M < b.M
		}
		if a.Sigma != b.Sigma {
			return a.Sigma < b.Sigma
		}
		return a.Lambda < b.Lambda
	})
	t := sweepTable{}
	for i, r := range rows {
		if i > 0 && (r.M != rows[i-1].M || r.Sigma != rows[i-1].Sigma) {
			t.setting++
		}
		method := "krls"
		if r.M > 0 {
			method = "nkrls"
		}
		t.add(method, r.Sigma, r.M, 0, 0, r.Lambda, 0, 0, r.TrainRMSE, r.ValRMSE, r.secs, string(crit), r.Score, r.Stage)
		if r.best {
			t.bestRow, t.haveBest = t.rows-1, true
		}
	}
	t.fixedBest = true
	return t.frame(), nil
}

type sweepTable struct {
	setting                    int   // index of the next setting
	passes                     []int // sgm passes to report; nil: all
	rows                       int
	method                     []string
	settings, ms, iters, bs    []int
	sigmas, lqs, lambdas, pass []float64
	train, val, seconds        []float64
	crit, stage                []string
	score                      []float64
	bestRow                    int
	bestVal                    float64
	haveBest                   bool
	fixedBest                  bool // best set by the caller, not by add
}

// add appends one row.
func (t *sweepTable) add(method string, sigma float64, m int, lq float64, batch int, lambda float64, iter int, passes,
	train, val, secs float64, crit string, score float64, stage string) {
	t.method = append(t.method, method)
	t.settings = append(t.settings, t.setting)
	t.sigmas = append(t.sigmas, sigma)
	t.ms = append(t.ms, m)
	t.lqs = append(t.lqs, lq)
	t.bs = append(t.bs, batch)
	t.lambdas = append(t.lambdas, lambda)
	t.iters = append(t.iters, iter)
	t.pass = append(t.pass, passes)
	t.train = append(t.train, train)
	t.val = append(t.val, val)
	t.seconds = append(t.seconds, secs)
	t.crit = append(t.crit, crit)
	t.score = append(t.score, score)
	t.stage = append(t.stage, stage)
	if !t.fixedBest && !math.IsNaN(score) && !math.IsInf(score, 0) && (!t.haveBest || score < t.bestVal) {
		t.bestRow, t.bestVal, t.haveBest = t.rows, score, true
	}
	t.rows++
}

// run fits one setting and appends its path.
func (t *sweepTable) run(ctx context.Context, p *prepared, s Spec, mi *methodInfo, lq float64, budget int) error {
	start := time.Now()
	s.Method = mi.name
	r := &runner{ctx: ctx, mi: mi, s: s, x: p.x, y: p.y, w: p.w}
	if err := r.resolve(); err != nil {
		return err
	}
	if lq > 0 {
		k := r.k
		sel, err := credlab.CREDSelector{Kernel: k, LambdaQ: lq}.Select(ctx, p.x, budget, s.Seed)
		if err != nil {
			return err
		}
		x, err := credlab.GatherRows(p.x, sel.Index)
		if err != nil {
			return err
		}
		r.x, r.y, r.w = x, gatherFloats(p.y, sel.Index), sel.Weight
		if r.mi.feature {
			// Rebuild data-dependent feature maps on the sample.
			if r.fm, err = r.featureMap(); err != nil {
				return err
			}
		}
	}
	fit, err := r.fit()
	if err != nil {
		return err
	}
	secs := time.Since(start).Seconds()
	keep := t.sgmPoints(r.sgm, len(fit.Path))
	for k, pt := range fit.Path {
		if !keep[k] {
			continue
		}
		batch, passes := 0, 0.0
		if r.sgm != nil && k < len(r.sgm.PathPasses) {
			batch, passes = r.sgm.Batch, r.sgm.PathPasses[k]
		}
		sigma := r.s.Sigma
		if !usesSigma(&r.s, mi) {
			sigma = 0
		}
		m := r.s.M
		if !mi.usesM && !(mi.feature && (r.s.FeatureMap == "fourier" || r.s.FeatureMap == "nystrom")) {
			m = 0
		}
		t.add(mi.name, sigma, m, lq, batch, pt.Lambda, pt.Iter, passes, pt.TrainRMSE, pt.ValRMSE, secs,
			string(credlab.CriterionHoldout), pt.ValRMSE*pt.ValRMSE, "path")
	}
	t.setting++
	return nil
}

// sgmPoints marks the path points to report: all, or for sgm with a
// Passes grid the first point at or past each listed pass.
func (t *sweepTable) sgmPoints(f *credlab.SGMFit, n int) []bool {
	keep := make([]bool, n)
	if f == nil || len(t.passes) == 0 || len(f.PathPasses) != n {
		for i := range keep {
			keep[i] = true
		}
		return keep
	}
	for _, p := range t.passes {
		for i, q := range f.PathPasses {
			if q >= float64(p)*(1-1e-12) {
				keep[i] = true
				break
			}
		}
	}
	return keep
}

func (t *sweepTable) frame() dataframe.DataFrame {
	best := make([]bool, t.rows)
	if t.haveBest {
		best[t.bestRow] = true
	}
	return dataframe.New(
		series.New(t.method, series.String, SweepMethod),
		series.New(t.settings, series.Int, SweepSetting),
		series.New(t.sigmas, series.Float, SweepSigma),
		series.New(t.ms, series.Int, SweepM),
		series.New(t.lqs, series.Float, SweepLambdaQ),
		series.New(t.bs, series.Int, SweepBatch),
		series.New(t.lambdas, series.Float, SweepLambda),
		series.New(t.iters, series.Int, SweepIter),
		series.New(t.pass, series.Float, SweepPasses),
		series.New(t.train, series.Float, SweepTrainRMSE),
		series.New(t.val, series.Float, SweepValRMSE),
		series.New(t.seconds, series.Float, SweepSeconds),
		series.New(t.crit, series.String, SweepCriterion),
		series.New(t.score, series.Float, SweepScore),
		series.New(t.stage, series.String, SweepStage),
		series.New(best, series.Bool, SweepBest),
	)
}
