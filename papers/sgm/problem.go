package sgm

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// fRho is the regression function of Lin and Rosasco's Figure 1,
// |x - 1/2| - 1/2.
func fRho(x float64) float64 { return math.Abs(x-0.5) - 0.5 }

// populationPoints draws n points x ~ U[0, 1] from the stream (seed, stream) and
// returns them with their noiseless targets fRho(x): the stand-in
// for the population.
func populationPoints(n int, seed, stream uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, stream))
	x := mat.NewDense(n, 1, nil)
	f := make([]float64, n)
	for i := range f {
		x.Set(i, 0, rng.Float64())
		f[i] = fRho(x.At(i, 0))
	}
	return x, f
}

// sample draws m training points x ~ U[0, 1] with labels
// y = fRho(x) + noise N(0, 1) from seed.
func sample(m int, noise float64, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 0x6669673161))
	x := mat.NewDense(m, 1, nil)
	y := make([]float64, m)
	for i := range y {
		x.Set(i, 0, rng.Float64())
		y[i] = fRho(x.At(i, 0)) + noise*rng.NormFloat64()
	}
	return x, y
}
