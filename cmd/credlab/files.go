package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/viz"
	"github.com/go-gota/gota/dataframe"
)

// loadCSV reads a CSV file through frames, naming the flag and file in a
// missing-file error.
func loadCSV(flagName, path string) (dataframe.DataFrame, error) {
	if _, err := os.Stat(path); err != nil {
		return dataframe.DataFrame{}, fmt.Errorf("-%s %s: %w", flagName, path, errors.Unwrap(err))
	}
	df, err := frames.LoadCSV(path)
	if err != nil {
		return df, fmt.Errorf("-%s %s: %w", flagName, path, err)
	}
	return df, nil
}

// hasColumn checks that df has the column named by a flag.
func hasColumn(df dataframe.DataFrame, file, flagName, col string) error {
	for _, n := range df.Names() {
		if n == col {
			return nil
		}
	}
	return fmt.Errorf("%s has no column %q (flag -%s); its columns are %s", file, col, flagName, strings.Join(df.Names(), ", "))
}

// modelFlags are the Spec settings shared by fit and sweep.
type modelFlags struct {
	target, method, kernel, weight, columns, exclude, featureMap, preset string
	m, iters, maxIter, passes, batch                                     int
	lambda, sigma, eta, validation, threshold, decay                     float64
	accelerated, standardize, oneHot, dropNA                             bool
	seed                                                                 uint64
}

func (f *modelFlags) register(fs *flag.FlagSet, sweep bool) {
	fs.StringVar(&f.target, "target", "", "column to predict (required)")
	fs.StringVar(&f.method, "method", "krls", "method: "+strings.Join(frames.MethodNames(), ", ")+" (aliases: gd = earlystopping, ridge = linear, sgd = sgm)")
	fs.StringVar(&f.kernel, "kernel", "gaussian", "kernel: gaussian, laplacian, linear or polynomial")
	fs.StringVar(&f.weight, "weight", "", "column of positive importance weights, such as the weight column select writes")
	fs.StringVar(&f.columns, "columns", "", "comma-separated feature columns (default: every numeric column except the target, the weight and select's row, prob and weight)")
	fs.StringVar(&f.exclude, "exclude", "", "comma-separated columns left out of the default features")
	fs.StringVar(&f.featureMap, "feature-map", "", "feature map of linear and lineargd: raw, fourier, relu or nystrom (default raw)")
	fs.StringVar(&f.preset, "preset", "", "sgm parameter preset when -batch and -eta are zero: minibatch, simple or batch (default minibatch)")
	fs.IntVar(&f.maxIter, "max-iter", 0, "most gradient steps tried by gd, nytro and lineargd (0: 500)")
	fs.IntVar(&f.batch, "batch", 0, "sgm mini-batch size (0: the preset's)")
	fs.Float64Var(&f.eta, "eta", 0, "step size of gd, nytro, lineargd and sgm (0: the solver's safe step)")
	fs.Float64Var(&f.threshold, "threshold", 0, "early stopping once the validation error exceeds (1+threshold) times its best (0: 0.05; negative: never)")
	fs.Float64Var(&f.decay, "decay", 0, "sgm step-size decay theta in [0, 1), eta_t = eta t^-theta (0: constant step)")
	fs.BoolVar(&f.accelerated, "accelerated", false, "nu-method instead of plain gradient descent (gd, nytro, lineargd; default off)")
	fs.BoolVar(&f.standardize, "standardize", false, "center and scale each feature to unit variance (the model remembers the scaling)")
	fs.BoolVar(&f.oneHot, "onehot", false, "encode string feature columns as 0/1 columns, one per level")
	fs.BoolVar(&f.dropNA, "dropna", false, "drop rows with a missing value in a used column (otherwise an error)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the hold-out split, the Nyström centers, random features and sgm")
	if sweep {
		return
	}
	fs.IntVar(&f.m, "m", 0, "Nyström centers (nkrls, nytro: required) or random features (-feature-map fourier, nystrom: 0 means 100)")
	fs.IntVar(&f.iters, "iters", 0, "exact number of gradient steps (gd, nytro, lineargd, sgm), fitted on all rows (0: chosen on the hold-out split)")
	fs.IntVar(&f.passes, "passes", 0, "most passes over the data for sgm (0: 100)")
	fs.Float64Var(&f.lambda, "lambda", 0, "fixed regularization of krls, nkrls and linear, fitted on all rows (0: chosen on the hold-out split from 1e-15..1)")
	fs.Float64Var(&f.sigma, "sigma", 0, "Gaussian or Laplacian bandwidth (0: the median distance between rows)")
	fs.Float64Var(&f.validation, "validation", 0.2, "fraction of rows held out to choose the parameter; 0 fits on all rows with exactly the given settings (needs -lambda or -iters, except for kols)")
}

// spec checks the flags and returns the frames spec.
func (f *modelFlags) spec(cmd string) (frames.Spec, error) {
	var s frames.Spec
	if f.target == "" {
		return s, usagef("%s: flag -target is required", cmd)
	}
	if f.method == "" {
		return s, usagef("%s: flag -method is empty", cmd)
	}
	for _, c := range []struct {
		name string
		bad  bool
	}{
		{"m", f.m < 0}, {"iters", f.iters < 0}, {"max-iter", f.maxIter < 0}, {"passes", f.passes < 0},
		{"batch", f.batch < 0}, {"lambda", !(f.lambda >= 0) || math.IsInf(f.lambda, 0)},
		{"sigma", !(f.sigma >= 0) || math.IsInf(f.sigma, 0)}, {"eta", !(f.eta >= 0) || math.IsInf(f.eta, 0)},
		{"decay", !(f.decay >= 0 && f.decay < 1)},
		{"validation", !(f.validation >= 0 && f.validation < 1)},
	} {
		if c.bad {
			return s, usagef("%s: flag -%s: value out of range (see 'credlab %s -h')", cmd, c.name, cmd)
		}
	}
	s = frames.Spec{Target: f.target, Method: f.method, Kernel: f.kernel, Weight: f.weight,
		Features: splitList(f.columns), Exclude: splitList(f.exclude), FeatureMap: f.featureMap,
		Preset: f.preset, M: f.m, Iters: f.iters, MaxIter: f.maxIter, Passes: f.passes, Batch: f.batch,
		Lambda: f.lambda, Sigma: f.sigma, StepSize: f.eta, Threshold: f.threshold, Decay: f.decay,
		Validation: f.validation, Accelerated: f.accelerated, Standardize: f.standardize,
		OneHot: f.oneHot, DropNA: f.dropNA, Seed: f.seed}
	return s, nil
}

// checkColumns checks the columns named by flags against the data file.
func (f *modelFlags) checkColumns(df dataframe.DataFrame, file string) error {
	if err := hasColumn(df, file, "target", f.target); err != nil {
		return err
	}
	if f.weight != "" {
		if err := hasColumn(df, file, "weight", f.weight); err != nil {
			return err
		}
	}
	for _, c := range splitList(f.columns) {
		if err := hasColumn(df, file, "columns", c); err != nil {
			return err
		}
	}
	return nil
}

func selectCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("select", "select -pool FILE.csv -budget N -method cred|uniform -seed S -out FILE.csv [flags]", stderr)
	pool := fs.String("pool", "", "CSV file of the unlabeled pool (required; .gz is decompressed)")
	budget := fs.Int("budget", 0, "number of rows to label, drawn with replacement (required, > 0)")
	method := fs.String("method", "cred", "selection: cred (importance sampling by leverage scores) or uniform")
	seed := fs.Uint64("seed", 1, "random seed of the draw and of random features")
	out := fs.String("out", "", "output CSV: the chosen rows in draw order with the pool's columns plus row (0-based pool index), prob and weight (required)")
	lambda := fs.Float64("lambda", 1e-6, "CRED's lambda_q, the regularization of the leverage scores")
	kernel := fs.String("kernel", "gaussian", "kernel scoring the rows: gaussian, laplacian or linear")
	sigma := fs.Float64("sigma", 0, "Gaussian or Laplacian bandwidth (0: the median distance between rows)")
	features := fs.String("features", "exact", "leverage scores from the exact kernel matrix (exact), random Fourier features (rf) or Nyström features (nystrom); use rf or nystrom beyond a few thousand rows")
	m := fs.Int("m", 100, "number of random Fourier or Nyström features (-features rf, nystrom)")
	columns := fs.String("columns", "", "comma-separated columns the selector sees (default: every numeric column)")
	exclude := fs.String("exclude", "", "comma-separated columns left out of the default features, such as the label")
	noRepl := fs.Bool("without-replacement", false, "draw distinct rows (uniform only; -budget must not exceed the pool)")
	standardize := fs.Bool("standardize", false, "scale each column to unit variance before scoring")
	dropNA := fs.Bool("dropna", false, "never choose rows with a missing value (otherwise an error)")
	quiet := fs.Bool("quiet", false, "no progress on stderr, only the final summary")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := required(fs, "pool", "out"); err != nil {
		return err
	}
	if *budget <= 0 {
		return usagef("select: flag -budget must be a positive number of rows (got %d)", *budget)
	}
	if *m <= 0 {
		return usagef("select: flag -m must be positive (got %d)", *m)
	}
	if !(*lambda > 0) || math.IsInf(*lambda, 0) {
		return usagef("select: flag -lambda must be positive (got %g)", *lambda)
	}
	if !(*sigma >= 0) || math.IsInf(*sigma, 0) {
		return usagef("select: flag -sigma must be positive, or 0 for the median heuristic (got %g)", *sigma)
	}
	switch strings.ToLower(*method) {
	case "cred", "uniform":
	default:
		return usagef("select: flag -method %q: choose cred or uniform", *method)
	}
	spec := frames.SelectSpec{Method: *method, Features: splitList(*columns), Exclude: splitList(*exclude),
		Kernel: *kernel, Sigma: *sigma, LambdaQ: *lambda, WithoutReplacement: *noRepl, Seed: *seed,
		Standardize: *standardize, DropNA: *dropNA}
	switch strings.ToLower(*features) {
	case "exact":
	case "rf", "fourier":
		spec.FeatureMap, spec.M = "fourier", *m
	case "nystrom":
		spec.FeatureMap, spec.M = "nystrom", *m
	default:
		return usagef("select: flag -features %q: choose exact, rf or nystrom", *features)
	}
	df, err := loadCSV("pool", *pool)
	if err != nil {
		return err
	}
	for _, c := range spec.Features {
		if err := hasColumn(df, *pool, "columns", c); err != nil {
			return err
		}
	}
	p := newProgress(stderr, *quiet, 0)
	stop := p.ticker("selecting")
	chosen, err := frames.SelectContext(ctx, df, *budget, spec)
	stop()
	if err != nil {
		p.clear()
		return fmt.Errorf("select %s: %w", *pool, classify(err, "method"))
	}
	if err := writeAtomic(ctx, *out, func(w io.Writer) error { return frames.WriteCSV(w, chosen) }); err != nil {
		return err
	}
	p.done(fmt.Sprintf("select: %d of %d rows of %s by %s, written to %s", chosen.Nrow(), df.Nrow(), *pool, strings.ToLower(*method), *out))
	return nil
}

func fitCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("fit", "fit -data FILE.csv -target COL -method M -out MODEL.json [flags]", stderr)
	data := fs.String("data", "", "CSV file of the training rows (required)")
	out := fs.String("out", "", "model file to write, JSON (required)")
	quiet := fs.Bool("quiet", false, "no progress on stderr, only the final summary")
	var mf modelFlags
	mf.register(fs, false)
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := required(fs, "data", "out"); err != nil {
		return err
	}
	spec, err := mf.spec("fit")
	if err != nil {
		return err
	}
	exact := mf.validation == 0
	if exact && mf.lambda == 0 && mf.iters == 0 && !strings.EqualFold(mf.method, "kols") {
		return usagef("fit: -validation 0 fits with exactly the given settings: give -lambda (krls, nkrls, linear) or -iters (gd, nytro, lineargd, sgm)")
	}
	df, err := loadCSV("data", *data)
	if err != nil {
		return err
	}
	if err := mf.checkColumns(df, *data); err != nil {
		return err
	}
	p := newProgress(stderr, *quiet, 0)
	stop := p.ticker("fitting " + mf.method)
	model, err := frames.FitContext(ctx, df, spec)
	stop()
	if err != nil {
		p.clear()
		return fmt.Errorf("fit %s: %w", *data, classify(err, "method"))
	}
	if exact && !math.IsNaN(model.ValRMSE) {
		p.clear()
		return usagef("fit: -validation 0: method %s chose its parameter on a hold-out split; give -iters for an iterative method or -lambda for a lambda method", model.Spec.Method)
	}
	if err := writeAtomic(ctx, *out, model.Save); err != nil {
		return err
	}
	fmt.Fprintln(stdout, describeModel(model))
	p.done(fmt.Sprintf("fit: %s on %d rows of %s, model written to %s", model.Spec.Method, model.Rows, *data, *out))
	return nil
}

// describeModel prints the selected parameter and the validation RMSE.
func describeModel(m *frames.Model) string {
	var param []string
	if m.Spec.Sigma > 0 {
		param = append(param, "sigma="+strconv.FormatFloat(m.Spec.Sigma, 'g', 4, 64))
	}
	if m.Lambda > 0 {
		param = append(param, "lambda="+strconv.FormatFloat(m.Lambda, 'g', 4, 64))
	}
	if m.Iter > 0 {
		param = append(param, "iterations="+strconv.Itoa(m.Iter))
	}
	if m.Passes > 0 {
		param = append(param, "passes="+strconv.FormatFloat(m.Passes, 'g', 4, 64))
	}
	if len(param) == 0 {
		param = append(param, "none")
	}
	val := "none (fitted on all rows)"
	if !math.IsNaN(m.ValRMSE) {
		val = strconv.FormatFloat(m.ValRMSE, 'g', 6, 64)
	}
	return fmt.Sprintf("method %s\nselected %s\nvalidation RMSE %s", m.Spec.Method, strings.Join(param, " "), val)
}

func predictCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("predict", "predict -model MODEL.json -data FILE.csv -out FILE.csv", stderr)
	modelPath := fs.String("model", "", "model file written by 'credlab fit' (required)")
	data := fs.String("data", "", "CSV file with the model's feature columns (required)")
	out := fs.String("out", "", "output CSV: the data's columns plus prediction (required)")
	quiet := fs.Bool("quiet", false, "no final summary on stderr")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := required(fs, "model", "data", "out"); err != nil {
		return err
	}
	if _, err := os.Stat(*modelPath); err != nil {
		return fmt.Errorf("-model %s: %w", *modelPath, errors.Unwrap(err))
	}
	model, err := frames.LoadFile(*modelPath)
	if err != nil {
		return fmt.Errorf("-model %s: %w", *modelPath, err)
	}
	df, err := loadCSV("data", *data)
	if err != nil {
		return err
	}
	pred, err := frames.Predict(model, df)
	if err != nil {
		return fmt.Errorf("predict %s: %w", *data, err)
	}
	if err := writeAtomic(ctx, *out, func(w io.Writer) error { return frames.WriteCSV(w, pred) }); err != nil {
		return err
	}
	if !*quiet {
		newProgress(stderr, true, 0).done(fmt.Sprintf("predict: %d rows of %s, written to %s", pred.Nrow(), *data, *out))
	}
	return nil
}

// floatList and intList are comma-separated list flags.
type floatList []float64

func (l *floatList) String() string {
	if l == nil {
		return ""
	}
	s := make([]string, len(*l))
	for i, v := range *l {
		s[i] = frames.FormatFloat(v)
	}
	return strings.Join(s, ",")
}

func (l *floatList) Set(v string) error {
	*l = nil
	for _, f := range splitList(v) {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || !(x > 0) || math.IsInf(x, 0) {
			return fmt.Errorf("%q is not a positive number", f)
		}
		*l = append(*l, x)
	}
	return nil
}

type intList []int

func (l *intList) String() string {
	if l == nil {
		return ""
	}
	s := make([]string, len(*l))
	for i, v := range *l {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}

func (l *intList) Set(v string) error {
	*l = nil
	for _, f := range splitList(v) {
		x, err := strconv.Atoi(f)
		if err != nil || x <= 0 {
			return fmt.Errorf("%q is not a positive integer", f)
		}
		*l = append(*l, x)
	}
	return nil
}

func sweepCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("sweep", "sweep -data FILE.csv -target COL -method M -out FILE.csv [-svg FILE.svg] [flags]", stderr)
	data := fs.String("data", "", "CSV file of the training rows (required)")
	out := fs.String("out", "", "output CSV: one row per setting and lambda, iteration or pass, with train_rmse, val_rmse and best (required)")
	svg := fs.String("svg", "", "also write the plot: a regularization path (lambda methods) or learning curves (iterative methods)")
	quiet := fs.Bool("quiet", false, "no progress on stderr, only the final summary")
	var mf modelFlags
	mf.register(fs, true)
	var g frames.Grid
	var lambdas, sigmas, lqs floatList
	var ms, passes, batches intList
	fs.Var(&lambdas, "lambda", "comma-separated lambda path of krls, nkrls and linear (default 100 values from 1e-15 to 1)")
	fs.Var(&sigmas, "sigma", "comma-separated bandwidths, one setting each (default: the median distance between rows)")
	fs.Var(&ms, "m", "comma-separated Nyström centers or random features, one setting each (nkrls and nytro need it)")
	fs.Var(&lqs, "lambda-q", "comma-separated CRED lambda_q values: each setting fits on a CRED sample of -budget rows")
	fs.IntVar(&g.Budget, "budget", 0, "rows of each CRED sample (with -lambda-q)")
	fs.Var(&passes, "passes", "comma-separated numbers of passes reported for sgm")
	fs.Var(&batches, "batch-sizes", "comma-separated sgm mini-batch sizes, one run each")
	fs.IntVar(&mf.iters, "iters", 0, "gradient steps run by gd, nytro and lineargd (0: -max-iter, default 500)")
	fs.Float64Var(&mf.validation, "validation", 0.2, "fraction of rows held out for the validation RMSE")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := required(fs, "data", "out"); err != nil {
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
	df, err := loadCSV("data", *data)
	if err != nil {
		return err
	}
	if err := mf.checkColumns(df, *data); err != nil {
		return err
	}
	p := newProgress(stderr, *quiet, 0)
	stop := p.ticker("sweeping " + mf.method)
	sw, err := frames.SweepContext(ctx, df, spec, g)
	stop()
	if err != nil {
		p.clear()
		return fmt.Errorf("sweep %s: %w", *data, classify(err, "method"))
	}
	var fig *viz.Figure
	if *svg != "" {
		if fig, err = sweepFigure(sw); err != nil {
			return fmt.Errorf("sweep plot: %w", err)
		}
	}
	if err := writeAtomic(ctx, *out, func(w io.Writer) error { return frames.WriteCSV(w, sw) }); err != nil {
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
	curves, err := frames.SweepCurves(sw)
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
