package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/viz"
	"github.com/go-gota/gota/dataframe"
)

func budgetCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("budget", "budget -pool FILE.csv -out DIR [-pilot FILE.csv -target COL] [flags]", stderr)
	pool := fs.String("pool", "", "data file (CSV, TSV, ARFF, LIBSVM, IDX or Parquet) of the unlabeled pool (required; .gz is decompressed)")
	out := fs.String("out", "", "output directory: summary.csv, deff.csv, scores.csv, curves.csv and the figures effective_dimension.svg, score_concentration.svg (and learning_curves.svg with -pilot) (required)")
	pilot := fs.String("pilot", "", "CSV of a small uniformly drawn labeled batch (a select -method uniform output with the labels added): projects learning curves for uniform and CRED labeling")
	timeBudget := fs.Duration("time", 0, "time budget of the default fit on the -pilot rows, as fit's -time, such as 60s (0: 100s; negative: no bound)")
	target := fs.String("target", "", "label column of the pilot (required with -pilot; left out of the pool's features)")
	sf := newScoreFlags(fs)
	columns := fs.String("columns", "", "comma-separated columns the selector sees (default: every column but -target and -exclude; string columns need -onehot)")
	exclude := fs.String("exclude", "", "comma-separated columns left out of the default features")
	seed := fs.Uint64("seed", 1, "random seed of random features and of the learning-curve subsamples")
	standardize := fs.Bool("standardize", true, "center and scale each column to unit variance before scoring, as fit does; -standardize=false scores the columns as they are")
	oneHot := fs.Bool("onehot", false, "encode string columns as 0/1 columns, one per level")
	dropNA := fs.Bool("dropna", false, "leave out rows with a missing value (otherwise an error)")
	asJSON := fs.Bool("json", false, "print a machine-readable summary (JSON) on stdout instead of the text summary")
	quiet := fs.Bool("quiet", false, "quiet: no progress and no final summary on stderr (results on stdout and warnings remain)")
	var lf loadFlags
	lf.register(fs)
	if err := lf.parse(fs, args, stderr, quiet, "pool", "out"); err != nil {
		return err
	}
	if *pilot != "" && *target == "" {
		return usagef("budget: flag -pilot needs -target, the column of the pilot's labels")
	}
	fm, m, err := sf.check("budget")
	if err != nil {
		return err
	}
	spec := frames.BudgetSpec{Features: splitList(*columns), Exclude: splitList(*exclude), Kernel: *sf.kernel, Sigma: *sf.sigma,
		LambdaQ: *sf.lambda, FeatureMap: fm, M: m, Target: *target, Seed: *seed, Scale: scaleFlag(*standardize), OneHot: *oneHot, DropNA: *dropNA, TimeBudget: *timeBudget}
	df, err := lf.load("pool", *pool)
	if err != nil {
		return err
	}
	if *target == "" && *columns == "" {
		spec.Exclude = labelColumns(stderr, "budget", &lf, *pool, df, spec.Exclude, *quiet)
	}
	if *pilot != "" {
		pf, err := loadOutputCSV("pilot", *pilot)
		if err != nil {
			return err
		}
		if err := hasColumn(pf, *pilot, "target", *target); err != nil {
			return err
		}
		spec.Pilot = &pf
	}
	p := newProgress(stderr, *quiet, 0)
	spec.Progress = func(s credlab.TuneStatus) {
		if s.Stage == "curves" {
			p.setDetail(func() string { return searchStatus(s) })
			return
		}
		p.setDetail(func() string { return "the default fit on the pilot: " + searchStatus(s) })
	}
	stop := p.ticker("scoring the pool")
	r, err := frames.Budget(ctx, df, spec)
	stop()
	if err != nil {
		p.clear()
		return fmt.Errorf("budget %s: %w", *pool, namePoolRows(err, fmt.Sprintf("-pilot %s (rows of -pool %s)", *pilot, *pool)))
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	for name, f := range map[string]dataframe.DataFrame{"summary.csv": r.Summary, "deff.csv": r.Deff, "scores.csv": r.Scores, "curves.csv": r.Curves} {
		if err := writeAtomic(ctx, filepath.Join(*out, name), func(w io.Writer) error { return frames.WriteCSV(w, f) }); err != nil {
			return err
		}
	}
	on := viz.Options{Data: filepath.Base(*pool) + ", " + r.Scoring}
	figs := map[string]func() (*viz.Figure, error){
		"effective_dimension.svg": func() (*viz.Figure, error) { return viz.EffectiveDimension(r.Lambdas, r.DeffValues, on) },
		"score_concentration.svg": func() (*viz.Figure, error) { return viz.ScoreConcentration(r.ScoreValues, on) },
	}
	if r.LearningCurves != nil {
		figs["learning_curves.svg"] = func() (*viz.Figure, error) { return viz.ProjectedLearningCurves(r.LearningCurves, viz.Options{}) }
	}
	for name, build := range figs {
		f, err := build()
		if err != nil {
			return fmt.Errorf("budget: figure %s: %w", name, err)
		}
		if err := writeAtomic(ctx, filepath.Join(*out, name), func(w io.Writer) error { _, err := f.WriteTo(w); return err }); err != nil {
			return err
		}
	}
	if *asJSON {
		curves := []map[string]any{}
		for _, c := range r.LearningCurves {
			curves = append(curves, map[string]any{"method": c.Method, "a": jnum(c.A), "b": jnum(c.B), "floor": jnum(c.Floor), "labels": c.Project, "rmse": jnums(c.Projected)})
		}
		if err := writeJSON(stdout, map[string]any{"command": "budget", "pool": *pool, "out": *out, "summary": frameRecords(r.Summary)[0], "learning_curves": curves, "notes": append([]string{}, r.Notes...)}); err != nil {
			return err
		}
		p.done(fmt.Sprintf("budget: %d rows of %s, written to %s", df.Nrow(), *pool, *out))
		return nil
	}
	s := r.Summary
	get := func(c string) float64 { v, _ := frames.Column(s, c); return v[0] }
	fmt.Fprintf(stdout, "rows %d  d_eff %.4g  top-1%% share %.3f  TV from uniform %.3f  max/mean %.3g  CRED variance gain %.3gx\n",
		int(get("rows")), get("d_eff"), get("top1_share"), get("tv"), get("max_over_mean"), get("variance_gain"))
	for _, n := range r.Notes {
		if w, ok := strings.CutPrefix(n, "warning: "); ok {
			fmt.Fprintln(stderr, "credlab: warning: "+w) // warnings remain under -quiet
		} else {
			fmt.Fprintln(stdout, "note: "+n)
		}
	}
	for _, c := range r.LearningCurves {
		fmt.Fprintf(stdout, "%-8s RMSE ~ %s:", c.Method, c.Formula())
		for i, n := range c.Project {
			fmt.Fprintf(stdout, "  %d labels %.4g", n, c.Projected[i])
		}
		fmt.Fprintln(stdout)
	}
	p.done(fmt.Sprintf("budget: %d rows of %s, written to %s", df.Nrow(), *pool, *out))
	return nil
}
