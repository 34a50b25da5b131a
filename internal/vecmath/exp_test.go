package vecmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// expInputs returns squared distances over many scales, with the edges
// of the assembly's range, signed zeros, subnormals, NaN and infinities.
func expInputs() []float64 {
	rng := rand.New(rand.NewPCG(3, 4))
	var v []float64
	for range 20000 {
		v = append(v, math.Exp(rng.Float64()*60-30))
	}
	for _, c := range []float64{1, 2, 0.5} {
		for _, x := range []float64{ExpLow, ExpHigh, -709, 710, -745, -746, -1e-300, -0.5 * math.Ln2, 0.5 * math.Ln2} {
			v = append(v, -x*c, math.Nextafter(-x*c, 0), math.Nextafter(-x*c, math.Inf(1)))
		}
	}
	return append(v, 0, math.Copysign(0, -1), 5e-324, math.MaxFloat64, math.NaN(), math.Inf(1), math.Inf(-1), -1, -1e3)
}

// TestExpNegDiv checks ExpNegDiv against math.Exp(-v/c) bit for bit, with
// the assembly and with the portable loop, for lengths that leave a tail
// and blocks that go to math.Exp.
func TestExpNegDiv(t *testing.T) {
	in := expInputs()
	for _, asm := range []bool{true, false} {
		saved := useExpAVX2
		useExpAVX2 = useExpAVX2 && asm
		for _, c := range []float64{1, 2 * 0.7 * 0.7, 1e-3, 1e5, 0, -1} {
			for _, n := range []int{0, 1, 3, 4, 5, 8, 13, len(in)} {
				dst := append([]float64(nil), in[:n]...)
				ExpNegDiv(dst, c)
				for j, got := range dst {
					want := math.Exp(-in[j] / c)
					if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
						t.Fatalf("asm %v, c = %g: exp(-%v/c) = %v, math.Exp gives %v", useExpAVX2, c, in[j], got, want)
					}
				}
			}
		}
		useExpAVX2 = saved
	}
	if !useExpAVX2 {
		t.Log("no AVX2 and FMA: only the portable loop was tested")
	}
}
