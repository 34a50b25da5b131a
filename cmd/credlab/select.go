package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/credlab/credlab/frames"
)

func selectCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("select", "select -pool FILE.csv -budget N -method cred|uniform -seed S -out FILE.csv [flags]", stderr)
	pool := fs.String("pool", "", "data file (CSV, TSV, ARFF, LIBSVM or IDX) of the unlabeled pool (required; .gz is decompressed)")
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
	target := fs.String("target", "", "label column: left out of the scores and written empty, ready to fill in (for example by 'credlab label')")
	var lf loadFlags
	lf.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := lf.apply(); err != nil {
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
	excl := splitList(*exclude)
	if *target != "" {
		excl = append(excl, *target)
	}
	spec := frames.SelectSpec{Method: *method, Features: splitList(*columns), Exclude: excl,
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
	df, err := lf.load("pool", *pool)
	if err != nil {
		return err
	}
	for _, c := range spec.Features {
		if err := hasColumn(df, *pool, "columns", c); err != nil {
			return err
		}
	}
	if *target != "" && !hasName(df, *target) {
		spec.Exclude = splitList(*exclude)
	}
	p := newProgress(stderr, *quiet, 0)
	stop := p.ticker("selecting")
	chosen, err := frames.SelectContext(ctx, df, *budget, spec)
	stop()
	if err != nil {
		p.clear()
		return fmt.Errorf("select %s: %w", *pool, err)
	}
	p.clear()
	warnFlat(stderr, chosen, *method)
	warnSigma(stderr, chosen, *sigma, excl, *standardize)
	if *target != "" {
		chosen = emptyTarget(chosen, *target)
	}
	if err := writeAtomic(ctx, *out, func(w io.Writer) error { return frames.WriteCSV(w, chosen) }); err != nil {
		return err
	}
	p.done(fmt.Sprintf("select: %d of %d rows of %s by %s, written to %s", chosen.Nrow(), df.Nrow(), *pool, strings.ToLower(*method), *out))
	return nil
}
