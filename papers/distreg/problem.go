package distreg

import "math/rand/v2"

// addLabelNoise adds sd times standard normal draws from seed to y.
func addLabelNoise(y []float64, sd float64, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x6e6f6973))
	for j := range y {
		y[j] += sd * rng.NormFloat64()
	}
}
