// Command credlab-scores times the leverage scores of a 1,000,000 x 8
// Gaussian pool (docs/budget.md, Speed), scored once by the method -method
// names: "bless" (credlab.ApproxLeverageScores, Dict 400) or "rf"
// (credlab.FeatureLeverageScores with 400 random Fourier features); the
// Gaussian kernel's sigma is 3 and lambda 1e-4.
//
//	go build -o /tmp/credlab-scores ./bench/cmd/credlab-scores
//	/usr/bin/time -v /tmp/credlab-scores -method bless
//
// It prints one line: the rows scored, the time and d_eff (the scores, on
// the scale of credlab.LeverageScores, sum to n d_eff); run the built
// binary under /usr/bin/time -v for the peak memory.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

func main() {
	method := flag.String("method", "bless", "bless (ApproxLeverageScores) or rf (FeatureLeverageScores on random Fourier features)")
	flag.Parse()
	if err := run(*method); err != nil {
		fmt.Fprintln(os.Stderr, "credlab-scores:", err)
		os.Exit(1)
	}
}

func run(which string) error {
	if which != "bless" && which != "rf" {
		return fmt.Errorf("-method %q: want bless or rf", which)
	}
	const n, d = 1_000_000, 8
	rng := rand.New(rand.NewPCG(1, 1))
	x := mat.NewDense(n, d, nil)
	for i := range x.RawMatrix().Data {
		x.RawMatrix().Data[i] = rng.NormFloat64()
	}
	ctx := context.Background()
	k := credlab.GaussianKernel{Sigma: 3}
	t0 := time.Now()
	var s []float64
	var err error
	switch which {
	case "bless":
		s, err = credlab.ApproxLeverageScores(ctx, k, x, 1e-4, credlab.BLESSConfig{Dict: 400, Seed: 1})
	case "rf":
		rf, e := credlab.NewRandomFourier(d, 400, 3, 1)
		if e != nil {
			return e
		}
		s, err = credlab.FeatureLeverageScores(ctx, rf, x, 1e-4, 0)
	}
	if err != nil {
		return err
	}
	sum := 0.0
	for _, v := range s {
		sum += v
	}
	fmt.Printf("%s: %d rows scored in %v, d_eff %.1f\n", which, n, time.Since(t0), sum/n)
	return nil
}
