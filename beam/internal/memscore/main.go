// Command memscore is the in-memory baseline of docs/scale.md: it reads
// every CSV shard of -input into one matrix and scores it with
// credlab.CREDSelector{Features: random Fourier}.Scores, printing the
// rows, seconds and rows per second of the read and of the scoring.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	credbeam "github.com/credlab/credlab/beam"
	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

func main() {
	input := flag.String("input", "", "glob of the CSV shards")
	target := flag.String("target", "y", "response column, excluded from the features")
	D := flag.Int("D", 100, "random features")
	sigma := flag.Float64("sigma", 3, "bandwidth")
	lambdaQ := flag.Float64("lambdaq", 1e-6, "lambda_q")
	flag.Parse()
	if err := run(*input, *target, *D, *sigma, *lambdaQ); err != nil {
		fmt.Fprintln(os.Stderr, "memscore:", err)
		os.Exit(1)
	}
}

func run(input, target string, D int, sigma, lq float64) error {
	ctx := context.Background()
	start := time.Now()
	files, err := credbeam.ExpandShards(ctx, input)
	if err != nil {
		return err
	}
	cols, err := credbeam.ReadHeader(ctx, files[0])
	if err != nil {
		return err
	}
	spec := credbeam.Spec{Columns: cols, Target: target}
	var parts []*mat.Dense
	n, d := 0, 0
	for _, f := range files {
		x, err := credbeam.HeadRows(ctx, f, spec, 1<<18) // whole shards of up to 262,144 rows
		if err != nil {
			return err
		}
		r, c := x.Dims()
		n, d = n+r, c
		parts = append(parts, x)
	}
	x := mat.NewDense(n, d, nil)
	at := 0
	for _, p := range parts {
		r, _ := p.Dims()
		x.Slice(at, at+r, 0, d).(*mat.Dense).Copy(p)
		at += r
	}
	parts = nil
	read := time.Since(start)
	rf, err := credlab.NewRandomFourier(d, D, sigma, 1)
	if err != nil {
		return err
	}
	start = time.Now()
	s, err := credlab.CREDSelector{Features: rf, LambdaQ: lq}.Scores(ctx, x)
	if err != nil {
		return err
	}
	score := time.Since(start)
	fmt.Printf("rows %d d %d D %d: read %.1fs, score %.1fs (%.0f rows/s scoring, %.0f rows/s with the read), s[0] = %.6g\n",
		len(s), d, D, read.Seconds(), score.Seconds(), float64(n)/score.Seconds(), float64(n)/(read+score).Seconds(), s[0])
	return nil
}
