package credlab_test

import (
	"context"
	"fmt"

	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

func ExampleKernelMatrix() {
	x := mat.NewDense(3, 1, []float64{0, 1, 2})
	k, _ := credlab.KernelMatrix(credlab.GaussianKernel{Sigma: 1}, x, nil)
	fmt.Printf("%.4f\n", mat.Formatted(k))
	// Output:
	// ⎡1.0000  0.6065  0.1353⎤
	// ⎢0.6065  1.0000  0.6065⎥
	// ⎣0.1353  0.6065  1.0000⎦
}

func ExampleKRLS() {
	// y = x^2 on 21 points; fixed lambda, no validation.
	x := mat.NewDense(21, 1, nil)
	y := make([]float64, 21)
	for i := range y {
		v := float64(i-10) / 10
		x.Set(i, 0, v)
		y[i] = v * v
	}
	fit, err := credlab.KRLS(context.Background(), x, y, credlab.KRLSConfig{
		Kernel: credlab.GaussianKernel{Sigma: 0.5},
		Lambda: 1e-6,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := fit.Model.Predict(mat.NewDense(3, 1, []float64{-0.77, 0.33, 0.61}))
	fmt.Printf("f(-0.77) = %.3f, f(0.33) = %.3f, f(0.61) = %.3f\n", p[0], p[1], p[2])
	// Output:
	// f(-0.77) = 0.592, f(0.33) = 0.109, f(0.61) = 0.372
}

func ExampleNYTRO() {
	x, y, _ := credlab.SmoothRegression(2000, 2, 0.1, 1)
	fit, err := credlab.NYTRO(context.Background(), x, y, credlab.NYTROConfig{
		Kernel:     credlab.GaussianKernel{Sigma: 0.3},
		Nystrom:    credlab.NystromConfig{M: 100, Seed: 1},
		IterConfig: credlab.IterConfig{Holdout: credlab.Holdout{Seed: 1}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d centers, %d steps examined, best at step %d (at the cap: %v), validation RMSE %.2f\n",
		fit.Rank, len(fit.Path), fit.Iter, fit.AtCap, fit.ValRMSE)
	// Output:
	// 100 centers, 500 steps examined, best at step 59 (at the cap: false), validation RMSE 0.10
}

func ExampleLogGrid() {
	fmt.Println(credlab.LogGrid(1e-3, 1, 4))
	// Output:
	// [0.001 0.01 0.1 1]
}
