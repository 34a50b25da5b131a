// Command nytro is the README's credlab example: NYTRO (Nyström
// early-stopping regression) on gonum matrices, then predictions.
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/credlab/credlab/credlab"
)

func main() {
	if err := run(); err != nil {
		log.Fatal(err)
	}
}

func run() error {
	ctx := context.Background()
	x, y, _ := credlab.SmoothRegression(2000, 2, 0.1, 1)
	xNew, _, fNew := credlab.SmoothRegression(500, 2, 0, 2)
	// README: begin
	fit, err := credlab.NYTRO(ctx, x, y, credlab.NYTROConfig{
		Kernel:  credlab.GaussianKernel{Sigma: 0.7},
		Nystrom: credlab.NystromConfig{M: 500},
	})
	if err != nil {
		return err
	}
	// fit.Iter: the early-stopping time chosen on a 20% hold-out (fit.AtCap if it is the last
	// step allowed); fit.StepSize: the step, 0.95/||A^T A/n||; fit.Path: training and
	// validation RMSE at every step; fit.Timing: kernel / solve / select time.
	pred, err := fit.Model.Predict(xNew)
	if err != nil {
		return err
	}
	// README: end
	fmt.Printf("NYTRO stopped at step %d (step size %.3g); RMSE against the noiseless function on new points %.4f\n",
		fit.Iter, fit.StepSize, credlab.RMSE(pred, fNew))
	return nil
}
