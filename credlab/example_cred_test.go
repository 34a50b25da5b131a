package credlab_test

import (
	"context"
	"fmt"
	"math"

	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

func ExampleCREDDistribution() {
	// Half proportional to the scores, half uniform: q_j >= 1/(2N).
	q, _ := credlab.CREDDistribution([]float64{1, 2, 3, 4})
	fmt.Printf("%.3f\n", q)
	// Output:
	// [0.175 0.225 0.275 0.325]
}

func ExampleLeverageScores() {
	// With the linear kernel the scores are x_j^T (X^T X/N + lambda I)^-1 x_j;
	// they sum to N times the effective dimension, here about d = 2.
	x := mat.NewDense(4, 2, []float64{
		1, 0,
		-1, 0,
		0, 1,
		0, 10, // an outlier in the second direction
	})
	s, _ := credlab.LeverageScores(context.Background(), credlab.LinearKernel{}, x, 1e-9)
	fs, _ := credlab.FeatureLeverageScores(context.Background(), credlab.RawFeatures{}, x, 1e-9, 0)
	sum := 0.0
	for _, v := range s {
		sum += v
	}
	fmt.Printf("exact %.3f\nfeatures %.3f\nN d_eff %.3f\n", s, fs, sum)
	// Output:
	// exact [2.000 2.000 0.040 3.960]
	// features [2.000 2.000 0.040 3.960]
	// N d_eff 8.000
}

func ExampleUniformSelector() {
	pool, _, _ := credlab.SmoothRegression(49, 2, 0, 1)
	sel, _ := credlab.UniformSelector{}.Select(context.Background(), pool, 5, 1)
	fmt.Println(len(sel.Index), sel.Weight)
	// Output:
	// 5 [1 1 1 1 1]
}

// credLabelRows returns the pool rows of a selection and their labels.
func credLabelRows(pool *mat.Dense, labels []float64, sel *credlab.Selection) (*mat.Dense, []float64) {
	x, _ := credlab.GatherRows(pool, sel.Index)
	y := make([]float64, len(sel.Index))
	for i, j := range sel.Index {
		y[i] = labels[j]
	}
	return x, y
}

// CRED-GD (Algorithm 1 of the CRED paper): importance labeling with exact
// kernel scores, then importance-weighted kernel gradient descent with
// early stopping, against uniform labeling with the same budget.
func ExampleCREDSelector() {
	ctx := context.Background()
	// An unlabeled pool of 1000 points; labels are only read for the 200
	// rows a selector picks.
	pool, labels, _ := credlab.SmoothRegression(1000, 2, 0.1, 1)
	test, _, ftest := credlab.SmoothRegression(2000, 2, 0, 2)
	kernel := credlab.GaussianKernel{Sigma: 0.3}
	for _, s := range []credlab.Selector{
		credlab.CREDSelector{Kernel: kernel, LambdaQ: 1e-3},
		credlab.UniformSelector{},
	} {
		sel, err := s.Select(ctx, pool, 200, 1)
		if err != nil {
			fmt.Println(err)
			return
		}
		x, y := credLabelRows(pool, labels, sel)
		fit, err := credlab.EarlyStopping(ctx, x, y, credlab.EarlyStoppingConfig{
			Kernel:     kernel,
			Weights:    sel.Weight,
			IterConfig: credlab.IterConfig{Holdout: credlab.Holdout{Seed: 1}},
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		p, _ := fit.Model.Predict(test)
		wmin, wmax := math.Inf(1), 0.0
		for _, w := range sel.Weight {
			wmin, wmax = math.Min(wmin, w), math.Max(wmax, w)
		}
		fmt.Printf("%T: weights in [%.2f, %.2f], test RMSE %.3f\n", s, wmin, wmax, credlab.RMSE(p, ftest))
	}
	// Output:
	// credlab.CREDSelector: weights in [0.54, 1.20], test RMSE 0.056
	// credlab.UniformSelector: weights in [1.00, 1.00], test RMSE 0.066
}

// RF-CRED (Algorithm 2 of the CRED paper, with the analytic ridge solution
// of the Remark in section 4): random-feature scores streamed over the pool
// in blocks, then importance-weighted ridge regression on the same features.
func ExampleLinearRLS() {
	ctx := context.Background()
	pool, labels, _ := credlab.SmoothRegression(5000, 2, 0.1, 3)
	test, _, ftest := credlab.SmoothRegression(2000, 2, 0, 4)
	rf, _ := credlab.NewRandomFourier(2, 300, 0.3, 1)
	for _, s := range []credlab.Selector{
		credlab.CREDSelector{Features: rf, LambdaQ: 1e-4, Block: 1000},
		credlab.UniformSelector{},
	} {
		sel, err := s.Select(ctx, pool, 300, 1)
		if err != nil {
			fmt.Println(err)
			return
		}
		x, y := credLabelRows(pool, labels, sel)
		fit, err := credlab.LinearRLS(ctx, x, y, credlab.LinearRLSConfig{
			Features: rf,
			Lambdas:  credlab.LogGrid(1e-8, 1e-1, 8),
			Holdout:  credlab.Holdout{Seed: 1},
			Weights:  sel.Weight,
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		p, _ := fit.Model.Predict(test)
		deff := 0.0
		for _, v := range sel.Scores {
			deff += v / 5000
		}
		fmt.Printf("%T: effective dimension %.0f, test RMSE %.3f\n", s, deff, credlab.RMSE(p, ftest))
	}
	// Output:
	// credlab.CREDSelector: effective dimension 48, test RMSE 0.043
	// credlab.UniformSelector: effective dimension 0, test RMSE 0.054
}

func ExampleRawFeatures() {
	// Ridge regression on the raw column plus a bias: y = 2 x + 1.
	x := mat.NewDense(5, 1, []float64{-2, -1, 0, 1, 2})
	y := []float64{-3, -1, 1, 3, 5}
	fit, _ := credlab.LinearRLS(context.Background(), x, y, credlab.LinearRLSConfig{
		Features: credlab.RawFeatures{Bias: true},
		Lambda:   1e-12,
	})
	fmt.Printf("slope %.3f, intercept %.3f\n", fit.Model.Coef[0], fit.Model.Coef[1])
	// Output:
	// slope 2.000, intercept 1.000
}
