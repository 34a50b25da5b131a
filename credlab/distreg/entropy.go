package distreg

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// EntropyProblem is the supervised entropy-learning task of Szabó,
// Sriperumbudur, Póczos and Gretton (JMLR 2016), the synthetic problem of
// the distribution regression papers: a bag with angle a in [0, pi] holds
// points L z, z ~ N(0, I_2), L = R(a) A with R(a) the rotation by a, and
// its label is the entropy of the first coordinate, 1/2 ln(2 pi e M_11),
// M = L L^T.
type EntropyProblem struct {
	// A is the 2 x 2 matrix, row-major.
	A [4]float64
}

// NewEntropyProblem draws A with entries U[0, 1] from seed.
func NewEntropyProblem(seed uint64) EntropyProblem {
	rng := rand.New(rand.NewPCG(seed, 0x656e74))
	var p EntropyProblem
	for i := range p.A {
		p.A[i] = rng.Float64()
	}
	return p
}

// Rotated returns L = R(angle) A (row-major 2 x 2).
func (p EntropyProblem) Rotated(angle float64) [4]float64 {
	c, s := math.Cos(angle), math.Sin(angle)
	return [4]float64{c*p.A[0] - s*p.A[2], c*p.A[1] - s*p.A[3], s*p.A[0] + c*p.A[2], s*p.A[1] + c*p.A[3]}
}

// Cov returns the entries of M = L L^T, L = R(angle) A.
func (p EntropyProblem) Cov(angle float64) (m11, m12, m22 float64) {
	l := p.Rotated(angle)
	return l[0]*l[0] + l[1]*l[1], l[0]*l[2] + l[1]*l[3], l[2]*l[2] + l[3]*l[3]
}

// Entropy returns the label of a bag with this angle: the differential
// entropy of the first coordinate of N(0, M), 1/2 ln(2 pi e M_11).
func (p EntropyProblem) Entropy(angle float64) float64 {
	m11, _, _ := p.Cov(angle)
	return 0.5 * math.Log(2*math.Pi*math.E*m11)
}

// Bags draws n bags of N points each and returns them, labeled by Entropy,
// with their angles, in O(n N). Bag j comes from its own stream (seed, j):
// its angle a ~ U[0, pi], then its points, so that the bags of a smaller n
// or N are prefixes of those of a larger.
func (p EntropyProblem) Bags(n, N int, seed uint64) (*Bags, []float64) {
	b := &Bags{Y: make([]float64, n)}
	angles := make([]float64, n)
	for j := 0; j < n; j++ {
		rng := rand.New(rand.NewPCG(seed, uint64(j)))
		a := math.Pi * rng.Float64()
		l := p.Rotated(a)
		x := mat.NewDense(N, 2, nil)
		for i := 0; i < N; i++ {
			z0, z1 := rng.NormFloat64(), rng.NormFloat64()
			x.Set(i, 0, l[0]*z0+l[1]*z1)
			x.Set(i, 1, l[2]*z0+l[3]*z1)
		}
		b.X = append(b.X, x)
		b.Y[j], angles[j] = p.Entropy(a), a
	}
	return b, angles
}
