package distreg_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/credlab/distreg"

	"gonum.org/v1/gonum/mat"
)

// exampleBags returns n bags of N points of a 2-D Gaussian rotated
// by a random angle, labelled with the entropy of the first coordinate.
func exampleBags(n, N int, seed uint64) *distreg.Bags {
	rng := rand.New(rand.NewPCG(seed, 2))
	bags := &distreg.Bags{}
	for j := 0; j < n; j++ {
		a := math.Pi * rng.Float64()
		c, s := math.Cos(a), math.Sin(a)
		x := mat.NewDense(N, 2, nil)
		for i := 0; i < N; i++ {
			z0, z1 := rng.NormFloat64(), 0.3*rng.NormFloat64() // A = diag(1, 0.3)
			x.Set(i, 0, c*z0-s*z1)
			x.Set(i, 1, s*z0+c*z1)
		}
		v := c*c + 0.09*s*s // variance of the first coordinate
		bags.X = append(bags.X, x)
		bags.Y = append(bags.Y, 0.5*math.Log(2*math.Pi*math.E*v))
	}
	return bags
}

func ExampleTailSGD() {
	train := exampleBags(60, 30, 1)
	test := exampleBags(40, 30, 11)
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
	// b = 7, test RMSE 0.09 (labels sd 0.38)
}

func ExampleTwoStageKRR() {
	train := exampleBags(60, 30, 1)
	test := exampleBags(40, 30, 11)
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
	// test RMSE 0.09
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
