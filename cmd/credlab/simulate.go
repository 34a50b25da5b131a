package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/viz"
)

func simulateCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("simulate", "simulate -data FILE -target COL -out DIR [-methods LIST] [-initial N -batch N -final N | -budgets LIST] [flags]", stderr)
	data := fs.String("data", "", "fully labeled data file (CSV, TSV, ARFF, LIBSVM or IDX) whose labels the simulation hides (required)")
	target := fs.String("target", "", "label column (required)")
	out := fs.String("out", "", "output directory: curves.csv (every fit), ratios.csv (test RMSE against uniform labeling) and curves.svg (required)")
	methods := fs.String("methods", "", "comma-separated methods: uniform, cred, lcmd, kmeanspp, maxdist, maxdet, maxdiag, bait, herding (default: all)")
	initial := fs.Int("initial", 256, "size of the random first batch")
	batch := fs.Int("batch", 256, "size of each next batch")
	final := fs.Int("final", 4352, "final number of labels (capped by the pool)")
	var budgets intList
	fs.Var(&budgets, "budgets", "comma-separated label counts after each batch, replacing -initial, -batch and -final (for example 64,128,256,512,1024)")
	test := fs.Float64("test", 0.2, "share of the rows held out to measure the test RMSE")
	seeds := fs.Int("seeds", 1, "number of repetitions (test splits and first batches)")
	seed := fs.Uint64("seed", 1, "seed of the first repetition")
	oneShot := fs.Bool("one-shot", false, "each batch method chooses the first batch too, without labels (median-distance kernel), as select -budget N does on an unlabeled pool; default: a random first batch")
	m := fs.Int("m", 256, "Nyström features maxdet, maxdiag, bait and herding select on (lcmd, kmeanspp and maxdist measure the kernel's feature distances exactly)")
	poolWeights := fs.Bool("pool-weights", true, "fit the rows a batch method chose weighted by their pool weights (nearest-neighbour shares of the pool), as fit does with select's pool_weight column; -pool-weights=false fits them unweighted")
	audit := fs.Float64("audit", frames.DefaultAuditShare, "share of each batch a batch method draws as an audit sample, as select -audit; the fit's RMSE estimate then comes from the audit rows (0: none)")
	columns := fs.String("columns", "", "comma-separated feature columns (default: every column but the target and -exclude; string columns need -onehot)")
	exclude := fs.String("exclude", "", "comma-separated columns left out of the default features")
	oneHot := fs.Bool("onehot", false, "encode string columns as 0/1 columns, one per level")
	dropNA := fs.Bool("dropna", false, "leave out rows with a missing value (otherwise an error)")
	budget := fs.Duration("time", 0, "time budget of the whole simulation, such as 10m or 2h (0: 30m; negative: no bound); the loop runs batch by batch over every method and seed, and stops before a batch that would not fit, saying so")
	quiet := fs.Bool("quiet", false, "no progress on stderr, only the final summary")
	var lf loadFlags
	lf.register(fs)
	if err := lf.parse(fs, args, stderr, quiet, "data", "target", "out"); err != nil {
		return err
	}
	if *initial <= 0 || *batch <= 0 || *final <= 0 || *seeds <= 0 || *m <= 0 {
		return usagef("simulate: flags -initial, -batch, -final, -seeds and -m must be positive")
	}
	if !(*audit >= 0 && *audit <= 0.5) {
		return usagef("simulate: flag -audit must be a share from 0 to 0.5 (got %g)", *audit)
	}
	if !(*test > 0 && *test < 1) {
		return usagef("simulate: flag -test must be a share between 0 and 1 (got %g)", *test)
	}
	df, err := lf.load("data", *data)
	if err != nil {
		return err
	}
	if err := hasColumn(df, *data, "target", *target); err != nil {
		return err
	}
	spec := frames.SimulateSpec{Target: *target, Features: splitList(*columns), Exclude: splitList(*exclude), OneHot: *oneHot, DropNA: *dropNA,
		Methods: splitList(*methods), Initial: *initial, Batch: *batch, Final: *final, Budgets: budgets,
		TestShare: *test, Seeds: *seeds, Seed: *seed, M: *m, OneShot: *oneShot, Audit: *audit, NoPoolWeights: !*poolWeights, TimeBudget: *budget}
	if *audit == 0 {
		spec.Audit = -1
	}
	if !*quiet {
		spec.Progress = func(line string) { fmt.Fprintln(stderr, "credlab: simulate: "+line) }
	}
	p := newProgress(stderr, true, 0)
	r, err := frames.Simulate(ctx, df, spec)
	if err != nil {
		return fmt.Errorf("simulate %s: %w", *data, err)
	}
	fig, err := simulateFigure(r)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	for name, f := range map[string]func(w io.Writer) error{
		"curves.csv": func(w io.Writer) error { return frames.WriteCSV(w, r.Curves) },
		"ratios.csv": func(w io.Writer) error { return frames.WriteCSV(w, r.Ratios) },
		"curves.svg": func(w io.Writer) error { _, err := fig.WriteTo(w); return err },
	} {
		if err := writeAtomic(ctx, filepath.Join(*out, name), f); err != nil {
			return err
		}
	}
	for _, w := range r.Warnings {
		fmt.Fprintln(stderr, "credlab: warning: "+w) // warnings remain under -quiet
	}
	writeRatioTable(stdout, r)
	writeRatioIntervals(stdout, r)
	writeCoverage(stdout, r)
	writeProjection(stdout, r)
	p.done(fmt.Sprintf("simulate: %d rows of %s, written to %s", df.Nrow(), *data, *out))
	return nil
}

// simulateFigure plots each method's test RMSE (geometric mean over
// repetitions) against the number of labels, on log-log axes.
func simulateFigure(r *frames.SimulateResult) (*viz.Figure, error) {
	meth := r.Ratios.Col("method").Records()
	labels, _ := frames.Column(r.Ratios, "labels")
	rmse, _ := frames.Column(r.Ratios, "rmse")
	var series []viz.Series
	at := map[string]int{}
	for i, m := range meth {
		k, ok := at[m]
		if !ok {
			k = len(series)
			at[m] = k
			series = append(series, viz.Series{Name: m})
		}
		series[k].X = append(series[k].X, labels[i])
		series[k].Y = append(series[k].Y, rmse[i])
	}
	return viz.Lines(series, viz.Options{Title: "Labeling simulation: test RMSE against labels", XLabel: "labels", YLabel: "test RMSE", LogX: true, LogY: true})
}

// writeRatioTable prints test RMSE over uniform labeling's, one row per
// method and one column per budget.
func writeRatioTable(w io.Writer, r *frames.SimulateResult) {
	meth := r.Ratios.Col("method").Records()
	labels, _ := frames.Column(r.Ratios, "labels")
	ratio, _ := frames.Column(r.Ratios, "ratio")
	var budgets []int
	seen := map[int]bool{}
	cell := map[string]map[int]float64{}
	var order []string
	for i, m := range meth {
		b := int(labels[i])
		if !seen[b] {
			seen[b] = true
			budgets = append(budgets, b)
		}
		if cell[m] == nil {
			cell[m] = map[int]float64{}
			order = append(order, m)
		}
		cell[m][b] = ratio[i]
	}
	sort.Ints(budgets)
	fmt.Fprintf(w, "%-10s", "method")
	for _, b := range budgets {
		fmt.Fprintf(w, " %7d", b)
	}
	fmt.Fprintln(w, "   (test RMSE / uniform labeling's)")
	for _, m := range order {
		fmt.Fprintf(w, "%-10s", m)
		for _, b := range budgets {
			v, ok := cell[m][b]
			if !ok || math.IsNaN(v) {
				fmt.Fprintf(w, " %7s", "-")
				continue
			}
			fmt.Fprintf(w, " %7.3f", v)
		}
		fmt.Fprintln(w)
	}
}

// writeRatioIntervals prints, with two or more repetitions, each ratio's
// 90% interval over them and where a method is ahead of (or behind)
// uniform labeling with that confidence.
func writeRatioIntervals(w io.Writer, r *frames.SimulateResult) {
	meth := r.Ratios.Col("method").Records()
	labels, _ := frames.Column(r.Ratios, "labels")
	lo, _ := frames.Column(r.Ratios, "ratio_lo")
	hi, _ := frames.Column(r.Ratios, "ratio_hi")
	var ahead, behind []string
	var lines []string
	last := ""
	for i, m := range meth {
		if m == "uniform" || math.IsNaN(lo[i]) || lo[i] == hi[i] { // lo == hi: the same rows as uniform's (the shared first batch)
			continue
		}
		if m != last {
			lines = append(lines, fmt.Sprintf("%-10s", m))
			last = m
		}
		lines[len(lines)-1] += fmt.Sprintf("  %d: %.3f-%.3f", int(labels[i]), lo[i], hi[i])
		switch {
		case hi[i] < 1:
			ahead = append(ahead, fmt.Sprintf("%s at %d", m, int(labels[i])))
		case lo[i] > 1:
			behind = append(behind, fmt.Sprintf("%s at %d", m, int(labels[i])))
		}
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintln(w, "90% intervals of the ratios over the repetitions (Student's t on the log ratios, paired by seed):")
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	say := func(what string, list []string) {
		if len(list) > 0 {
			fmt.Fprintf(w, "%s uniform labeling with 90%% confidence: %s\n", what, strings.Join(list, ", "))
		}
	}
	say("ahead of", ahead)
	say("behind", behind)
	if len(ahead)+len(behind) == 0 {
		fmt.Fprintln(w, "no method is resolved from uniform labeling with 90% confidence: more -seeds narrow the intervals")
	}
}

// writeCoverage prints, per method, how often the fit's own 90% interval
// for its RMSE (from the labels alone) held its RMSE on the pool rows not
// labeled, which it estimates, and its test RMSE.
func writeCoverage(w io.Writer, r *frames.SimulateResult) {
	meth := r.Curves.Col("method").Records()
	rmse, _ := frames.Column(r.Curves, "rmse")
	pool, _ := frames.Column(r.Curves, "pool_rmse")
	lo, _ := frames.Column(r.Curves, "est_lo")
	hi, _ := frames.Column(r.Curves, "est_hi")
	var order []string
	// The pool count leaves out fits with every pool row labeled.
	inPool, allPool, inTest, all := map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}
	for i, m := range meth {
		if math.IsNaN(lo[i]) {
			continue
		}
		if all[m] == 0 {
			order = append(order, m)
		}
		all[m]++
		if !math.IsNaN(pool[i]) {
			allPool[m]++
			if lo[i] <= pool[i] && pool[i] <= hi[i] {
				inPool[m]++
			}
		}
		if lo[i] <= rmse[i] && rmse[i] <= hi[i] {
			inTest[m]++
		}
	}
	if len(order) == 0 {
		return
	}
	parts, test := make([]string, len(order)), make([]string, len(order))
	for i, m := range order {
		parts[i] = fmt.Sprintf("%s %d of %d", m, inPool[m], allPool[m])
		test[i] = fmt.Sprintf("%s %d of %d", m, inTest[m], all[m])
	}
	fmt.Fprintf(w, "the fit's 90%% interval for its RMSE held its RMSE on the pool rows not labeled: %s; the test RMSE: %s (est_rmse, est_lo, est_hi, pool_rmse in curves.csv)\n", strings.Join(parts, ", "), strings.Join(test, ", "))
}

// writeProjection prints, per method, how far the learning curve of the fit
// at b labels projected the test RMSE measured at 2b labels (same seed):
// the median of projected / measured and how many fell within 10%.
func writeProjection(w io.Writer, r *frames.SimulateResult) {
	seed, _ := frames.Column(r.Curves, "seed")
	meth := r.Curves.Col("method").Records()
	labels, _ := frames.Column(r.Curves, "labels")
	rmse, _ := frames.Column(r.Curves, "rmse")
	proj, _ := frames.Column(r.Curves, "proj_2x")
	type key struct {
		seed   float64
		method string
		labels float64
	}
	at := map[key]float64{}
	for i, m := range meth {
		at[key{seed[i], m, labels[i]}] = rmse[i]
	}
	var order []string
	ratios := map[string][]float64{}
	for i, m := range meth {
		got, ok := at[key{seed[i], m, 2 * labels[i]}]
		if !ok || math.IsNaN(proj[i]) {
			continue
		}
		if ratios[m] == nil {
			order = append(order, m)
		}
		ratios[m] = append(ratios[m], proj[i]/got)
	}
	if len(order) == 0 {
		return
	}
	parts := make([]string, len(order))
	for i, m := range order {
		q := append([]float64(nil), ratios[m]...)
		sort.Float64s(q)
		in := 0
		for _, v := range q {
			if math.Abs(v-1) <= 0.1 {
				in++
			}
		}
		med := (q[(len(q)-1)/2] + q[len(q)/2]) / 2
		parts[i] = fmt.Sprintf("%s median %.3f, %d of %d within 10%% (%.3f to %.3f)", m, med, in, len(q), q[0], q[len(q)-1])
	}
	fmt.Fprintf(w, "the fit's learning curve at b labels projected the test RMSE at 2b (projected / measured): %s (proj_2x in curves.csv)\n", strings.Join(parts, "; "))
}
