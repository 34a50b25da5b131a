package frames

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// BudgetSpec says how Budget scores a pool before any label is bought.
// Features, Exclude, Kernel, Sigma, FeatureMap, M, Widths, LambdaQ, Seed,
// OneHot, Scale and DropNA act as in SelectSpec (the columns are
// standardized by default): FeatureMap "" is the exact kernel up to
// ExactScoreRows rows and LargePoolM Nyström features beyond, for the
// scores and the effective dimension curve alike, so that no N x N matrix
// is formed (BudgetReport.Notes says so); "exact" forces the exact kernel.
type BudgetSpec struct {
	Features, Exclude []string
	Kernel            string
	Sigma             float64
	FeatureMap        string
	M                 int
	Widths            []int
	LambdaQ           float64
	// Lambdas is the grid of the effective dimension, default
	// credlab.LogGrid(1e-9, 1, 19).
	Lambdas []float64
	// Pilot, when set, is a small batch of labeled pool rows drawn
	// uniformly (for example a Select with Method "uniform"): its "row"
	// column names pool rows and Target their labels. Budget then projects
	// learning curves for uniform and CRED labeling
	// (credlab.ProjectLearningCurve; at least credlab.MinPilot rows), and
	// the default fit's own curve (credlab.Choice.Curve, method "default
	// fit", its columns as they are: cross-validation RMSE on 2/3 to 9/10 of
	// the pilot, projected to 1.5 and 2 times it).
	Pilot  *dataframe.DataFrame
	Target string
	// Lambda is the ridge of the learning-curve model. By default the
	// uniform and CRED curves fit the default fit's choice on the pilot
	// (kernel, scales and lambda; its lambda with Lambda 0), unless Kernel
	// or Sigma name another kernel, whose lambda KRLS's hold-out search
	// then chooses on the pilot.
	Lambda float64
	// Project lists label counts to project to (default 1 ... 16 times
	// the pilot, doubling).
	Project        []int
	Seed           uint64
	OneHot, DropNA bool
	Scale          string
	// TimeBudget bounds the default fit on the Pilot, as Spec.TimeBudget
	// bounds Fit's (zero: credlab.DefaultTimeBudget; negative: no bound),
	// and Progress receives its reports, then one of Stage "curves" as the
	// uniform and CRED learning curves are projected; its warnings go to
	// Notes.
	TimeBudget time.Duration
	Progress   func(credlab.TuneStatus)
}

// BudgetReport holds the budget diagnostics as frames (and the numbers
// behind them, for figures: viz.EffectiveDimension, viz.ScoreConcentration,
// viz.ProjectedLearningCurves).
type BudgetReport struct {
	// Summary has one row: rows, d_eff (at LambdaQ), tv, top1_share,
	// max_over_mean, variance_gain (credlab.ScoreSummary).
	Summary dataframe.DataFrame
	// Deff has columns lambda and d_eff.
	Deff dataframe.DataFrame
	// Scores has columns row (pool row), score and prob (CRED's q).
	Scores dataframe.DataFrame
	// Curves has columns method, kind ("measured" or "projected"),
	// labels and rmse; empty without a Pilot.
	Curves dataframe.DataFrame

	Lambdas, DeffValues, ScoreValues []float64
	LearningCurves                   []credlab.LearningCurve
	// Scoring says how the scores and d_eff were computed: "exact
	// kernel", "2000 Nyström features" (an underestimate of d_eff as it
	// nears 2000), "100 random Fourier features", "BLESS scores, 400-row
	// dictionary" or "explicit features"; figures put it in their titles.
	Scoring string
	// Notes are the scoring's lines for the user, as SelectSpec.Report
	// receives them: how the numbers were computed when the pool's size
	// chose an approximation, and warnings ("warning: ...") about the
	// settings, such as a sigma far from the median distance.
	Notes []string
}

// Budget returns the budget diagnostics of pool: the effective dimension
// against lambda, the pool's leverage scores and how far they are from
// uniform, CRED's expected variance gain, and, with a pilot batch, the
// projected learning curves. pool and the pilot are not modified.
func Budget(ctx context.Context, pool dataframe.DataFrame, spec BudgetSpec) (*BudgetReport, error) {
	if err := checkFrame(pool, "pool"); err != nil {
		return nil, err
	}
	scale, err := specScale(spec.Scale, "BudgetSpec")
	if err != nil {
		return nil, err
	}
	fs := Spec{Features: spec.Features, Exclude: spec.Exclude, OneHot: spec.OneHot, Scale: scale, DropNA: spec.DropNA}
	if spec.Target != "" && FindColumn(pool, spec.Target, "target") == nil {
		fs.Exclude = append(append([]string(nil), fs.Exclude...), spec.Target)
	}
	p, err := prepare(pool, &fs, "pool")
	if err != nil {
		return nil, err
	}
	if spec.Pilot != nil { // the pilot's checks that need no scores, before the scores
		if err := checkFrame(*spec.Pilot, "pilot"); err != nil {
			return nil, err
		}
		if spec.Target == "" {
			return nil, &credlab.ParamError{Name: "BudgetSpec.Target", Value: `""`, Want: "the name of the pilot's label column (a Pilot needs it)"}
		}
		if err := CheckPoolRows(pool, *spec.Pilot, "pilot", p.d.features); err != nil {
			return nil, err
		}
	}
	var notes []string
	sel, err := selectorOf(ctx, SelectSpec{Method: "cred", Kernel: spec.Kernel, Sigma: spec.Sigma, FeatureMap: spec.FeatureMap, M: spec.M,
		Widths: spec.Widths, LambdaQ: spec.LambdaQ, Seed: spec.Seed, Report: func(line string) { notes = append(notes, line) }}, "BudgetSpec", p, nil)
	if err != nil {
		return nil, err
	}
	c := sel.(credlab.CREDSelector)
	s, err := c.Scores(ctx, p.x)
	if err != nil {
		return nil, err
	}
	sum, err := credlab.SummarizeScores(s)
	if err != nil {
		return nil, err
	}
	q, _ := credlab.CREDDistribution(s)
	lams := spec.Lambdas
	if lams == nil {
		lams = credlab.LogGrid(1e-9, 1, 19)
	}
	deff, err := credlab.EffectiveDimensions(ctx, c.Kernel, c.Features, p.x, lams)
	if err != nil {
		return nil, err
	}
	r := &BudgetReport{Lambdas: lams, DeffValues: deff, ScoreValues: s, Scoring: scoringOf(c), Notes: notes}
	r.Summary = dataframe.New(
		series.New([]int{sum.N}, series.Int, "rows"),
		series.New([]float64{sum.Deff}, series.Float, "d_eff"),
		series.New([]float64{sum.TV}, series.Float, "tv"),
		series.New([]float64{sum.Top1}, series.Float, "top1_share"),
		series.New([]float64{sum.MaxOverMean}, series.Float, "max_over_mean"),
		series.New([]float64{sum.VarianceGain}, series.Float, "variance_gain"))
	r.Deff = dataframe.New(series.New(lams, series.Float, "lambda"), series.New(deff, series.Float, "d_eff"))
	r.Scores = dataframe.New(series.New(p.rows, series.Int, RowColumn), series.New(s, series.Float, "score"), series.New(q, series.Float, ProbColumn))
	if spec.Pilot == nil {
		r.Curves = dataframe.New(series.New([]string{}, series.String, "method"), series.New([]string{}, series.String, "kind"),
			series.New([]int{}, series.Int, "labels"), series.New([]float64{}, series.Float, "rmse"))
		return r, nil
	}
	if c.Kernel == nil {
		return nil, &credlab.ParamError{Name: "BudgetSpec.Kernel", Value: "none", Want: "a kernel for the learning curve"}
	}
	rows, err := Column(*spec.Pilot, RowColumn)
	if err != nil {
		return nil, fmt.Errorf("frames: pilot: %w", err)
	}
	y, err := Column(*spec.Pilot, spec.Target)
	if err != nil {
		return nil, fmt.Errorf("frames: pilot: %w", err)
	}
	at := make(map[int]int, len(p.rows))
	for i, v := range p.rows {
		at[v] = i
	}
	idx := make([]int, len(rows))
	qp := make([]float64, len(rows))
	for i, v := range rows {
		j, ok := at[int(v)]
		if v != math.Trunc(v) || !ok {
			return nil, &credlab.ParamError{Name: "pilot row", Value: v, Want: fmt.Sprintf("a row of the pool's %d that the selector sees (row %d of the pilot)", pool.Nrow(), i)}
		}
		if math.IsNaN(y[i]) {
			return nil, problem(spec.Target, "target", "has no label in row %d of the pilot: every pilot row needs one", i)
		}
		idx[i], qp[i] = j, q[j]
	}
	if len(idx) < credlab.MinPilot {
		return nil, &credlab.ParamError{Name: "pilot labels", Value: len(idx), Want: fmt.Sprintf("at least %d pilot labels for a learning curve", credlab.MinPilot)}
	}
	xp, err := credlab.GatherRows(p.x, idx)
	if err != nil {
		return nil, err
	}
	// The default fit on the pilot; its kernel and lambda, unless Kernel,
	// Sigma or Lambda name others, are the model of the uniform and CRED
	// curves too, so that the three curves measure one model.
	// The curves use the kernel on the pilot's columns as they are: no
	// normal-score map.
	tf, err := credlab.Tune(ctx, xp, y, credlab.TuneConfig{Seed: spec.Seed, TimeBudget: spec.TimeBudget, Status: spec.Progress, Transform: credlab.TransformOff})
	if err != nil {
		return nil, fmt.Errorf("frames: the default fit on the pilot: %w", err)
	}
	for _, w := range tf.Choice.Warnings {
		r.Notes = append(r.Notes, fmt.Sprintf("warning: the default fit on the %d pilot rows: %s", len(y), w))
	}
	if spec.Progress != nil {
		spec.Progress(credlab.TuneStatus{Stage: "curves", BestRMSE: math.NaN(), Elapsed: tf.Choice.Elapsed, Left: -1})
	}
	k, lambda := c.Kernel, spec.Lambda
	if spec.Kernel == "" && spec.Sigma == 0 {
		k = tf.Choice.Kernel
		if lambda == 0 {
			lambda = tf.Choice.Lambda
		}
	}
	if lambda == 0 {
		fit, err := credlab.KRLS(ctx, xp, y, credlab.KRLSConfig{Kernel: k})
		if err != nil {
			return nil, fmt.Errorf("frames: choosing lambda on the pilot: %w", err)
		}
		lambda = fit.Lambda
	}
	curves, err := credlab.ProjectLearningCurve(ctx, xp, y, qp, credlab.LearningCurveConfig{Kernel: k, Lambda: lambda, Project: spec.Project, Seed: spec.Seed})
	if err != nil {
		return nil, err
	}
	if tf.Choice.Curve != nil {
		curves = append(curves, *tf.Choice.Curve)
	}
	r.LearningCurves = curves
	var method, kind []string
	var labels []int
	var rmse []float64
	for _, lc := range curves {
		for i, n := range lc.Labels {
			method, kind, labels, rmse = append(method, lc.Method), append(kind, "measured"), append(labels, n), append(rmse, lc.RMSE[i])
		}
		for i, n := range lc.Project {
			method, kind, labels, rmse = append(method, lc.Method), append(kind, "projected"), append(labels, n), append(rmse, lc.Projected[i])
		}
	}
	r.Curves = dataframe.New(series.New(method, series.String, "method"), series.New(kind, series.String, "kind"),
		series.New(labels, series.Int, "labels"), series.New(rmse, series.Float, "rmse"))
	return r, nil
}

// scoringOf names how c scores the pool, for BudgetReport.Scoring.
func scoringOf(c credlab.CREDSelector) string {
	switch f := c.Features.(type) {
	case nil:
		if c.Approx != nil {
			return fmt.Sprintf("BLESS scores, %d-row dictionary", cmp.Or(c.Approx.Dict, credlab.DefaultBLESSDict))
		}
		return "exact kernel"
	case *credlab.Nystrom:
		r, _ := f.L.Dims()
		return fmt.Sprintf("%d Nyström features", r)
	case *credlab.RandomFourier:
		_, r := f.W.Dims()
		return fmt.Sprintf("%d random Fourier features", r)
	}
	return "explicit features"
}
