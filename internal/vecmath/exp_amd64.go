package vecmath

import "golang.org/x/sys/cpu"

// useExpAVX2 selects the assembly exp: AVX2 and FMA, the CPUs on which
// math.Exp itself takes its FMA path (math's useFMA), whose operations the
// kernel repeats lane by lane. Tests switch it off.
var useExpAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

func expNegDiv(dst []float64, c float64) {
	if !useExpAVX2 {
		expNegDivGo(dst, c)
		return
	}
	for len(dst) >= 4 {
		k := expNegDivAVX2(&dst[0], len(dst)&^3, c)
		dst = dst[k:]
		if len(dst) < 4 {
			break
		}
		// The kernel stopped at a block of 4 with an argument outside
		// [ExpLow, ExpHigh] or NaN: math.Exp does that block.
		expNegDivGo(dst[:4], c)
		dst = dst[4:]
	}
	expNegDivGo(dst, c)
}

// expNegDivAVX2 does expNegDivGo on dst[0:n], n a multiple of 4, in blocks
// of 4, and returns how many elements it did: n, or the start of the first
// block of 4 with an argument -dst[j]/c outside [ExpLow, ExpHigh] (or
// NaN), which it leaves untouched.
//
//go:noescape
func expNegDivAVX2(dst *float64, n int, c float64) int
