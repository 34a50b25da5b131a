package credlab

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// SmoothRegression returns n seeded samples of a smooth nonlinear
// regression problem in d >= 1 dimensions: x uniform on [-1, 1]^d and
// y = f(x) + noise N(0, noise^2), where
//
//	f(x) = sin(pi x_1) + 0.5 cos(2 pi x_2) + 0.25 sum_{j>2} x_j^2
//
// (the x_2 term is dropped when d = 1). It also returns f at the samples.
func SmoothRegression(n, d int, noise float64, seed uint64) (x *mat.Dense, y, f []float64) {
	rng := rand.New(rand.NewPCG(seed, 0x736d6f6f7468))
	x = mat.NewDense(n, d, nil)
	y, f = make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		row := x.RawRowView(i)
		for j := range row {
			row[j] = 2*rng.Float64() - 1
		}
		v := math.Sin(math.Pi * row[0])
		if d > 1 {
			v += 0.5 * math.Cos(2*math.Pi*row[1])
		}
		for _, z := range row[min(d, 2):] {
			v += 0.25 * z * z
		}
		f[i] = v
		y[i] = v + noise*rng.NormFloat64()
	}
	return x, y, f
}
