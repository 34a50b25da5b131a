package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/viz"
	"github.com/go-gota/gota/dataframe"
)

func sweepCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("sweep", "sweep -data FILE.csv -target COL -out FILE.csv [-method M] [-svg FILE.svg] [flags]", stderr)
	data := fs.String("data", "", "data file (CSV, TSV, ARFF, LIBSVM, IDX or Parquet) of the training rows (required)")
	out := fs.String("out", "", "output CSV: one row per setting and lambda, iteration or pass (-method auto: per sigma, lambda and m its search evaluated), with train_rmse, val_rmse, criterion, score and best (required)")
	svg := fs.String("svg", "", "also write the plot: a regularization path (lambda methods) or learning curves (iterative methods)")
	quiet := fs.Bool("quiet", false, "quiet: no progress and no final summary on stderr (results on stdout and warnings remain)")
	var lf loadFlags
	lf.register(fs)
	var mf modelFlags
	mf.register(fs, true)
	var g frames.Grid
	var lambdas, sigmas, lqs floatList
	var ms, passes, batches intList
	fs.Var(&lambdas, "lambda", "comma-separated lambda path of auto, krls, nkrls and linear (default: auto's grid, 66 values from 1e-12 to 10, a choice at an end reported; 100 values from 1e-15 to 1 for a named method)")
	fs.Var(&sigmas, "sigma", "comma-separated bandwidths, one setting each (default: auto searches sigma around the median distance between rows, a named method uses that median; with auto the list is the initial grid)")
	fs.Var(&ms, "m", "comma-separated Nyström centers or random features, one setting each (nkrls and nytro need it; auto: Nyström KRLS with each m)")
	fs.Var(&lqs, "lambda-q", "comma-separated CRED lambda_q values: each setting fits on a CRED sample of -budget rows")
	fs.IntVar(&g.Budget, "budget", 0, "rows of each CRED sample (with -lambda-q)")
	fs.Var(&passes, "passes", "comma-separated numbers of passes reported for sgm")
	fs.Var(&batches, "batch-sizes", "comma-separated sgm mini-batch sizes, one run each")
	fs.IntVar(&mf.iters, "iters", 0, "gradient steps run by gd, nytro and lineargd (0: -max-iter, default 500)")
	fs.Float64Var(&mf.validation, "validation", 0.2, "fraction of rows held out for the validation RMSE")
	if err := lf.parse(fs, args, stderr, quiet, "data", "out"); err != nil {
		return err
	}
	if mf.validation == 0 {
		mf.validation = 0.2
	}
	spec, err := mf.spec("sweep")
	if err != nil {
		return err
	}
	if len(lqs) > 0 && g.Budget <= 0 {
		return usagef("sweep: flag -lambda-q needs -budget, a positive number of rows")
	}
	g.Lambda, g.Sigma, g.M, g.LambdaQ, g.Passes, g.Batch = lambdas, sigmas, ms, lqs, passes, batches
	df, err := lf.load("data", *data)
	if err != nil {
		return err
	}
	mf.weight = resolveWeight(df, mf.weight, stderr)
	spec.Weight = mf.weight
	spec.Audit = resolveAudit(df, stderr)
	g.M = clipM(g.M, df.Nrow(), mf.validation, stderr)
	if err := mf.checkColumns(df, *data); err != nil {
		return err
	}
	p := newProgress(stderr, *quiet, 0)
	stop := p.ticker("sweeping " + mf.method)
	sw, err := frames.SweepContext(ctx, df, spec, g)
	stop()
	if err != nil {
		p.clear()
		return fmt.Errorf("sweep %s: %w", *data, lf.locate(err, *data, df))
	}
	var fig *viz.Figure
	if *svg != "" {
		if fig, err = sweepFigure(sw); err != nil {
			return fmt.Errorf("sweep plot: %w", err)
		}
	}
	if err := writeFrame(ctx, *out, sw); err != nil {
		return err
	}
	if fig != nil {
		if err := writeAtomic(ctx, *svg, func(w io.Writer) error { _, err := fig.WriteTo(w); return err }); err != nil {
			return err
		}
	}
	fmt.Fprintln(stdout, bestRow(sw))
	p.done(fmt.Sprintf("sweep: %d rows written to %s", sw.Nrow(), *out))
	return nil
}

// sweepFigure plots a sweep: a regularization path when it runs over
// lambda, learning curves otherwise.
func sweepFigure(sw dataframe.DataFrame) (*viz.Figure, error) {
	curves, err := viz.SweepCurves(sw)
	if err != nil {
		return nil, err
	}
	lam, err := frames.Column(sw, frames.SweepLambda)
	if err != nil {
		return nil, err
	}
	for _, v := range lam {
		if v > 0 {
			return viz.RegularizationPath(curves, viz.Options{})
		}
	}
	return viz.LearningCurves(curves, viz.Options{})
}

// bestRow describes the sweep's best row.
func bestRow(sw dataframe.DataFrame) string {
	best := sw.Filter(dataframe.F{Colname: frames.SweepBest, Comparator: "==", Comparando: true})
	if best.Err != nil || best.Nrow() == 0 {
		return "best: none"
	}
	var parts []string
	for _, c := range []string{frames.SweepSetting, frames.SweepSigma, frames.SweepM, frames.SweepLambdaQ,
		frames.SweepBatch, frames.SweepLambda, frames.SweepIter, frames.SweepPasses, frames.SweepValRMSE} {
		v, err := frames.Column(best, c)
		if err != nil || len(v) == 0 || (v[0] == 0 && c != frames.SweepSetting) {
			continue
		}
		parts = append(parts, c+"="+strconv.FormatFloat(v[0], 'g', 4, 64))
	}
	return "best: " + strings.Join(parts, " ")
}
