// Command credlab-scale times NKRLS and NYTRO on a large synthetic problem
// held in memory, whose n x m features are never formed: the rows stream
// through Gram statistics (credlab.GramStats) in blocks.
//
//	credlab-scale -n 1000000 -d 20 -m 1000 -method nkrls
//
// The data are SmoothRegression samples (noise 0.2, seeded); sigma is
// -sigma or the median heuristic on 2000 rows; NKRLS chooses lambda on a 20% hold-out
// from its default grid, NYTRO its step count with the nu-method (at
// most -maxiter steps, which cost O(m^2) each in Gram form). It prints
// one JSON line: the times of data generation and fit, Fit.Timing, the
// chosen parameter, the validation RMSE, the test RMSE on 20,000 new rows
// against the noise level, and the Go heap's peak (runtime.MemStats.Sys);
// run it under /usr/bin/time -v for the process's peak resident memory.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"time"

	"github.com/credlab/credlab/credlab"
)

func main() {
	n := flag.Int("n", 1000000, "training rows")
	d := flag.Int("d", 20, "input dimension")
	m := flag.Int("m", 1000, "Nyström centers")
	method := flag.String("method", "nkrls", "nkrls or nytro")
	seed := flag.Uint64("seed", 1, "data seed")
	sigma := flag.Float64("sigma", 0, "Gaussian bandwidth (0: the median heuristic on 2000 rows)")
	maxIter := flag.Int("maxiter", 0, "NYTRO's MaxIter (0: credlab's default, 500)")
	flag.Parse()
	if err := run(*n, *d, *m, *method, *seed, *sigma, *maxIter); err != nil {
		fmt.Fprintln(os.Stderr, "credlab-scale:", err)
		os.Exit(1)
	}
}

func run(n, d, m int, method string, seed uint64, sigma float64, maxIter int) error {
	ctx := context.Background()
	t0 := time.Now()
	x, y, _ := credlab.SmoothRegression(n, d, 0.2, seed)
	xs, _, fs := credlab.SmoothRegression(20000, d, 0.2, seed+1000)
	gen := time.Since(t0)
	if sigma == 0 {
		sub, _ := credlab.GatherRows(x, seq(min(n, 2000)))
		sigma = credlab.MedianDistance(sub)
	}
	k := credlab.GaussianKernel{Sigma: sigma}
	nc := credlab.NystromConfig{M: m, Seed: seed}
	t0 = time.Now()
	var (
		fit *credlab.Fit
		err error
	)
	switch method {
	case "nkrls":
		fit, err = credlab.NKRLS(ctx, x, y, credlab.NKRLSConfig{Kernel: k, Nystrom: nc})
	case "nytro":
		fit, err = credlab.NYTRO(ctx, x, y, credlab.NYTROConfig{Kernel: k, Nystrom: nc, IterConfig: credlab.IterConfig{MaxIter: maxIter}})
	default:
		return fmt.Errorf("-method %q: want nkrls or nytro", method)
	}
	if err != nil {
		return err
	}
	fitTime := time.Since(t0)
	pred, err := fit.Model.Predict(xs)
	if err != nil {
		return err
	}
	s := 0.0
	for i, v := range pred {
		s += (v - fs[i]) * (v - fs[i])
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return json.NewEncoder(os.Stdout).Encode(map[string]any{
		"method": fit.Method, "n": n, "d": d, "m": m, "rank": fit.Rank, "sigma": k.Sigma,
		"gen_s": gen.Seconds(), "fit_s": fitTime.Seconds(),
		"features_and_gram_s": fit.Timing.Kernel.Seconds(), "solve_s": fit.Timing.Solve.Seconds(), "select_s": fit.Timing.Select.Seconds(),
		"lambda": fit.Lambda, "iter": fit.Iter, "at_cap": fit.AtCap, "val_rmse": fit.ValRMSE,
		// The error against the noiseless f: the noise (0.2) is not counted.
		"test_rmse_vs_f": math.Sqrt(s / float64(len(pred))),
		"go_sys_mib":     float64(ms.Sys) / (1 << 20), "gomaxprocs": runtime.GOMAXPROCS(0),
	})
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
