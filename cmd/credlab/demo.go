package main

import (
	"context"
	"fmt"
	"html"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/papers/cred"
	"github.com/credlab/credlab/viz"
	"github.com/go-gota/gota/dataframe"
	"gonum.org/v1/gonum/mat"
)

func demo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("demo", "demo [-out DIR] [flags]", stderr)
	outDir := fs.String("out", "credlab-demo", "directory for report.html")
	pool := fs.Int("pool", 2000, "CRED part: rows of the unlabeled pool")
	labels := fs.Int("labels", 60, "CRED part: rows labeled by each method")
	reps := fs.Int("reps", 3, "CRED part: repetitions (new target, noise and draws)")
	n := fs.Int("n", 1500, "NYTRO part: training points")
	d := fs.Int("d", 5, "NYTRO part: input dimension")
	noise := fs.Float64("noise", 0.2, "NYTRO part: label noise standard deviation")
	sigma := fs.Float64("sigma", 0.7, "NYTRO part: Gaussian kernel bandwidth")
	m := fs.Int("m", 300, "NYTRO part: Nyström centers for NKRLS and NYTRO")
	seed := fs.Uint64("seed", 1, "random seed")
	quiet := fs.Bool("quiet", false, "quiet: no progress and no final summary on stderr (results on stdout and warnings remain)")
	if err := parse(fs, args); err != nil {
		return err
	}
	switch {
	case *pool < 20:
		return usagef("demo: flag -pool must be at least 20 (got %d)", *pool)
	case *labels < 2 || *labels > *pool:
		return usagef("demo: flag -labels must be between 2 and -pool (got %d)", *labels)
	case *reps < 1:
		return usagef("demo: flag -reps must be positive (got %d)", *reps)
	case *n < 10 || *d < 1 || *m < 1:
		return usagef("demo: need -n >= 10, -d >= 1 and -m >= 1")
	case !(*noise >= 0) || !(*sigma > 0):
		return usagef("demo: need -noise >= 0 and -sigma > 0")
	}
	if *outDir == "" {
		return usagef("demo: flag -out is empty")
	}
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		return fmt.Errorf("demo: -out %s: %w", *outDir, err)
	}
	p := newProgress(stderr, *quiet, 8)
	var rep report

	// Part 1: CRED against uniform labeling.
	stop := p.ticker("CRED against uniform labeling")
	credTable, credFig, err := credPart(ctx, *pool, *labels, *reps, *seed)
	stop()
	if err != nil {
		p.clear()
		return err
	}
	p.step("CRED against uniform labeling")
	fmt.Fprintf(stdout, "1. CRED against uniform labeling (cred.LabelingBenchmark)\n\n")
	fmt.Fprintf(stdout, "Pool of %d rows with 12 sparse features, feature j present in a share 2^-(j/1.5) of the rows\n", *pool)
	fmt.Fprintf(stdout, "(rare features are the hard part). A linear target, one noisy label per row; %d rows labeled\n", *labels)
	fmt.Fprintf(stdout, "by CRED (leverage-score sampling, importance-weighted ridge) and uniformly (ridge: KRR).\n")
	fmt.Fprintf(stdout, "Test RMSE against the noiseless target, best over lambda, mean over %d repetitions.\n\n", *reps)
	credTable.text(stdout)
	fmt.Fprintln(stdout)
	rep.add("CRED against uniform labeling",
		fmt.Sprintf("Pool of %d rows with 12 sparse features (feature j present in a share 2<sup>-j/1.5</sup> of the rows). "+
			"%d rows labeled by CRED (leverage-score sampling and importance-weighted ridge regression) or uniformly (ridge regression, KRR). "+
			"Test RMSE against the noiseless target, best over lambda, mean over %d repetitions (cred.LabelingBenchmark). "+
			"CRED's advantage shows when the noise is small: uniform draws miss the rare features.", *pool, *labels, *reps),
		credTable, credFig)

	// Part 2: NYTRO against KRLS.
	nyTable, nyFigs, err := nytroPart(ctx, p, *n, *d, *noise, *sigma, *m, *seed)
	if err != nil {
		p.clear()
		return err
	}
	p.clear()
	intro := fmt.Sprintf("f(x) = sin(pi x1) + 0.5 cos(2 pi x2) + ..., n = %d, d = %d, noise sd %g, Gaussian sigma %g, BLAS %s; "+
		"hold-out 20%% for selection; test RMSE against the noiseless f on %d new points", *n, *d, *noise, *sigma, credlab.BLASBackend, *n/3)
	fmt.Fprintf(stdout, "2. NYTRO model selection against KRLS (credlab.SmoothRegression)\n\n%s\n\n", intro)
	nyTable.text(stdout)
	rep.add("NYTRO model selection against KRLS", html.EscapeString(intro), nyTable, nyFigs...)

	path := filepath.Join(*outDir, "report.html")
	if err := writeAtomic(ctx, path, rep.write); err != nil {
		return err
	}
	p.done("demo: report written to " + path)
	return nil
}

// table is a small text table: a header and rows of cells.
type table struct {
	head []string
	rows [][]string
}

func (t *table) text(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join(t.head, "\t")+"\t")
	for _, r := range t.rows {
		fmt.Fprintln(tw, strings.Join(r, "\t")+"\t")
	}
	tw.Flush()
}

func (t *table) html() string {
	var b strings.Builder
	b.WriteString("<table>\n<tr>")
	for _, h := range t.head {
		fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(h))
	}
	b.WriteString("</tr>\n")
	for _, r := range t.rows {
		b.WriteString("<tr>")
		for _, c := range r {
			fmt.Fprintf(&b, "<td>%s</td>", html.EscapeString(c))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
	return b.String()
}

// sparsePool returns the demo's CRED pool: rows of 12 features, feature j
// nonzero (standard normal) in a share 2^(-j/1.5) of the rows.
func sparsePool(n int, seed uint64) dataframe.DataFrame {
	const d = 12
	rng := rand.New(rand.NewPCG(seed, 0x64656d6f))
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			if rng.Float64() < math.Pow(2, -float64(j)/1.5) {
				x.Set(i, j, rng.NormFloat64())
			}
		}
	}
	names := make([]string, d)
	for j := range names {
		names[j] = fmt.Sprintf("x%d", j+1)
	}
	df, _ := frames.FromMatrix(x, names...)
	return df
}

// credPart runs the labeling benchmark and returns its table (one row per
// noise level) and the noise-curve figure.
func credPart(ctx context.Context, pool, labels, reps int, seed uint64) (*table, *viz.Figure, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	train, test := sparsePool(pool, seed), sparsePool(pool/2, seed+1)
	noiseVars := []float64{1e-6, 1e-4, 1e-2, 1}
	bench, err := cred.LabelingBenchmark(train, test, cred.BenchmarkSpec{
		Ns: []int{labels}, NoiseVars: noiseVars, Reps: reps, Methods: []string{cred.BenchCRED, cred.BenchKRR},
		Labelings: 3, Seed: seed})
	if err != nil {
		return nil, nil, fmt.Errorf("demo: labeling benchmark: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	sum, err := frames.Summarize(bench, []string{"method", "noise_var"}, "test_rmse")
	if err != nil {
		return nil, nil, err
	}
	series, err := viz.SeriesOf(sum, "method", "noise_var", frames.SummaryMean, frames.SummarySD)
	if err != nil {
		return nil, nil, err
	}
	fig, err := viz.NoiseCurves(series, viz.Options{Title: fmt.Sprintf("CRED against uniform labeling, %d labels", labels),
		XLabel: "label noise variance σ²"})
	if err != nil {
		return nil, nil, err
	}
	t := &table{head: []string{"noise variance"}}
	for _, s := range series {
		t.head = append(t.head, s.Name+" test RMSE")
	}
	if len(series) == 2 {
		t.head = append(t.head, series[1].Name+" / "+series[0].Name)
	}
	for i, v := range noiseVars {
		row := []string{frames.FormatFloat(v)}
		for _, s := range series {
			if i < len(s.Y) {
				row = append(row, fmt.Sprintf("%.3g ± %.2g", s.Y[i], s.Err[i]))
			}
		}
		if len(series) == 2 && i < len(series[0].Y) && i < len(series[1].Y) {
			row = append(row, fmt.Sprintf("%.2f", series[1].Y[i]/series[0].Y[i]))
		}
		t.rows = append(t.rows, row)
	}
	return t, fig, nil
}

// nytroPart fits every solver on SmoothRegression and returns the table
// and the figures: the KRLS regularization path and the learning curves.
func nytroPart(ctx context.Context, p *progress, n, d int, noise, sigma float64, m int, seed uint64) (*table, []*viz.Figure, error) {
	x, y, _ := credlab.SmoothRegression(n, d, noise, seed)
	xt, _, ft := credlab.SmoothRegression(n/3, d, 0, seed+1)
	k := credlab.GaussianKernel{Sigma: sigma}
	h := credlab.Holdout{Seed: seed}
	ny := credlab.NystromConfig{M: m, Seed: seed}
	iter := credlab.IterConfig{Holdout: h, Plain: true}
	nu := credlab.IterConfig{Holdout: h}
	grid := credlab.LogGrid(1e-9, 1e-1, 20)
	methods := []struct {
		name string
		est  credlab.Estimator
	}{
		{"KOLS", credlab.KOLSConfig{Kernel: k}},
		{"KRLS (20 lambdas)", credlab.KRLSConfig{Kernel: k, Lambdas: grid, Holdout: h}},
		{"EarlyStopping", credlab.EarlyStoppingConfig{Kernel: k, IterConfig: iter}},
		{"EarlyStopping, nu-method", credlab.EarlyStoppingConfig{Kernel: k, IterConfig: nu}},
		{fmt.Sprintf("NKRLS m=%d (100 lambdas)", m), credlab.NKRLSConfig{Kernel: k, Nystrom: ny, Holdout: h}},
		{fmt.Sprintf("NYTRO m=%d", m), credlab.NYTROConfig{Kernel: k, Nystrom: ny, IterConfig: iter}},
		{fmt.Sprintf("NYTRO m=%d, nu-method", m), credlab.NYTROConfig{Kernel: k, Nystrom: ny, IterConfig: nu}},
	}
	t := &table{head: []string{"method", "parameter", "val RMSE", "test RMSE", "kernel", "solve", "select", "total"}}
	var paths, learning []viz.Curve
	var timed []viz.Timed
	for _, me := range methods {
		stop := p.ticker(me.name)
		fit, err := me.est.Fit(ctx, x, y, nil)
		stop()
		if err != nil {
			return nil, nil, fmt.Errorf("demo: %s: %w", me.name, err)
		}
		pred, err := fit.Model.PredictContext(ctx, xt)
		if err != nil {
			return nil, nil, err
		}
		test := credlab.RMSE(pred, ft)
		param := "-"
		switch {
		case fit.Lambda > 0:
			param = fmt.Sprintf("lambda=%.3g", fit.Lambda)
			paths = append(paths, viz.CurveFromFit(me.name, fit))
		case fit.Iter > 0:
			param = fmt.Sprintf("t=%d", fit.Iter)
			learning = append(learning, viz.CurveFromFit(me.name, fit))
		case fit.Method == "KOLS":
			param = fmt.Sprintf("rank=%d", fit.Rank)
		}
		val := fmt.Sprintf("%.4f", fit.ValRMSE)
		if math.IsNaN(fit.ValRMSE) {
			val = "- (no holdout: nothing to tune)" // KOLS fits on all rows
		}
		tm := fit.Timing
		t.rows = append(t.rows, []string{me.name, param, val, fmt.Sprintf("%.4f", test),
			round(tm.Kernel).String(), round(tm.Solve).String(), round(tm.Select).String(), round(tm.Total()).String()})
		tf := viz.TimedFromFit(me.name, fit)
		tf.RMSE = test
		timed = append(timed, tf)
		p.step(me.name)
	}
	var figs []*viz.Figure
	for _, mk := range []func() (*viz.Figure, error){
		func() (*viz.Figure, error) { return viz.RegularizationPath(paths, viz.Options{}) },
		func() (*viz.Figure, error) { return viz.LearningCurves(learning, viz.Options{}) },
		func() (*viz.Figure, error) { return viz.TimeAccuracy(timed, viz.Options{}) },
	} {
		f, err := mk()
		if err != nil {
			return nil, nil, fmt.Errorf("demo: figure: %w", err)
		}
		figs = append(figs, f)
	}
	return t, figs, nil
}

func round(d time.Duration) time.Duration {
	if d < time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(time.Millisecond)
}

// report is the demo's HTML page: sections of text, a table and inline
// SVG figures.
type report struct {
	sections []section
}

type section struct {
	title, intro string
	t            *table
	figs         []*viz.Figure
}

func (r *report) add(title, intro string, t *table, figs ...*viz.Figure) {
	r.sections = append(r.sections, section{title, intro, t, figs})
}

func (r *report) write(w io.Writer) error {
	fmt.Fprint(w, `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>credlab demo</title>
<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:right}
th{background:#f4f4f4}figure{margin:1em 0}svg{max-width:100%;height:auto}</style></head><body>
<h1>credlab demo</h1>
<p>Generated by <code>credlab demo</code>: kernel least-squares regression that chooses which data to label.</p>
`)
	for _, s := range r.sections {
		fmt.Fprintf(w, "<h2>%s</h2>\n<p>%s</p>\n%s", html.EscapeString(s.title), s.intro, s.t.html())
		for _, f := range s.figs {
			svg := f.SVG()
			if i := strings.Index(svg, "<svg"); i > 0 {
				svg = svg[i:] // drop the XML prolog inside HTML
			}
			fmt.Fprintf(w, "<figure>%s</figure>\n", svg)
		}
	}
	_, err := fmt.Fprint(w, "</body></html>\n")
	return err
}
