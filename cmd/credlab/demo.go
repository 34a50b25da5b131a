package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

func demo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 3000, "training points")
	d := fs.Int("d", 5, "input dimension")
	noise := fs.Float64("noise", 0.2, "label noise standard deviation")
	sigma := fs.Float64("sigma", 0.7, "Gaussian kernel bandwidth")
	m := fs.Int("m", 300, "Nyström centers for NKRLS and NYTRO")
	seed := fs.Uint64("seed", 1, "random seed")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *n < 10 || *d < 1 || *m < 1 {
		return usageError{"demo: need -n >= 10, -d >= 1 and -m >= 1"}
	}
	x, y, _ := credlab.SmoothRegression(*n, *d, *noise, *seed)
	xt, _, ft := credlab.SmoothRegression(*n/3, *d, 0, *seed+1)
	k := credlab.GaussianKernel{Sigma: *sigma}
	h := credlab.Holdout{Seed: *seed}
	ny := credlab.NystromConfig{M: *m, Seed: *seed}
	iter := credlab.IterConfig{Holdout: h}
	nu := credlab.IterConfig{Holdout: h, Accelerated: true}
	grid := credlab.LogGrid(1e-9, 1e-1, 20)
	fmt.Fprintf(stdout, "credlab demo: f(x) = sin(pi x1) + 0.5 cos(2 pi x2) + ..., n = %d, d = %d, noise sd %g, Gaussian sigma %g, BLAS %s\n",
		*n, *d, *noise, *sigma, credlab.BLASBackend)
	fmt.Fprintf(stdout, "hold-out 20%% for selection; test RMSE against the noiseless f on %d new points\n\n", len(ft))
	methods := []struct {
		name string
		fit  func() (*credlab.Fit, error)
	}{
		{"KOLS", func() (*credlab.Fit, error) { return credlab.KOLS(ctx, x, y, credlab.KOLSConfig{Kernel: k}) }},
		{"KRLS (20 lambdas)", func() (*credlab.Fit, error) {
			return credlab.KRLS(ctx, x, y, credlab.KRLSConfig{Kernel: k, Lambdas: grid, Holdout: h})
		}},
		{"EarlyStopping", func() (*credlab.Fit, error) {
			return credlab.EarlyStopping(ctx, x, y, credlab.EarlyStoppingConfig{Kernel: k, IterConfig: iter})
		}},
		{"EarlyStopping, nu-method", func() (*credlab.Fit, error) {
			return credlab.EarlyStopping(ctx, x, y, credlab.EarlyStoppingConfig{Kernel: k, IterConfig: nu})
		}},
		{fmt.Sprintf("NKRLS m=%d (100 lambdas)", *m), func() (*credlab.Fit, error) {
			return credlab.NKRLS(ctx, x, y, credlab.NKRLSConfig{Kernel: k, Nystrom: ny, Holdout: h})
		}},
		{fmt.Sprintf("NYTRO m=%d", *m), func() (*credlab.Fit, error) {
			return credlab.NYTRO(ctx, x, y, credlab.NYTROConfig{Kernel: k, Nystrom: ny, IterConfig: iter})
		}},
		{fmt.Sprintf("NYTRO m=%d, nu-method", *m), func() (*credlab.Fit, error) {
			return credlab.NYTRO(ctx, x, y, credlab.NYTROConfig{Kernel: k, Nystrom: ny, IterConfig: nu})
		}},
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "method\tparameter\tval RMSE\ttest RMSE\tkernel\tsolve\tselect\ttotal\t")
	for _, me := range methods {
		fit, err := me.fit()
		if err != nil {
			return fmt.Errorf("%s: %w", me.name, err)
		}
		test, err := testRMSE(ctx, fit.Model, xt, ft)
		if err != nil {
			return err
		}
		param := "-"
		switch {
		case fit.Lambda > 0:
			param = fmt.Sprintf("lambda=%.3g", fit.Lambda)
		case fit.Iter > 0:
			param = fmt.Sprintf("t=%d", fit.Iter)
		case fit.Method == "KOLS":
			param = fmt.Sprintf("rank=%d", fit.Rank)
		}
		tm := fit.Timing
		fmt.Fprintf(tw, "%s\t%s\t%.4f\t%.4f\t%s\t%s\t%s\t%s\t\n", me.name, param, fit.ValRMSE, test,
			round(tm.Kernel), round(tm.Solve), round(tm.Select), round(tm.Total()))
	}
	return tw.Flush()
}

func testRMSE(ctx context.Context, m *credlab.Model, x *mat.Dense, f []float64) (float64, error) {
	p, err := m.PredictContext(ctx, x)
	if err != nil {
		return 0, err
	}
	return credlab.RMSE(p, f), nil
}

func round(d time.Duration) time.Duration {
	if d < time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(time.Millisecond)
}
