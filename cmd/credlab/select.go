package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/frames/parquet"
	"github.com/go-gota/gota/dataframe"
)

func selectCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("select", "select -pool FILE -budget N -method cred|uniform|greedy -seed S -target COL -out FILE.csv [flags]", stderr)
	pool := fs.String("pool", "", "data file (CSV, TSV, ARFF, LIBSVM, IDX or Parquet) of the unlabeled pool (required; .gz is decompressed)")
	budget := fs.Int("budget", 0, "number of rows to label (required, > 0): distinct rows under -design without, at most the rows not yet labeled; draws under replacement or distinct")
	method := fs.String("method", "", "selection (default: lcmd after -labeled rows of weight 1 whose -target labels are filled in, the batch loop where it measured best; cred otherwise): cred (importance sampling by leverage scores), uniform, greedy (GSx: each next row farthest from those chosen), or a batch method (maxdet, maxdiag, bait and herding on -m Nyström features, default 256; lcmd, kmeanspp and maxdist on the kernel's exact feature distances), rows in -labeled counting as chosen, with the kernel tuned on their -target labels when filled in: lcmd, kmeanspp, maxdist, maxdet, maxdiag, bait or herding (docs/labeling.md)")
	design := fs.String("design", "without", "how rows are drawn: without (exactly -budget distinct rows, Horvitz-Thompson weights: what a labeler is paid for), replacement (the CRED paper's draws; a row can repeat) or distinct (the same draws, each row once with its count in its weight)")
	labeled := fs.String("labeled", "", "CSV of an earlier select output on the same pool with the same flags and -seed: its rows are kept, the next batch continues the design, and -out gets the union with a batch column, the same rows and weights as one select of the total budget")
	seed := fs.Uint64("seed", 1, "random seed of the draw and of random features")
	out := fs.String("out", "", "output CSV (Parquet when the name ends in .parquet): the chosen rows in draw order with the pool's columns plus row (0-based pool index), prob and weight, and for a batch method or greedy pool_weight, each row's share of the pool, which fit weighs the rows by (required)")
	sf := newScoreFlags(fs)
	columns := fs.String("columns", "", "comma-separated columns the selector sees (default: every column but -target and -exclude; string columns need -onehot)")
	exclude := fs.String("exclude", "", "comma-separated columns left out of the default features, such as the label")
	standardize := fs.Bool("standardize", true, "center and scale each column to unit variance before scoring, as fit does; -standardize=false scores the columns as they are")
	oneHot := fs.Bool("onehot", false, "encode string columns as 0/1 columns, one per level")
	dropNA := fs.Bool("dropna", false, "never choose rows with a missing value (otherwise an error)")
	quiet := fs.Bool("quiet", false, "quiet: no progress and no final summary on stderr (results on stdout and warnings remain)")
	asJSON := fs.Bool("json", false, "print a machine-readable summary (JSON) on stdout")
	audit := fs.Float64("audit", frames.DefaultAuditShare, "share of a batch method's batch drawn uniformly as an audit sample, marked in an audit column with weights 1/pi, from which fit estimates the model's RMSE on the pool (0: none; at most 0.5; cred and uniform need none)")
	target := fs.String("target", "", "label column: left out of the scores and written empty, ready to fill in (for example by 'credlab label')")
	timeBudget := fs.Duration("time", 0, "time budget of tuning the kernel on the -labeled rows' labels, as fit's -time, such as 60s (0: 100s; negative: no bound); a search the budget stops keeps the best kernel so far and says so")
	var lf loadFlags
	lf.register(fs)
	if err := lf.parse(fs, args, stderr, quiet, "pool", "out"); err != nil {
		return err
	}
	if *budget <= 0 {
		return usagef("select: flag -budget must be a positive number of rows (got %d)", *budget)
	}
	if !(*audit >= 0 && *audit <= 0.5) {
		return usagef("select: flag -audit must be a share from 0 to 0.5 (got %g)", *audit)
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
	case "without", "replacement", "distinct":
	default:
		return usagef("select: flag -design %q: choose without (the default), replacement or distinct", *design)
	}
	excl := splitList(*exclude)
	if *target != "" {
		excl = append(excl, *target)
	}
	spec := frames.SelectSpec{Method: *method, Features: splitList(*columns), Exclude: excl,
		Kernel: *sf.kernel, Sigma: *sf.sigma, LambdaQ: *sf.lambda, FeatureMap: fm, M: m, Seed: *seed,
		Scale: scaleFlag(*standardize), OneHot: *oneHot, DropNA: *dropNA, Design: *design, Target: *target, Audit: *audit, TimeBudget: *timeBudget}
	if *audit == 0 {
		spec.Audit = -1
	}
	var p *progress // set when the selection starts
	spec.Report = func(line string) {
		if p != nil {
			p.clear()        // the line replaces the live progress line, which the next tick redraws
			p.setDetail(nil) // lines come once the tuning on the labels has ended
		}
		if w, ok := strings.CutPrefix(line, "warning: "); ok {
			fmt.Fprintln(stderr, "credlab: warning: "+w) // warnings remain under -quiet
		} else if !*quiet {
			fmt.Fprintln(stderr, "credlab: select: "+line)
		}
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
	if *target == "" && *columns == "" {
		spec.Exclude = labelColumns(stderr, "select", &lf, *pool, df, spec.Exclude, *quiet)
	}
	p = newProgress(stderr, *quiet, 0)
	spec.Progress = func(s credlab.TuneStatus) {
		p.setDetail(func() string { return "tuning the kernel on the labels: " + searchStatus(s) })
	}
	stop := p.ticker("selecting")
	chosen, err := frames.SelectContext(ctx, df, *budget, spec)
	stop()
	if err != nil {
		p.clear()
		err = namePoolRows(err, fmt.Sprintf("-labeled %s (rows of -pool %s)", *labeled, *pool))
		return fmt.Errorf("select %s: %w", *pool, lf.locate(err, *pool, df))
	}
	p.clear()
	warnFlat(stderr, chosen, *method, *standardize)
	if *target != "" {
		chosen = emptyTarget(chosen, *target)
	}
	if err := writeFrame(ctx, *out, chosen); err != nil {
		return err
	}
	how := strings.ToLower(*method)
	switch {
	case how == "" && *labeled == "":
		how = "cred" // the default's first batch
	case how == "":
		how = "the default method" // lcmd or cred, reported above
	}
	if *asJSON {
		if err := writeJSON(stdout, map[string]any{"command": "select", "pool": *pool, "out": *out, "method": how,
			"design": strings.ToLower(*design), "budget": *budget, "rows": chosen.Nrow(), "pool_rows": df.Nrow(), "seed": *seed}); err != nil {
			return err
		}
	}
	p.done(fmt.Sprintf("select: %d of %d rows of %s by %s, written to %s", chosen.Nrow(), df.Nrow(), *pool, how, *out))
	return nil
}

// loadOutputCSV reads a CSV (or, by its name, Parquet) file written by
// credlab (a select output), whatever -format says about the data.
func loadOutputCSV(flagName, path string) (dataframe.DataFrame, error) {
	load := func(p string) (dataframe.DataFrame, error) { return frames.LoadCSV(p) }
	if frames.DataFormat(path) == "parquet" {
		load = parquet.Load
	}
	df, err := load(path)
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
		kernel:   fs.String("kernel", "gaussian", "kernel scoring the rows: gaussian, matern52, matern32, manhattan, laplacian or linear"),
		sigma:    fs.Float64("sigma", 0, "Gaussian or Laplacian bandwidth (0: the median distance between rows)"),
		features: fs.String("features", "auto", "leverage scores from the exact kernel matrix (exact), approximated by BLESS without it (bless), or from random Fourier features (rf) or Nyström features (nystrom); auto: exact up to 5,000 rows, beyond it Nyström features, 2000 up to 50,000 rows and fewer for larger pools (about 2e11 flops)"),
		m:        fs.Int("m", 100, "number of random Fourier or Nyström features (-features rf, nystrom; with -features auto, the Nyström features beyond 5,000 rows, default 2000 up to 50,000 rows), or BLESS dictionary size (-features bless; default 400)"),
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
	given := 0 // -m when set on the command line
	sf.fs.Visit(func(f *flag.Flag) {
		if f.Name == "m" {
			given = *sf.m
		}
	})
	switch strings.ToLower(*sf.features) {
	case "auto":
		return "", given, nil // the Nyström features beyond 5,000 rows
	case "exact":
		return "exact", 0, nil
	case "rf", "fourier":
		return "fourier", *sf.m, nil
	case "nystrom":
		return "nystrom", *sf.m, nil
	case "bless":
		return "bless", given, nil // 0: frames' default dictionary
	}
	return "", 0, usagef("%s: flag -features %q: choose auto, exact, bless, rf or nystrom", cmd, *sf.features)
}
