package baselines_test

import (
	"context"
	"fmt"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/credlab/baselines"
)

func ExampleKTR3() {
	x, y, _ := credlab.SmoothRegression(200, 2, 0.1, 1)
	fit, err := baselines.KTR3(context.Background(), x, y, baselines.KTR3Config{
		Kernel: credlab.GaussianKernel{Sigma: 0.5},
		Lambda: 1e-4,
		Prefix: 120, // the first 120 rows; by default k is drawn from {0, ..., n-1}
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := fit.Predict(x)
	fmt.Printf("trained on %d rows, predictions clipped at %.2f, RMSE on all rows %.2f\n", fit.Prefix, fit.Bound, credlab.RMSE(p, y))
	// Output:
	// trained on 120 rows, predictions clipped at 1.70, RMSE on all rows 0.10
}

func ExampleSSSR() {
	pool, _, _ := credlab.SmoothRegression(400, 2, 0, 2) // unlabeled
	x, y, _ := credlab.SmoothRegression(50, 2, 0.1, 3)   // labeled
	basis, err := baselines.NewSSSRBasis(context.Background(), baselines.SSSRConfig{Pool: pool, Kernel: credlab.GaussianKernel{Sigma: 0.3}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fit, err := baselines.SSSR(context.Background(), x, y, baselines.SSSRConfig{Basis: basis, S: 20})
	if err != nil {
		fmt.Println(err)
		return
	}
	xt, _, ft := credlab.SmoothRegression(500, 2, 0, 4)
	p, _ := fit.Model.Predict(xt)
	fmt.Printf("least squares on %d eigenfunctions: test RMSE %.2f\n", fit.Rank, credlab.RMSE(p, ft))
	// Output:
	// least squares on 20 eigenfunctions: test RMSE 0.22
}
