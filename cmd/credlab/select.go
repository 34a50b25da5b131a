package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/credlab/credlab/frames"
	"github.com/go-gota/gota/dataframe"
)

func selectCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("select", "select -pool FILE -budget N -method cred|uniform|greedy -seed S -target COL -out FILE.csv [flags]", stderr)
	pool := fs.String("pool", "", "data file (CSV, TSV, ARFF, LIBSVM or IDX) of the unlabeled pool (required; .gz is decompressed)")
	budget := fs.Int("budget", 0, "number of rows to label (required, > 0): draws under -design replacement or distinct, distinct rows under without")
	method := fs.String("method", "", "selection (default: lcmd after -labeled rows of weight 1 whose -target labels are filled in, the batch loop where it measured best; cred otherwise): cred (importance sampling by leverage scores), uniform, greedy (GSx: each next row farthest from those chosen), or a batch method on -m Nyström features (default 256), rows in -labeled counting as chosen, with the kernel tuned on their -target labels when filled in: lcmd, kmeanspp, maxdist, maxdet, maxdiag, bait or herding (docs/labeling.md)")
	design := fs.String("design", "replacement", "how rows are drawn: replacement (the CRED paper's; a row can repeat), distinct (the same draws, each row once with its count in its weight) or without (exactly -budget distinct rows, Horvitz-Thompson weights)")
	labeled := fs.String("labeled", "", "CSV of an earlier select output on the same pool with the same flags and -seed: its rows are kept, the next batch continues the design, and -out gets the union with a batch column, the same rows and weights as one select of the total budget")
	seed := fs.Uint64("seed", 1, "random seed of the draw and of random features")
	out := fs.String("out", "", "output CSV: the chosen rows in draw order with the pool's columns plus row (0-based pool index), prob and weight (required)")
	sf := newScoreFlags(fs)
	columns := fs.String("columns", "", "comma-separated columns the selector sees (default: every numeric column)")
	exclude := fs.String("exclude", "", "comma-separated columns left out of the default features, such as the label")
	noRepl := fs.Bool("without-replacement", false, "same as -design without")
	standardize := fs.Bool("standardize", false, "scale each column to unit variance before scoring")
	dropNA := fs.Bool("dropna", false, "never choose rows with a missing value (otherwise an error)")
	quiet := fs.Bool("quiet", false, "no progress on stderr, only the final summary")
	target := fs.String("target", "", "label column: left out of the scores and written empty, ready to fill in (for example by 'credlab label')")
	var lf loadFlags
	lf.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := lf.apply(stderr, *quiet); err != nil {
		return err
	}
	if err := required(fs, "pool", "out"); err != nil {
		return err
	}
	if *budget <= 0 {
		return usagef("select: flag -budget must be a positive number of rows (got %d)", *budget)
	}
	fm, m, err := sf.check("select")
	if err != nil {
		return err
	}
	switch strings.ToLower(*method) {
	case "", "cred", "uniform", "greedy", "lcmd", "kmeanspp", "maxdist", "maxdet", "maxdiag", "bait", "herding":
	default:
		return usagef("select: flag -method %q: choose cred, uniform, greedy, lcmd, kmeanspp, maxdist, maxdet, maxdiag, bait or herding", *method)
	}
	switch strings.ToLower(*design) {
	case "replacement", "distinct", "without":
	default:
		return usagef("select: flag -design %q: choose replacement, distinct or without", *design)
	}
	excl := splitList(*exclude)
	if *target != "" {
		excl = append(excl, *target)
	}
	spec := frames.SelectSpec{Method: *method, Features: splitList(*columns), Exclude: excl,
		Kernel: *sf.kernel, Sigma: *sf.sigma, LambdaQ: *sf.lambda, FeatureMap: fm, M: m, WithoutReplacement: *noRepl, Seed: *seed,
		Standardize: *standardize, DropNA: *dropNA, Design: *design, Target: *target}
	if !*quiet {
		spec.Report = func(line string) { fmt.Fprintln(stderr, "credlab: select: "+line) }
	}
	df, err := lf.load("pool", *pool)
	if err != nil {
		return err
	}
	if *labeled != "" {
		prev, err := loadOutputCSV("labeled", *labeled)
		if err != nil {
			return err
		}
		spec.Labeled = &prev
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
	warnSigma(stderr, chosen, *sf.sigma, excl, *standardize)
	if *target != "" {
		chosen = emptyTarget(chosen, *target)
	}
	if err := writeAtomic(ctx, *out, func(w io.Writer) error { return frames.WriteCSV(w, chosen) }); err != nil {
		return err
	}
	how := strings.ToLower(*method)
	if how == "" {
		how = "the default method"
	}
	p.done(fmt.Sprintf("select: %d of %d rows of %s by %s, written to %s", chosen.Nrow(), df.Nrow(), *pool, how, *out))
	return nil
}

// loadOutputCSV reads a CSV file written by credlab (a select output),
// whatever -format says about the data.
func loadOutputCSV(flagName, path string) (dataframe.DataFrame, error) {
	df, err := frames.LoadCSV(path)
	if err != nil {
		return df, fmt.Errorf("-%s %s: %w", flagName, path, err)
	}
	return df, nil
}

// scoreFlags are the flags of the leverage scores, shared by select and
// budget.
type scoreFlags struct {
	fs               *flag.FlagSet
	lambda, sigma    *float64
	kernel, features *string
	m                *int
}

func newScoreFlags(fs *flag.FlagSet) scoreFlags {
	return scoreFlags{fs: fs,
		lambda:   fs.Float64("lambda", 1e-6, "CRED's lambda_q, the regularization of the leverage scores"),
		kernel:   fs.String("kernel", "gaussian", "kernel scoring the rows: gaussian, laplacian or linear"),
		sigma:    fs.Float64("sigma", 0, "Gaussian or Laplacian bandwidth (0: the median distance between rows)"),
		features: fs.String("features", "exact", "leverage scores from the exact kernel matrix (exact), approximated by BLESS without it (bless), or from random Fourier features (rf) or Nyström features (nystrom); use bless, rf or nystrom beyond a few thousand rows"),
		m:        fs.Int("m", 100, "number of random Fourier or Nyström features (-features rf, nystrom), or BLESS dictionary size (-features bless; default 400)"),
	}
}

// check validates the flags of command cmd and returns the frames feature
// map ("" for exact scores) and its size.
func (sf scoreFlags) check(cmd string) (string, int, error) {
	if *sf.m <= 0 {
		return "", 0, usagef("%s: flag -m must be positive (got %d)", cmd, *sf.m)
	}
	if !(*sf.lambda > 0) || math.IsInf(*sf.lambda, 0) {
		return "", 0, usagef("%s: flag -lambda must be positive (got %g)", cmd, *sf.lambda)
	}
	if !(*sf.sigma >= 0) || math.IsInf(*sf.sigma, 0) {
		return "", 0, usagef("%s: flag -sigma must be positive, or 0 for the median heuristic (got %g)", cmd, *sf.sigma)
	}
	switch strings.ToLower(*sf.features) {
	case "exact":
		return "", 0, nil
	case "rf", "fourier":
		return "fourier", *sf.m, nil
	case "nystrom":
		return "nystrom", *sf.m, nil
	case "bless":
		m := 0 // frames' default dictionary
		sf.fs.Visit(func(f *flag.Flag) {
			if f.Name == "m" {
				m = *sf.m
			}
		})
		return "bless", m, nil
	}
	return "", 0, usagef("%s: flag -features %q: choose exact, bless, rf or nystrom", cmd, *sf.features)
}
