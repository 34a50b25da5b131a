package distreg_test

import (
	"context"
	"fmt"
	"math"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/credlab/distreg"

	"gonum.org/v1/gonum/mat"
)

// exampleProblem is the entropy task with A = diag(1, 0.3): bags of a
// 2-D Gaussian rotated by a random angle.
var exampleProblem = distreg.EntropyProblem{A: [4]float64{1, 0, 0, 0.3}}

func ExampleTailSGD() {
	train, _ := exampleProblem.Bags(60, 30, 1)
	test, _ := exampleProblem.Bags(40, 30, 11)
	fit, err := distreg.TailSGD(context.Background(), train, distreg.TailSGDConfig{
		Kernel:  distreg.Kernel{Inner: credlab.GaussianKernel{Sigma: 0.5}},
		MaxIter: 5000,
		Holdout: credlab.Holdout{Seed: 1},
		Seed:    1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := fit.Model.Predict(test)
	fmt.Printf("b = %d, test RMSE %.2f (labels sd %.2f)\n", fit.Batch, credlab.RMSE(p, test.Y), exampleSD(test.Y))
	// Output:
	// b = 7, test RMSE 0.16 (labels sd 0.39)
}

func ExampleTwoStageKRR() {
	train, _ := exampleProblem.Bags(60, 30, 1)
	test, _ := exampleProblem.Bags(40, 30, 11)
	fit, err := distreg.TwoStageKRR(context.Background(), train, distreg.TwoStageKRRConfig{
		Kernel:  distreg.Kernel{Inner: credlab.GaussianKernel{Sigma: 0.5}},
		Lambdas: credlab.LogGrid(1e-8, 1, 17),
		Holdout: credlab.Holdout{Seed: 1},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := fit.Model.Predict(test)
	fmt.Printf("test RMSE %.2f\n", credlab.RMSE(p, test.Y))
	// Output:
	// test RMSE 0.13
}

func ExampleEmbeddingGram() {
	a := mat.NewDense(2, 1, []float64{0, 1}) // bag {0, 1}
	b := mat.NewDense(1, 1, []float64{0})    // bag {0}
	bags := &distreg.Bags{X: []*mat.Dense{a, b}}
	g, _ := distreg.EmbeddingGram(context.Background(), credlab.GaussianKernel{Sigma: 1}, bags, nil)
	// <mu_a, mu_b> = (G(0,0) + G(1,0)) / 2 = (1 + e^-0.5) / 2
	fmt.Printf("%.4f\n", mat.Formatted(g))
	// Output:
	// ⎡0.8033  0.8033⎤
	// ⎣0.8033  1.0000⎦
}

func exampleSD(v []float64) float64 {
	m, s := 0.0, 0.0
	for _, x := range v {
		m += x / float64(len(v))
	}
	for _, x := range v {
		s += (x - m) * (x - m) / float64(len(v))
	}
	return math.Sqrt(s)
}
