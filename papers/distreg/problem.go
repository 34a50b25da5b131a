package distreg

import (
	"math"
	"math/rand/v2"

	"github.com/credlab/credlab/credlab/distreg"
	"gonum.org/v1/gonum/mat"
)

// entropyProblem is one draw of the supervised entropy-learning task of
// Szabó, Sriperumbudur, Póczos and Gretton (JMLR 2016): the 2 x 2 matrix A.
type entropyProblem struct{ a [4]float64 }

// newEntropyProblem draws A with entries U[0, 1] from seed.
func newEntropyProblem(seed uint64) entropyProblem {
	rng := rand.New(rand.NewPCG(seed, 0x656e74))
	var p entropyProblem
	for i := range p.a {
		p.a[i] = rng.Float64()
	}
	return p
}

// Rotated returns L = R(angle) A (row-major 2 x 2).
func (p entropyProblem) Rotated(angle float64) [4]float64 {
	c, s := math.Cos(angle), math.Sin(angle)
	return [4]float64{c*p.a[0] - s*p.a[2], c*p.a[1] - s*p.a[3], s*p.a[0] + c*p.a[2], s*p.a[1] + c*p.a[3]}
}

// Cov returns the entries of M = L L^T, L = R(angle) A.
func (p entropyProblem) Cov(angle float64) (m11, m12, m22 float64) {
	l := p.Rotated(angle)
	return l[0]*l[0] + l[1]*l[1], l[0]*l[2] + l[1]*l[3], l[2]*l[2] + l[3]*l[3]
}

// Entropy returns the label of a bag with this angle: the differential
// entropy of the first coordinate of N(0, M), 1/2 ln(2 pi e M_11).
func (p entropyProblem) Entropy(angle float64) float64 {
	m11, _, _ := p.Cov(angle)
	return 0.5 * math.Log(2*math.Pi*math.E*m11)
}

// Bags draws n bags of N points each and returns them, labeled by Entropy,
// with their angles. Bag j comes from its own stream (seed, j): its angle
// a ~ U[0, pi], then its points L z with z ~ N(0, I), so that the bags of
// a smaller n or N are prefixes of those of a larger.
func (p entropyProblem) Bags(n, N int, seed uint64) (*distreg.Bags, []float64) {
	b := &distreg.Bags{Y: make([]float64, n)}
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

// addLabelNoise adds sd times standard normal draws from seed to y.
func addLabelNoise(y []float64, sd float64, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x6e6f6973))
	for j := range y {
		y[j] += sd * rng.NormFloat64()
	}
}
