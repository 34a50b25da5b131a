package credlab_test

import (
	"context"
	"fmt"

	"github.com/credlab/credlab/credlab"
)

// Every method through one contract: a table of Estimators, each fitted on
// the same rows, targets and (here) no weights, and scored on new points.
func ExampleEstimator() {
	x, y, _ := credlab.SmoothRegression(400, 2, 0.1, 1)
	xTest, _, fTest := credlab.SmoothRegression(200, 2, 0, 2)
	k := credlab.GaussianKernel{Sigma: 0.5}
	methods := []struct {
		name string
		est  credlab.Estimator
	}{
		{"KRLS", credlab.KRLSConfig{Kernel: k}},
		{"EarlyStopping", credlab.EarlyStoppingConfig{Kernel: k}},
		{"NKRLS", credlab.NKRLSConfig{Kernel: k, Nystrom: credlab.NystromConfig{M: 100}}},
		{"NYTRO", credlab.NYTROConfig{Kernel: k, Nystrom: credlab.NystromConfig{M: 100}}},
		{"LinearRLS on raw features", credlab.LinearRLSConfig{}},
		{"automatic (Tune)", credlab.TuneConfig{}},
	}
	for _, m := range methods {
		fit, err := m.est.Fit(context.Background(), x, y, nil)
		if err != nil {
			fmt.Println(m.name, err)
			continue
		}
		p, _ := fit.Model.Predict(xTest)
		fmt.Printf("%-26s %-13s test RMSE below 0.1: %v\n", m.name, fit.Method, credlab.RMSE(p, fTest) < 0.1)
	}
	// Output:
	// KRLS                       KRLS          test RMSE below 0.1: true
	// EarlyStopping              EarlyStopping test RMSE below 0.1: true
	// NKRLS                      NKRLS         test RMSE below 0.1: true
	// NYTRO                      NYTRO         test RMSE below 0.1: true
	// LinearRLS on raw features  LinearRLS     test RMSE below 0.1: false
	// automatic (Tune)           KRLS          test RMSE below 0.1: true
}
