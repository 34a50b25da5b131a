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
