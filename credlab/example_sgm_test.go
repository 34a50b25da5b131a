package credlab_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

// sgmExampleSample draws Lin and Rosasco's section 4 problem:
// x ~ U[0,1], y = |x - 1/2| - 1/2 + N(0, 1).
func sgmExampleSample(m int, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := mat.NewDense(m, 1, nil)
	y := make([]float64, m)
	for i := range y {
		x.Set(i, 0, rng.Float64())
		y[i] = math.Abs(x.At(i, 0)-0.5) - 0.5 + rng.NormFloat64()
	}
	return x, y
}

func ExampleSGM() {
	x, y := sgmExampleSample(500, 1)
	fit, err := credlab.SGM(context.Background(), x, y, credlab.SGMConfig{
		Kernel:    credlab.GaussianKernel{Sigma: 0.2},
		Passes:    50,
		Threshold: -1, // run all passes, then pick the best on the hold-out rows
		Holdout:   credlab.Holdout{Seed: 1},
		Seed:      1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("b = %d, eta = %.4f, %d passes recorded\n", fit.Batch, fit.StepSize, len(fit.Path))
	fmt.Printf("chosen: %.0f passes, validation RMSE %.2f\n", fit.Passes, fit.ValRMSE)
	// Output:
	// b = 20, eta = 0.0063, 50 passes recorded
	// chosen: 46 passes, validation RMSE 1.10
}

func ExampleSGMPopulation_Decompose() {
	k := credlab.GaussianKernel{Sigma: 0.2}
	xp := mat.NewDense(300, 1, nil) // the population: a grid on [0, 1]
	fp := make([]float64, 300)
	for i := range fp {
		xp.Set(i, 0, (float64(i)+0.5)/300)
		fp[i] = math.Abs(xp.At(i, 0)-0.5) - 0.5
	}
	pop, err := credlab.NewSGMPopulation(k, xp, fp)
	if err != nil {
		fmt.Println(err)
		return
	}
	x, y := sgmExampleSample(100, 4)
	dec, err := pop.Decompose(context.Background(), x, y, credlab.SGMDecompositionConfig{
		SGM:   credlab.SGMConfig{Preset: credlab.SGMSimple, Seed: 3},
		Iters: []int{100, 3000, 100000}, // 1, 30 and 1000 passes of b = 1
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, p := range dec.Passes {
		fmt.Printf("%.0f passes: total %.3f, bias %.3f, sample var %.3f, comp var %.4f\n",
			p, dec.Total[i], dec.Bias[i], dec.SampleVar[i], dec.CompVar[i])
	}
	// Output:
	// 1 passes: total 0.075, bias 0.075, sample var 0.000, comp var 0.0001
	// 30 passes: total 0.016, bias 0.005, sample var 0.013, comp var 0.0007
	// 1000 passes: total 0.051, bias 0.000, sample var 0.050, comp var 0.0006
}

// sgmExampleBags returns n bags of N points of a 2-D Gaussian rotated
// by a random angle, labelled with the entropy of the first coordinate.
func sgmExampleBags(n, N int, seed uint64) *credlab.Bags {
	rng := rand.New(rand.NewPCG(seed, 2))
	bags := &credlab.Bags{}
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
	train := sgmExampleBags(60, 30, 1)
	test := sgmExampleBags(40, 30, 11)
	fit, err := credlab.TailSGD(context.Background(), train, credlab.TailSGDConfig{
		Kernel:  credlab.BagKernel{Inner: credlab.GaussianKernel{Sigma: 0.5}},
		MaxIter: 5000,
		Holdout: credlab.Holdout{Seed: 1},
		Seed:    1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := fit.Model.Predict(test)
	fmt.Printf("b = %d, test RMSE %.2f (labels sd %.2f)\n", fit.Batch, credlab.RMSE(p, test.Y), sgmExampleSD(test.Y))
	// Output:
	// b = 7, test RMSE 0.09 (labels sd 0.38)
}

func ExampleTwoStageKRR() {
	train := sgmExampleBags(60, 30, 1)
	test := sgmExampleBags(40, 30, 11)
	fit, err := credlab.TwoStageKRR(context.Background(), train, credlab.TwoStageKRRConfig{
		Kernel:  credlab.BagKernel{Inner: credlab.GaussianKernel{Sigma: 0.5}},
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
	bags := &credlab.Bags{X: []*mat.Dense{a, b}}
	g, _ := credlab.EmbeddingGram(context.Background(), credlab.GaussianKernel{Sigma: 1}, bags, nil)
	// <mu_a, mu_b> = (G(0,0) + G(1,0)) / 2 = (1 + e^-0.5) / 2
	fmt.Printf("%.4f\n", mat.Formatted(g))
	// Output:
	// ⎡0.8033  0.8033⎤
	// ⎣0.8033  1.0000⎦
}

func sgmExampleSD(v []float64) float64 {
	m, s := 0.0, 0.0
	for _, x := range v {
		m += x / float64(len(v))
	}
	for _, x := range v {
		s += (x - m) * (x - m) / float64(len(v))
	}
	return math.Sqrt(s)
}
